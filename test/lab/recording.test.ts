import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import {jsonReport} from '../../source/report/report.js';
import {figuresAt, feedReducer, initialFeedState} from '../../source/domain/feed.js';
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import {
	formatRecordLine,
	labFromRecording,
	parseRecording,
	recordExposition,
	recordLines,
	recordedNode,
	RecordingError,
	toRecordLine,
} from '../../source/lab/recording.js';
import {labRecords, labSession, labTotals, markAt, plegText, scrapeAt, t0} from './exposition.js';

const v121 = readFileSync(new URL('../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url), 'utf8');

describe('recordLines', () => {
	test('the recorded lines of a real v1.21.2 dump parse to the same sample as the whole dump', () => {
		const lines = recordLines(v121);
		assert.deepEqual(parsePlegSample(recordExposition({lines})), parsePlegSample(v121));
		// A 1839-line dump: what is kept is far smaller, and holds the PLEG histogram totals as written.
		assert.ok(lines.length < 400, `${lines.length} lines kept`);
		assert.ok(lines.includes('kubelet_pleg_relist_duration_seconds_sum 35470.97548711002'));
		assert.ok(lines.includes('kubelet_pleg_last_seen_seconds 1.648119277e+09'));
	});

	test('TYPE and sample lines only: no HELP text, no other family, one feature gate (EventedPLEG)', () => {
		const lines = recordLines(plegText(labTotals[0]!.totals));
		assert.equal(lines.filter((line) => line.startsWith('# HELP')).length, 0);
		assert.equal(lines.filter((line) => /go_goroutines|rest_client/.test(line)).length, 0);
		assert.deepEqual(
			lines.filter((line) => line.startsWith('kubernetes_feature_enabled')),
			['kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 0'],
		);
		assert.ok(lines.includes('# TYPE kubernetes_feature_enabled gauge'));
		// 2 + 3 TYPE lines, 1 last seen, 6 buckets + sum + count, 1 build info, 1 gate
		assert.equal(lines.length, 15);
	});
});

describe('record lines', () => {
	const figures = figuresAt(
		feedReducer(initialFeedState({node: 'worker-1', windowSeconds: 10}), {type: 'scrape', scrape: scrapeAt(t0, labTotals[0]!.totals)}),
		t0,
	)!;

	test('one JSON object and its newline; the mark fields only after a b', () => {
		const plain = toRecordLine(['x 1'], figures, null);
		assert.deepEqual(Object.keys(plain), ['v', 'time', 'at', 'node', 'kubeletVersion', 'lines', 'figures']);
		assert.equal(plain.time, '2024-01-15T14:00:00.000Z');
		assert.deepEqual(plain.figures, JSON.parse(JSON.stringify(jsonReport(figures))));
		const marked = toRecordLine(['x 1'], figures, t0 - 300);
		assert.equal(marked.mark, true);
		assert.equal(marked.markAt, t0 - 300);
		const text = formatRecordLine(marked);
		assert.equal(text.indexOf('\n'), text.length - 1);
		assert.deepEqual(JSON.parse(text), marked);
	});
});

describe('parseRecording', () => {
	const line = (at: number) =>
		JSON.stringify({v: 1, time: new Date(at).toISOString(), at, node: 'n', kubeletVersion: null, lines: ['a 1'], figures: {}});

	test('blank lines are skipped; an unterminated last line cut mid-JSON is dropped', () => {
		const text = `${line(1000)}\n\n${line(2000)}\n{"v":1,"time":"2024-01-`;
		assert.deepEqual(
			parseRecording(text).map((record) => record.at),
			[1000, 2000],
		);
	});

	test('a bad line anywhere else names its line', () => {
		assert.throws(
			() => parseRecording(`${line(1000)}\n{"v":1,\n${line(2000)}\n`),
			(error: unknown) => {
				assert.ok(error instanceof RecordingError);
				assert.equal(error.line, 2);
				assert.match(error.message, /^line 2: not JSON/);
				return true;
			},
		);
		assert.throws(() => parseRecording(`${line(1000)}\n{"at":5,"node":"n"}\n`), /line 2: no "lines"/);
		assert.throws(() => parseRecording('[1,2]\n'), /line 1: no "at" time/);
	});
});

describe('labFromRecording', () => {
	test('the same segments, figures and points as the live session the recording was made from', () => {
		const replayed = labFromRecording(labRecords(), 10).summary();
		const live = labSession().summary();
		assert.deepEqual(replayed.segments, live.segments);
		assert.deepEqual(replayed.session, live.session);
		assert.deepEqual(replayed.points, live.points);
		assert.equal(replayed.segments[1]!.markedAt, markAt);
	});

	test('a record with mark but no markAt puts the mark at the previous line', () => {
		const records = labRecords().map(({markAt: _markAt, ...record}) => record);
		assert.equal(labFromRecording(records, 10).summary().segments[1]!.markedAt, t0 + 20_000);
	});

	test('a line whose recorded lines do not parse names its record', () => {
		const [first] = labRecords();
		const bad = {...first!, lines: ['# TYPE kubelet_pleg_last_seen_seconds gauge', 'kubelet_pleg_last_seen_seconds x']};
		assert.throws(() => labFromRecording([bad], 10), /line 1: recorded lines do not parse: line 2: value is not a number/);
	});
});

describe('recordedNode', () => {
	const withReady = (readyCondition: unknown) => ({...labRecords()[0]!, figures: {readyCondition}});

	test('readyCondition.since is Unix seconds in the file (as jsonReport writes it) and ms in the Node object', () => {
		// 1705323600 s = 2024-01-15 13:00:00 UTC; read as ms it would be 1970-01-20 17:42:03.
		const ready = {status: 'True' as const, reason: 'KubeletReady', message: 'kubelet is posting ready status', since: 1_705_323_600};
		assert.deepEqual(recordedNode(withReady(ready)), {
			name: 'worker-1',
			kubeletVersion: 'v1.28.0',
			ready: {...ready, since: Date.UTC(2024, 0, 15, 13, 0, 0)},
		});
		// The same condition written by jsonReport and read back: the time it started with, to the millisecond.
		const since = Date.UTC(2024, 0, 15, 13, 0, 0, 250);
		const feed = feedReducer(
			feedReducer(initialFeedState({node: 'worker-1', windowSeconds: 10}), {
				type: 'node',
				node: {name: 'worker-1', kubeletVersion: 'v1.28.0', ready: {...ready, since}},
			}),
			{type: 'scrape', scrape: scrapeAt(t0, labTotals[0]!.totals)},
		);
		const written = jsonReport(figuresAt(feed, t0)!).readyCondition;
		assert.equal(recordedNode(withReady(written)).ready?.since, since);
	});

	test('a file written when since was ms still reads as ms; anything that is not a condition is none', () => {
		const ms = Date.UTC(2024, 0, 15, 13, 0, 0);
		assert.equal(recordedNode(withReady({status: 'False', reason: null, message: null, since: ms})).ready?.since, ms);
		assert.equal(recordedNode(withReady({status: 'Maybe', since: 1})).ready, null);
		assert.equal(recordedNode(withReady('True')).ready, null);
		assert.deepEqual(recordedNode(withReady({status: 'True', reason: 7, since: 'yesterday'})).ready, {
			status: 'True',
			reason: null,
			message: null,
			since: null,
		});
	});
});

test("a recording's cluster text (node, version, Ready reason and message) is read back visible: the file may have been crafted", () => {
	const record = {
		v: 1,
		at: 1_700_000_000_000,
		node: 'evil\u001b]0;pwned\u0007',
		kubeletVersion: 'v1.28.4\u009b31m',
		lines: [],
		figures: {
			readyCondition: {status: 'False', reason: 'Kubelet\rNotReady', message: 'PLEG\u001b[2J is not healthy', since: 1_700_000_000},
		},
	};
	const [read] = parseRecording(JSON.stringify(record) + '\n');
	assert.equal(read!.node, 'evil^[]0;pwned^G');
	assert.equal(read!.kubeletVersion, 'v1.28.4\\u009b31m');
	assert.deepEqual(recordedNode(read!).ready, {
		status: 'False',
		reason: 'Kubelet^MNotReady',
		message: 'PLEG^[[2J is not healthy',
		since: 1_700_000_000_000,
	});
});
