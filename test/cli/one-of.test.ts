// A command-line word checked against a fixed list: the check that lets the word be used as the list's type.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {isOneOf} from '../../source/cli/one-of.js';

test('isOneOf: true for a word of the list only, case and all', () => {
	const shells = ['bash', 'zsh', 'fish'] as const;
	assert.equal(isOneOf(shells, 'zsh'), true);
	assert.equal(isOneOf(shells, 'Zsh'), false);
	assert.equal(isOneOf(shells, ''), false);
	assert.equal(isOneOf([], 'bash'), false);
});
