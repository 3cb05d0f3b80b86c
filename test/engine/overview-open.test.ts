// The node opened from the overview's table: its Node object and Events are read while it is open, only for it, on
// the Node object's cadence, and no longer once the table is back.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {MetricsSource, NodeEvents, NodeInfo} from '../../source/domain/types.js';
import {startProxyOverview} from '../../source/engine/overview-engine.js';
import type {FeedState} from '../../source/domain/feed.js';
import {useMockClock} from '../helpers/fake-source.js';

const start = 1_700_000_000_000;
const metrics = '# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1700000000\n';
const listed = (name: string): NodeInfo => ({
	name,
	kubeletVersion: 'v1.28.4',
	ready: {status: 'True', reason: 'KubeletReady', message: null, since: null},
});
const lost = (name: string): NodeInfo => ({
	name,
	kubeletVersion: 'v1.28.4',
	ready: {status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', since: start - 70_000},
	pods: {count: 7, error: null},
});
const events: NodeEvents = {
	events: [
		{
			type: 'Normal',
			reason: 'NodeNotReady',
			message: 'now NotReady',
			count: 1,
			lastTimestamp: (start - 65_000) / 1000,
			source: 'node-controller',
		},
	],
	error: null,
};

describe('the overview engine: a node opened from the table', () => {
	const clock = useMockClock(start);

	function fleet() {
		const calls: string[] = [];
		/** The signals of the Node object reads, to see an open one aborted. */
		const nodeSignals: AbortSignal[] = [];
		let hang = false;
		const forNode = (name: string): MetricsSource => ({
			label: name,
			node: name,
			fetchMetrics: async () => metrics,
			async fetchNode(signal) {
				calls.push(`node ${name}`);
				nodeSignals.push(signal);
				if (hang) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
				return lost(name);
			},
			async fetchEvents() {
				calls.push(`events ${name}`);
				return events;
			},
		});
		const engine = startProxyOverview({
			fleet: {label: 'all nodes via memory', listNodes: async () => [listed('a'), listed('b')], forNode},
			intervalMs: 1000,
			windowSeconds: 10,
			maxInflight: 4,
			maxRps: 100,
			now: clock.now,
			relistMs: 600_000,
			nodeRefreshMs: 10_000,
		});
		return {
			engine,
			calls,
			nodeSignals,
			hang: () => {
				hang = true;
			},
		};
	}

	const feed = (engine: {state: {nodes: ReadonlyMap<string, {feed: unknown; info: NodeInfo | null}>}}, name: string) =>
		engine.state.nodes.get(name)!.feed as FeedState;

	test('nothing but metrics before a node is opened; then its Node object and Events at once and every 10 s, for it alone', async () => {
		const {engine, calls} = fleet();
		try {
			await clock.advance(5000);
			assert.deepEqual(calls, []);
			engine.open!('a');
			await clock.advance(0);
			assert.deepEqual(calls, ['node a', 'events a']);
			assert.deepEqual(engine.state.nodes.get('a')!.info, lost('a'));
			assert.deepEqual(feed(engine, 'a').node?.pods, {count: 7, error: null});
			assert.deepEqual(feed(engine, 'a').nodeEvents?.events, events.events);
			// Node b keeps what the list said.
			assert.deepEqual(engine.state.nodes.get('b')!.info, listed('b'));
			assert.equal(feed(engine, 'b').nodeEvents, null);
			await clock.advance(10_000);
			assert.deepEqual(calls, ['node a', 'events a', 'node a', 'events a']);
			// Opened again: nothing new starts.
			engine.open!('a');
			await clock.advance(0);
			assert.equal(calls.length, 4);
		} finally {
			engine.stop();
		}
	});

	test('back to the table: no more reads, and the one in flight is aborted; another node opened reads only that one', async () => {
		const {engine, calls, nodeSignals, hang} = fleet();
		try {
			await clock.advance(1000);
			engine.open!('a');
			await clock.advance(0);
			engine.open!(null);
			await clock.advance(60_000);
			assert.deepEqual(calls, ['node a', 'events a']);
			hang();
			engine.open!('b');
			await clock.advance(0);
			assert.deepEqual(calls.slice(2), ['node b', 'events b']);
			assert.equal(nodeSignals.at(-1)!.aborted, false);
			engine.open!(null);
			assert.equal(nodeSignals.at(-1)!.aborted, true);
			await clock.advance(60_000);
			assert.equal(calls.length, 4);
			// A stopped engine opens nothing.
			engine.stop();
			engine.open!('a');
			await clock.advance(20_000);
			assert.equal(calls.length, 4);
		} finally {
			engine.stop();
		}
	});
});
