// ink's reading of the terminal, as patched (patches/ink+6.8.0+008+one-key-per-character.patch): keys that arrive in
// one read are one keypress each, escape sequences whole among them.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {inkModule} from '../helpers/ink-build.js';

const {createInputParser} = await inkModule<{createInputParser: () => {push(chunk: string): string[]}}>('input-parser.js');

describe("ink's keypresses, patched", () => {
	test('two keys in one read are two keypresses', () => {
		assert.deepEqual(createInputParser().push('cl'), ['c', 'l']);
	});

	test('an arrow between keys stays one keypress; Ctrl-C after a key is its own', () => {
		assert.deepEqual(createInputParser().push('l\u001B[Bs\u0003'), ['l', '\u001B[B', 's', '\u0003']);
	});

	test('a character beyond the BMP is one keypress, not two halves', () => {
		assert.deepEqual(createInputParser().push('a😀b'), ['a', '😀', 'b']);
	});
});
