// The main view during a stall: below the frozen duration figures, the CRI calls' errors and timeouts, the node's
// Events with age and count, and the next steps with the node filled in, at 80×24 and 120×35 (one row left to
// ink, as the App does), with the history chart kept. An idle node shows none of it; a 403 on the Events is one
// dim row naming the rule.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {EventsFigures, Figures, HistoryPoint, NodeEventAt} from '../../source/domain/types.js';
import {churnAnatomy, operation} from '../helpers/anatomy.js';
import {dashboardRows, steadyHistory} from '../helpers/dashboard-frame.js';
import {lastSeenAt, makeFigures, readyNode, testNow, windowFigures} from '../helpers/figures.js';
import {cells} from '../helpers/ui-frame.js';
import {demoNodeSteps as commands} from '../helpers/next-steps-rows.js';

process.env.TZ = 'UTC';

const at = testNow / 1000;

function event(reason: string, ageSeconds: number, overrides: Partial<NodeEventAt> = {}): NodeEventAt {
	return {
		type: 'Normal',
		reason,
		message: `Node demo-node status is now: ${reason}`,
		count: 1,
		lastTimestamp: at - ageSeconds,
		source: 'kubelet',
		ageSeconds,
		...overrides,
	};
}

const stallEvents: EventsFigures = {
	items: [
		event('NodeNotReady', 30),
		event('ContainerGCFailed', 75, {
			type: 'Warning',
			message: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded',
			count: 2,
		}),
		event('NodeReady', 1500),
	],
	error: null,
};

const message = 'PLEG is not healthy: pleg was last seen active 3m30s ago; threshold is 3m0s';
/** No relist completed in the window; the CRI calls: ListPodSandbox none, 2 list calls timed out in ContainerGC. */
const stalled: Figures = makeFigures({
	lastSeen: lastSeenAt(210),
	verdict: {healthy: false, message, basis: 'last-seen'},
	window: windowFigures({count: 0, meanSeconds: null, p50: null, p90: null, p99: null, ratePerSecond: 0, intervalMeanSeconds: null}),
	thresholdToMeanRatio: null,
	anatomy: churnAnatomy({
		spanSeconds: 10,
		operations: {
			listPodSandbox: operation({calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null}),
			listContainers: operation({
				calls: 2,
				errors: 2,
				overLimit: {overSeconds: 119.20928955078125, calls: 2, timeouts: true},
			}),
			podSandboxStatus: operation({calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null}),
			containerStatus: operation({calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null}),
		},
	}),
	events: stallEvents,
});

/** Two minutes at a second a point, the age climbing past the threshold in the last 90. */
const history: HistoryPoint[] = steadyHistory(400).map((point, index) => ({...point, lastSeenAgeSeconds: Math.max(1, index - 190)}));
const notReady = readyNode({ready: {status: 'False', reason: 'KubeletNotReady', message, since: testNow - 30_000}});

/** The App gives the dashboard one row less than the terminal. */
const screen = (columns: number, rows: number, figures: Figures) => dashboardRows(columns, rows - 1, {figures, history, node: notReady});

function assertFits(rows: string[], columns: number, height: number): void {
	assert.ok(rows.length <= height - 1, `${rows.length} rows`);
	for (const row of rows) assert.ok(cells(row) <= columns, `wider than ${columns}: "${row}"`);
}

