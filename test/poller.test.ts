import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {afterEach, beforeEach, describe, mock, test} from 'node:test';
import {SourceFailure} from '../source/sources/failure.js';
import type {Failure, Scrape} from '../source/domain/types.js';
import {backoffDelay} from '../source/domain/backoff.js';
import {startPoller} from '../source/engine/poller.js';
import {flush, ScriptedSource} from './helpers/fake-source.js';

const dump = readFileSync(new URL('fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url), 'utf8');

describe('backoffDelay', () => {
	test('1 s doubling to 10 s after failures, never below the interval', () => {
		assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 1000)), [1000, 2000, 4000, 8000, 10_000, 10_000]);
		assert.deepEqual([1, 2].map((n) => backoffDelay(n, 100)), [1000, 2000]);
		assert.equal(backoffDelay(1, 5000), 5000);
	});
});

describe('startPoller', () => {
	let clock = 0;
	const now = () => clock;
	const advance = async (ms: number) => {
		clock += ms;
		mock.timers.tick(ms);
		await flush();
	};

	beforeEach(() => {
		clock = 1_000_000;
		mock.timers.enable({apis: ['setTimeout']});
	});
	afterEach(() => {
		mock.timers.reset();
	});

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
});
