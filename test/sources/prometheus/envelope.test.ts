// The query API's JSON envelope is checked where it enters: an answer of another shape is a SourceFailure that
// names the field, never an undefined further in; Prometheus' own refusal says what it said.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {SourceFailure} from '../../../source/sources/failure.js';
import {readMatrix, readVector} from '../../../source/sources/prometheus/envelope.js';

/** The summary of the SourceFailure `read` throws. */
function summaryOf(read: () => unknown): string {
	try {
		read();
	} catch (error) {
		assert.ok(error instanceof SourceFailure, String(error));
		return error.failure.summary;
	}

	return assert.fail('no failure');
}

describe('Prometheus envelope', () => {
	test('a sample without its value names data.result.1.value', () => {
		// Spaced out, so the compact reader leaves it to the checked path.
		const body = JSON.stringify(
			{status: 'success', data: {resultType: 'vector', result: [{metric: {node: 'a'}, value: [1, '2']}, {metric: {node: 'b'}}]}},
			null,
			1,
		);
		assert.match(
			summaryOf(() => readVector(body, 'http://p')),
			/^the answer of http:\/\/p is not an instant vector: data\.result\.1\.value: /,
		);
	});

	test('a label that is not a string, a missing data, another resultType: each named', () => {
		const labelled = JSON.stringify({status: 'success', data: {resultType: 'vector', result: [{metric: {node: 5}, value: [1, '2']}]}});
		assert.match(
			summaryOf(() => readVector(labelled, 'http://p')),
			/: data\.result\.0\.metric\.node: /,
		);
		assert.match(
			summaryOf(() => readVector('{"status":"success"}', 'http://p')),
			/is not an instant vector: data: /,
		);
		const matrix = JSON.stringify({status: 'success', data: {resultType: 'matrix', result: []}});
		assert.match(
			summaryOf(() => readVector(matrix, 'http://p')),
			/: data\.resultType: /,
		);
		const vector = JSON.stringify({status: 'success', data: {resultType: 'vector', result: []}});
		assert.match(
			summaryOf(() => readMatrix(vector, 'http://p')),
			/is not a range matrix: data\.resultType: /,
		);
	});

	test('an error envelope says what Prometheus said; a body that is not JSON says so', () => {
		const refusal = JSON.stringify({status: 'error', errorType: 'bad_data', error: 'parse error'});
		assert.equal(
			summaryOf(() => readVector(refusal, 'http://p')),
			'Prometheus at http://p could not run the query: parse error',
		);
		assert.equal(
			summaryOf(() => readVector('<html>', 'http://p')),
			'the answer of http://p is not JSON',
		);
	});

	test('warnings and other keys beside the result are let through', () => {
		const body = JSON.stringify({
			status: 'success',
			warnings: ['w'],
			data: {resultType: 'vector', result: [{metric: {}, value: [1, 'NaN']}]},
		});
		const [only] = readVector(body, 'http://p');
		assert.deepEqual(only!.metric, {});
		assert.ok(Number.isNaN(only!.value));
	});
});
