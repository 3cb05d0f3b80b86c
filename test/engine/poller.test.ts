import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import {SourceFailure} from '../../source/sources/failure.js';
import type {Failure, Scrape} from '../../source/domain/types.js';
import {backoffDelay} from '../../source/domain/backoff.js';
import {startPoller} from '../../source/engine/poller.js';
import {startNodeEngine} from '../../source/engine/node-engine.js';
import {startFrames} from '../../source/engine/frames.js';
import {flush, ScriptedSource, useMockClock} from '../helpers/fake-source.js';

const dump = readFileSync(new URL('../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url), 'utf8');

describe('backoffDelay', () => {
	test('1 s doubling to 10 s after failures, never below the interval', () => {
		assert.deepEqual(
			[1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 1000)),
			[1000, 2000, 4000, 8000, 10_000, 10_000],
		);
		assert.deepEqual(
			[1, 2].map((n) => backoffDelay(n, 100)),
			[1000, 2000],
		);
		assert.equal(backoffDelay(1, 5000), 5000);
	});
});

describe('startPoller', () => {
	const {now, advance} = useMockClock(1_000_000);

	test('the next request starts one interval after the previous one ended; never two at once', async () => {
		const source = new ScriptedSource();
		const scrapes: Scrape[] = [];
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape: (s) => scrapes.push(s), onFailure() {}});
		await advance(0);
		assert.equal(source.calls, 1);
		// A slow answer: 3.5 s, longer than the interval. No second request meanwhile.
		await advance(3500);
		assert.equal(source.calls, 1);
		source.answer(dump);
		await flush();
		assert.equal(scrapes.length, 1);
		assert.equal(scrapes[0]!.latencyMs, 3500);
		assert.equal(scrapes[0]!.sample.lastSeenSeconds, 1_648_119_277);
		await advance(999);
		assert.equal(source.calls, 1, 'not before a full interval after the end');
		await advance(1);
		assert.equal(source.calls, 2);
		assert.equal(source.maxInFlight, 1);
		poller.stop();
	});

	test('failures back off 1 s, 2 s, 4 s, and a success returns to the interval', async () => {
		const source = new ScriptedSource();
		const failures: Failure[] = [];
		const poller = startPoller({source, intervalMs: 500, now}, {onScrape() {}, onFailure: (f) => failures.push(f)});
		const failure = new SourceFailure({kind: 'network', summary: 'connection refused', details: []});
		await advance(0);
		const callTimes: number[] = [];
		for (let i = 0; i < 3; i++) {
			source.fail(failure);
			await flush();
			const before = source.calls;
			let waited = 0;
			while (source.calls === before) {
				await advance(100);
				waited += 100;
			}

			callTimes.push(waited);
		}

		assert.deepEqual(callTimes, [1000, 2000, 4000]);
		assert.equal(failures.length, 3);
		assert.equal(failures[0]!.summary, 'connection refused');
		source.answer(dump);
		await flush();
		await advance(499);
		assert.equal(source.calls, 4);
		await advance(1);
		assert.equal(source.calls, 5);
		poller.stop();
	});

	test('an unparsable body is a parse failure, not a crash', async () => {
		const source = new ScriptedSource();
		const failures: Failure[] = [];
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure: (f) => failures.push(f)});
		await advance(0);
		source.answer('<html><body>502 Bad Gateway</body></html>');
		await flush();
		assert.equal(failures.length, 1);
		assert.equal(failures[0]!.kind, 'parse');
		assert.match(failures[0]!.summary, /metrics could not be parsed \(line 1\)/);
		poller.stop();
	});

	test('stop aborts the request in flight and nothing runs afterwards', async () => {
		const source = new ScriptedSource();
		let events = 0;
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape: () => events++, onFailure: () => events++});
		await advance(0);
		poller.stop();
		await flush();
		assert.equal(source.aborts, 1);
		await advance(60_000);
		assert.equal(source.calls, 1);
		assert.equal(events, 0, 'an aborted request is not reported as a failure');
		assert.equal(source.nodeCalls, 1, 'the node refresh timer was cleared too');
	});

	test('the Node object is re-read every 10 s', async () => {
		const source = new ScriptedSource();
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure() {}});
		await advance(0);
		assert.equal(source.nodeCalls, 1);
		await advance(10_000);
		assert.equal(source.nodeCalls, 2);
		poller.stop();
	});

	test("pause stops the Node object's reads too; resume reads it again at once", async () => {
		const source = new ScriptedSource();
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure() {}});
		await advance(0);
		assert.equal(source.nodeCalls, 1);
		poller.setPaused(true);
		await advance(35_000);
		assert.equal(source.nodeCalls, 1, 'no Node read in 35 s of pause');
		poller.setPaused(false);
		await advance(0);
		assert.equal(source.nodeCalls, 2);
		await advance(10_000);
		assert.equal(source.nodeCalls, 3, 'then every 10 s again');
		poller.stop();
	});

	test('a Node object the caller just read is not read again at once', async () => {
		const source = new ScriptedSource();
		const poller = startPoller({source, intervalMs: 1000, now, firstNodeReadMs: 10_000}, {onScrape() {}, onFailure() {}});
		await advance(9999);
		assert.equal(source.nodeCalls, 0);
		await advance(1);
		assert.equal(source.nodeCalls, 1);
		poller.stop();
	});

	test('pause stops polling; resume starts at once', async () => {
		const source = new ScriptedSource();
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure() {}});
		await advance(0);
		poller.setPaused(true);
		await flush();
		assert.equal(source.aborts, 1);
		await advance(5000);
		assert.equal(source.calls, 1);
		poller.setPaused(false);
		await advance(0);
		assert.equal(source.calls, 2);
		poller.stop();
	});

	test('scrapes share one signal until a pause aborts it; the next scrape gets a fresh one, and stop aborts that', async () => {
		const source = new ScriptedSource();
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure() {}});
		const signals: AbortSignal[] = [];
		for (let scrape = 0; scrape < 3; scrape++) {
			await advance(scrape === 0 ? 0 : 1000);
			signals.push(source.pending[0]!.signal);
			source.answer(dump);
			await flush();
		}

		assert.equal(new Set(signals).size, 1);
		assert.equal(signals[0]!.aborted, false);
		await advance(1000);
		poller.setPaused(true);
		await flush();
		assert.equal(signals[0]!.aborted, true, 'the pause aborted the request in flight');
		poller.setPaused(false);
		await advance(0);
		const fresh = source.pending.at(-1)!.signal;
		assert.notEqual(fresh, signals[0]);
		assert.equal(fresh.aborted, false);
		poller.stop();
		assert.equal(fresh.aborted, true);
	});
});

