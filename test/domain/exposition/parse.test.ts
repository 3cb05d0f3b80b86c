import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {parseValue} from '../../../source/domain/exposition/parse-value.js';
import {parseError, readDump, replaceLine} from '../dump.js';

/** One PLEG sample: a real kubelet body always holds one (a body without any is an error). */
const relistCount = 'kubelet_pleg_relist_duration_seconds_count 3';

const defBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, Infinity];
const zip = (counts: number[]) => counts.map((count, i) => ({le: defBuckets[i]!, count}));

describe('counters read through OpenMetrics carry _total', () => {
	test('the v1.21.2 dump with its discard counter written kubelet_pleg_discard_events_total: the same 0, and 5 once renamed with 5', () => {
		const dump = readDump('1.21.2');
		assert.match(dump, /^kubelet_pleg_discard_events 0$/m);
		const openMetrics = dump.replace(/^kubelet_pleg_discard_events 0$/m, 'kubelet_pleg_discard_events_total 5');
		assert.equal(parsePlegSample(openMetrics).discardEvents, 5);
		assert.equal(parsePlegSample(dump.replace(/^kubelet_pleg_discard_events 0$/m, '')).discardEvents, null);
	});
});

describe('parsePlegSample on the real dumps', () => {
	test('v1.21.2: seconds histograms in exponent form, last_seen, discard_events, git_version', () => {
		const sample = parsePlegSample(readDump('1.21.2'));
		// SOURCES.md: le 0.005…10,+Inf → 88778, 112188, 1.325443e+06, …, 1.67195e+06, sorted by le (not key order).
		assert.deepEqual(sample.relistDuration, {
			buckets: zip([88778, 112188, 1325443, 1599946, 1670263, 1671945, 1671946, 1671947, 1671948, 1671949, 1671949, 1671950]),
			sum: 35470.97548711002,
			count: 1671950,
		});
		assert.deepEqual(sample.relistInterval, {
			buckets: zip([0, 0, 0, 0, 0, 0, 0, 0, 1671947, 1671948, 1671948, 1671949]),
			sum: 1708686.6835435373,
			count: 1671949,
		});
		assert.equal(sample.lastSeenSeconds, 1648119277); // 1.648119277e+09
		assert.equal(sample.discardEvents, 0);
		assert.equal(sample.kubeletVersion, 'v1.21.2'); // git_version label (1.19+)
		assert.equal(sample.legacyRelistLatency, null);
		assert.equal(sample.legacyRelistInterval, null);
		assert.equal(sample.eventedPlegGate, null);
		assert.equal(sample.eventedConnectionSuccess, null);
		assert.equal(sample.eventedConnectionError, null);
	});

	test('v1.14.10: both generations side by side, µs summaries in seconds, no trailing newline', () => {
		const text = readDump('1.14.10');
		assert.ok(!text.endsWith('\n'));
		const sample = parsePlegSample(text);
		assert.deepEqual(sample.relistDuration, {
			buckets: zip([3106, 35089, 42228, 42583, 42669, 42712, 42727, 42735, 42749, 42793, 42847, 42893]),
			sum: 1629.920016523,
			count: 42893,
		});
		assert.deepEqual(
			sample.relistInterval?.buckets.map((bucket) => bucket.count),
			[0, 0, 0, 0, 0, 0, 0, 0, 42731, 42769, 42835, 42892],
		);
		assert.equal(sample.relistInterval?.sum, 46245.977438063026);
		// µs → s: q0.5 8313 µs = 0.008313 s, _sum 1.631155039e+09 µs = 1631.155039 s.
		assert.deepEqual(sample.legacyRelistLatency, {
			quantiles: [
				{q: 0.5, seconds: 8313 / 1e6},
				{q: 0.9, seconds: 12285 / 1e6},
				{q: 0.99, seconds: 28543 / 1e6},
			],
			sum: 1.631155039e9 / 1e6,
			count: 42893,
		});
		assert.deepEqual(sample.legacyRelistInterval, {
			quantiles: [
				{q: 0.5, seconds: 1.00921e6 / 1e6},
				{q: 0.9, seconds: 1.013194e6 / 1e6},
				{q: 0.99, seconds: 1.029029e6 / 1e6},
			],
			sum: 4.6247131304e10 / 1e6,
			count: 42892,
		});
		assert.equal(sample.lastSeenSeconds, null); // 1.18+
		assert.equal(sample.discardEvents, null); // CounterVec: absent until the first discard
		assert.equal(sample.kubeletVersion, 'v1.14.10'); // gitVersion label (≤ 1.18)
	});

	test('v1.10.0: µs summaries only (sum 7.54184e6 µs = 7.54184 s, count 286)', () => {
		const sample = parsePlegSample(readDump('1.10.0'));
		assert.equal(sample.relistDuration, null);
		assert.equal(sample.relistInterval, null);
		assert.deepEqual(sample.legacyRelistLatency, {
			quantiles: [
				{q: 0.5, seconds: 13117 / 1e6},
				{q: 0.9, seconds: 19795 / 1e6},
				{q: 0.99, seconds: 381714 / 1e6},
			],
			sum: 7.54184e6 / 1e6,
			count: 286,
		});
		assert.equal(sample.legacyRelistLatency?.sum, 7.54184);
		assert.equal(sample.legacyRelistInterval?.sum, 2.92731959e8 / 1e6); // 292.731959 s
		assert.equal(sample.legacyRelistInterval?.count, 285);
		assert.equal(sample.kubeletVersion, 'v1.10.0');
	});

	test('CRLF line endings read the same as LF', () => {
		const text = readDump('1.21.2');
		assert.deepEqual(parsePlegSample(text.replaceAll('\n', '\r\n')), parsePlegSample(text));
	});
});

