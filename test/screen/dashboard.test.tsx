import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {FeedStatus, Figures, HistoryPoint, NodeInfo} from '../../source/domain/types.js';
import {dashboardHelpScroll, type DashboardProps} from '../../source/screen/dashboard.js';
import {helpBodyLines} from '../../source/screen/panes/help-screen.js';
import {lastSeenAt, makeFigures, okStatus, readyNode, testNow, windowFigures} from '../helpers/figures.js';
import {dashboardRows, steadyHistory} from '../helpers/dashboard-frame.js';
import {cells} from '../helpers/ui-frame.js';
import {demoNodeSteps} from '../helpers/next-steps-rows.js';

process.env.TZ = 'UTC';

const history: HistoryPoint[] = steadyHistory(60, 20);

const withBaseline: Figures = makeFigures({
	baseline: {
		markedAt: testNow - 40_000,
		atMark: windowFigures(),
		sinceMark: windowFigures({spanSeconds: 40, count: 40, meanSeconds: 0.0265}),
		meanRatio: 0.0265 / 0.0042,
	},
});

const unhealthyMessage = 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s';
const unhealthy: Figures = makeFigures({
	lastSeen: lastSeenAt(181),
	verdict: {healthy: false, message: unhealthyMessage, basis: 'last-seen'},
	window: windowFigures({count: 0, meanSeconds: null, p50: null, p90: null, p99: null, ratePerSecond: 0, intervalMeanSeconds: null}),
	thresholdToMeanRatio: null,
});
const notReady: NodeInfo = readyNode({
	ready: {status: 'False', reason: 'KubeletNotReady', message: unhealthyMessage, since: testNow - 1000},
});
const failing: FeedStatus = okStatus({
	failure: {
		kind: 'network',
		summary: 'cannot reach the API server at https://10.0.0.1:6443 (ECONNREFUSED)',
		details: ['GET https://10.0.0.1:6443/api/v1/nodes/demo-node/proxy/metrics', 'check: kubectl cluster-info'],
	},
	failingSince: testNow - 12_000,
	lastGoodAt: testNow - 12_000,
	consecutiveFailures: 12,
});

function dashboard(width: number, height: number, props: Partial<DashboardProps> = {}): string[] {
	return dashboardRows(width, height, {figures: withBaseline, history, ...props});
}

/** The layout promises: fits the terminal, verdict and age visible, no number cut. */
function assertScreen(rows: string[], width: number, height: number, verdict: string, age: string): void {
	assert.ok(rows.length <= height, `${rows.length} rows > ${height}`);
	for (const row of rows) {
		assert.ok(cells(row) <= width, `row wider than ${width}: "${row}"`);
	}

	const text = rows.join('\n');
	assert.ok(text.includes(verdict), `verdict missing at ${width}×${height}`);
	assert.ok(text.includes(age), `age missing at ${width}×${height}`);
	// Every "4.2" on screen is the whole "4.2 ms" (the window mean), never a cut "4.2 m" or "4.".
	assert.equal(text.split('4.2').length, text.split('4.2ms').length, 'a figure was cut');
	// The views' own cuts are " …" after a whole word; ink's truncation (the safety net) would end "…" mid-word.
	for (const row of rows) {
		assert.doesNotMatch(row, /[^ ]…$/, `row truncated by the terminal: "${row}"`);
	}
}

const sizes: Array<[number, number]> = [
	[80, 24],
	[100, 30],
	[60, 30],
	[120, 15],
	[40, 12],
];

