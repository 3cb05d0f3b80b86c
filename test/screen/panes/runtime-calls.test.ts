// Errors and timeouts of the CRI calls over a window, from two scripted bodies: real kubelet dumps and edited copies
// one minute later with known deltas. The figures come from the relist anatomy (the window it already computes),
// and the main view's runtime-calls rows say them only when there is something to say.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState} from '../../../source/domain/feed.js';
import {overLimit} from '../../../source/domain/anatomy/anatomy.js';
import type {RelistAnatomy} from '../../../source/domain/types.js';
import {lineText} from '../../../source/screen/layout/line.js';
import {inFlightNote, runtimeCallsLines} from '../../../source/screen/panes/runtime-calls.js';
import {readDump, scrapeOf, setSamples, type DumpVersion, criBucketBounds} from '../../domain/dump.js';

const t0 = Date.UTC(2022, 2, 24, 10, 54, 37);
const family = 'kubelet_runtime_operations_duration_seconds';

/** The anatomy the feed computes from the dump at t0 and `later` 60 s after. */
function anatomyOver(version: DumpVersion, later: string): RelistAnatomy {
	let state = initialFeedState({node: 'n', windowSeconds: 60});
	for (const scrape of [scrapeOf(readDump(version), t0), scrapeOf(later, t0 + 60_000)]) {
		state = feedReducer(state, {type: 'scrape', scrape});
	}

	return figuresAt(state, t0 + 60_000)!.anatomy!;
}

/** Each bucket of one operation raised by `deltas[le]` (cumulative), with its sum and count. */
function edit(version: DumpVersion, op: string, deltas: Record<string, number>, seconds: number): Record<string, string> {
	const text = readDump(version);
	const value = (series: string) => {
		const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
		if (!line) throw new Error(`no ${series}`);
		return Number(line.slice(series.length + 1));
	};

	const edits: Record<string, string> = {};
	for (const [le, delta] of Object.entries(deltas)) {
		const series = `${family}_bucket{operation_type="${op}",le="${le}"}`;
		edits[series] = String(value(series) + delta);
	}

	const calls = deltas['+Inf']!;
	edits[`${family}_sum{operation_type="${op}"}`] = String(value(`${family}_sum{operation_type="${op}"}`) + seconds);
	edits[`${family}_count{operation_type="${op}"}`] = String(value(`${family}_count{operation_type="${op}"}`) + calls);
	return edits;
}

/** Cumulative deltas: `fast` calls ≤ 5 ms, `slow` more that took between 119.2 s and 298 s. */
function exponentialDeltas(fast: number, slow: number): Record<string, number> {
	return Object.fromEntries(criBucketBounds.map((le, index) => [le, index < 12 ? fast : fast + slow]));
}

/**
 * v1.21.2 one minute later: ListPodSandbox +5 calls, 3 of 4 ms and 2 that ran into the 2-minute timeout (120.001 s
 * each), its error counter appearing at 2; ContainerStatus +4 calls of 4 ms, 1 error (its counter appears at 1).
 */
function v121WithTimeouts(): string {
	const edited = setSamples(readDump('1.21.2'), {
		...edit('1.21.2', 'list_podsandbox', exponentialDeltas(3, 2), 3 * 0.004 + 2 * 120.001),
		...edit('1.21.2', 'container_status', exponentialDeltas(4, 0), 4 * 0.004),
	});
	const errors = 'kubelet_runtime_operations_errors_total{operation_type="exec_sync"} 16';
	assert.ok(edited.includes(errors));
	return edited.replace(
		errors,
		[
			'kubelet_runtime_operations_errors_total{operation_type="container_status"} 1',
			errors,
			'kubelet_runtime_operations_errors_total{operation_type="list_podsandbox"} 2',
		].join('\n'),
	);
}

