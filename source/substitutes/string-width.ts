// Stands in for string-width where ink and its helpers measure text (scripts/build.mjs). string-width segments
// every string into graphemes and runs an emoji regex over it: about 87 µs for one dashboard row with · █ ✓,
// the largest share of a frame's CPU after ANSI tokenising. fast-string-width gives the same widths for every
// glyph pleg-top draws (test/package/string-width.test.ts) at about a twentieth of the cost.
import fastStringWidth from 'fast-string-width';
import realStringWidth, {type Options} from 'string-width';

// string-width counts tabs and other control characters as 0 columns.
const asStringWidth = {controlWidth: 0, tabWidth: 0} as const;

export default function stringWidth(text: string, options?: Options): number {
	// No caller in the bundle passes options today; if one does, it gets the original. The soft hyphen is the one
	// character the two count differently (string-width: 0 columns).
	if (options !== undefined || text.includes('\u00AD')) return realStringWidth(text, options);
	return fastStringWidth(text, asStringWidth);
}
