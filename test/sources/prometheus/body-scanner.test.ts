// Reading an instant-vector answer: Prometheus' own compact answer is read in one pass (compactVector), anything
// else through JSON.parse; both give the same samples, and a label with a control character is shown visible.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {parseValue} from '../../../source/domain/exposition/parse-value.js';
import {compactVector, eachCompactSample, numberAt} from '../../../source/sources/prometheus/body-scanner.js';
import {readVector} from '../../../source/sources/prometheus/envelope.js';

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

test('numberAt reads a value in place as parseValue reads its slice: decimals to the same double, exponents, Inf, NaN', () => {
	const read = (text: string) => numberAt(Buffer.from(`"${text}"`), 1, text.length + 1);
	// A fixed generator: the same 2,000 decimals every run, from 1 to 17 digits with the point anywhere.
	let seed = 7;
	const next = () => (seed = (seed * 48_271) % 2_147_483_647);
	for (let n = 0; n < 2000; n++) {
		const digits = String(next()) + String(next());
		const text = digits.slice(0, 1 + (next() % 17));
		const point = next() % (text.length + 1);
		const decimal = `${next() % 3 === 0 ? '-' : ''}${text.slice(0, point)}.${text.slice(point)}`.replace(/\.$/, '');
		assert.equal(Object.is(read(decimal), Number(decimal)), true, decimal);
	}

	for (const text of ['0', '-0', '+5', '0.1', '1e-3', '2.5E+2', '123456789012345678', '+Inf', '-Inf', 'Infinity']) {
		assert.equal(Object.is(read(text), parseValue(text)), true, text);
	}

	for (const text of ['NaN', '', '.', '-', '1.2.3', '1,5', 'x']) assert.ok(Number.isNaN(read(text)), text);
});

test('eachCompactSample visits each sample in place: labels asked by name, labelIs without a string, its place', () => {
	const seen: Array<{place: number; node: string | undefined; job: string | undefined; isA: boolean; value: number}> = [];
	const compact = eachCompactSample(Buffer.from(prometheusText), (sample, place) => {
		seen.push({place, node: sample.label('node'), job: sample.label('job'), isA: sample.labelIs('node', 'b'), value: sample.value});
	});
	assert.equal(compact, true);
	assert.deepEqual(seen.slice(0, 2), [
		{place: 0, node: 'ip-10-0-0-5.ec2.internal', job: undefined, isA: false, value: 0.5},
		{place: 1, node: 'b', job: undefined, isA: true, value: Number.POSITIVE_INFINITY},
	]);
	assert.equal(seen[2]!.node, undefined);
	// A label that only starts with the text asked, or is its prefix, is not that text.
	const prefixes = answer([{metric: {node: 'bb'}, value: [1, '1']}]);
	const matches: boolean[] = [];
	assert.equal(
		eachCompactSample(Buffer.from(prefixes), (sample) => matches.push(sample.labelIs('node', 'b'), sample.labelIs('nod', 'bb'))),
		true,
	);
	assert.deepEqual(matches, [false, false]);
});

test('eachCompactSample says false for any other text, also when samples before the fault were visited', () => {
	const good = {metric: {node: 'a'}, value: [1, '2']};
	const body = answer([good, good, {metric: {node: 'a"b'}, value: [1, '2']}]).replace('a\\"b', 'a"b');
	let visited = 0;
	assert.equal(
		eachCompactSample(Buffer.from(answer([good, good]).slice(0, -3) + ',{"metric":{"node":"c"},"value":[1]}]}}'), () => visited++),
		false,
	);
	assert.equal(visited, 2);
	assert.equal(
		eachCompactSample(Buffer.from(body), () => undefined),
		false,
	);
	assert.equal(
		eachCompactSample(Buffer.from(answer([good], {warnings: ['partial']})), () => undefined),
		false,
	);
	// JSON writes DEL and anything past ASCII raw: in a label or in the value, the whole answer goes to the general
	// path (visibleLine, parseValue), as one not plain.
	for (const node of ['a\u007fb', 'nöde', 'a\u009bb']) {
		assert.equal(
			eachCompactSample(Buffer.from(answer([good, {metric: {node}, value: [1, '2']}])), () => undefined),
			false,
			node,
		);
	}

	assert.equal(
		eachCompactSample(Buffer.from(answer([{metric: {node: 'a'}, value: [1, '2\u007f']}])), () => undefined),
		false,
	);
});
