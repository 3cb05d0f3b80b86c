// The relist anatomy over a window: two scrapes of the v1.21.2 dump, the second an edited copy one minute later
// with known CRI deltas (v121OneMinuteLater: 60 relists, Δsum 0.6 s, so the window mean relist is 10.0 ms).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {relistAnatomy} from '../../../source/domain/anatomy/anatomy.js';
import {feedReducer, figuresAt, initialFeedState} from '../../../source/domain/feed.js';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {SimulatedKubelet, type DemoScenario} from '../../../source/demo/simulated-kubelet.js';
import type {RelistAnatomy, Scrape} from '../../../source/domain/types.js';
import {readDump, scrapeOf, setSamples, v121OneMinuteLater, criBucketBounds} from '../dump.js';

const t0 = Date.UTC(2022, 2, 24, 10, 54, 37);
const family = 'kubelet_runtime_operations_duration_seconds';

/** Calls in the window, how many of them took ≤ 5 ms (default: all), and their seconds together. */
type OpDelta = {calls: number; fast?: number; seconds: number};

/** Adds the deltas to the dump's own values of one operation's histogram and counter. */
function addOperation(text: string, op: string, {calls, fast = calls, seconds}: OpDelta): string {
	const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}.+"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
	const edits: Record<string, string> = {};
	const add = (series: string, delta: number) => {
		edits[series] = String(value(series) + delta);
	};

	for (const le of criBucketBounds) {
		add(`${family}_bucket{operation_type="${op}",le="${le}"}`, le === '0.005' ? fast : calls);
	}

	add(`${family}_sum{operation_type="${op}"}`, seconds);
	add(`${family}_count{operation_type="${op}"}`, calls);
	add(`kubelet_runtime_operations_total{operation_type="${op}"}`, calls);
	return setSamples(text, edits);
}

function later(deltas: Record<string, OpDelta>): string {
	return Object.entries(deltas).reduce((text, [op, delta]) => addOperation(text, op, delta), v121OneMinuteLater());
}

/** The anatomy the feed computes from the dump at t0 and `text` 60 s later. */
function anatomyOver(text: string, windowSeconds = 60): RelistAnatomy {
	let state = initialFeedState({node: 'ip-10-0-1-1', windowSeconds});
	for (const scrape of [scrapeOf(readDump('1.21.2'), t0), scrapeOf(text, t0 + 60_000)]) {
		state = feedReducer(state, {type: 'scrape', scrape});
	}

	const anatomy = figuresAt(state, t0 + 60_000)?.anatomy;
	assert.ok(anatomy);
	return anatomy;
}

function near(actual: number | null | undefined, expected: number, what: string): void {
	assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
}

