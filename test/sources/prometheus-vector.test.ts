// Reading an instant-vector answer: Prometheus' own compact answer is read in one pass (compactVector), anything
// else through JSON.parse; both give the same samples, and a label with a control character is shown visible.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {compactVector, readVector} from '../../source/sources/prometheus.js';

const answer = (result: unknown[], extra: Record<string, unknown> = {}) =>
	JSON.stringify({status: 'success', data: {resultType: 'vector', result}, ...extra});

// As Prometheus 2.42 writes it (captured from Debian's binary): compact, status, data, resultType, result; metric, value.
const prometheusText =
	'{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"10.0.0.5:10250","node":"ip-10-0-0-5.ec2.internal"},"value":[1733333333.123,"0.5"]},{"metric":{"node":"b"},"value":[1733333333.123,"+Inf"]},{"metric":{},"value":[1.7e9,"NaN"]}]}}';

test("Prometheus' own answer is read in one pass: labels, values, +Inf, NaN, a series without labels", () => {
	const samples = compactVector(prometheusText);
	assert.ok(samples !== null);
	assert.deepEqual(samples.slice(0, 2), [
		{metric: {instance: '10.0.0.5:10250', node: 'ip-10-0-0-5.ec2.internal'}, value: 0.5},
		{metric: {node: 'b'}, value: Number.POSITIVE_INFINITY},
	]);
	assert.deepEqual(samples[2]!.metric, {});
	assert.ok(Number.isNaN(samples[2]!.value));
	assert.deepEqual(compactVector(answer([])), []);
});

test('the one-pass reading and JSON.parse give the same samples for the same answer', () => {
	const spaced = JSON.stringify(JSON.parse(prometheusText), null, 1);
	assert.equal(compactVector(spaced), null);
	assert.deepEqual(readVector(spaced, 'http://p'), compactVector(prometheusText));
});

test('any other text goes to JSON.parse: warnings, escapes, a C1 control, another key order, a cut body', () => {
	const one = [{metric: {node: 'a'}, value: [1, '2']}];
	const others = [
		answer(one, {warnings: ['partial']}),
		answer([{metric: {node: 'a"b'}, value: [1, '2']}]),
		answer([{metric: {node: 'a\u009bb'}, value: [1, '2']}]),
		JSON.stringify({status: 'success', data: {resultType: 'vector', result: [{value: [1, '2'], metric: {node: 'a'}}]}}),
		answer([{metric: {node: 'a'}, value: [1, 2]}]),
		answer(one).slice(0, -2),
		answer(one) + '\n',
	];
	for (const body of others) assert.equal(compactVector(body), null, body);
	assert.deepEqual(readVector(others[0]!, 'http://p'), [{metric: {node: 'a'}, value: 2}]);
	assert.deepEqual(readVector(others[1]!, 'http://p')[0]!.metric, {node: 'a"b'});
	// A C1 CSI in a node name is shown as its escape, never passed to the terminal.
	assert.deepEqual(readVector(others[2]!, 'http://p')[0]!.metric, {node: 'a\\u009bb'});
	assert.deepEqual(readVector(others[3]!, 'http://p'), [{metric: {node: 'a'}, value: 2}]);
});

test('an escaped ESC in a label is read by JSON.parse and shown as ^[', () => {
	const body = answer([{metric: {node: 'evil\u001b]0;title\u0007'}, value: [1, '1']}]);
	assert.equal(compactVector(body), null);
	assert.deepEqual(readVector(body, 'http://p')[0]!.metric, {node: 'evil^[]0;title^G'});
});