describe('the main view during a stall', () => {
	test('80×24: CRI calls, the newest Events, the next steps, and the history chart still there', () => {
		const rows = screen(80, 24, stalled);
		assertFits(rows, 80, 24);
		const text = rows.join('\n');
		assert.ok(rows.includes('CRI calls in 10s · ListContainers 2 errors, 2 timeouts (> 1m59s), 2 completed'), text);
		assert.ok(rows.includes('  0 completed: ListPodSandbox, PodSandboxStatus, ContainerStatus'), text);
		// Room for the newest Event only: the others are counted and left to kubectl.
		assert.ok(rows.includes('events · 3 Events, newest first (2 more: kubectl describe node)'), text);
		assert.ok(rows.includes('  NodeNotReady  30s ago  ×1  Node demo-node status is now: NodeNotReady'), text);
		// The block keeps its heading: the first commands, each whole on a row of its own, then how many more `?` lists.
		const heading = rows.indexOf(commands[0]!);
		assert.deepEqual(rows.slice(heading, heading + 4), [...commands.slice(0, 3), '  … and more: ? lists every command'], text);
		// The stall is on the chart too: the age row and its axis.
		assert.match(text, /^age +.* max \dm\d+s$/m);
	});

	test('120×35: every Event, the next steps titled, the history chart', () => {
		const rows = screen(120, 35, stalled);
		assertFits(rows, 120, 35);
		const text = rows.join('\n');
		assert.ok(rows.includes('events · 3 Events, newest first'), text);
		assert.ok(
			rows.some((row) =>
				/^ {2}ContainerGCFailed {2}75s ago {2}×2 {2}rpc error: code = DeadlineExceeded desc = context deadline exceeded$/.test(row),
			),
			text,
		);
		assert.ok(
			rows.some((row) => /^ {2}NodeReady {10}25m ago {2}×1 {2}Node demo-node status is now: NodeReady$/.test(row)),
			text,
		);
		const heading = rows.indexOf(commands[0]!);
		assert.deepEqual(rows.slice(heading, heading + commands.length), commands, text);
		assert.match(text, /^history · last /m);
		// In reading order: why (CRI calls, Events), then what to run, then the chart.
		const order = ['CRI calls in 10s', 'events ·', 'next steps', 'history ·'].map((start) =>
			rows.findIndex((row) => row.startsWith(start)),
		);
		assert.deepEqual(
			[...order].sort((a, b) => a - b),
			order,
		);
		assert.ok(
			order.every((index) => index >= 0),
			String(order),
		);
	});

	test('NotReady for 48 s: the eviction horizon and the pod count under the heading, 300 − 48 = 252 s, at both sizes', () => {
		const notReadyFigures: Figures = {
			...stalled,
			ready: {status: 'False', reason: 'KubeletNotReady', message, since: testNow - 48_000},
			pods: {count: 23, error: null},
		};
		for (const [columns, rows] of [
			[120, 35],
			[80, 24],
		] as const) {
			const frame = screen(columns, rows, notReadyFigures);
			assertFits(frame, columns, rows);
			const heading = frame.indexOf(commands[0]!);
			assert.equal(frame[heading + 1], '  pods evicted in ~4m12s (default tolerationSeconds) · 23 pods on the node', frame.join('\n'));
		}
	});

	test('a 403 on the Events is one dim row naming the rule; no error of the screen', () => {
		const forbidden: EventsFigures = {
			items: [],
			error: {
				kind: 'forbidden',
				summary: 'context "ctx" (user "u") is not allowed to list events in namespace "default"',
				details: [
					'needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
				],
			},
		};
		const rows = screen(100, 30, {...stalled, events: forbidden});
		assert.deepEqual(
			rows.filter((row) => row.startsWith('events')),
			['events: not allowed, needs list on events in namespace default'],
		);
		assert.doesNotMatch(rows.join('\n'), /STALE|✗ .*forbidden/);
	});
});

describe('an idle node', () => {
	test('no CRI row, no next steps; the Events give way to the history at 80×24', () => {
		const calm = makeFigures({anatomy: churnAnatomy({operations: {...churnAnatomy().operations, containerStatus: operation()}})});
		const rows = screen(80, 24, {...calm, events: {items: [event('Starting', 1200, {message: 'Starting kubelet.'})], error: null}});
		const text = rows.join('\n');
		assert.doesNotMatch(text, /CRI calls|next steps|kubectl describe/);
		assert.match(text, /^history · /m);
	});

	test('an error in the window shows the CRI row though the node is healthy', () => {
		const rows = screen(120, 35, makeFigures({anatomy: churnAnatomy()}));
		assert.ok(rows.includes('CRI calls in 1m0s · ContainerStatus 3 errors, 360 completed · in flight: not exposed'), rows.join('\n'));
		assert.doesNotMatch(rows.join('\n'), /next steps/);
	});
});