describe('Dashboard at fixed sizes', () => {
	for (const [width, height] of sizes) {
		test(`${width}×${height}, healthy: fits, verdict and age visible, no figure cut`, () => {
			assertScreen(dashboard(width, height), width, height, '✓ PLEG is healthy', 'last seen 1s');
		});

		test(`${width}×${height}, unhealthy and failing: STALE, the failure, the kubelet's words`, () => {
			const rows = dashboard(width, height, {figures: unhealthy, node: notReady, status: failing});
			assertScreen(rows, width, height, '✗ PLEG is not healthy', '3m1s');
			assert.ok(
				rows.some((row) => row.startsWith('STALE')),
				'STALE banner missing',
			);
			assert.ok(
				rows.some((row) => row.startsWith('✗ cannot reach the API server')),
				'failure summary missing',
			);
		});
	}

	test('100 wide: the kubelet source pane sits beside the figures', () => {
		const rows = dashboard(100, 30, {figures: makeFigures()});
		const row = rows.find((line) => line.startsWith('relist duration'));
		assert.ok(row?.includes('kubelet source · as of v1.28.0'), `not beside: "${row}"`);
		assert.ok(rows.some((line) => line.startsWith('mean 4.2ms · p50 3.8ms · p90 7.2ms · p99 9.3ms')));
		assert.ok(rows.some((line) => line.endsWith('relist period 1s · pkg/kubelet/kubelet.go:178')));
	});

	test('60 wide: the kubelet source pane goes below the figures', () => {
		const rows = dashboard(60, 40, {figures: makeFigures()});
		const statsRow = rows.findIndex((line) => line.startsWith('lifetime mean 38ms'));
		const paneRow = rows.findIndex((line) => line === 'kubelet source · as of v1.28.0');
		assert.ok(statsRow >= 0 && paneRow > statsRow, `stats row ${statsRow}, pane row ${paneRow}`);
	});

	test('100×40 shows everything: figures, kubelet source, baseline, history', () => {
		const text = dashboard(100, 40).join('\n');
		for (const part of ['kubelet source', 'baseline · ×6.3 since mark', 'history · last 6m55s, 5 s/col', 'every 1s  last scrape 320ms']) {
			assert.ok(text.includes(part), `missing ${part}`);
		}
	});

	/** Which of history, baseline, the whole kubelet source pane and its one-row form show. */
	const panes = (height: number, toggleConstants = false) => {
		const text = dashboard(100, height, {toggleConstants}).join('\n');
		return ['history ·', 'baseline ·', 'kubelet source ·', 'kubelet source v'].map((part) => text.includes(part));
	};

	test('as the height shrinks, the static pane folds into one row and goes before any pane that changes every scrape', () => {
		// Rows at 100 wide: header 1, verdict + Ready 2, gauge 3, status 1 = 7; the stats beside the whole pane
		// max(7, 12) = 12, the stats alone 6 (+ 1 for the folded row); baseline 7; history 4 (with its B row).
		// Whole, everything: 7 + 12 + 7 + 4 = 30 rows, and a blank row below each block but the status: 3 + 3 = 36.
		assert.deepEqual(panes(36), [true, true, true, false]);
		// Folded: 7 + 6 + 1 + 7 + 4 = 25.
		assert.deepEqual(panes(35), [true, true, false, true]);
		assert.deepEqual(panes(25), [true, true, false, true]);
		// Not even the row: 24 = every dynamic pane with the stats.
		assert.deepEqual(panes(24), [true, true, false, false]);
		// Only now the history goes (23 < 24); the baseline with the folded row: 7 + 7 + 7 = 21.
		assert.deepEqual(panes(23), [false, true, false, true]);
		assert.deepEqual(panes(21), [false, true, false, true]);
		assert.deepEqual(panes(20), [false, true, false, false]);
		// The baseline cannot fit even alone (7 + 6 + 7 = 20 > 19); whole, the pane needs 7 + 12 + 4 gaps = 23.
		assert.deepEqual(panes(19), [false, false, false, true]);
		assert.deepEqual(panes(14), [false, false, false, true]);
		assert.deepEqual(panes(13), [false, false, false, false]);
	});

	test('k shows the pane the other way: one row where it was whole, whole where it was folded (history gives way)', () => {
		assert.deepEqual(panes(36, true), [true, true, false, true]);
		// Folded at 30; opened on request it needs no blank rows: 7 + 12 + 7 + 4 = 30.
		assert.deepEqual(panes(30, true), [true, true, true, false]);
		// 29: the history goes to make room, 7 + 12 + 7 = 26.
		assert.deepEqual(panes(29, true), [false, true, true, false]);
		// 25: the baseline goes too (26 > 25), 7 + 12 = 19.
		assert.deepEqual(panes(25, true), [false, false, true, false]);
		assert.deepEqual(panes(19, true), [false, false, true, false]);
		// 14 has no room for the whole pane (19): it stays folded.
		assert.deepEqual(panes(14, true), [false, false, false, true]);
	});

	test('80×24 (23 rows for the App): the history chart stays and the kubelet source pane is one row', () => {
		const rows = dashboard(80, 23, {figures: makeFigures(), history: steadyHistory(400)});
		assert.ok(rows.length <= 23);
		assert.ok(rows.includes('kubelet source v1.28.0 · threshold 3m0s · relist 1s · evented off · k details'), rows.join('\n'));
		assert.ok(!rows.some((row) => row.startsWith('kubelet source ·')), 'the whole pane shows');
		// 80 − 17 = 63 columns; 2 × 180 s / 63 = 5.7 → 6 s a column.
		assert.ok(
			rows.some((row) => row.startsWith('history · last 6m18s, 6 s/col')),
			rows.join('\n'),
		);
		assert.ok(
			rows.some((row) => /^age {2}▁{63} max 1s$/.test(row)),
			rows.join('\n'),
		);
	});

	test('header: tool, node, kubelet version, source, clock', () => {
		assert.equal(dashboard(100, 30)[0], `pleg-top · demo-node · kubelet v1.28.0 · demo node${' '.repeat(42)}14:02:22`);
	});

	test('header: the kubeconfig context and cluster, the runtime, the node once (the label loses its leading node)', () => {
		const row = dashboard(140, 30, {
			node: readyNode({containerRuntimeVersion: 'containerd://1.7.2'}),
			sourceLabel: 'demo-node via https://10.0.0.1:6443',
			context: {kube: {context: 'prod', cluster: 'eu-1'}},
		})[0]!;
		const left = 'pleg-top · demo-node · prod (cluster eu-1) · kubelet v1.28.0 · containerd://1.7.2 · via https://10.0.0.1:6443';
		assert.equal(row, `${left}${' '.repeat(140 - left.length - 8)}14:02:22`);
		// At 80 columns what does not fit goes from the right: the source first, then the runtime.
		assert.equal(
			dashboard(80, 24, {
				node: readyNode({containerRuntimeVersion: 'containerd://1.7.2'}),
				sourceLabel: 'demo-node via https://10.0.0.1:6443',
				context: {kube: {context: 'kind-kind', cluster: 'kind-kind'}},
			})[0],
			`pleg-top · demo-node · kind-kind · kubelet v1.28.0 · containerd://1.7.2 14:02:22`,
		);
	});

	test('header of a replay: REPLAY FILE ×speed instead of the source, then end of recording', () => {
		const replay = (ended: boolean) =>
			dashboard(100, 30, {
				sourceLabel: 'replay of lab.jsonl (node demo-node, recorded 2024-01-15T14:00:00.000Z) ×4',
				context: {replay: {file: 'lab.jsonl', speed: 4, ended}},
			})[0]!;
		assert.match(replay(false), /^pleg-top · demo-node · REPLAY lab\.jsonl ×4 · kubelet v1\.28\.0 +14:02:22$/);
		assert.match(replay(true), /^pleg-top · demo-node · REPLAY lab\.jsonl ×4 · end of recording · kubelet v1\.28\.0 +14:02:22$/);
	});
});

