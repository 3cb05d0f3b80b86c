// The overview scheduler with mock timers: the request-rate bound, the stretched per-node interval, the
// in-flight bound, back-off after failures, and nodes that come and go.
import assert from 'node:assert/strict';
import {afterEach, beforeEach, describe, mock, test} from 'node:test';
import {effectiveIntervalMs, focusIntervalMs, startScheduler} from '../../source/engine/scheduler.js';

/** Lets settled promises run their callbacks between timer ticks. */
async function flush(): Promise<void> {
	for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** Advances the mock clock `ms` in steps of `step`, flushing promise callbacks after each. */
async function advance(ms: number, step = 10): Promise<void> {
	for (let done = 0; done < ms; done += step) {
		mock.timers.tick(step);
		await flush();
	}
}

/** Most starts inside any half-open window [t, t + 1000). */
function busiestSecond(starts: number[]): number {
	let most = 0;
	for (const start of starts) {
		most = Math.max(most, starts.filter((other) => other >= start && other < start + 1000).length);
	}

	return most;
}

/** A poll answering each node after `delayMs(node)`, noting each start and the most requests open at once. */
function timedPoll(delayMs: (node: string) => number) {
	const timed = {
		starts: [] as Array<{node: string; at: number}>,
		open: 0,
		most: 0,
		poll: async (node: string) => {
			timed.starts.push({node, at: Date.now()});
			timed.open++;
			timed.most = Math.max(timed.most, timed.open);
			await new Promise((resolve) => setTimeout(resolve, delayMs(node)));
			timed.open--;
			return true;
		},
	};
	return timed;
}

const names = (count: number) => Array.from({length: count}, (_, i) => `node-${String(i).padStart(2, '0')}`);

describe('overview scheduler', () => {
	beforeEach(() => {
		mock.timers.enable({apis: ['setTimeout', 'Date'], now: 1_000_000});
	});

	afterEach(() => {
		mock.timers.reset();
	});

	test('the stretched interval is nodes × 1000 / max-rps when that is longer than --interval', () => {
		// 50 nodes at 20/s: 50 / 20 = 2.5 s; 10 nodes at 20/s would allow 0.5 s, so --interval 1 s stands.
		assert.equal(effectiveIntervalMs(50, 1000, 20), 2500);
		assert.equal(effectiveIntervalMs(10, 1000, 20), 1000);
		// 200 nodes at 20/s: 10 s.
		assert.equal(effectiveIntervalMs(200, 1000, 20), 10_000);
	});

	test('50 nodes with --max-rps 20: never more than 20 starts in any second, each node every 2.5 s', async () => {
		const starts: Array<{node: string; at: number}> = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 20,
			now: Date.now,
			async poll(node) {
				starts.push({node, at: Date.now()});
				return true;
			},
		});
		scheduler.setNodes(names(50));
		assert.equal(scheduler.effectiveIntervalMs, 2500);
		await advance(20_000);
		scheduler.stop();
		const times = starts.map((start) => start.at);
		assert.equal(busiestSecond(times), 20);
		// 20 starts per second, one every 50 ms from t = 0: 400 before t = 20 s (the 401st is due at exactly 20 s).
		assert.equal(times.filter((at) => at < 1_000_000 + 20_000).length, 400);
		// After the first round every node is polled 2.5 s after its previous start (a 10 ms tick rounds up).
		const node7 = starts.filter((start) => start.node === 'node-07').map((start) => start.at);
		const gaps = node7.slice(1).map((at, i) => at - node7[i]!);
		assert.ok(gaps.length >= 7, `node-07 polled ${node7.length} times`);
		for (const gap of gaps) assert.ok(gap >= 2500 && gap <= 2510, `gap ${gap} ms`);
	});

	test('never more than --max-inflight requests at once when the server is slow', async () => {
		const slow = timedPoll(() => 400);
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 3,
			maxRps: 1000,
			now: Date.now,
			poll: slow.poll,
		});
		scheduler.setNodes(names(10));
		await advance(3000);
		scheduler.stop();
		assert.equal(slow.most, 3);
		// 3 at a time, 400 ms each: 3 per 400 ms = 7.5 per second, so about 22 in 3 s (whole batches: 8 × 3 = 24 started).
		assert.ok(scheduler.requestCount >= 21 && scheduler.requestCount <= 24, `${scheduler.requestCount} requests`);
	});

	test('a failing node backs off (1 s, 2 s, 4 s) while the others keep their interval', async () => {
		const starts: Array<{node: string; at: number}> = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 100,
			now: Date.now,
			async poll(node) {
				starts.push({node, at: Date.now()});
				return node !== 'bad';
			},
		});
		scheduler.setNodes(['good', 'bad']);
		await advance(7500);
		scheduler.stop();
		const bad = starts.filter((start) => start.node === 'bad').map((start) => start.at - 1_000_000);
		const good = starts.filter((start) => start.node === 'good');
		// First attempt at 10 ms (after 'good', 1000/100 = 10 ms apart), then +1 s, +2 s, +4 s (backoffDelay doubles).
		assert.deepEqual(bad, [10, 1010, 3010, 7010]);
		assert.equal(good.length, 8);
	});

	test('nodes that go are aborted and no longer polled; new nodes are polled at once', async () => {
		const aborted: string[] = [];
		const starts: string[] = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 100,
			now: Date.now,
			async poll(node, signal) {
				starts.push(node);
				return new Promise((resolve) => {
					const timer = setTimeout(() => resolve(true), 500);
					signal.addEventListener('abort', () => {
						clearTimeout(timer);
						aborted.push(node);
						resolve(false);
					});
				});
			},
		});
		scheduler.setNodes(['a', 'b']);
		await advance(100);
		scheduler.setNodes(['a', 'c']);
		await advance(100);
		assert.deepEqual(aborted, ['b']);
		assert.deepEqual(starts, ['a', 'b', 'c']);
		await advance(3000);
		scheduler.stop();
		assert.ok(!starts.slice(3).includes('b'));
	});

	test('8 hung nodes (answers after 30 s) do not hold the 8 slots: the 40 others are all read within 10 s', async () => {
		const hung = Array.from({length: 8}, (_, i) => `hung-${i}`);
		const timed = timedPoll((node) => (node.startsWith('hung') ? 30_000 : 50));
		const {starts} = timed;
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 20,
			now: Date.now,
			poll: timed.poll,
		});
		// The hung nodes first: they take every slot before any other node starts.
		scheduler.setNodes([...hung, ...names(40)]);
		// They start 50 ms apart (20/s); 2 s (slotMs) after its start each gives its slot up, still unanswered.
		await advance(1990);
		assert.deepEqual([scheduler.overdue, scheduler.inflight], [0, 8]);
		await advance(400);
		assert.equal(scheduler.overdue, 8);
		await advance(7610);
		const read = new Set(starts.filter((start) => start.at < 1_000_000 + 10_000).map((start) => start.node));
		assert.equal(names(40).filter((name) => read.has(name)).length, 40);
		// Never polled again while in flight; never more than 8 holding slots + 8 overdue at the API server.
		for (const node of hung) assert.equal(starts.filter((start) => start.node === node).length, 1, node);
		assert.ok(timed.most <= 16, `${timed.most} open`);
		scheduler.stop();
	});

	test('the neediest due node first, then the longest unread: 5 nodes at 1/s, the one in need read first', async () => {
		const starts: string[] = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 1,
			now: Date.now,
			need: (node) => (node === 'node-04' ? 0 : 2),
			async poll(node) {
				starts.push(node);
				return true;
			},
		});
		scheduler.setNodes(names(5));
		await advance(4500);
		// At 1/s every node is due at once: node-04 (need 0) first, then the rest in the order they became due.
		assert.deepEqual(starts, ['node-04', 'node-00', 'node-01', 'node-02', 'node-03']);
		// A node whose need rises is read at the next start, before the longest unread ones.
		scheduler.readSoon('node-02');
		starts.length = 0;
		await advance(1000);
		scheduler.stop();
		assert.equal(starts[0], 'node-04');
	});

	test('focusIntervalMs: the opened node keeps its own interval unless that would take more than half the rate', () => {
		assert.equal(focusIntervalMs(1000, 20), 1000);
		assert.equal(focusIntervalMs(1000, 2), 1000);
		// At 1 request/s, 1 s would take all of it: 2 s.
		assert.equal(focusIntervalMs(1000, 1), 2000);
		assert.equal(focusIntervalMs(500, 0.5), 4000);
	});

	test('a focused node every 1 s takes at most half the rate; the other 4 share the rest (each every 4 s at 2/s)', async () => {
		const starts: Array<{node: string; at: number}> = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 2,
			now: Date.now,
			async poll(node) {
				starts.push({node, at: Date.now()});
				return true;
			},
		});
		scheduler.setNodes(names(5));
		assert.equal(scheduler.effectiveIntervalMs, 2500);
		scheduler.focus('node-03', 1000);
		// 4 others at the 1 request/s left: 4 s each.
		assert.equal(scheduler.effectiveIntervalMs, 4000);
		await advance(20_000);
		scheduler.stop();
		const focused = starts.filter((start) => start.node === 'node-03').length;
		const busiest = busiestSecond(starts.map((start) => start.at));
		assert.ok(focused >= 19 && focused <= 21, `${focused} reads of the focused node in 20 s`);
		assert.ok(busiest <= 2, `${busiest} starts in one second`);
	});

	test('a 429 (fleet Retry-After) holds every node for the wait; then the reads go on', async () => {
		const starts: Array<{node: string; at: number}> = [];
		let throttle = true;
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 1,
			maxRps: 100,
			now: Date.now,
			async poll(node) {
				starts.push({node, at: Date.now() - 1_000_000});
				if (throttle) {
					throttle = false;
					return {retryAfterSeconds: 3, fleet: true};
				}

				return true;
			},
		});
		scheduler.setNodes(names(10));
		await advance(2900);
		assert.equal(starts.length, 1);
		assert.equal(scheduler.hold?.why, 'throttled');
		await advance(500);
		scheduler.stop();
		assert.ok(starts.length >= 10, `${starts.length} reads after the wait`);
		assert.ok(starts.slice(1).every((start) => start.at >= 3000));
	});

	test('an API server that does not answer: one try at a time, 1 s, 2 s, 4 s apart, whatever the number of nodes', async () => {
		const starts: number[] = [];
		const scheduler = startScheduler({
			intervalMs: 1000,
			maxInflight: 8,
			maxRps: 100,
			now: Date.now,
			async poll() {
				starts.push(Date.now() - 1_000_000);
				await new Promise((resolve) => setTimeout(resolve, 5));
				return 'server-down';
			},
		});
		scheduler.setNodes(names(30));
		await advance(8000);
		scheduler.stop();
		// What started before the first refusal came back (each a failed try: 1 s, 2 s), then one try after each
		// back-off (doubling, up to 4 s within 8 s).
		const later = starts.filter((at) => at >= 100);
		assert.ok(starts.length - later.length <= 2, `${starts.join(', ')}`);
		assert.ok(later.length >= 2 && later.length <= 3, `${starts.join(', ')}`);
		for (const [index, at] of later.entries())
			assert.ok(at - (starts[starts.length - later.length + index - 1] ?? 0) >= 1000, `${starts.join(', ')}`);
		assert.equal(scheduler.hold?.why, 'server-down');
	});
});
