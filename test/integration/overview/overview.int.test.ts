// The cluster overview end to end: a fake API server with twelve simulated kubelets (idle, churning, one stalled
// past the 3-minute threshold, one whose proxy answers 502), polled through the scheduler; the table's order
// and statuses; Enter/Esc between the table and the one-node screen; and the rate bound with 50 nodes.
import assert from 'node:assert/strict';
import {stripVTControlCharacters} from 'node:util';
import {after, before, describe, mock, test} from 'node:test';
import React from 'react';
import {render} from 'ink-testing-library';
import {createApiServerSource, type ApiServerSource} from '../../../source/sources/api-server.js';
import {loadKubeconfig} from '../../../source/sources/kube/kubeconfig.js';
import {SimulatedKubelet} from '../../../source/demo/simulated-kubelet.js';
import type {NodeInfo} from '../../../source/domain/types.js';
import {startProxyOverview, type OverviewEngine} from '../../../source/engine/overview-engine.js';
import {OverviewApp} from '../../../source/screen/overview-app.js';
import {sortedRows} from '../../../source/screen/overview-rows.js';
import {nodeView} from '../../../source/domain/fleet/overview-state.js';
import {overviewTableLines} from '../../../source/screen/panes/overview-table.js';
import {lineText, lineWidth} from '../../../source/screen/layout/line.js';
import {startFakeApiServer, type FakeApiServer} from '../../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../../helpers/kubeconfig-files.js';
import {until} from '../../helpers/until.js';

const idle = ['idle-1', 'idle-2', 'idle-3', 'idle-4', 'idle-5', 'idle-6', 'idle-7', 'idle-8'];
const churning = ['churn-1', 'churn-2'];
const stalled = 'stalled-1';
const unreachable = 'gone-kubelet';

/** Every waiting loop gives up after this, so a broken run fails instead of hanging, ms. */
const patienceMs = 15_000;