describe('parsePlegSample traps', () => {
	test('kubernetes_feature_enabled: the EventedPLEG sample, not the last one of the family', () => {
		const gates = (evented: string) =>
			[
				relistCount,
				'# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.',
				'# TYPE kubernetes_feature_enabled gauge',
				'kubernetes_feature_enabled{name="DynamicResourceAllocation",stage="ALPHA"} 0',
				`kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} ${evented}`,
				'kubernetes_feature_enabled{name="InPlacePodVerticalScaling",stage="ALPHA"} 0',
			].join('\n');
		assert.equal(parsePlegSample(gates('1')).eventedPlegGate, true);
		assert.equal(parsePlegSample(gates('0')).eventedPlegGate, false);
		assert.equal(parsePlegSample(gates('0').replace('name="EventedPLEG"', 'name="Other"')).eventedPlegGate, null);
	});

	test('evented PLEG connection counters', () => {
		const text = [
			relistCount,
			'# HELP kubelet_evented_pleg_connection_error_count [ALPHA] The number of errors encountered during the establishment of streaming connection with the CRI runtime.',
			'# TYPE kubelet_evented_pleg_connection_error_count counter',
			'kubelet_evented_pleg_connection_error_count 1',
			'# HELP kubelet_evented_pleg_connection_latency_seconds [ALPHA] The latency of streaming connection with the CRI runtime, measured in seconds.',
			'# TYPE kubelet_evented_pleg_connection_latency_seconds histogram',
			'kubelet_evented_pleg_connection_latency_seconds_bucket{le="+Inf"} 9',
			'kubelet_evented_pleg_connection_latency_seconds_sum 0.5',
			'kubelet_evented_pleg_connection_latency_seconds_count 9',
			'# HELP kubelet_evented_pleg_connection_success_count [ALPHA] The number of times a streaming client was obtained to receive CRI Events.',
			'# TYPE kubelet_evented_pleg_connection_success_count counter',
			'kubelet_evented_pleg_connection_success_count 3',
		].join('\n');
		const sample = parsePlegSample(text);
		assert.equal(sample.eventedConnectionSuccess, 3);
		assert.equal(sample.eventedConnectionError, 1);
	});

	test('the last kept sample is read without a final newline (the library drops it otherwise)', () => {
		const text = [
			relistCount,
			'# TYPE kubernetes_build_info gauge',
			'kubernetes_build_info{git_version="v1.28.0",major="1",minor="28"} 1',
		].join('\n');
		assert.equal(parsePlegSample(text).kubeletVersion, 'v1.28.0');
	});

	test('values as Go writes them: exponent form, +Inf, NaN', () => {
		assert.equal(parseValue('1.67195e+06'), 1671950);
		assert.equal(parseValue('+Inf'), Infinity);
		assert.equal(parseValue('-Inf'), -Infinity);
		assert.ok(Number.isNaN(parseValue('NaN')));
		assert.equal(parseValue('0'), 0);
		assert.equal(parseValue(''), undefined); // Number('') would be 0
		assert.equal(parseValue('abc'), undefined);
	});

	test('a HELP line with no text is legal (the library alone would reject it)', () => {
		const text = [
			'# HELP kubelet_pleg_last_seen_seconds',
			'# TYPE kubelet_pleg_last_seen_seconds gauge',
			'kubelet_pleg_last_seen_seconds 1.7e+09',
			'',
		].join('\n');
		assert.equal(parsePlegSample(text).lastSeenSeconds, 1.7e9);
	});

	test('a body with only some PLEG families: the others are null', () => {
		const sample = parsePlegSample(
			'# HELP go_goroutines Number of goroutines.\n# TYPE go_goroutines gauge\ngo_goroutines 42\nkubelet_pleg_discard_events 4\n',
		);
		assert.deepEqual(sample, {
			relistDuration: null,
			relistInterval: null,
			legacyRelistLatency: null,
			legacyRelistInterval: null,
			lastSeenSeconds: null,
			discardEvents: 4,
			eventedPlegGate: null,
			eventedConnectionSuccess: null,
			eventedConnectionError: null,
			kubeletVersion: null,
			cri: null,
			raw: {lines: ['kubelet_pleg_discard_events 4'], omitted: 0},
		});
	});

	test('a family that only shares a prefix is not read (kubelet_pleg_pod_relist_duration_seconds, 1.36)', () => {
		const text = readDump('1.21.2').replace(
			'# HELP kubelet_pleg_discard_events',
			'kubelet_pleg_pod_relist_duration_seconds_count 7\n# HELP kubelet_pleg_discard_events',
		);
		assert.equal(parsePlegSample(text).relistDuration?.count, 1671950);
	});
});

