// The text-format rules the exposition reader follows beyond what the kubelet writes: series that differ by an
// extra label are added up (and said so), families without TYPE are read, the first of duplicate families is read
// (with a note), tabs stand anywhere a blank may, exemplars are ignored; a body without PLEG series is an error;
// a parse error names the first bad line.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {NoPlegSeriesError, parsePlegSample, plegLines, readFamilies} from '../../../source/domain/exposition/parse.js';
import {parseError, readDump, replaceLine} from '../dump.js';
import {cadvisorBody, duplicateDiscardNote, instanceNote, roughen, twoInstanceBody} from '../exposition-bodies.js';

const duration = 'kubelet_pleg_relist_duration_seconds';

/** A relist histogram series: buckets at 0.005 and +Inf, with `labels` inside the braces (before le). */
const histogramLines = (labels: string, small: number, count: number, sum: number) => [
	`${duration}_bucket{${labels}le="0.005"} ${small}`,
	`${duration}_bucket{${labels}le="+Inf"} ${count}`,
	`${duration}_sum${labels === '' ? '' : `{${labels.replace(/,$/, '')}}`} ${sum}`,
	`${duration}_count${labels === '' ? '' : `{${labels.replace(/,$/, '')}}`} ${count}`,
];

/** What histogramLines('', 4, 9, 0.5) reads as: 4 relists under 5 ms, 9 in all, 0.5 s summed. */
const expected = {
	buckets: [
		{le: 0.005, count: 4},
		{le: Infinity, count: 9},
	],
	sum: 0.5,
	count: 9,
};

describe('series that differ only by extra labels', () => {
	test('two series of the relist histogram are added up bucket by bucket, with a note saying so', () => {
		const sample = parsePlegSample(twoInstanceBody(2, 1_700_000_000));
		// a: 110 165 195 215, sum 2.25; b: 52 64 75 85, sum 1.25 -> 162 229 270 300, sum 3.5, count 300.
		assert.deepEqual(sample.relistDuration, {
			buckets: [
				{le: 0.005, count: 162},
				{le: 0.01, count: 229},
				{le: 0.025, count: 270},
				{le: Infinity, count: 300},
			],
			sum: 3.5,
			count: 300,
		});
		assert.deepEqual(sample.notes, [instanceNote]);
		// The label-less interval beside it reads as before: 299 intervals of 1.5 s.
		assert.equal(sample.relistInterval?.count, 299);
		assert.equal(sample.relistInterval?.sum, 448.5);
	});

	test('one series with an extra label is read as it is, without a note', () => {
		const sample = parsePlegSample(histogramLines('node="worker-1",', 4, 9, 0.5).join('\n'));
		assert.deepEqual(sample.relistDuration, expected);
		assert.equal(sample.notes, undefined);
	});

	test('series with different bucket bounds are not added up: no histogram, and the note says why', () => {
		const text = [
			...histogramLines('instance="a",', 4, 9, 0.5),
			`${duration}_bucket{instance="b",le="0.01"} 1`,
			`${duration}_bucket{instance="b",le="+Inf"} 2`,
			`${duration}_sum{instance="b"} 0.1`,
			`${duration}_count{instance="b"} 2`,
		].join('\n');
		const sample = parsePlegSample(text);
		assert.equal(sample.relistDuration, null);
		assert.deepEqual(sample.notes, [
			`relist duration: 2 series of ${duration} that differ by label instance, not added up: their bucket bounds differ`,
		]);
	});

	test('a µs summary in two series: _sum and _count added up, the quantiles cannot be', () => {
		const latency = 'kubelet_pleg_relist_latency_microseconds';
		const text = [
			`# TYPE ${latency} summary`,
			`${latency}{job="a",quantile="0.5"} 13117`,
			`${latency}_sum{job="a"} 7.54184e+06`,
			`${latency}_count{job="a"} 286`,
			`${latency}{job="b",quantile="0.5"} 9000`,
			`${latency}_sum{job="b"} 2.45816e+06`,
			`${latency}_count{job="b"} 114`,
		].join('\n');
		const sample = parsePlegSample(text);
		// (7.54184e6 + 2.45816e6) µs = 10 s over 286 + 114 = 400 relists.
		assert.deepEqual(sample.legacyRelistLatency, {quantiles: [], sum: 10, count: 400});
		assert.deepEqual(sample.notes, [
			`relist duration: 2 series of ${latency} that differ by label job, _sum and _count added up; quantiles cannot be, none shown`,
		]);
	});

	test('a counter in two series is added up; a last-seen time in two series is not read', () => {
		const text = [
			'kubelet_pleg_discard_events{shard="0"} 3',
			'kubelet_pleg_discard_events{shard="1"} 4',
			'kubelet_pleg_last_seen_seconds{shard="0"} 1.7e+09',
			'kubelet_pleg_last_seen_seconds{shard="1"} 1.6e+09',
		].join('\n');
		const sample = parsePlegSample(text);
		assert.equal(sample.discardEvents, 7);
		assert.equal(sample.lastSeenSeconds, null);
		assert.deepEqual(sample.notes, [
			'last seen: 2 series of kubelet_pleg_last_seen_seconds that differ by label shard; a time cannot be added up, none is read',
			'discard events: 2 series of kubelet_pleg_discard_events that differ by label shard, added up',
		]);
	});
});