describe('cluster overview through the API server', () => {
	let fake: FakeApiServer;
	let temp: TempDir;
	let fleet: ApiServerSource;
	let engine: OverviewEngine<unknown>;
	// One clock for the kubelets and the overview: real time plus a jump, so the stalled node is 200 s past its
	// last relist without the test waiting 200 s.
	let offset = 0;
	const clock = () => Date.now() + offset;

	before(async () => {
		const started = clock() - 10 * 60_000;
		const kubelets = new Map<string, SimulatedKubelet>();
		for (const [index, name] of [...idle, ...churning, stalled, unreachable].entries()) {
			kubelets.set(name, new SimulatedKubelet({now: clock, seed: index + 1, nodeName: name, startedAt: started}));
		}

		for (const name of churning) kubelets.get(name)!.churn(true);
		kubelets.get(stalled)!.stall();
		offset += 200_000;
		fake = await startFakeApiServer({
			nodes: [...kubelets].map(([name, kubelet]) => ({
				name,
				ready: name === stalled ? {status: 'False' as const, reason: 'KubeletNotReady', message: 'PLEG is not healthy'} : undefined,
				metrics: () => kubelet.metricsText(),
				// The kubelets' Date is on the jumped clock too: the overview learns each node's clock offset from it.
				clockOffsetSeconds: offset / 1000,
			})),
			tokens: {'overview-token-0123456789': 'admin'},
		});
		fake.setFault({type: 'status', code: 502}, {route: 'metrics', node: unreachable});
		temp = makeTempDir();
		const file = temp.write(
			'kubeconfig.yaml',
			kubeconfigYaml(singleContext(fake.url, {name: 'admin', token: 'overview-token-0123456789'})),
		);
		fleet = createApiServerSource({
			loaded: loadKubeconfig({kubeconfig: file, env: {}, homeDir: temp.dir}),
			node: '(all nodes)',
			timeoutMs: 5000,
			now: Date.now,
		});
		engine = startProxyOverview({
			fleet: {label: 'all nodes via fake', listNodes: fleet.listNodes, forNode: fleet.forNode},
			intervalMs: 250,
			windowSeconds: 3,
			maxInflight: 4,
			maxRps: 100,
			now: clock,
		});
		const reads = new Map<string, number>();
		engine.subscribe((node) => {
			if (node !== null) reads.set(node, (reads.get(node) ?? 0) + 1);
		});
		// The unreachable node backs off (1 s, 2 s, …): two reads of it, four of every other.
		await until(
			() => [...kubelets.keys()].every((name) => (reads.get(name) ?? 0) >= (name === unreachable ? 2 : 4)),
			'reads of every node',
			patienceMs,
		);
	});

	after(async () => {
		engine.stop();
		fleet.close();
		await fake.close();
		temp.remove();
	});

	const rowsNow = () =>
		sortedRows(
			[...engine.state.nodes.values()].map((entry) => nodeView(engine.kind, entry, clock())),
			{now: clock(), cycleMs: engine.effectiveIntervalMs()},
		);

	test('worst first: the stalled node, then the unreachable one, then the healthy ones', () => {
		const rows = rowsNow();
		assert.equal(rows.length, 12);
		assert.equal(rows[0]!.name, stalled);
		assert.equal(rows[0]!.word, 'unhealthy');
		assert.equal(rows[0]!.ready, 'False');
		// The clock jumped 200 s after the stall, plus the real seconds the set-up took: past the 180 s threshold.
		assert.ok(
			rows[0]!.lastSeenAgeSeconds! > 180 && rows[0]!.lastSeenAgeSeconds! < 200 + patienceMs / 1000 + 5,
			`age ${rows[0]!.lastSeenAgeSeconds}`,
		);
		assert.equal(rows[1]!.name, unreachable);
		// A read that failed before any good one: an error saying why, ranked below unhealthy, above the rest.
		assert.equal(rows[1]!.state, 'error');
		assert.equal(rows[1]!.word, 'error');
		assert.equal(rows[1]!.reason, 'kubelet unreachable');
		assert.equal(rows[1]!.failure?.kind, 'kubelet-unreachable');
		assert.equal(rows[1]!.failure?.summary, 'the API server cannot reach the kubelet on node "gone-kubelet"');
		// Churning relists take 10-50 times the idle ones: a churning node is `slow` exactly when its p99 is at least
		// 10 × the median p99 of the other nodes read now (the stalled and unreachable ones have none).
		const p99s = new Map(rows.map((row) => [row.name, row.failure === null ? (row.p99?.seconds ?? null) : null]));
		for (const row of rows.slice(2)) {
			const others = [...p99s]
				.filter(([name, p99]) => name !== row.name && p99 !== null)
				.map(([, p99]) => p99!)
				.sort((a, b) => a - b);
			const half = Math.floor(others.length / 2);
			const median = others.length % 2 === 1 ? others[half]! : (others[half - 1]! + others[half]!) / 2;
			const slow = row.p99 !== null && others.length >= 2 && row.p99.seconds >= 10 * median;
			assert.equal(
				row.state,
				slow ? 'slow' : 'ok',
				`${row.name}: ${row.word}, p99 ${row.p99?.seconds} vs median ${median} of ${others.length}`,
			);
			if (idle.includes(row.name)) assert.equal(row.state, 'ok', `${row.name} is idle`);
			assert.ok(row.lastSeenAgeSeconds !== null && row.lastSeenAgeSeconds <= 5, `${row.name} age ${row.lastSeenAgeSeconds}`);
			assert.equal(row.kubeletVersion, 'v1.28.4');
		}
	});

	test('every node is polled through the one keep-alive agent: a handful of TLS connections, not one per request', async () => {
		// The set-up waited for 46 reads (four of each node, two of the unreachable one); the polling goes on meanwhile.
		const requests = () => fake.requests.filter((request) => request.path.endsWith('/proxy/metrics'));
		await until(() => requests().length >= 48, '48 requests of the kubelets', patienceMs);
		const metrics = requests();
		// At most 4 requests in flight (--max-inflight 4): the agent never needs more sockets than that, plus the list.
		assert.ok(fake.maxInFlight <= 5, `max in flight ${fake.maxInFlight}`);
		assert.ok(fake.connections <= 6, `${fake.connections} connections for ${metrics.length} requests`);
	});

	test('the table: every line within the width, stalled row first and marked, the cadence said', () => {
		for (const width of [60, 100, 140]) {
			const rows = rowsNow();
			const lines = overviewTableLines({
				rows,
				selected: null,
				sourceLabel: engine.label,
				cadence: engine.cadence(),
				listFailure: null,
				now: clock(),
				width,
				height: 30,
			});
			for (const line of lines) assert.ok(lineWidth(line) <= width, `${lineWidth(line)} > ${width}: ${lineText(line)}`);
			const texts = lines.map(lineText);
			assert.equal(texts[1], 'each node every 250ms · ≤ 4 at once'.slice(0, width));
			// The unreachable kubelet is an error, not a PLEG verdict: counted apart from the unhealthy node.
			const slow = rows.filter((row) => row.state === 'slow').length;
			assert.equal(texts[2], `✗ 1 unhealthy · ? 1 error · ! 0 warn · ${slow > 0 ? `! ${slow} slow · ` : ''}✓ ${10 - slow} ok`);
			// The status column is as wide as its longest entry, "? kubelet unreachable" (21 cells).
			assert.ok(texts[4]!.startsWith(`› ${'✗ unhealthy'.padEnd(21)}  ${stalled} `), texts[4]);
			// At 60 columns the name is cut to the room left ("gone-kubel…").
			assert.match(texts[5]!, /^ {2}\? kubelet unreachable {2}gone-kubel/);
		}
	});

	test("arrow down and Enter open that node's one-node screen; Esc returns to the table", async () => {
		const header = {kube: {context: 'on-call', cluster: 'prod', kubeconfig: '/k/prod config'}};
		const app = render(React.createElement(OverviewApp<unknown>, {engine, renderEveryMs: 50, size: {columns: 120, rows: 30}, header}));
		const frame = () => stripVTControlCharacters(app.lastFrame() ?? '');
		try {
			await until(
				() => frame().includes(`› ${'✗ unhealthy'.padEnd(21)}  ${stalled}`),
				'the table with the stalled node selected',
				patienceMs,
			);
			app.stdin.write('\u001B[B');
			await until(() => frame().includes(`› ? kubelet unreachable  ${unreachable}`), 'the selection on the second row', patienceMs);
			app.stdin.write('\r');
			await until(() => frame().includes('q back'), 'the one-node screen', patienceMs);
			const screen = frame();
			// The node named once, the context (it names the cluster, so the API server's URL is left out), then its
			// container runtime from the Node object.
			assert.match(
				screen.split('\n')[0]!,
				new RegExp(`^pleg-top · ${unreachable} · on-call \\(cluster prod\\) · kubelet v1.28.4 · containerd://1.7.2 · q/Esc: all nodes`),
			);
			assert.match(screen, /the API server cannot reach the kubelet on node "gone-kubelet"/);
			// q goes back from here, and the key hints say so.
			assert.match(screen, / {2}q back {2}\? help/);
			// As on `pleg-top NODE --context on-call`: the context in the header (the next steps take their target from it).
			assert.match(screen, /on-call \(cluster prod\)/);
			app.stdin.write('\u001B');
			await until(() => frame().includes('↑↓ select'), 'the table again', patienceMs);
			// The selection is kept.
			assert.ok(frame().includes(`› ? kubelet unreachable  ${unreachable}`));
		} finally {
			app.unmount();
		}
	});
});