describe('Dashboard small and special screens', () => {
	test('below 40 columns: the compact line', () => {
		// "✓ demo-node last seen 1 s" 25 + " · mean 4.2 ms" 14 = 39 columns.
		assert.deepEqual(dashboard(39, 12), ['✓ demo-node last seen 1s · mean 4.2ms']);
		assert.deepEqual(dashboard(30, 12), ['✓ demo-node last seen 1s']);
	});

	test('too short for the gauge: the compact line, verdict and age first', () => {
		assert.deepEqual(dashboard(80, 5), ['✓ demo-node last seen 1s · mean 4.2ms · p99 9.3ms']);
	});

	test('before the first scrape: connecting to the source', () => {
		const rows = dashboard(80, 24, {figures: null, history: [], node: null, status: okStatus({lastGoodAt: null, lastLatencyMs: null})});
		assert.equal(rows[1], 'connecting to demo node …');
	});

	test('? shows the help within the terminal, keys first, and says where it stands in the text', () => {
		const rows = dashboard(100, 30, {showHelp: true});
		const total = helpBodyLines(100).length;
		// Header, title, 27 rows of the text, the position row: 30.
		assert.equal(rows.length, 30);
		assert.equal(rows[1], 'pleg-top — keys, then what each figure means (? or Esc closes)');
		assert.equal(rows[2], 'keys · one-node screen (pleg-top NODE)');
		assert.equal(rows[29], `line 1–27 of ${total} · ↓ PgDn for more · / search`);
		assert.deepEqual(dashboardHelpScroll(100, 30), {page: 27, maxOffset: total - 27});
	});

	test('the help scrolled to its end: the last figure shows', () => {
		const rows = dashboard(100, 30, {showHelp: true, helpOffset: 10_000});
		const total = helpBodyLines(100).length;
		assert.equal(rows[29], `line ${total - 26}–${total} of ${total} · ↑ PgUp back · / search`);
		assert.ok(
			rows.some((row) => row.startsWith('Anatomy reading: ')),
			rows.join('\n'),
		);
	});

	test('demo: the scenario in the header and the demo keys in the hints when they fit', () => {
		const rows = dashboard(120, 30, {demoScenario: 'stall'});
		// The demo item before the version: a narrow header drops the version first.
		assert.match(rows[0]!, /^pleg-top · demo-node · demo: stall · kubelet v1\.28\.0 · demo node/);
		assert.match(rows.at(-1)!, /a anatomy {2}k source {2}c churn {2}s stall/);
	});

	test('lab --demo: no "demo: idle" beside the lab\'s 12 pods Running; a scenario the user pressed is said', () => {
		const lab = {lab: 'lab 3/7 hold 12 · 12/12 Running'};
		assert.match(
			dashboard(100, 30, {demoScenario: 'idle', context: lab})[0]!,
			/^pleg-top · demo-node · lab 3\/7 hold 12 · 12\/12 Running · demo · kubelet /,
		);
		assert.match(dashboard(100, 30, {demoScenario: 'stalled', context: lab})[0]!, /· 12\/12 Running · demo: stalled · kubelet /);
	});
});

