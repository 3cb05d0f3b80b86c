// The glyph table: each stand-in is one printable ASCII character for a one-column glyph, so a row fitted to the
// width stays fitted; any other character becomes as many ? as it takes columns.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import textWidth from '../../../source/domain/text/text-width.js';
import {asciiGlyphs, asciiText} from '../../../source/screen/layout/glyphs.js';
import {barEmpty, barFilled, healthSymbol, sparkBlocks, tickMark} from '../../../source/screen/layout/theme.js';

test('every stand-in: one printable ASCII character, for a glyph one column wide', () => {
	for (const [glyph, standIn] of Object.entries(asciiGlyphs)) {
		assert.match(standIn, /^[\u0020-\u007E]$/, glyph);
		assert.equal(textWidth(glyph), 1, glyph);
	}
});

test("the theme's glyphs are all in the table", () => {
	for (const glyph of [barFilled, barEmpty, tickMark, ...sparkBlocks, ...Object.values(healthSymbol)]) {
		// ASCII already (! !! ?), or a glyph of the table.
		assert.ok(/^[\u0020-\u007E]+$/.test(glyph) || glyph in asciiGlyphs, glyph);
	}
});

test('a row keeps its width; what the table lacks is ? per column', () => {
	const row = '✓ last seen 1s ago · ok ≤ 5s';
	assert.equal(asciiText(row), '+ last seen 1s ago | ok < 5s');
	assert.equal(textWidth(asciiText(row)), textWidth(row));
	// A wide character (two columns) and one of one column that no glyph stands for.
	assert.equal(asciiText('ノード é'), '?????? ?');
	// Escapes pass as they are.
	assert.equal(asciiText('\u001B[1m█\u001B[22m'), '\u001B[1m#\u001B[22m');
});
