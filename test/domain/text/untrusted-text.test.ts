import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {clusterText, safeJson, visibleLine} from '../../../source/domain/text/untrusted-text.js';
import {allPayloads, allPayloadsVisible, firstControl} from '../../helpers/escape-payloads.js';

describe('visibleLine', () => {
	test('every payload in its visible form, nothing of it left raw', () => {
		const shown = visibleLine(allPayloads);
		assert.equal(shown, allPayloadsVisible);
		assert.equal(firstControl(shown), null);
	});

	test('caret notation for C0 and DEL, as cat -v writes them', () => {
		assert.equal(visibleLine('\u0000\u0001\u0007\u0008\u000B\u000C\u001B\u001F\u007F'), '^@^A^G^H^K^L^[^_^?');
	});

	test('C1 and bidi characters as a \\u escape; the line and paragraph separators too', () => {
		assert.equal(
			visibleLine('\u0080\u0085\u009B\u009F\u202A\u2066\u2069\u2028\u2029'),
			String.raw`\u0080\u0085\u009b\u009f\u202a\u2066\u2069\u2028\u2029`,
		);
	});

	test('\\n and \\t become spaces; CRLF is one line end, a lone CR is shown', () => {
		assert.equal(visibleLine('a\r\nb\tc\rd\n'), 'a b c^Md ');
	});

	test('text without controls, non-ASCII included, is left as it is', () => {
		const text = 'Node worker-1 status is now: NodeNotReady · 3m ✓ 日本語 é';
		assert.equal(visibleLine(text), text);
	});
});

describe('clusterText', () => {
	test('a string field as one visible line; null for an empty string and for anything not a string', () => {
		assert.equal(clusterText('v1.28.4\u001B]0;x\u0007'), 'v1.28.4^[]0;x^G');
		assert.deepEqual(
			[clusterText(''), clusterText(1), clusterText(null), clusterText(undefined), clusterText({})],
			[null, null, null, null, null],
		);
	});
});

describe('safeJson', () => {
	test('escapes DEL, C1 and bidi characters that JSON.stringify leaves raw; parses back to the same value', () => {
		const value = {message: allPayloads, n: 1};
		const raw = JSON.stringify(value);
		assert.match(raw, /\u009B/);
		const json = safeJson(value);
		assert.equal(firstControl(json), null);
		assert.ok(json.includes(String.raw`\u001b]0;pwn\u0007`), json);
		assert.ok(json.includes(String.raw`\u009b31m`), json);
		assert.ok(json.includes(String.raw`del\u007f`), json);
		assert.deepEqual(JSON.parse(json), value);
	});

	test('indents as JSON.stringify does', () => {
		assert.equal(safeJson({a: ['\u0085']}, 2), '{\n  "a": [\n    "\\u0085"\n  ]\n}');
	});
});