describe('errors and calls over the timeout in a window', () => {
	test('v1.21.2 buckets reach 119.2 s: the calls above it are timeouts; the errors are the error counter deltas', () => {
		const {operations} = anatomyOver('1.21.2', v121WithTimeouts());
		assert.equal(operations.listPodSandbox?.calls, 5);
		assert.equal(operations.listPodSandbox?.errors, 2); // absent at the start: counts from 0
		// +Inf delta 5 − le=119.2 delta 3 = 2
		assert.deepEqual(operations.listPodSandbox?.overLimit, {overSeconds: 119.20928955078125, calls: 2, timeouts: true});
		assert.equal(operations.containerStatus?.errors, 1);
		assert.deepEqual(operations.containerStatus?.overLimit, {overSeconds: 119.20928955078125, calls: 0, timeouts: true});
		// No call of its own in the window: 0 timeouts is still measured, the buckets are there.
		assert.equal(operations.listContainers?.calls, 0);
		assert.deepEqual(operations.listContainers?.overLimit, {overSeconds: 119.20928955078125, calls: 0, timeouts: true});
	});

	test('v1.14.10 buckets stop at 10 s: the calls above are only "over 10s", not called timeouts', () => {
		// ListContainers +2 calls: one of 4 ms, one of 15 s. Cumulative deltas 1 up to le=10, 2 in +Inf.
		const deltas = Object.fromEntries(
			['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map((le) => [le, le === '+Inf' ? 2 : 1]),
		);
		const later = setSamples(readDump('1.14.10'), {
			...edit('1.14.10', 'list_containers', deltas, 15.004),
			'kubelet_runtime_operations_errors_total{operation_type="container_status"}': '3', // 2 + 1
		});
		const {operations} = anatomyOver('1.14.10', later);
		assert.deepEqual(operations.listContainers?.overLimit, {overSeconds: 10, calls: 1, timeouts: false});
		assert.equal(operations.listContainers?.errors, 0);
		assert.equal(operations.containerStatus?.errors, 1);
	});

	test('the bound: the highest finite one up to 120 s; none that low, or no +Inf: unknown', () => {
		assert.deepEqual(
			overLimit([
				{le: 60, count: 4},
				{le: 300, count: 6},
				{le: Infinity, count: 7},
			]),
			{overSeconds: 60, calls: 3, timeouts: false},
		);
		assert.equal(
			overLimit([
				{le: 300, count: 1},
				{le: Infinity, count: 1},
			]),
			null,
		);
		assert.equal(overLimit([{le: 10, count: 1}]), null);
	});
});

describe('the runtime-calls rows of the main view', () => {
	const rows = (anatomy: RelistAnatomy, stalled: boolean, width = 100) =>
		runtimeCallsLines({anatomy, stalled, width}).map((line) => lineText(line));

	test('errors and timeouts: each troubled operation, with its completed calls; in flight said to be not exposed', () => {
		assert.deepEqual(rows(anatomyOver('1.21.2', v121WithTimeouts()), false), [
			'CRI calls in 1m0s · ListPodSandbox 2 errors, 2 timeouts (> 1m59s), 5 completed',
			`  ContainerStatus 1 error, 4 completed · ${inFlightNote}`,
		]);
	});

	test('stalled: the operations that completed nothing are named, and the quiet ones said to be quiet', () => {
		const text = readDump('1.21.2');
		const quiet = anatomyOver('1.21.2', text);
		// One row at 80 columns.
		assert.deepEqual(rows(quiet, true, 80), ['CRI calls in 1m0s · 0 completed · 0 errors, 0 timeouts · in flight: not exposed']);
		const someCalls = anatomyOver('1.21.2', setSamples(text, edit('1.21.2', 'container_status', exponentialDeltas(4, 0), 0.016)));
		assert.deepEqual(rows(someCalls, true), [
			'CRI calls in 1m0s · 0 completed: ListPodSandbox, ListContainers, PodSandboxStatus',
			`  0 errors, 0 timeouts · ${inFlightNote}`,
		]);
	});

	test('an idle window with no error and no timeout: no row at all, the screen stays calm', () => {
		assert.deepEqual(rows(anatomyOver('1.21.2', readDump('1.21.2')), false), []);
	});
});
