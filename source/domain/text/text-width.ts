// The width of a text in terminal columns, as string-width counts it (tabs and other controls 0 columns), at
// about a twentieth of its cost: string-width segments every string into graphemes and runs an emoji regex over
// it. fast-string-width gives the same widths for every glyph pleg-top draws (test/patches/string-width.test.ts).
// The panes fit their rows with it, and string-width as patched (patches/string-width+8.3.0.patch) measures ink's
// texts the same way, so both measure alike.
import fastStringWidth from 'fast-string-width';
import realStringWidth, {type Options} from 'string-width';

const asStringWidth = {controlWidth: 0, tabWidth: 0} as const;

export default function textWidth(text: string, options?: Options): number {
	// No caller in the bundle passes options today; if one does, it gets the original. The soft hyphen is the one
	// character the two count differently (string-width: 0 columns).
	if (options !== undefined || text.includes('\u00AD')) return realStringWidth(text, options);
	return fastStringWidth(text, asStringWidth);
}
