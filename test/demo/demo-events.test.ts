// The demo kubelet's Events, in its own time: NodeNotReady when a stall passes the 3-minute threshold, NodeReady at
// the first relist after it, ContainerGCFailed each time container GC's ListContainers waits out the 2-minute
// runtime request timeout on the hung runtime (its duration and error counted in the CRI series too), and
// Starting at a kubelet restart. Served through createDemoSource as the API server would: whole seconds.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createDemoSource} from '../../source/demo/demo-source.js';
import {SimulatedKubelet} from '../../source/demo/simulated-kubelet.js';

// 2023-11-14T22:13:20Z: any fixed instant; the simulation reads only this clock.
const t0 = 1_700_000_000_000;

function simulate() {
	let now = t0;
	const clock = {
		now: () => now,
		advanceSeconds(seconds: number) {
			now += seconds * 1000;
		},
	};
	// Up 20 minutes, like the demo; timestamps on the simulated clock (speed 1: the same as this one).
	const kubelet = new SimulatedKubelet({now: clock.now, seed: 7, startedAt: t0 - 20 * 60_000, timestamps: 'simulated'});
	return {clock, kubelet};
}

const reasons = (kubelet: SimulatedKubelet) => kubelet.events().map((event) => `${event.reason} ×${event.count}`);

describe('the demo kubelet records Events about its Node', () => {
	test('idle for 20 minutes: none', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(600);
		assert.deepEqual(kubelet.events(), []);
	});

	test('a stall: NodeNotReady 3 minutes after the last successful relist start, GC failures every 3 minutes, NodeReady on recovery', () => {
		const {clock, kubelet} = simulate();
		const before = kubelet.stats().runtimeOperations.list_containers;
		kubelet.stall();
		clock.advanceSeconds(170);
		assert.deepEqual(kubelet.events(), [], 'nothing before the threshold');
		clock.advanceSeconds(20);
		const lastStart = kubelet.stats().lastSuccessfulStartMs!;
		const notReady = kubelet.events().find((event) => event.reason === 'NodeNotReady');
		assert.deepEqual(notReady, {
			type: 'Normal',
			reason: 'NodeNotReady',
			message: 'Node demo-node status is now: NodeNotReady',
			count: 1,
			// The moment the kubelet's rule trips: the last successful relist start + the threshold.
			firstMs: lastStart + 180_000,
			lastMs: lastStart + 180_000,
			source: 'kubelet',
		});

		// GC runs a minute after its last run (at most 60 s after the stall began), waits 120 s, fails, waits 60 s …
		clock.advanceSeconds(600);
		const gc = kubelet.events().find((event) => event.reason === 'ContainerGCFailed')!;
		assert.equal(gc.type, 'Warning');
		assert.equal(gc.message, 'rpc error: code = DeadlineExceeded desc = context deadline exceeded');
		// 790 s into the stall: the first failure by 180 s, then one every 180 s: 4 (at ≤ 180, ≤ 360, ≤ 540, ≤ 720 s).
		assert.ok(gc.count === 4 || gc.count === 5, `count ${gc.count}`);
		assert.equal(gc.lastMs - gc.firstMs, (gc.count - 1) * 180_000);
		const after = kubelet.stats().runtimeOperations.list_containers;
		assert.equal(after.errors - before.errors, gc.count, 'one ListContainers error per failed GC run');
		assert.ok(Math.abs(after.secondsSum - before.secondsSum - 120 * gc.count) < 1e-6, 'each failed call took the 120 s timeout');

		kubelet.recover();
		clock.advanceSeconds(5);
		const ready = kubelet.events().find((event) => event.reason === 'NodeReady')!;
		assert.equal(ready.message, 'Node demo-node status is now: NodeReady');
		assert.equal(kubelet.readyCondition().status, 'True');
		// Newest first.
		assert.deepEqual(reasons(kubelet)[0], 'NodeReady ×1');
	});

	test('a second stall counts the same Event up, as the API server aggregates it', () => {
		const {clock, kubelet} = simulate();
		for (let round = 0; round < 2; round++) {
			kubelet.stall();
			clock.advanceSeconds(200);
			kubelet.recover();
			clock.advanceSeconds(30);
		}

		const byReason = new Map(kubelet.events().map((event) => [event.reason, event.count]));
		assert.equal(byReason.get('NodeNotReady'), 2);
		assert.equal(byReason.get('NodeReady'), 2);
	});

	test('x (a kubelet restart, not a node reboot): Starting and NodeAllocatableEnforced, no Rebooted', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(30);
		kubelet.restart();
		clock.advanceSeconds(10);
		assert.deepEqual(reasons(kubelet).sort(), ['NodeAllocatableEnforced ×1', 'Starting ×1']);
		assert.equal(kubelet.events().find((event) => event.reason === 'Starting')?.message, 'Starting kubelet.');
	});
});

describe('createDemoSource serves them as Events', () => {
	test('whole seconds on the simulated clock, newest first, never an error', async () => {
		let now = t0;
		const source = createDemoSource({speed: 60, seed: 1, now: () => now});
		source.controls.stall();
		// 4 real seconds at 60×: 240 simulated seconds, past the threshold.
		now += 4000;
		const {events, error} = await source.fetchEvents(new AbortController().signal);
		assert.equal(error, null);
		// The first GC run on the hung runtime fails too (at most 180 s into the stall).
		assert.deepEqual(events.map((event) => event.reason).sort(), ['ContainerGCFailed', 'NodeNotReady']);
		assert.ok(events[0]!.lastTimestamp! >= events[1]!.lastTimestamp!, 'newest first');
		const notReady = events.find((event) => event.reason === 'NodeNotReady');
		assert.ok(Number.isInteger(notReady!.lastTimestamp));
		// On the simulated clock: within the 240 s of simulated time, before source.now().
		assert.ok(notReady!.lastTimestamp! * 1000 <= source.now() && notReady!.lastTimestamp! * 1000 > source.now() - 240_000);
		assert.equal(notReady!.source, 'kubelet');
	});
});