describe('families without a TYPE line, or untyped', () => {
	const typed = ['# TYPE kubelet_pleg_relist_duration_seconds histogram', ...histogramLines('', 4, 9, 0.5)];

	test('a relist histogram without its TYPE line is read by its sample names', () => {
		assert.deepEqual(parsePlegSample(typed.slice(1).join('\n')).relistDuration, expected);
	});

	test('TYPE untyped reads the same; so does a last-seen gauge typed untyped', () => {
		const untyped = [
			typed[0]!.replace('histogram', 'untyped'),
			...typed.slice(1),
			'# TYPE kubelet_pleg_last_seen_seconds untyped',
			'kubelet_pleg_last_seen_seconds 1.7e+09',
		];
		const sample = parsePlegSample(untyped.join('\n'));
		assert.deepEqual(sample.relistDuration, expected);
		assert.equal(sample.lastSeenSeconds, 1.7e9);
		assert.equal(sample.notes, undefined);
	});
});

describe('duplicate families', () => {
	test('a second copy of the relist histogram (its own TYPE line, other counts): the first is read, with a note', () => {
		const text = [
			'# TYPE kubelet_pleg_relist_duration_seconds histogram',
			...histogramLines('', 4, 9, 0.5),
			'# TYPE go_goroutines gauge',
			'go_goroutines 211',
			'# TYPE kubelet_pleg_relist_duration_seconds histogram',
			...histogramLines('', 40, 90, 5),
		].join('\n');
		const sample = parsePlegSample(text);
		assert.deepEqual(sample.relistDuration, expected);
		assert.deepEqual(sample.notes, [`relist duration: ${duration} appears more than once in the body; the first one is read`]);
	});

	test('the same series again without a TYPE line, or after another PLEG family: the first is read', () => {
		const repeated = [...histogramLines('', 4, 9, 0.5), ...histogramLines('', 40, 90, 5)].join('\n');
		assert.equal(parsePlegSample(repeated).relistDuration?.count, 9);
		const resumed = ['kubelet_pleg_discard_events 2', 'kubelet_pleg_last_seen_seconds 1.7e+09', 'kubelet_pleg_discard_events 5'].join('\n');
		const sample = parsePlegSample(resumed);
		assert.equal(sample.discardEvents, 2);
		assert.deepEqual(sample.notes, [duplicateDiscardNote]);
	});

	test('a TYPE line after the samples of its family starts a second copy', () => {
		const text = ['kubelet_pleg_discard_events 2', '# TYPE kubelet_pleg_discard_events counter', 'kubelet_pleg_discard_events 5'].join(
			'\n',
		);
		assert.equal(parsePlegSample(text).discardEvents, 2);
	});
});

describe('tabs and exemplars', () => {
	test('the v1.21.2 dump roughened (no TYPE for the relist histogram, exemplars, tabs, a duplicate family) reads the same', () => {
		const text = readDump('1.21.2');
		const rough = roughen(text);
		assert.ok(rough.includes('#\tTYPE\tkubelet_pleg_relist_interval_seconds\thistogram'));
		assert.ok(
			rough.includes(
				'kubelet_pleg_relist_duration_seconds_bucket{le="0.005"} 88778 # {trace_id="4bf92f3577b34da6a3ce929d0e0e4736"} 0.0042 1.6e+09',
			),
		);
		const {notes, raw, ...sample} = parsePlegSample(rough);
		const {raw: plainRaw, ...plain} = parsePlegSample(text);
		assert.deepEqual(sample, plain);
		assert.deepEqual(notes, [duplicateDiscardNote]);
		// The raw view shows the lines as written, exemplars and all.
		assert.equal(raw!.lines.length, plainRaw!.lines.length + 1);
		assert.ok(
			raw!.lines.includes(
				'kubelet_pleg_relist_duration_seconds_bucket{le="0.005"} 88778 # {trace_id="4bf92f3577b34da6a3ce929d0e0e4736"} 0.0042 1.6e+09',
			),
		);
	});

	test('a tab between every token, blanks before the labels, an exemplar after a timestamp', () => {
		const text = [
			'#\tTYPE\tkubelet_pleg_last_seen_seconds\tgauge\t',
			'kubelet_pleg_last_seen_seconds\t1.7e+09',
			`#  TYPE   ${duration}    histogram`,
			`${duration}_bucket {le="0.005"}\t4\t1700000000000 # {trace_id="a"} 0.004 1.7e+09`,
			`${duration}_bucket\t{ le = "+Inf" }\t9 # {trace_id="b"} 2`,
			`${duration}_sum 0.5`,
			`\t${duration}_count 9`,
		].join('\n');
		const sample = parsePlegSample(text);
		assert.equal(sample.lastSeenSeconds, 1.7e9);
		assert.deepEqual(sample.relistDuration, expected);
	});

	test('an unknown type after a tab is still an error naming its line', () => {
		const error = parseError(['kubelet_pleg_discard_events 1', '# TYPE\tkubelet_pleg_last_seen_seconds\tgauges'].join('\n'));
		assert.equal(error.line, 2);
		assert.match(error.message, /^line 2: unknown metric type for kubelet_pleg_last_seen_seconds: /);
	});
});