describe('rate bound with 50 nodes (mock timers)', () => {
	test('--max-rps 20: at most 20 requests in any second, the screen says each node every 2.5s', async () => {
		mock.timers.enable({apis: ['setTimeout', 'Date'], now: 1_700_000_000_000});
		try {
			const names = Array.from({length: 50}, (_, i) => `n-${i}`);
			const kubelets = new Map(names.map((name, i) => [name, new SimulatedKubelet({now: Date.now, seed: i + 1, nodeName: name})]));
			const starts: number[] = [];
			const fleet = {
				label: 'all nodes via memory',
				listNodes: async () => names.map((name): NodeInfo => ({name, kubeletVersion: 'v1.28.4', ready: null})),
				forNode: (name: string) => ({
					label: name,
					node: name,
					async fetchMetrics() {
						starts.push(Date.now());
						return kubelets.get(name)!.metricsText();
					},
				}),
			};
			const overview = startProxyOverview({fleet, intervalMs: 1000, windowSeconds: 10, maxInflight: 8, maxRps: 20});
			for (let step = 0; step < 1500; step++) {
				mock.timers.tick(10);
				for (let i = 0; i < 5; i++) await Promise.resolve();
			}

			overview.stop();
			let busiest = 0;
			for (const start of starts) busiest = Math.max(busiest, starts.filter((at) => at >= start && at < start + 1000).length);
			assert.equal(busiest, 20);
			// 15 s at one start per 50 ms.
			assert.ok(starts.length >= 299 && starts.length <= 301, `${starts.length} starts`);
			assert.equal(overview.effectiveIntervalMs(), 2500);
			assert.equal(overview.cadence(), 'each node every 2.5s, stretched from 1s: 50 nodes at most 20 requests/s · ≤ 8 at once');
			const lines = overviewTableLines({
				rows: sortedRows(
					[...overview.state.nodes.values()].map((entry) => nodeView(overview.kind, entry, Date.now())),
					{now: Date.now(), cycleMs: overview.effectiveIntervalMs()},
				),
				selected: null,
				sourceLabel: overview.label,
				cadence: overview.cadence(),
				listFailure: null,
				now: Date.now(),
				width: 120,
				height: 20,
			});
			assert.equal(lineText(lines[1]!), 'each node every 2.5s, stretched from 1s: 50 nodes at most 20 requests/s · ≤ 8 at once');
		} finally {
			mock.timers.reset();
		}
	});
});