describe('startNodeEngine: one node as an engine of one node', () => {
	const {now, advance} = useMockClock(1_000_000);

	test("each read is one event for the node, at the scrape's time; the Node object given at start is shown at once", async () => {
		const source = new ScriptedSource();
		const payloads: number[] = [];
		const engine = startNodeEngine({
			source,
			pollMs: 1000,
			windowSeconds: 10,
			now,
			node: {name: 'node-a', kubeletVersion: 'v1.21.2', ready: null},
			onPayload: (_text, scrape) => payloads.push(scrape.at),
		});
		const events: Array<[string | null, boolean, number]> = [];
		engine.subscribe((node, read, at) => events.push([node, read, at]));
		assert.equal(engine.single, 'node-a');
		assert.equal(engine.state.nodes.get('node-a')!.info?.kubeletVersion, 'v1.21.2');
		await advance(0);
		await advance(250);
		source.answer(dump);
		await flush();
		assert.deepEqual(events, [['node-a', true, 1_000_250]]);
		assert.deepEqual(payloads, [1_000_250]);
		const view = engine.kind.figures(engine.state.nodes.get('node-a')!.feed, now());
		assert.equal(view?.lifetime?.count, 1_671_950);
		assert.equal(source.nodeCalls, 0, 'not read again at once');
		engine.stop();
	});

	test('a failed read is an event too; pause and mark are not reads; mark reaches the lab recorder', async () => {
		const source = new ScriptedSource();
		const marks: number[] = [];
		const engine = startNodeEngine({source, pollMs: 1000, windowSeconds: 10, now, onMark: (at) => marks.push(at)});
		const events: Array<[string | null, boolean]> = [];
		engine.subscribe((node, read) => events.push([node, read]));
		await advance(0);
		source.fail(new SourceFailure({kind: 'forbidden', summary: 'no', details: []}));
		await flush();
		engine.mark(now());
		engine.setPaused(true);
		assert.equal(engine.paused, true);
		assert.deepEqual(
			events.filter(([node]) => node === 'node-a'),
			[
				['node-a', true],
				['node-a', false],
				['node-a', false],
			],
		);
		assert.deepEqual(marks, [now()]);
		const status = engine.kind.status(engine.state.nodes.get('node-a')!.feed);
		assert.equal(status.failure?.kind, 'forbidden');
		assert.equal(status.lastGoodAt, null);
		engine.stop();
	});
});

