// An engine says whether it is one node's or every node's by its `scope` tag: a Prometheus engine takes it from its
// source (a node asked for, or none), and the tag leaves the engine's getters live.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {never, scopedEngine, type EngineCore, type Timers} from '../../source/engine/engine.js';
import {initialOverviewState} from '../../source/domain/fleet/overview-state.js';
import {startPrometheusOverview} from '../../source/engine/overview-engine.js';
import {prometheusFeedKind, type PrometheusFigures} from '../../source/domain/fleet/prometheus-feed.js';
import type {FiguresSource} from '../../source/sources/prometheus/source.js';

const at = 1_700_000_000_000;

/** Timers that only hold their callbacks: the test runs them by hand. */
function heldTimers(): Timers & {run(): void} {
	const held: Array<() => void> = [];
	return {
		setTimeout(callback) {
			held.push(callback);
			return held.length;
		},
		clearTimeout: () => undefined,
		run: () => held.shift()?.(),
	};
}

/** A Prometheus source of `node` (null: every node) whose answer holds worker-1 and worker-2. */
function source(node: string | null): FiguresSource {
	const figures = (name: string) => ({node: name, at, windowSeconds: 60, lastSeenAgeSeconds: 1}) as PrometheusFigures;
	return {
		label: 'test',
		node,
		windowSeconds: 60,
		fetchFigures: async () => ({
			figures: new Map([figures('worker-1'), figures('worker-2')].map((each) => [each.node, each])),
			absent: new Map(),
			jobs: {chosen: null, others: [], asked: false},
		}),
	};
}

describe('engine scope', () => {
	test("a Prometheus engine with a node is that node's engine, and its state getter still reads the live state", async () => {
		const timers = heldTimers();
		const engine = startPrometheusOverview({source: source('worker-1'), intervalMs: 1000, now: () => at, timers});
		assert.equal(engine.scope, 'node');
		assert.equal(engine.scope === 'node' && engine.single, 'worker-1');
		assert.deepEqual([...engine.state.nodes.keys()], []);
		timers.run();
		await new Promise((resolve) => setImmediate(resolve));
		// Only the asked node is listed, though the answer held two.
		assert.deepEqual([...engine.state.nodes.keys()], ['worker-1']);
		assert.equal(engine.requestCount, 1);
		engine.stop();
	});

	test("a Prometheus engine without a node is every node's, with no single node", async () => {
		const timers = heldTimers();
		const engine = startPrometheusOverview({source: source(null), intervalMs: 1000, now: () => at, timers});
		assert.equal(engine.scope, 'fleet');
		assert.equal('single' in engine, false);
		timers.run();
		await new Promise((resolve) => setImmediate(resolve));
		assert.deepEqual([...engine.state.nodes.keys()], ['worker-1', 'worker-2']);
		engine.stop();
	});

	test('scopedEngine tags the object it is given: a getter of the core is read at each access, not copied', () => {
		let reads = 0;
		const core: EngineCore = {
			kind: prometheusFeedKind,
			state: initialOverviewState(60),
			label: 'test',
			cadence: () => 'every 1s',
			effectiveIntervalMs: () => 1000,
			subscribe: () => () => undefined,
			now: () => at,
			paused: false,
			setPaused: () => undefined,
			mark: () => undefined,
			get requestCount() {
				return ++reads;
			},
			ended: never,
			stop: () => undefined,
		};
		const engine = scopedEngine(core, 'worker-1');
		assert.equal(engine, core);
		assert.equal(reads, 0);
		assert.equal(engine.requestCount, 1);
		assert.equal(engine.requestCount, 2);
		assert.deepEqual(engine.scope === 'node' ? engine.single : null, 'worker-1');
	});
});