describe('relistAnatomy on edited copies of the v1.21.2 dump', () => {
	test('copy 1, list calls dominate: rates, means, p99, errors, per-relist figures and the reading', () => {
		const text = later({
			list_podsandbox: {calls: 120, fast: 100, seconds: 0.6},
			list_containers: {calls: 120, seconds: 0.48},
			podsandbox_status: {calls: 30, seconds: 0.06},
			container_status: {calls: 48, seconds: 0.144},
		}).replace(
			'kubelet_runtime_operations_errors_total{operation_type="exec_sync"} 16\n',
			// The list_podsandbox error child appears in the window: absent before = 0, so 2 new errors.
			'kubelet_runtime_operations_errors_total{operation_type="exec_sync"} 16\nkubelet_runtime_operations_errors_total{operation_type="list_podsandbox"} 2\n',
		);
		const anatomy = anatomyOver(text);
		const {listPodSandbox, listContainers, podSandboxStatus, containerStatus} = anatomy.operations;
		assert.equal(anatomy.spanSeconds, 60);
		assert.equal(anatomy.relists, 60);
		// 120 calls / 60 s = 2/s; 0.6 s / 120 = 5 ms; p99: rank 0.99 × 120 = 118.8 falls in (0.005, 0.0125] holding
		// calls 101-120: 0.005 + 0.0075 × (118.8 − 100) / 20 = 0.01205 s.
		assert.equal(listPodSandbox?.calls, 120);
		near(listPodSandbox?.ratePerSecond, 2, 'list_podsandbox rate');
		near(listPodSandbox?.windowMeanSeconds, 0.005, 'list_podsandbox mean');
		near(listPodSandbox?.windowP99?.seconds, 0.01205, 'list_podsandbox p99');
		assert.equal(listPodSandbox?.errors, 2);
		// All 120 in (0, 0.005]: p99 = 0.005 × 118.8 / 120 = 0.00495 s; mean 0.48 / 120 = 4 ms.
		near(listContainers?.windowP99?.seconds, 0.00495, 'list_containers p99');
		near(listContainers?.windowMeanSeconds, 0.004, 'list_containers mean');
		assert.equal(listContainers?.errors, 0);
		near(podSandboxStatus?.ratePerSecond, 0.5, 'podsandbox_status rate'); // 30 / 60
		near(containerStatus?.windowMeanSeconds, 0.003, 'container_status mean'); // 0.144 / 48
		// (30 + 48) / 60 relists = 1.3 status calls per relist; (0.06 + 0.144) / 60 = 3.4 ms of the 10 ms mean.
		near(anatomy.statusCallsPerRelist, 1.3, 'status calls per relist');
		near(anatomy.statusSecondsPerRelist, 0.0034, 'status seconds per relist');
		near(anatomy.statusShareOfRelist, 0.34, 'status share');
		// (5 ms + 4 ms) / 10 ms = 0.9.
		near(anatomy.listShareOfRelist, 0.9, 'list share');
		// 10 ms / 33 running containers.
		near(anatomy.relistSecondsPerContainer, 0.01 / 33, 'relist per container');
		assert.equal(anatomy.runningPods, 29);
		assert.deepEqual(anatomy.runningContainers, {created: 1, exited: 9, running: 33});
		assert.deepEqual(anatomy.unavailable, []);
		assert.equal(anatomy.reading.kind, 'list');
		assert.equal(
			anatomy.reading.text,
			'relist ≈ list calls: list calls take 90% of the 10ms mean relist (ListPodSandbox 5ms + ListContainers 4ms); 1.3 status calls per relist (at most)',
		);
	});

	test('copy 2, per-pod status inspection dominates: 10 status calls per relist, 70% of the mean', () => {
		const anatomy = anatomyOver(
			later({
				list_podsandbox: {calls: 60, seconds: 0.06},
				list_containers: {calls: 120, seconds: 0.06},
				podsandbox_status: {calls: 60, seconds: 0.12},
				container_status: {calls: 540, seconds: 0.3},
			}),
		);
		// (60 + 540) / 60 = 10 calls; (0.12 + 0.3) / 60 = 7 ms = 70% of 10 ms; lists (1 ms + 0.5 ms) / 10 ms = 15%.
		near(anatomy.statusCallsPerRelist, 10, 'status calls per relist');
		near(anatomy.statusShareOfRelist, 0.7, 'status share');
		near(anatomy.listShareOfRelist, 0.15, 'list share');
		assert.equal(anatomy.reading.kind, 'status');
		assert.equal(
			anatomy.reading.text,
			'relist ≈ per-pod status inspection: 10 status calls per relist taking 70% of the 10ms mean relist (at most: other loops call too); list calls 15%',
		);
	});

	test('an operation whose counters went back (kubelet restart) has no window figures', () => {
		const text = setSamples(v121OneMinuteLater(), {[`${family}_count{operation_type="list_containers"}`]: '12'});
		const anatomy = anatomyOver(text);
		assert.equal(anatomy.operations.listContainers, null);
		assert.equal(anatomy.listShareOfRelist, null);
		assert.equal(anatomy.reading.kind, 'mixed');
	});

	test('one scrape: the latest running figures, no window yet', () => {
		const latest = scrapeOf(readDump('1.21.2'), t0);
		const anatomy = relistAnatomy(null, latest, null);
		assert.equal(anatomy.spanSeconds, null);
		assert.equal(anatomy.operations.listPodSandbox, null);
		assert.equal(anatomy.runningPods, 29);
		assert.deepEqual(anatomy.reading, {kind: 'waiting', text: 'the window opens at the second scrape'});
	});

	test('v1.10.0: means from the µs summaries, no p99, and the line saying why', () => {
		const dump = readDump('1.10.0');
		const text = setSamples(dump, {
			kubelet_pleg_relist_latency_microseconds_sum: '7.60184e+06', // 7.54184e6 + 60000 µs: 60 ms over 6 relists
			kubelet_pleg_relist_latency_microseconds_count: '292', // 286 + 6
			'kubelet_runtime_operations_latency_microseconds_sum{operation_type="list_podsandbox"}': '4.010385e+06', // + 30000 µs
			'kubelet_runtime_operations_latency_microseconds_count{operation_type="list_podsandbox"}': '623', // 617 + 6
		});
		let state = initialFeedState({node: 'n', windowSeconds: 10});
		state = feedReducer(state, {type: 'scrape', scrape: scrapeOf(dump, t0)});
		state = feedReducer(state, {type: 'scrape', scrape: scrapeOf(text, t0 + 6000)});
		const anatomy = figuresAt(state, t0 + 6000)?.anatomy;
		// 30 ms / 6 calls = 5 ms; 6 calls / 6 s = 1/s; summaries have no window quantile.
		near(anatomy?.operations.listPodSandbox?.windowMeanSeconds, 0.005, 'mean');
		near(anatomy?.operations.listPodSandbox?.ratePerSecond, 1, 'rate');
		assert.equal(anatomy?.operations.listPodSandbox?.windowP99, null);
		assert.equal(anatomy?.operations.containerStatus?.calls, 0);
		assert.deepEqual(anatomy?.unavailable, [
			'p99: kubelet_runtime_operations_duration_seconds exists from kubelet 1.14 (before: kubelet_runtime_operations_latency_microseconds, whose quantiles cannot be windowed)',
		]);
	});
});