describe('startFrames: when a screen draws', () => {
	const {now, advance, moveClock} = useMockClock(2_000_000);
	/** A one-node engine on a scripted source (its requests hang until answered) and the times of its frames. */
	const drawing = (throttleMs: number) => {
		const source = new ScriptedSource();
		const engine = startNodeEngine({source, pollMs: 60_000, windowSeconds: 120, now});
		const frames: number[] = [];
		const stop = startFrames(engine, {throttleMs}, (at) => frames.push(at));
		return {source, engine, frames, stop};
	};

	test('a frame at each change (at its time), one a second while nothing changes, none moving while paused', async () => {
		const {source, engine, frames, stop} = drawing(0);
		await advance(0);
		// The Node object came at once (a frame); then the request hangs. A second later nothing is drawn yet (the
		// next answer may be on its way), a quarter second after that the clock moves, then once a second.
		await advance(1000);
		assert.deepEqual(frames, [2_000_000]);
		await advance(250);
		await advance(1000);
		await advance(1000);
		assert.deepEqual(frames, [2_000_000, 2_001_250, 2_002_250, 2_003_250]);
		moveClock(300);
		source.answer(dump);
		await flush();
		assert.deepEqual(frames.slice(4), [2_003_550], 'the scrape draws at once, at its time');
		engine.setPaused(true);
		const paused = frames.length;
		await advance(5000);
		engine.mark(now());
		assert.ok(
			frames.slice(paused).every((at) => at === frames[paused]),
			`paused frames ${frames.slice(paused).join(', ')}`,
		);
		assert.equal(frames.length, paused + 1, 'no tick while paused, one frame for the mark, at the frozen time');
		stop();
		engine.stop();
	});

	test("a change a request's time after each second (the default interval): one frame per change, none between", async () => {
		const {engine, frames, stop} = drawing(0);
		await advance(0);
		const changes: number[] = [];
		for (const gap of [1000, 1010, 1040, 1200, 1010]) {
			await advance(gap);
			engine.mark(now());
			changes.push(now());
		}

		// The Node object's frame, then one per change, and no idle frame between them.
		assert.deepEqual(frames, [2_000_000, ...changes]);
		assert.deepEqual(changes, [2_001_000, 2_002_010, 2_003_050, 2_004_250, 2_005_260]);
		stop();
		engine.stop();
	});

	test('throttled: many changes within throttleMs make one frame', async () => {
		const {engine, frames, stop} = drawing(250);
		for (let index = 0; index < 5; index++) engine.mark(now());
		await advance(249);
		assert.deepEqual(frames, []);
		await advance(1);
		assert.deepEqual(frames, [2_000_250]);
		stop();
		engine.stop();
	});
});
