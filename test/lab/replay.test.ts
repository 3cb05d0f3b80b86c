import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedState} from '../../source/domain/feed.js';
import {RecordingError, type RecordLine} from '../../source/lab/recording.js';
import {SourceFailure} from '../../source/sources/failure.js';
import {jsonReport} from '../../source/report/report.js';
import {createReplaySource, maxReplayGapMs, recordedIntervalMs} from '../../source/lab/replay.js';
import {startPoller} from '../../source/engine/poller.js';
import {labRecords, labTotals, markAt, recordsOf, t0} from './exposition.js';
import {reachingText} from '../../source/screen/dashboard.js';

/** A real clock that only moves when the test (or a sleep) moves it; every sleep is logged. */
function fakeRealTime() {
	let real = 5_000_000;
	const sleeps: number[] = [];
	return {
		sleeps,
		realNow: () => real,
		advance(ms: number) {
			real += ms;
		},
		sleep: async (ms: number, signal: AbortSignal) => {
			signal.throwIfAborted();
			sleeps.push(ms);
			real += ms;
		},
	};
}

const signal = new AbortController().signal;

describe('replay source', () => {
	test('serves each line at its recorded time, scaled by the speed, and the mark between its two scrapes', async () => {
		const time = fakeRealTime();
		const records = labRecords();
		const replay = createReplaySource({records, speed: 10, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		const events: string[] = [];
		replay.onMark((at) => events.push(`mark ${(at - t0) / 1000} s, clock ${(replay.now() - t0) / 1000} s`));
		const fetch = async () => {
			const text = await replay.fetchMetrics(signal);
			events.push(`scrape ${(replay.now() - t0) / 1000} s`);
			return text;
		};

		assert.equal(await fetch(), records[0]!.lines.join('\n') + '\n');
		time.advance(200); // the poller and the screen take 200 ms: 2 recorded seconds at ×10
		assert.equal(replay.now(), t0 + 2000);
		for (let i = 1; i < records.length; i++) await fetch();
		assert.deepEqual(events, ['scrape 0 s', 'scrape 10 s', 'scrape 20 s', 'mark 20.5 s, clock 20.5 s', 'scrape 30 s', 'scrape 40 s']);
		// (10 s - 2 s) / 10, 10 s / 10, mark (20.5 s - 20 s) / 10, (30 s - 20.5 s) / 10, 10 s / 10
		assert.deepEqual(time.sleeps, [800, 1000, 50, 950, 1000]);
	});

	test('the clock never passes the next line, and stops at the last one', async () => {
		const time = fakeRealTime();
		const replay = createReplaySource({records: labRecords(), speed: 2, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		await replay.fetchMetrics(signal);
		assert.equal(replay.now(), t0); // the poller reads the scrape's time: the clock holds until then
		time.advance(60_000); // a stalled screen: 120 recorded seconds at ×2
		assert.equal(replay.now(), t0 + 10_000);
		for (let i = 1; i < 5; i++) await replay.fetchMetrics(signal);
		time.advance(60_000);
		assert.equal(replay.now(), t0 + 40_000);
	});

	test("a slow parse on a loaded machine does not move the scrape's time: the clock holds until first read", async () => {
		const time = fakeRealTime();
		const records = labRecords();
		const replay = createReplaySource({records, speed: 100, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		await replay.fetchMetrics(signal);
		time.advance(40); // the parse took 40 ms: 4 recorded seconds at ×100, were the clock not held
		assert.equal(replay.now(), t0);
		time.advance(3); // another read in that turn, 3 ms on: the same time
		assert.equal(replay.now(), t0);
		time.advance(7); // 10 ms after the first read the clock runs again, from the recorded time at that read
		assert.equal(replay.now(), t0 + 1000);
		await replay.fetchMetrics(signal);
		time.advance(40);
		assert.equal(replay.now(), records[1]!.at);
	});

	test('after the last line: `ended` resolves and the request stays open until aborted', async () => {
		const time = fakeRealTime();
		const replay = createReplaySource({
			records: labRecords().slice(0, 1),
			speed: 1,
			file: 'lab.jsonl',
			realNow: time.realNow,
			sleep: time.sleep,
		});
		await replay.fetchMetrics(signal);
		const controller = new AbortController();
		const open = replay.fetchMetrics(controller.signal);
		await replay.ended;
		controller.abort(new Error('stopped'));
		await assert.rejects(open, /stopped/);
	});

	test('a gap over a minute (two sessions in one file) is skipped, not waited out', async () => {
		const time = fakeRealTime();
		const [first, second] = labRecords();
		const later: RecordLine = {...second!, at: first!.at + 3_600_000};
		const replay = createReplaySource({records: [first!, later], speed: 1, file: 'two.jsonl', realNow: time.realNow, sleep: time.sleep});
		await replay.fetchMetrics(signal);
		await replay.fetchMetrics(signal);
		assert.deepEqual(time.sleeps, [maxReplayGapMs]);
		assert.equal(replay.now(), later.at);
	});

	test('pausing (abort) during a wait serves the same line next, and shows its mark once', async () => {
		const time = fakeRealTime();
		let release: (() => void) | undefined;
		const sleep = async (ms: number, abort: AbortSignal) =>
			new Promise<void>((resolve, reject) => {
				abort.addEventListener('abort', () => reject(new Error('paused')), {once: true});
				release = () => {
					time.advance(ms);
					resolve();
				};
			});
		const records = labRecords();
		const replay = createReplaySource({records: records.slice(2), speed: 10, file: 'lab.jsonl', realNow: time.realNow, sleep});
		const marks: number[] = [];
		replay.onMark((at) => marks.push(at));
		await replay.fetchMetrics(signal); // record 3 (t0+20 s), no wait
		const controller = new AbortController();
		const waiting = replay.fetchMetrics(controller.signal);
		release!(); // the wait for the mark at t0+20.5 s ends
		await new Promise((resolve) => setImmediate(resolve));
		assert.deepEqual(marks, [markAt]);
		controller.abort(); // paused while waiting for the scrape at t0+30 s
		await assert.rejects(waiting, /paused/);
		const resumed = replay.fetchMetrics(signal);
		release!();
		assert.equal(await resumed, records[3]!.lines.join('\n') + '\n');
		assert.deepEqual(marks, [markAt]);
	});

	test('the label names the file, node, start and speed; the Node object comes from the record', async () => {
		const time = fakeRealTime();
		const replay = createReplaySource({records: labRecords(), speed: 4, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		assert.equal(replay.label, 'replay of lab.jsonl (node worker-1, recorded 2024-01-15T14:00:00.000Z) ×4');
		assert.deepEqual(await replay.fetchNode!(signal), {name: 'worker-1', kubeletVersion: 'v1.28.0', ready: null});
	});

	test('records are pulled one ahead as the replay reaches them; a bad line is said by the next fetch, then the replay ends', async () => {
		const time = fakeRealTime();
		const records = labRecords();
		const pulled: number[] = [];
		function* streamed() {
			for (const [index, record] of records.slice(0, 3).entries()) {
				pulled.push(index + 1);
				yield record;
			}

			throw new RecordingError(4, 'not JSON (Unexpected token)');
		}

		const replay = createReplaySource({records: streamed(), speed: 100, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		// The first line, for the label; nothing more until the replay asks.
		assert.deepEqual(pulled, [1]);
		await replay.fetchMetrics(signal);
		assert.deepEqual(pulled, [1, 2]);
		await replay.fetchMetrics(signal);
		assert.equal(await replay.fetchMetrics(signal), records[2]!.lines.join('\n') + '\n');
		await assert.rejects(replay.fetchMetrics(signal), (error: unknown) => {
			assert.ok(error instanceof SourceFailure);
			assert.deepEqual(error.failure, {kind: 'config', summary: 'lab.jsonl: line 4: not JSON (Unexpected token)', details: []});
			return true;
		});
		const controller = new AbortController();
		const open = replay.fetchMetrics(controller.signal);
		await replay.ended;
		controller.abort(new Error('stopped'));
		await assert.rejects(open, /stopped/);
	});

	test('recordedIntervalMs: the median gap, to 100 ms', () => {
		const at = (ms: number) => ({...labRecords()[0]!, at: ms});
		// gaps 1040, 1020, 5000 -> median 1040 -> 1000
		assert.equal(recordedIntervalMs([at(0), at(1040), at(2060), at(7060)]), 1000);
		assert.equal(recordedIntervalMs([at(0)]), 1000);
		// Only the first lines are read (a day's file is not read through for it), and a bad line ends the reading.
		function* endless() {
			for (let ms = 0; ; ms += 2000) yield at(ms);
		}

		assert.equal(recordedIntervalMs(endless()), 2000);
		function* broken() {
			yield at(0);
			yield at(3000);
			throw new RecordingError(3, 'not JSON');
		}

		assert.equal(recordedIntervalMs(broken()), 3000);
	});
});

describe('a replay through the real poller and feed', () => {
	test('the scrapes carry the recorded times and the feed derives the recorded figures', async () => {
		const time = fakeRealTime();
		const records = labRecords();
		const replay = createReplaySource({records, speed: 1, file: 'lab.jsonl', realNow: time.realNow, sleep: time.sleep});
		let state: FeedState = initialFeedState({node: replay.node, windowSeconds: 10});
		const reports: object[] = [];
		replay.onMark((at) => {
			state = feedReducer(state, {type: 'mark', at});
		});
		const poller = startPoller(
			{source: replay, intervalMs: 0, now: replay.now},
			{
				onScrape(scrape) {
					state = feedReducer(state, {type: 'scrape', scrape});
					reports.push(JSON.parse(JSON.stringify(jsonReport(figuresAt(state, scrape.at)!))));
				},
				onFailure(failure) {
					throw new Error(failure.summary);
				},
			},
		);
		await replay.ended;
		poller.stop();
		assert.deepEqual(
			reports,
			records.map((record) => record.figures),
		);
		assert.equal(state.baseline?.at, markAt);
		assert.equal(state.baseline?.scrape.at, t0 + 20_000);
	});
});

describe('the speed a replay reaches', () => {
	/** 61 lines a second apart from t0. */
	const second = () =>
		recordsOf(Array.from({length: 61}, (_, i) => ({at: t0 + i * 1000, totals: {...labTotals[0]!.totals, count: 100 + i}})));

	test('measured over 2 s of lines served back to back: ×10 asked, ×10 reached when each line costs nothing', async () => {
		const time = fakeRealTime();
		const replay = createReplaySource({records: second(), speed: 10, file: 'x.jsonl', realNow: time.realNow, sleep: time.sleep});
		assert.equal(replay.reachedSpeed(), null);
		for (let i = 0; i < 40; i++) await replay.fetchMetrics(signal);
		assert.equal(replay.reachedSpeed(), 10);
		assert.equal(reachingText({file: 'x', speed: 10, reached: replay.reachedSpeed()}), '');
	});

	test('×1000 asked, 250 ms of work a line: 4 recorded seconds a real second, said in the header', async () => {
		const time = fakeRealTime();
		const replay = createReplaySource({records: second(), speed: 1000, file: 'x.jsonl', realNow: time.realNow, sleep: time.sleep});
		for (let i = 0; i < 20; i++) {
			await replay.fetchMetrics(signal);
			time.advance(250);
		}

		// Each line is due 1 s / 1000 = 1 ms after the last is read (the clock holds at a served line until then): with
		// 250 ms of work, a recorded second every 251 ms, ×3.98.
		assert.equal(replay.reachedSpeed()!.toFixed(2), (1000 / 251).toFixed(2));
		assert.equal(reachingText({file: 'x', speed: 1000, reached: 4}), ' (reaching ×4)');
		assert.equal(reachingText({file: 'x', speed: 1000, reached: 231.4}), ' (reaching ×231)');
		assert.equal(reachingText({file: 'x', speed: 1000, reached: 4, ended: true}), '');
	});
});