/** Drives the demo kubelet on a fake clock: one scrape a second for 90 s, a 60 s window, then the anatomy. */
function simulated(scenario: DemoScenario): RelistAnatomy {
	let now = Date.UTC(2024, 0, 15, 12);
	const kubelet = new SimulatedKubelet({now: () => now, seed: 7, startedAt: now - 600_000});
	kubelet.churn(scenario === 'churn');
	kubelet.slowRuntime(scenario === 'slow-runtime');
	let state = initialFeedState({node: 'demo-node', windowSeconds: 60});
	for (let second = 0; second < 90; second++) {
		now += 1000;
		const scrape: Scrape = {at: now, sample: parsePlegSample(kubelet.metricsText()), latencyMs: 2};
		state = feedReducer(state, {type: 'scrape', scrape});
	}

	const anatomy = figuresAt(state, now)?.anatomy;
	assert.ok(anatomy);
	return anatomy;
}

describe('relistAnatomy on the demo kubelet', () => {
	test('churn: many status calls per relist, read as per-pod status inspection', () => {
		const anatomy = simulated('churn');
		// 3-5 changed pods per relist, each 1 PodSandboxStatus + 1-2 ContainerStatus (simulated-cri.ts).
		assert.ok((anatomy.statusCallsPerRelist ?? 0) > 5, `status calls per relist ${anatomy.statusCallsPerRelist}`);
		assert.equal(anatomy.reading.kind, 'status');
		assert.match(anatomy.reading.text, /^relist ≈ per-pod status inspection: \d+(\.\d)? status calls per relist/);
	});

	test('slow runtime: the two list calls are most of the relist, read as the runtime answering slowly', () => {
		const anatomy = simulated('slow-runtime');
		assert.ok((anatomy.listShareOfRelist ?? 0) > 0.7, `list share ${anatomy.listShareOfRelist}`);
		assert.equal(anatomy.reading.kind, 'list-slow');
		assert.match(anatomy.reading.text, /^relist ≈ list calls \(runtime answers slowly\): list calls take/);
	});

	test('idle: list calls and almost no status calls', () => {
		const anatomy = simulated('idle');
		assert.ok((anatomy.statusCallsPerRelist ?? 1) < 1);
		assert.equal(anatomy.reading.kind, 'idle');
		assert.match(anatomy.reading.text, /^idle: 2 list calls per relist, /);
	});
});
