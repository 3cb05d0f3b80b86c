// The raw view's lines (PlegSample.raw): the kubelet_pleg_* sample lines as `grep ^kubelet_pleg` shows them, taken
// from the lines the parser keeps anyway, sanitized and bounded.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {cutToPlegLines, maxRawLineLength, maxRawLines, parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../../source/domain/feed.js';
import {readDump} from '../dump.js';

describe('PlegSample.raw', () => {
	test('v1.21.2: the 30 kubelet_pleg_* sample lines in payload order, no TYPE/HELP, no other family', () => {
		const raw = parsePlegSample(readDump('1.21.2')).raw!;
		assert.equal(raw.omitted, 0);
		assert.equal(raw.lines.length, 30);
		assert.deepEqual(raw.lines.slice(0, 3), [
			'kubelet_pleg_discard_events 0',
			'kubelet_pleg_last_seen_seconds 1.648119277e+09',
			'kubelet_pleg_relist_duration_seconds_bucket{le="0.005"} 88778',
		]);
		assert.equal(raw.lines.at(-1), 'kubelet_pleg_relist_interval_seconds_count 1.671949e+06');
		assert.ok(raw.lines.every((line) => line.startsWith('kubelet_pleg_')));
	});

	test('v1.10.0: the µs summaries, quantile lines included (10 lines)', () => {
		const raw = parsePlegSample(readDump('1.10.0')).raw!;
		assert.equal(raw.lines.length, 10);
		assert.equal(raw.lines[0], 'kubelet_pleg_relist_interval_microseconds{quantile="0.5"} 1.013865e+06');
	});

	test('a kubelet_pleg_* family pleg-top does not read shows too (kubelet_pleg_pod_relist_duration_seconds, 1.36)', () => {
		const text = readDump('1.21.2').replace(
			'# HELP kubelet_pleg_discard_events',
			'kubelet_pleg_pod_relist_duration_seconds_count 7\n# HELP kubelet_pleg_discard_events',
		);
		const raw = parsePlegSample(text).raw!;
		assert.equal(raw.lines.length, 31);
		assert.equal(raw.lines[0], 'kubelet_pleg_pod_relist_duration_seconds_count 7');
	});

	test('the cut body of the HTTP path gives the same lines as the whole body', () => {
		const body = readDump('1.21.2');
		const cut = cutToPlegLines(Buffer.from(body, 'utf8'));
		assert.notEqual(cut, null);
		assert.deepEqual(parsePlegSample(cut!).raw, parsePlegSample(body).raw);
	});

	test('blanks around a line and a CRLF line end are not part of it; controls in a label are made visible', () => {
		const text = '  kubelet_pleg_last_seen_seconds{x="\u001b]0;pwn\u0007\u009b"} 5\r\nkubelet_pleg_discard_events 0 \n';
		assert.deepEqual(parsePlegSample(text).raw, {
			lines: ['kubelet_pleg_last_seen_seconds{x="^[]0;pwn^G\\u009b"} 5', 'kubelet_pleg_discard_events 0'],
			omitted: 0,
		});
	});

	test('bounded: the first 100 lines kept, the rest counted; a long line cut with …', () => {
		const many = Array.from({length: 150}, (_, index) => `kubelet_pleg_discard_events{shard="${index}"} 0`);
		const raw = parsePlegSample(many.join('\n') + '\n').raw!;
		assert.equal(maxRawLines, 100);
		assert.equal(raw.lines.length, 100);
		assert.equal(raw.omitted, 50);
		assert.equal(raw.lines[99], 'kubelet_pleg_discard_events{shard="99"} 0');

		const long = `kubelet_pleg_last_seen_seconds{x="${'a'.repeat(400)}"} 5`;
		const [line] = parsePlegSample(long + '\n').raw!.lines;
		assert.equal(line, long.slice(0, maxRawLineLength) + '…');
		assert.equal(line.length, 301);
	});
});

describe('Figures.raw', () => {
	test("the latest scrape's lines and when it completed; kept through a failed scrape (the figures are its)", () => {
		const at = 1_700_000_000_000;
		const sample = parsePlegSample('kubelet_pleg_last_seen_seconds 1699999999\n');
		const actions: FeedAction[] = [
			{type: 'scrape', scrape: {at, sample, latencyMs: 5}},
			{type: 'failure', failure: {kind: 'network', summary: 'connection refused', details: []}, at: at + 1000},
		];
		const state = actions.reduce(feedReducer, initialFeedState({node: 'n', windowSeconds: 10}));
		assert.deepEqual(figuresAt(state, at + 2000)!.raw, {lines: ['kubelet_pleg_last_seen_seconds 1699999999'], omitted: 0, at});
	});
});
