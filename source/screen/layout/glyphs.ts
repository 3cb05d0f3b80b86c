// The glyph table: what each non-ASCII glyph pleg-top draws becomes on a terminal whose locale is not UTF-8
// (LANG=C, LC_ALL=POSIX), as htop draws ASCII there. The panes keep writing their Unicode glyphs; the text is turned
// to ASCII once, where it leaves for the terminal (run/ascii-stream.ts, main.ts), so a new glyph needs one entry
// here and no pane has a case of its own. Each stand-in is one column, as the glyph is: the rows the panes fitted to
// the width stay fitted.
import textWidth from '../../domain/text/text-width.js';

/** Glyph -> its one-column ASCII stand-in. Meaning first: ✓ and ✗ stay distinct, ≥ keeps its direction. */
export const asciiGlyphs: Readonly<Record<string, string>> = {
	'✓': '+',
	'✗': 'X',
	'·': '|',
	'…': '~',
	'—': '-',
	'–': '-',
	'−': '-',
	'≥': '>',
	'≤': '<',
	'≈': '~',
	'±': '~',
	'∓': '~',
	'×': 'x',
	'→': '>',
	'›': '>',
	'↑': '^',
	'↓': 'v',
	'△': '^',
	Δ: 'd',
	µ: 'u',
	'§': 'S',
	'╵': "'",
	'▌': '|',
	'░': '.',
	// The sparkline's eight heights, low to high; the full block is also the gauge's filled cell.
	'▁': '_',
	'▂': '.',
	'▃': '-',
	'▄': '=',
	'▅': '+',
	'▆': '*',
	'▇': '%',
	'█': '#',
};

const nonAscii = /[\u0080-\u{10FFFF}]/gu;

/**
 * The text in ASCII: each glyph of the table by its stand-in, any other character (a kubelet's message, a node's
 * label) by as many `?` as it takes columns, as a C program shows what its locale cannot.
 */
export function asciiText(text: string): string {
	return text.replace(nonAscii, (character) => asciiGlyphs[character] ?? '?'.repeat(textWidth(character)));
}
