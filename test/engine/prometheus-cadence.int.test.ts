// The Prometheus overview's cadence with mock timers: a refresh starts one interval after the previous one started
// (a slow answer does not stretch it), with a rest of a quarter interval when an answer takes longer than the
// interval; and one refresh is one reducer action that listeners still hear as one read per node.
import assert from 'node:assert/strict';
import {afterEach, beforeEach, describe, mock, test} from 'node:test';
import {startPrometheusOverview} from '../../source/engine/overview-engine.js';
import type {PrometheusFigures} from '../../source/domain/fleet/prometheus-feed.js';
import type {FiguresSource} from '../../source/sources/prometheus/source.js';

const t0 = 1_700_000_000_000;

/** A source whose every answer takes `answerMs` and holds `nodes`; notes when each fetch started. */
function slowSource(answerMs: number, nodes: string[]): FiguresSource & {starts: number[]} {
	const starts: number[] = [];
	return {
		label: 'test',
		node: null,
		windowSeconds: 60,
		starts,
		async fetchFigures() {
			starts.push(Date.now() - t0);
			await new Promise((resolve) => setTimeout(resolve, answerMs));
			const at = Date.now();
			const figures = new Map(nodes.map((node) => [node, {node, at, windowSeconds: 60, lastSeenAgeSeconds: 1} as PrometheusFigures]));
			return {figures, absent: new Map(), jobs: {chosen: null, others: [], asked: false}};
		},
	};
}

async function advance(ms: number): Promise<void> {
	for (let done = 0; done < ms; done += 10) {
		mock.timers.tick(10);
		for (let i = 0; i < 5; i++) await Promise.resolve();
	}
}

describe('Prometheus overview cadence', () => {
	beforeEach(() => {
		mock.timers.enable({apis: ['setTimeout', 'Date'], now: t0});
	});

	afterEach(() => {
		mock.timers.reset();
	});

	test('answers taking 400 ms at --interval 1s: a refresh starts every 1 s, not every 1.4 s', async () => {
		const source = slowSource(400, ['a']);
		const engine = startPrometheusOverview({source, intervalMs: 1000});
		await advance(3500);
		engine.stop();
		// The first refresh is due at once (the first 10 ms tick); the others follow it.
		assert.deepEqual(source.starts, [10, 1010, 2010, 3010]);
	});

	test('answers taking 1.2 s: the next starts a quarter interval after each answer (1.45 s apart)', async () => {
		const source = slowSource(1200, ['a']);
		const engine = startPrometheusOverview({source, intervalMs: 1000});
		await advance(3000);
		engine.stop();
		assert.deepEqual(source.starts, [10, 1460, 2910]);
	});

	test('one refresh of 3 nodes: each node heard once as a read, the state holds all three', async () => {
		const source = slowSource(100, ['a', 'b', 'c']);
		const engine = startPrometheusOverview({source, intervalMs: 1000});
		const heard: string[] = [];
		engine.subscribe((node, read) => {
			if (node !== null && read) heard.push(node);
		});
		await advance(500);
		engine.stop();
		assert.deepEqual(heard, ['a', 'b', 'c']);
		assert.deepEqual([...engine.state.nodes.keys()], ['a', 'b', 'c']);
	});
});
