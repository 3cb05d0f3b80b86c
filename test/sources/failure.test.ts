import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {exitCodeFor, redact, redactFailure, SourceFailure, sourceFailure} from '../../source/sources/failure.js';
import type {FailureKind} from '../../source/domain/types.js';

describe('exitCodeFor', () => {
	test('config is 2, every other kind 3', () => {
		const kinds: FailureKind[] = [
			'config',
			'network',
			'timeout',
			'tls',
			'unauthorized',
			'forbidden',
			'not-found',
			'kubelet-unreachable',
			'http',
			'parse',
		];
		assert.deepEqual(kinds.map(exitCodeFor), [2, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
	});
});

describe('redact', () => {
	test('known secrets are replaced wherever they appear', () => {
		assert.equal(
			redact('token s3cr3t-abc was rejected; s3cr3t-abc again', ['s3cr3t-abc']),
			'token [redacted] was rejected; [redacted] again',
		);
	});

	test('secrets shorter than 4 characters are ignored rather than mangling the text', () => {
		assert.equal(redact('a cat sat', ['a', '']), 'a cat sat');
	});

	test('credential shapes are removed even when the value is unknown', () => {
		assert.equal(redact('Authorization: Bearer abc.def-123', []), 'Authorization: Bearer [redacted]');
		assert.equal(redact('authorization: basic dXNlcjpwYXNz here', []), 'authorization: basic [redacted] here');
		assert.equal(redact('got Bearer abcdefghij0123456789', []), 'got Bearer [redacted]');
		assert.equal(redact('jwt eyJhbGciOi.eyJzdWIiOi.sig_nature end', []), 'jwt [redacted] end');
		assert.equal(
			redact('key:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nafter', []),
			'key:\n[redacted]\nafter',
		);
	});

	test('prose about credentials is left alone', () => {
		assert.equal(
			redact('basic authentication failed; the Bearer token expired', []),
			'basic authentication failed; the Bearer token expired',
		);
	});

	test('redactFailure covers summary and every detail', () => {
		const failure = redactFailure({kind: 'http', summary: 'x tok-1234', details: ['a tok-1234', 'b']}, ['tok-1234']);
		assert.deepEqual(failure, {kind: 'http', summary: 'x [redacted]', details: ['a [redacted]', 'b']});
	});
});

describe('SourceFailure', () => {
	test('carries the failure; its message is summary then details', () => {
		const error = sourceFailure('timeout', 'no answer', ['request: GET /x']);
		assert.ok(error instanceof SourceFailure);
		assert.equal(error.name, 'SourceFailure');
		assert.deepEqual(error.failure, {kind: 'timeout', summary: 'no answer', details: ['request: GET /x']});
		assert.equal(error.message, 'no answer\nrequest: GET /x');
	});
});