describe('MetricsParseError', () => {
	test('empty body', () => {
		for (const text of ['', ' \n\t\n']) {
			const error = parseError(text);
			assert.equal(error.message, 'empty response');
			assert.equal(error.line, null);
		}
	});

	test('HTML error page: line of the first tag', () => {
		const error = parseError('<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n');
		assert.equal(error.line, 1);
		assert.equal(error.message, 'HTML response, not Prometheus text: <!DOCTYPE html>');
		assert.equal(parseError('\n\n  <html>\n').line, 3);
	});

	test('binary: a NUL byte on line 5 of the real dump', () => {
		const text = replaceLine(readDump('1.21.2'), 5, 'apiserver_audit_requests_rejected_total 0\0');
		const error = parseError(text);
		assert.equal(error.line, 5);
		assert.match(error.message, /binary response \(NUL byte\)/);
	});

	test('binary: bytes that are not UTF-8 (replacement characters) on line 2', () => {
		// "go_goroutines 42\n" then 0x8b 0x08 0xff (gzip-like bytes, no NUL): decoded as U+FFFD.
		const text = Buffer.concat([Buffer.from('go_goroutines 42\n'), Buffer.from([0x8b, 0x08, 0xff, 0x0a])]).toString('utf8');
		const error = parseError(text);
		assert.equal(error.line, 2);
		assert.match(error.message, /binary response \(invalid UTF-8\)/);
	});

	test('a PLEG sample with no value, at its line in the original payload', () => {
		const text = readDump('1.21.2');
		const lines = text.split('\n');
		assert.equal(lines[679], 'kubelet_pleg_relist_duration_seconds_count 1.67195e+06'); // line 680
		const error = parseError(replaceLine(text, 680, 'kubelet_pleg_relist_duration_seconds_count'));
		assert.equal(error.line, 680);
		assert.equal(error.message, 'line 680: sample has no value: kubelet_pleg_relist_duration_seconds_count');
	});

	test('a body cut off in the middle of its last line', () => {
		const text = readDump('1.21.2');
		const lines = text.trimEnd().split('\n');
		const cut = text.slice(0, text.trimEnd().lastIndexOf(' ')); // the last line loses its value
		const error = parseError(cut);
		assert.equal(error.line, lines.length);
		assert.match(error.message, new RegExp(`^line ${lines.length}: sample has no value`));
	});

	test('a cut inside the labels of a PLEG bucket line', () => {
		const text = readDump('1.14.10');
		const cut = replaceLine(text, 611, 'kubelet_pleg_relist_duration_seconds_bucket{le="+In');
		const error = parseError(cut);
		assert.equal(error.line, 611);
		assert.match(error.message, /^line 611: malformed label: /);
	});

	test('a value that is not a number', () => {
		const text = replaceLine(readDump('1.21.2'), 664, 'kubelet_pleg_last_seen_seconds 16481192x7');
		const error = parseError(text);
		assert.equal(error.line, 664);
		assert.equal(error.message, 'line 664: value is not a number: kubelet_pleg_last_seen_seconds 16481192x7');
	});

	test('an unknown TYPE', () => {
		const text = replaceLine(readDump('1.21.2'), 663, '# TYPE kubelet_pleg_last_seen_seconds gauge extra');
		const error = parseError(text);
		assert.equal(error.line, 663);
		assert.match(error.message, /^line 663: unknown metric type for kubelet_pleg_last_seen_seconds/);
	});

	test('a JSON Status body is not Prometheus text', () => {
		const error = parseError('{"kind":"Status","apiVersion":"v1","status":"Failure","code":503}');
		assert.equal(error.line, 1);
		assert.match(error.message, /^line 1: malformed sample/);
	});
});