describe('Dashboard before any good scrape (a kubelet never read)', () => {
	const unreachable: FeedStatus = okStatus({
		failure: {
			kind: 'kubelet-unreachable',
			summary: 'the API server cannot reach the kubelet on node "demo-node"',
			details: ['API server (503): error trying to reach service', 'check: kubectl get node demo-node -o wide'],
		},
		failingSince: testNow - 20_000,
		lastGoodAt: null,
		consecutiveFailures: 3,
	});
	// Unknown for 70 s: the default 300 s toleration leaves 230 s, "3m50s".
	const lost: NodeInfo = readyNode({
		ready: {status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', since: testNow - 70_000},
		pods: {count: 7, error: null},
	});
	const events = {
		items: [
			{
				type: 'Normal',
				reason: 'NodeNotReady',
				message: 'Node demo-node status is now: NodeNotReady',
				count: 1,
				lastTimestamp: (testNow - 65_000) / 1000,
				source: 'node-controller',
				ageSeconds: 65,
			},
			{
				type: 'Warning',
				reason: 'ContainerGCFailed',
				message: 'rpc error: code = DeadlineExceeded',
				count: 3,
				lastTimestamp: (testNow - 120_000) / 1000,
				source: 'kubelet',
				ageSeconds: 120,
			},
		],
		error: null,
	};

	const unread = (width: number, height: number, props: Partial<DashboardProps> = {}) =>
		dashboard(width, height, {figures: null, history: [], node: lost, events, status: unreachable, ...props});

	test('100×30: the Ready row from the Node object, its Events, the next steps with the eviction horizon, then why', () => {
		assert.deepEqual(unread(100, 30), [
			'pleg-top · demo-node · kubelet v1.28.0 · demo node                                          14:02:22',
			'STALE — no good scrape yet',
			'',
			'? node Ready=Unknown NodeStatusUnknown since 14:01:12: Kubelet stopped posting node status.',
			'',
			'events · 2 Events, newest first',
			'  NodeNotReady       65s ago  ×1  Node demo-node status is now: NodeNotReady',
			'  ContainerGCFailed   2m ago  ×3  rpc error: code = DeadlineExceeded',
			'',
			demoNodeSteps[0],
			'  pods evicted in ~3m50s (default tolerationSeconds) · 7 pods on the node',
			// Not judged unhealthy (nothing was read): no cordon.
			...demoNodeSteps.slice(1).filter((row) => !row.includes('cordon')),
			'',
			'✗ the API server cannot reach the kubelet on node "demo-node"',
			'  API server (503): error trying to reach service',
			'  check: kubectl get node demo-node -o wide',
			'retry back-off 4s · 3 failures  q quit  ? help  p pause  b mark  a anatomy  k source  w raw',
		]);
	});

	test('80×12: one Event, the steps folded to their eviction row, the failure whole; 80×7: the Ready row cut to one, the rows to spare between the blocks', () => {
		assert.deepEqual(unread(80, 12), [
			'pleg-top · demo-node · kubelet v1.28.0 · demo node                      14:02:22',
			'STALE — no good scrape yet',
			'? node Ready=Unknown NodeStatusUnknown since 14:01:12: Kubelet stopped posting',
			'  node status.',
			'events · 2 Events, newest first (1 more: kubectl describe node)',
			'  NodeNotReady  65s ago  ×1  Node demo-node status is now: NodeNotReady',
			'next steps · folded for room: ? lists the commands',
			'  pods evicted in ~3m50s (default tolerationSeconds) · 7 pods on the node',
			'✗ the API server cannot reach the kubelet on node "demo-node"',
			'  API server (503): error trying to reach service',
			'  check: kubectl get node demo-node -o wide',
			'retry back-off 4s · 3 failures  q quit  ? help  p pause  b mark  a anatomy',
		]);
		assert.deepEqual(unread(80, 7), [
			'pleg-top · demo-node · kubelet v1.28.0 · demo node                      14:02:22',
			'STALE — no good scrape yet',
			'',
			'? node Ready=Unknown NodeStatusUnknown since 14:01:12: Kubelet stopped posting …',
			'',
			'✗ the API server cannot reach the kubelet on node "demo-node"',
			'retry back-off 4s · 3 failures  q quit  ? help  p pause  b mark  a anatomy',
		]);
	});

	test('still connecting (no read failed yet): the Ready row and the Events, no next steps', () => {
		const rows = unread(80, 24, {status: okStatus({lastGoodAt: null, lastLatencyMs: null})});
		assert.equal(rows[1], 'connecting to demo node …');
		assert.ok(rows.includes('events · 2 Events, newest first'), rows.join('\n'));
		assert.ok(rows.some((row) => row.startsWith('? node Ready=Unknown NodeStatusUnknown since 14:01:12')));
		assert.ok(!rows.some((row) => row.startsWith('next steps')), rows.join('\n'));
	});
});
