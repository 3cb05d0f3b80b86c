// Stands in for ink's sanitize-ansi.js where ink squashes a <Text>'s children (scripts/build.mjs). ink runs every
// text that holds an escape sequence through its ANSI tokenizer, on every frame and every measure, to drop the
// sequences that would move the cursor. pleg-top's rows are colour codes and glyphs only, and ink would return
// them unchanged after tokenising them (0.16 ms a frame, npm run bench:profile). A text whose only escape sequences
// are SGR ones (ESC [ digits/:/; m, the ones ink keeps) and that holds no C1 control is returned as it is;
// anything else goes to ink's own sanitizer.
import inkSanitizeAnsi from '../../node_modules/ink/build/sanitize-ansi.js';

/** C1 controls (U+0080–U+009F): ink treats each as the start of a control sequence. */
const c1Control = /[\u0080-\u009F]/;
/** An SGR sequence exactly at lastIndex, with the parameters ink keeps. */
const sgrHere = /\u001B\[[\d:;]*m/y;

export default function sanitizeAnsi(text: string): string {
	if (c1Control.test(text)) return inkSanitizeAnsi(text);
	let escape = text.indexOf('\u001B');
	while (escape !== -1) {
		sgrHere.lastIndex = escape;
		if (!sgrHere.test(text)) return inkSanitizeAnsi(text);
		escape = text.indexOf('\u001B', sgrHere.lastIndex);
	}

	return text;
}