describe('a body without any PLEG series', () => {
	test("cAdvisor's /metrics/cadvisor: NoPlegSeriesError, naming the families looked for and some it holds", () => {
		const error = parseError(cadvisorBody);
		assert.ok(error instanceof NoPlegSeriesError);
		assert.equal(error.line, null);
		assert.deepEqual(error.found, ['cadvisor_version_info', 'container_cpu_usage_seconds_total', 'container_memory_working_set_bytes']);
		assert.match(
			error.message,
			/^no PLEG series: none of kubelet_pleg_relist_duration_seconds, kubelet_pleg_relist_interval_seconds, kubelet_pleg_relist_latency_microseconds, /,
		);
	});

	test('CRI series, the build info and PLEG TYPE lines without samples are not PLEG series', () => {
		const text = [
			'# TYPE kubelet_pleg_relist_duration_seconds histogram',
			'kubernetes_build_info{git_version="v1.28.4"} 1',
			'kubelet_runtime_operations_total{operation_type="list_podsandbox"} 12',
		].join('\n');
		assert.ok(parseError(text) instanceof NoPlegSeriesError);
	});

	test('a bad line is named before the missing series', () => {
		const error = parseError(`${cadvisorBody}9 bad\n`);
		assert.ok(!(error instanceof NoPlegSeriesError));
		assert.equal(error.line, 13);
	});
});

describe('the first bad line', () => {
	test('{le="0.005" 12 alone: line 1', () => {
		const error = parseError('{le="0.005" 12');
		assert.equal(error.line, 1);
		assert.equal(error.message, 'line 1: malformed sample: {le="0.005" 12');
	});

	test('{le="0.005" 12 on line 1 of a good dump: line 1, not read past', () => {
		const error = parseError(`{le="0.005" 12\n${readDump('1.21.2')}`);
		assert.equal(error.line, 1);
		assert.equal(error.detail?.reason, 'malformed sample');
		assert.equal(error.detail?.text, '{le="0.005" 12');
	});

	test('two bad lines (a PLEG line and an earlier line no metric name can start): the earlier one', () => {
		let text = replaceLine(readDump('1.21.2'), 680, 'kubelet_pleg_relist_duration_seconds_count');
		assert.equal(parseError(text).line, 680);
		text = replaceLine(text, 3, '"quoted" 5');
		const error = parseError(text);
		assert.equal(error.line, 3);
		assert.equal(error.message, 'line 3: malformed sample: "quoted" 5');
	});

	test('the line is cut to 80 characters and a terminal escape is not passed on', () => {
		const long = `{x="${'a'.repeat(200)}"} 1`;
		const error = parseError(long);
		assert.equal(error.message, `line 1: malformed sample: ${long.slice(0, 77)}...`);
		const escape = parseError('{\u001b[2J} 1');
		assert.equal(escape.message, 'line 1: malformed sample: {^[[2J} 1');
	});
});

describe('readFamilies: a whole body through parse-prometheus-text-format', () => {
	test('tabs, exemplars, an empty HELP and a timestamp are made plain before the library reads them', () => {
		const families = readFamilies(
			[
				'# HELP x_total',
				'#\tTYPE\tx_total\tcounter',
				'x_total{a="1"}\t5 1700000000000 # {trace_id="t"} 1',
				'# TYPE y histogram',
				'y_bucket{le="1"} 2',
				'y_bucket{le="+Inf"} 3',
				'y_sum 1.5',
				'y_count 3',
			].join('\n'),
		);
		assert.deepEqual(families, [
			{name: 'x_total', help: '', type: 'COUNTER', metrics: [{value: '5', labels: {a: '1'}}]},
			{name: 'y', help: '', type: 'HISTOGRAM', metrics: [{buckets: {1: '2', '+Inf': '3'}, sum: '1.5', count: '3'}]},
		]);
	});

	test('a bad line is named', () => {
		assert.throws(() => readFamilies('a 1\nb{c="d} 2\n'), /^MetricsParseError: line 2: malformed label: b\{c="d\} 2$/);
	});
});

describe('plegLines: the lines a recording keeps', () => {
	test('TYPE and sample lines as written (tabs and exemplars too), only the EventedPLEG gate, no HELP', () => {
		const text = [
			'# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.',
			'#\tTYPE kubernetes_feature_enabled gauge',
			'kubernetes_feature_enabled{name="APIListChunking",stage=""} 1',
			'kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"}\t1',
			'kubelet_pleg_discard_events 0 # {a="b"} 1',
		].join('\n');
		assert.deepEqual(plegLines(text), [
			'#\tTYPE kubernetes_feature_enabled gauge',
			'kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"}\t1',
			'kubelet_pleg_discard_events 0 # {a="b"} 1',
		]);
		assert.equal(parsePlegSample(plegLines(text).join('\n')).eventedPlegGate, true);
	});
});
