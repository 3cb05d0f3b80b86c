// string-width as patched (patches/string-width+8.3.0.patch) measures with fast-string-width; its exact algorithm
// stays as exactStringWidth. The two must agree on every glyph pleg-top draws, or rows would be cut or padded
// wrongly; the panes' own textWidth must agree too.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import stringWidth, {exactStringWidth as realStringWidth} from 'string-width';
import textWidth from '../../source/domain/text/text-width.js';

const sourceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'source');

function range(from: number, to: number): string[] {
	return Array.from({length: to - from + 1}, (_, index) => String.fromCodePoint(from + index));
}

/** Every non-ASCII character written anywhere in source/: what the screen can draw. */
function glyphsInSource(): string[] {
	const found = new Set<string>();
	for (const entry of readdirSync(sourceDir, {recursive: true, withFileTypes: true})) {
		if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
		for (const char of readFileSync(path.join(entry.parentPath, entry.name), 'utf8')) if (char.codePointAt(0)! > 0x7e) found.add(char);
	}

	return [...found];
}

const groups: Record<string, string[]> = {
	'ASCII and Latin-1': [...range(0x20, 0x7e), ...range(0xa0, 0xff)],
	'box drawing and blocks': range(0x2500, 0x259f),
	'marks pleg-top uses': ['✓', '✗', '·', '█', '░', '▁', '▇', '…', '×', '≥', '→', '↑', '↓', '╵', 'µ', '⚠', '?'],
	CJK: ['日本語', '中文字符', '한국어', 'ｗｉｄｅ'],
	emoji: ['😀', '👍🏽', '🇩🇪', '👩‍👩‍👧', '✅', '❌'],
	'combining and control': ['e\u0301', 'a\u0308b', '\t', 'x\u0007y'],
	'glyphs in source/': glyphsInSource(),
};

for (const [name, samples] of Object.entries(groups)) {
	test(`fast widths equal string-width's: ${name}`, () => {
		const differ = samples
			.filter((text) => stringWidth(text) !== realStringWidth(text))
			.map((text) => `${JSON.stringify(text)}: ${stringWidth(text)} vs ${realStringWidth(text)}`);
		assert.deepEqual(differ, []);
		assert.deepEqual(
			samples.filter((text) => textWidth(text) !== realStringWidth(text)),
			[],
		);
		assert.ok(samples.length > 0);
	});
}

test('rows with ANSI colour measure by their visible text', () => {
	const row = '\u001B[32m✓ PLEG is healthy\u001B[39m · last seen \u001B[1m2 s\u001B[22m ago ██████░░';
	assert.equal(stringWidth(row), realStringWidth(row));
	assert.equal(stringWidth(row), 46);
});
