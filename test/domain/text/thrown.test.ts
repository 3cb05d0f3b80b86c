// What a caught value says: a catch clause may receive anything, and the text shown must not be "undefined".
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {codeOf, messageOf} from '../../../source/domain/text/thrown.js';

describe('thrown values', () => {
	test("messageOf: an Error's message; anything else thrown, as text", () => {
		assert.equal(messageOf(new TypeError('bad flag')), 'bad flag');
		assert.equal(messageOf('a string thrown'), 'a string thrown');
		assert.equal(messageOf(42), '42');
		assert.equal(messageOf(undefined), 'undefined');
	});

	test('codeOf: the code of a system or Node.js error; none for anything else', () => {
		assert.equal(codeOf(Object.assign(new Error('no such file'), {code: 'ENOENT'})), 'ENOENT');
		assert.equal(codeOf({code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION'}), 'ERR_PARSE_ARGS_UNKNOWN_OPTION');
		assert.equal(codeOf(new Error('plain')), undefined);
		assert.equal(codeOf({code: 404}), undefined);
		assert.equal(codeOf(null), undefined);
		assert.equal(codeOf('ENOENT'), undefined);
	});
});
