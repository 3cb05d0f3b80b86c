import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction, type FeedState} from '../../source/domain/feed.js';
import {logToArray} from '../../source/domain/history/bounded-log.js';
import type {Failure, NodeInfo, Scrape} from '../../source/domain/types.js';
import {readDump, scrapeOf, setSamples, v121OneMinuteLater, v121Restarted} from './dump.js';
import {timeOfDay} from '../../source/domain/text/format.js';

const gauge = 1_648_119_277; // kubelet_pleg_last_seen_seconds of the v1.21.2 dump
const t0 = gauge * 1000; // a scrape at the instant of the last successful relist

type Options = Parameters<typeof initialFeedState>[0];

function run(actions: FeedAction[], options: Options = {node: 'ip-10-0-1-1', windowSeconds: 60}): FeedState {
	return actions.reduce(feedReducer, initialFeedState(options));
}

const scrape = (scrape: Scrape): FeedAction => ({type: 'scrape', scrape});

const failure: Failure = {kind: 'network', summary: 'connect ECONNREFUSED 10.0.0.1:6443', details: []};

function assertClose(actual: number | null | undefined, expected: number): void {
	assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${actual} ≉ ${expected}`);
}

describe('figuresAt on the v1.21.2 dump', () => {
	const state = run([scrape(scrapeOf(readDump('1.21.2'), t0 + 2000))]);

	test('null before the first scrape', () => {
		assert.equal(figuresAt(initialFeedState({node: 'n', windowSeconds: 60}), t0), null);
	});

	test('one scrape: lifetime figures, last seen growing with now, no window yet', () => {
		const figures = figuresAt(state, t0 + 12_400)!;
		assert.equal(figures.node, 'ip-10-0-1-1');
		assert.equal(figures.kubeletVersion, 'v1.21.2');
		assert.deepEqual(figures.lifetime, {count: 1671950, sum: 35470.97548711002, meanSeconds: 35470.97548711002 / 1671950});
		assert.deepEqual(figures.lastSeen, {
			gaugeSeconds: gauge,
			ageSeconds: 12.4, // (t0 + 12400 - gauge × 1000) / 1000
			skewSeconds: null,
			neverSucceeded: false,
			countUnchangedSeconds: null,
		});
		assert.equal(figures.window, null);
		assert.deepEqual(figures.verdict, {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'});
		assert.equal(figures.constants.threshold.location, 'pkg/kubelet/pleg/generic.go:83');
		assert.equal(figures.thresholdToPeriodRatio, 180); // 180 s / 1 s
		assert.equal(figures.thresholdToMeanRatio, null); // no window mean yet
		assert.equal(figures.legacy, false);
		assert.deepEqual(figures.unavailable, []);
		assert.equal(figures.discardEventsTotal, 0);
		assert.equal(figures.windowTargetSeconds, 60);
	});

	test('the age keeps growing between scrapes until the kubelet Healthy() rule trips', () => {
		assert.equal(figuresAt(state, t0 + 180_000)!.verdict.healthy, true); // 180 s: not greater
		assert.equal(
			figuresAt(state, t0 + 181_000)!.verdict.message,
			'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s',
		);
	});

	test('gauge in the future (node clock ahead): age 0 and the skew', () => {
		const lastSeen = figuresAt(state, t0 - 3000)!.lastSeen;
		assert.equal(lastSeen.ageSeconds, 0);
		assert.equal(lastSeen.skewSeconds, 3);
	});

	test('gauge 0: never succeeded', () => {
		const zero = run([scrape(scrapeOf(setSamples(readDump('1.21.2'), {kubelet_pleg_last_seen_seconds: '0'}), t0))]);
		const figures = figuresAt(zero, t0 + 1000)!;
		assert.equal(figures.lastSeen.neverSucceeded, true);
		assert.equal(figures.lastSeen.ageSeconds, null);
		assert.equal(figures.verdict.message, 'PLEG is not healthy: pleg has yet to be successful');
	});

	test('two scrapes a minute apart: the window and threshold / mean', () => {
		const later = run([scrape(scrapeOf(readDump('1.21.2'), t0)), scrape(scrapeOf(v121OneMinuteLater(), t0 + 60_000))]);
		const figures = figuresAt(later, t0 + 60_500)!;
		assert.equal(figures.window?.count, 60);
		assert.equal(figures.window?.spanSeconds, 60);
		const mean = (35471.57548711002 - 35470.97548711002) / 60; // ≈ 10 ms
		assert.equal(figures.window?.meanSeconds, mean);
		assert.equal(figures.thresholdToMeanRatio, 180 / mean); // ≈ ×18,000
		assert.equal(figures.lastSeen.ageSeconds, 0.5); // gauge + 60 s, read 0.5 s later
		assert.equal(figures.discardEventsTotal, 2);
		assert.equal(figures.window?.discardEvents, 2);
	});
});

describe('a last-seen gauge that is not a time', () => {
	for (const [value, why] of [
		['NaN', 'not a number'],
		['+Inf', 'infinite'],
		['-Inf', 'infinite'],
		['-3', 'negative'],
	] as const) {
		test(`${value}: read as absent, "count unchanged" judges, the reason in words`, () => {
			const text = setSamples(readDump('1.21.2'), {kubelet_pleg_last_seen_seconds: value});
			const state = run([scrape(scrapeOf(text, t0)), scrape(scrapeOf(text, t0 + 1000))]);
			const figures = figuresAt(state, t0 + 12_000)!;
			assert.deepEqual(figures.lastSeen, {
				gaugeSeconds: null,
				ageSeconds: null,
				skewSeconds: null,
				neverSucceeded: false,
				countUnchangedSeconds: 12,
			});
			assert.deepEqual(figures.verdict, {healthy: true, message: 'PLEG is healthy', basis: 'count-unchanged'});
			// A v1.21.2 kubelet has the gauge: not "exists from kubelet 1.18", but why this value is no time.
			assert.equal(
				figures.unavailable[0],
				`last seen: kubelet_pleg_last_seen_seconds is ${why}, not a time; using 'count unchanged for 12s'`,
			);
			assert.deepEqual(
				logToArray(state.history).map((point) => point.lastSeenAgeSeconds),
				[null, null],
			);
		});
	}
});

describe('a series missing from a kubelet new enough to expose it', () => {
	test('v1.21.2 without kubelet_pleg_last_seen_seconds: "not in this kubelet\'s /metrics", not "exists from kubelet 1.18"', () => {
		const text = readDump('1.21.2').replace('kubelet_pleg_last_seen_seconds 1.648119277e+09\n', '');
		const figures = figuresAt(run([scrape(scrapeOf(text, t0))]), t0)!;
		assert.equal(
			figures.unavailable[0],
			"last seen: kubelet_pleg_last_seen_seconds is not in this kubelet's /metrics; using 'count unchanged for 0s'",
		);
	});

	test('a v1.31.4 kubelet without kubelet_running_pods: the anatomy says the same', () => {
		const text = readDump('1.21.2').replace('kubelet_running_pods 29\n', '');
		const state = run([{type: 'node', node: {name: 'n', kubeletVersion: 'v1.31.4', ready: null}}, scrape(scrapeOf(text, t0))]);
		assert.deepEqual(figuresAt(state, t0)!.anatomy?.unavailable, ["running pods: kubelet_running_pods is not in this kubelet's /metrics"]);
		// The same body from a kubelet that says it is 1.18: too old for the series, and said so.
		const old = run([{type: 'node', node: {name: 'n', kubeletVersion: 'v1.18.6', ready: null}}, scrape(scrapeOf(text, t0))]);
		assert.deepEqual(figuresAt(old, t0)!.anatomy?.unavailable, [
			'running pods: kubelet_running_pods exists from kubelet 1.19 (kubelet_running_pod_count before)',
		]);
	});
});

describe('figuresAt on older kubelets', () => {
	test('v1.14.10: count unchanged as the fallback age, and the lines saying why', () => {
		const text = readDump('1.14.10');
		const state = run([scrape(scrapeOf(text, t0)), scrape(scrapeOf(text, t0 + 5000))]);
		const figures = figuresAt(state, t0 + 200_000)!;
		assert.equal(figures.lastSeen.countUnchangedSeconds, 200); // count unchanged since the first scrape at t0
		assert.deepEqual(figures.verdict, {
			healthy: false,
			message: 'PLEG is not healthy: pleg was last seen active 3m20s ago; threshold is 3m0s',
			basis: 'count-unchanged',
		});
		assert.deepEqual(figures.unavailable, [
			"last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1.18; using 'count unchanged for 3m20s'",
			'discard events: kubelet_pleg_discard_events exists from kubelet 1.14 (in 1.14-1.17 only after the first discarded event)',
		]);
		assert.equal(figures.legacy, false); // the seconds histograms are there
		assert.equal(figures.constants.row, '1.14 (cf0533c)');
	});

	test('v1.14.10: a relist count that moves resets the fallback age', () => {
		const later = setSamples(readDump('1.14.10'), {kubelet_pleg_relist_duration_seconds_count: '42894'});
		const state = run([scrape(scrapeOf(readDump('1.14.10'), t0)), scrape(scrapeOf(later, t0 + 100_000))]);
		assert.equal(figuresAt(state, t0 + 103_000)!.lastSeen.countUnchangedSeconds, 3); // changed at t0 + 100 s
	});

	test('v1.10.0: legacy µs figures, no quantiles', () => {
		const later = setSamples(readDump('1.10.0'), {
			kubelet_pleg_relist_latency_microseconds_sum: '7.60184e+06',
			kubelet_pleg_relist_latency_microseconds_count: '292',
		});
		const state = run([scrape(scrapeOf(readDump('1.10.0'), t0)), scrape(scrapeOf(later, t0 + 6000))]);
		const figures = figuresAt(state, t0 + 6000)!;
		assert.equal(figures.legacy, true);
		assert.deepEqual(figures.lifetime, {count: 292, sum: 7.60184e6 / 1e6, meanSeconds: 7.60184e6 / 1e6 / 292});
		assert.equal(figures.window?.meanSeconds, (7.60184e6 / 1e6 - 7.54184e6 / 1e6) / 6);
		assert.equal(figures.window?.p99, null);
		assert.ok(figures.unavailable.includes('quantiles: the µs summaries of kubelet < 1.14 cannot be windowed'));
		assert.equal(figures.constants.row, 'v1.10.9');
		assert.equal(figures.lastSeen.countUnchangedSeconds, 0); // the count moved at t0 + 6 s
	});
});

describe('feedReducer: the window ring', () => {
	test('keeps the newest scrape at least windowSeconds older than the latest as the window start', () => {
		const text = readDump('1.21.2');
		// 21 scrapes, one a second, window 10 s: at t0 + 20 s the start is the scrape of t0 + 10 s.
		const actions = Array.from({length: 21}, (_, i) => scrape(scrapeOf(text, t0 + i * 1000)));
		const state = run(actions, {node: 'n', windowSeconds: 10});
		assert.equal(state.scrapes.end - state.scrapes.start, 11); // t0 + 10 s … t0 + 20 s
		assert.equal(state.scrapes.items[state.scrapes.start]?.at, t0 + 10_000);
		assert.equal(figuresAt(state, t0 + 20_000)!.window?.spanSeconds, 10);
	});

	test('scrapes 1.5 s apart: the window start is the newest one at least 10 s old (span 10.5 s)', () => {
		const text = readDump('1.21.2');
		const actions = Array.from({length: 12}, (_, i) => scrape(scrapeOf(text, t0 + i * 1500)));
		const state = run(actions, {node: 'n', windowSeconds: 10});
		// latest t0 + 16.5 s; start by t0 + 6.5 s: scrapes at 6.0 s (newest ≤ 6.5 s) onwards.
		assert.equal(figuresAt(state, t0 + 16_500)!.window?.spanSeconds, 10.5);
	});

	test('history is bounded: the oldest points drop', () => {
		const text = readDump('1.21.2');
		const actions = Array.from({length: 12}, (_, i) => scrape(scrapeOf(text, t0 + i * 1000)));
		const points = logToArray(run(actions, {node: 'n', windowSeconds: 60, historyLimit: 5}).history);
		assert.deepEqual(
			points.map((point) => point.at),
			[7, 8, 9, 10, 11].map((i) => t0 + i * 1000),
		);
		assert.deepEqual(
			points.map((point) => point.lastSeenAgeSeconds),
			[7, 8, 9, 10, 11],
		); // scrape time - gauge
	});

	test('a counter reset (kubelet restart) is counted, marked on the history, and the window spans it', () => {
		const restarted = setSamples(readDump('1.21.2'), {
			kubelet_pleg_relist_duration_seconds_count: '3',
			kubelet_pleg_relist_duration_seconds_sum: '0.012',
		});
		const state = run([
			scrape(scrapeOf(readDump('1.21.2'), t0)),
			scrape(scrapeOf(v121OneMinuteLater(), t0 + 60_000)),
			scrape(scrapeOf(restarted, t0 + 61_000)),
		]);
		assert.equal(state.restarts, 1);
		assert.equal(state.scrapes.end - state.scrapes.start, 3); // nothing dropped: all three within 60 s of the latest
		// 60 relists before the restart, then the restarted counter's own 3: 63 relists, 0.6 s + 0.012 s.
		const window = figuresAt(state, t0 + 61_000)!.window!;
		assert.equal(window.count, 63);
		assertClose(window.meanSeconds, 0.612 / 63);
		assert.deepEqual(
			logToArray(state.history).map((point) => point.event),
			[null, null, 'restart'],
		);
		assert.equal(state.lastCountChangeAt, t0 + 61_000);
	});

	test('three slow relists after a restart: window mean 201 ms and quantiles over the reset', () => {
		// A stalled kubelet (count unchanged between the first two scrapes) is restarted; its first three relists
		// take 150, 200 and 254 ms: sum 0.604 s, buckets ≤0.25: 2, ≤0.5: 3.
		const stalled = readDump('1.21.2');
		const state = run(
			[
				scrape(scrapeOf(stalled, t0)),
				scrape(scrapeOf(stalled, t0 + 1000)),
				scrape(scrapeOf(v121Restarted([0.15, 0.2, 0.254], [1.2, 1.25]), t0 + 2000)),
			],
			{node: 'n', windowSeconds: 3},
		);
		const figures = figuresAt(state, t0 + 2000)!;
		const window = figures.window!;
		assert.equal(window.spanSeconds, 2);
		assert.equal(window.count, 3); // 0 before the restart + the 3 counted since
		assertClose(window.meanSeconds, 0.604 / 3); // 201.3 ms, not the 4 ms of a window restarted at the reset
		assert.equal(window.ratePerSecond, 1.5); // 3 relists in 2 s
		// p50: rank 1.5 in (0.1, 0.25] holding 2: 0.1 + 0.15 × 1.5/2 = 0.2125
		assertClose(window.p50?.seconds, 0.2125);
		// p90: rank 2.7 in (0.25, 0.5] holding 3 - 2: 0.25 + 0.25 × 0.7 = 0.425
		assertClose(window.p90?.seconds, 0.425);
		// p99: rank 2.97: 0.25 + 0.25 × 0.97 = 0.4925
		assertClose(window.p99?.seconds, 0.4925);
		assertClose(window.intervalMeanSeconds, 2.45 / 2); // the restarted interval histogram's own 2 intervals
		assert.equal(window.discardEvents, 0); // 0 → 0 across the restart
		// Lifetime figures stay what the kubelet exposes: since its start.
		assert.deepEqual(figures.lifetime?.count, 3);
		assert.ok(Math.abs(figures.thresholdToMeanRatio! - 894.04) < 0.01); // 180 s / 0.20133 s
		assert.deepEqual(
			logToArray(state.history).map((point) => point.event),
			[null, null, 'restart'],
		);
	});

	test('a second restart adds to the first: the corrected counters only rise', () => {
		const state = run(
			[
				scrape(scrapeOf(v121Restarted([0.01, 0.01]), t0)),
				scrape(scrapeOf(v121Restarted([0.01, 0.01, 0.02]), t0 + 1000)), // +1 relist of 20 ms
				scrape(scrapeOf(v121Restarted([0.04, 0.01]), t0 + 2000)), // restart: 2 relists, 50 ms
				scrape(scrapeOf(v121Restarted([0.03]), t0 + 3000)), // restart again (count 2 → 1): 1 relist of 30 ms
			],
			{node: 'n', windowSeconds: 10},
		);
		const window = figuresAt(state, t0 + 3000)!.window!;
		assert.equal(state.restarts, 2);
		assert.equal(window.count, 4); // 1 + 2 + 1
		assertClose(window.meanSeconds, 0.025); // (0.02 + 0.05 + 0.03) / 4
	});
});

describe('feedReducer: failures, node, pause', () => {
	const good = scrape(scrapeOf(readDump('1.21.2'), t0));

	test('a failure keeps the figures (stale) and sets the status; a success clears it', () => {
		const before = run([good]);
		const failing = [{type: 'failure', failure, at: t0 + 1000} as const, {type: 'failure', failure, at: t0 + 2000} as const].reduce(
			feedReducer,
			before,
		);
		// The figures stay the last good scrape's; only the verdict turns unknown, with what was known.
		const {verdict, stale, ...figures} = figuresAt(failing, t0 + 3000)!;
		const {verdict: verdictBefore, stale: staleBefore, ...figuresBefore} = figuresAt(before, t0 + 3000)!;
		assert.deepEqual(figures, figuresBefore);
		assert.equal(staleBefore, null);
		assert.deepEqual(verdictBefore, {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'});
		// The scrape at t0 read the gauge 0 s old; 3 s later the last good scrape is 3 s old.
		assert.deepEqual(verdict, {
			healthy: null,
			message: 'verdict unknown: the last good scrape is 3s old (then: PLEG is healthy)',
			basis: 'none',
		});
		assert.deepEqual(stale, {
			failure: 'connect ECONNREFUSED 10.0.0.1:6443',
			lastGoodAt: t0,
			lastGoodAgeSeconds: 3,
			verdictThen: {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'},
			estimatePastThreshold: false,
		});
		assert.deepEqual(failing.status, {
			failure,
			failingSince: t0 + 1000, // the first failure
			lastGoodAt: t0,
			consecutiveFailures: 2,
			lastLatencyMs: 5,
			paused: false,
		});
		const recovered = feedReducer(failing, scrape(scrapeOf(readDump('1.21.2'), t0 + 3000, 42)));
		assert.deepEqual(recovered.status, {
			failure: null,
			failingSince: null,
			lastGoodAt: t0 + 3000,
			consecutiveFailures: 0,
			lastLatencyMs: 42,
			paused: false,
		});
	});

	test('the Node object version wins over build_info, and its Ready condition is passed on', () => {
		const node: NodeInfo = {
			name: 'ip-10-0-1-1',
			kubeletVersion: 'v1.28.0',
			ready: {status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', since: t0 - 3_600_000},
		};
		const figures = figuresAt(run([good, {type: 'node', node}]), t0)!;
		assert.equal(figures.kubeletVersion, 'v1.28.0');
		assert.equal(figures.constants.threshold.location, 'pkg/kubelet/kubelet.go:179');
		assert.deepEqual(figures.ready, node.ready);
	});

	test('pause is recorded in the status', () => {
		assert.equal(run([good, {type: 'pause', paused: true}]).status.paused, true);
		assert.equal(run([good, {type: 'pause', paused: true}, {type: 'pause', paused: false}]).status.paused, false);
	});
});

describe('stale: the last scrape failed', () => {
	test('47 s without a good scrape: unknown, never "PLEG is healthy"', () => {
		const state = run([scrape(scrapeOf(readDump('1.21.2'), t0 + 10_000)), {type: 'failure', failure, at: t0 + 12_000}]);
		const figures = figuresAt(state, t0 + 57_000)!;
		assert.equal(figures.verdict.healthy, null);
		// The scrape at t0 + 10 s saw the gauge 10 s old: healthy then; the scrape is 47 s old now.
		assert.equal(figures.verdict.message, 'verdict unknown: the last good scrape is 47s old (then: PLEG is healthy)');
		assert.equal(figures.stale?.lastGoodAgeSeconds, 47);
	});

	test("past the threshold only by extrapolation: pleg-top's estimate, not the kubelet's words", () => {
		// Gauge 170 s old at the last good scrape (healthy then); 11 s later it would be 181 s old.
		const state = run([scrape(scrapeOf(readDump('1.21.2'), t0 + 170_000)), {type: 'failure', failure, at: t0 + 171_000}]);
		const figures = figuresAt(state, t0 + 181_000)!;
		assert.equal(figures.verdict.healthy, null);
		assert.equal(
			figures.verdict.message,
			"verdict unknown: the last good scrape is 11s old (then: PLEG is healthy); pleg-top's estimate: last seen up to 3m1s ago, past the 3m0s threshold",
		);
		assert.doesNotMatch(figures.verdict.message, /PLEG is not healthy/);
		assert.equal(figures.stale?.estimatePastThreshold, true);
	});

	test('already unhealthy at the last good scrape: that verdict is quoted as then', () => {
		const state = run([scrape(scrapeOf(readDump('1.21.2'), t0 + 200_000)), {type: 'failure', failure, at: t0 + 201_000}]);
		const figures = figuresAt(state, t0 + 205_000)!;
		assert.equal(
			figures.verdict.message,
			'verdict unknown: the last good scrape is 5s old (then: PLEG is not healthy: pleg was last seen active 3m20s ago; threshold is 3m0s)',
		);
		assert.equal(figures.stale?.estimatePastThreshold, false);
	});

	test('the next good scrape ends it', () => {
		const state = run([
			scrape(scrapeOf(readDump('1.21.2'), t0)),
			{type: 'failure', failure, at: t0 + 1000},
			scrape(scrapeOf(readDump('1.21.2'), t0 + 2000)),
		]);
		const figures = figuresAt(state, t0 + 2000)!;
		assert.equal(figures.stale, null);
		assert.equal(figures.verdict.message, 'PLEG is healthy');
	});
});

describe('evented PLEG', () => {
	const withGate = (text: string, value: string) =>
		`${text}# TYPE kubernetes_feature_enabled gauge\nkubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} ${value}\n`;
	const withConnections = (text: string, count: string) =>
		`${text}# TYPE kubelet_evented_pleg_connection_success_count counter\nkubelet_evented_pleg_connection_success_count ${count}\n`;

	test('the EventedPLEG gate on: threshold 600 s, printed 10m0s', () => {
		const state = run([
			{type: 'node', node: {name: 'n', kubeletVersion: 'v1.28.0', ready: null}},
			scrape(scrapeOf(withGate(readDump('1.21.2'), '1'), t0)),
		]);
		const figures = figuresAt(state, t0 + 601_000)!;
		assert.equal(figures.constants.evented, true);
		assert.equal(figures.thresholdToPeriodRatio, 2); // 600 s / 300 s
		assert.equal(figures.verdict.message, 'PLEG is not healthy: pleg was last seen active 10m1s ago; threshold is 10m0s');
	});

	test('the gate off: generic constants', () => {
		const state = run([scrape(scrapeOf(withGate(readDump('1.21.2'), '0'), t0))]);
		assert.equal(figuresAt(state, t0)!.constants.evented, false);
	});

	test('the connection success counter rising between scrapes also means evented', () => {
		const node = {type: 'node', node: {name: 'n', kubeletVersion: 'v1.28.0', ready: null}} as const;
		const steady = run([
			node,
			scrape(scrapeOf(withConnections(readDump('1.21.2'), '1'), t0)),
			scrape(scrapeOf(withConnections(readDump('1.21.2'), '1'), t0 + 1000)),
		]);
		assert.equal(figuresAt(steady, t0 + 1000)!.constants.evented, false);
		const rising = feedReducer(steady, scrape(scrapeOf(withConnections(readDump('1.21.2'), '2'), t0 + 2000)));
		assert.equal(figuresAt(rising, t0 + 2000)!.constants.evented, true);
		// It stays evented on the next, unchanged scrape.
		const after = feedReducer(rising, scrape(scrapeOf(withConnections(readDump('1.21.2'), '2'), t0 + 3000)));
		assert.equal(figuresAt(after, t0 + 3000)!.constants.threshold.seconds, 600);
	});
});

describe('evented PLEG fallen back to the Generic PLEG', () => {
	const node = {type: 'node', node: {name: 'n', kubeletVersion: 'v1.28.0', ready: null}} as const;
	const gate = '# TYPE kubernetes_feature_enabled gauge\nkubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 1\n';
	const counters = (success: number, errors: number) =>
		`# TYPE kubelet_evented_pleg_connection_success_count counter\nkubelet_evented_pleg_connection_success_count ${success}\n` +
		`# TYPE kubelet_evented_pleg_connection_error_count counter\nkubelet_evented_pleg_connection_error_count ${errors}\n`;
	const body = (text: string, success: number, errors: number) => `${text}${gate}${counters(success, errors)}`;

	test('stream errors and no stream ever obtained: generic 1 s / 3 min, judged on 3 min, the evidence said', () => {
		const state = run([node, scrape(scrapeOf(body(readDump('1.21.2'), 0, 5), t0))]);
		const figures = figuresAt(state, t0 + 200_000)!;
		assert.equal(figures.constants.evented, false);
		assert.equal(figures.constants.period.seconds, 1);
		assert.equal(figures.constants.threshold.location, 'pkg/kubelet/kubelet.go:179');
		assert.equal(figures.constants.eventedFallback, 'evented, fell back to generic after 5 stream errors');
		assert.equal(figures.thresholdToPeriodRatio, 180);
		// 200 s: past 3 min (it would be healthy under the evented 10 min).
		assert.equal(figures.verdict.message, 'PLEG is not healthy: pleg was last seen active 3m20s ago; threshold is 3m0s');
	});

	test('one stream error: "1 stream error"', () => {
		const state = run([node, scrape(scrapeOf(body(readDump('1.21.2'), 0, 1), t0))]);
		assert.equal(figuresAt(state, t0)!.constants.eventedFallback, 'evented, fell back to generic after 1 stream error');
	});

	test('a stream obtained and no error: still evented (5m0s / 10m0s)', () => {
		const state = run([node, scrape(scrapeOf(body(readDump('1.21.2'), 1, 0), t0))]);
		const constants = figuresAt(state, t0)!.constants;
		assert.equal(constants.evented, true);
		assert.equal(constants.eventedFallback, null);
	});

	test('relists at 1.00/s with the gate on: fallen back, and it stays so while the loop then stalls', () => {
		const state = run([
			node,
			scrape(scrapeOf(body(readDump('1.21.2'), 1, 0), t0)),
			scrape(scrapeOf(body(v121OneMinuteLater(), 1, 0), t0 + 60_000)), // 60 relists in 60 s
		]);
		const evidence = 'evented, fell back to generic: relists at 1.00/s, not one per 5m0s';
		assert.equal(figuresAt(state, t0 + 60_000)!.constants.eventedFallback, evidence);
		assert.equal(figuresAt(state, t0 + 60_000)!.constants.threshold.seconds, 180);
		// No relist in the next minute: no rate evidence in that window, but the kubelet does not go back to evented.
		const stalled = feedReducer(state, scrape(scrapeOf(body(v121OneMinuteLater(), 1, 0), t0 + 120_000)));
		assert.equal(figuresAt(stalled, t0 + 120_000)!.window?.count, 0);
		assert.equal(figuresAt(stalled, t0 + 120_000)!.constants.eventedFallback, evidence);
	});

	test('a stream obtained inside the window: the Evented PLEG runs then, so a fast relist rate is no evidence', () => {
		const state = run([
			node,
			scrape(scrapeOf(body(readDump('1.21.2'), 1, 0), t0)),
			scrape(scrapeOf(body(v121OneMinuteLater(), 2, 0), t0 + 60_000)), // 60 relists, and a stream obtained
		]);
		const constants = figuresAt(state, t0 + 60_000)!.constants;
		assert.equal(constants.eventedFallback, null);
		assert.equal(constants.evented, true);
	});

	test('a kubelet restart clears the fallback: the restarted kubelet starts evented again', () => {
		const state = run([
			node,
			scrape(scrapeOf(body(readDump('1.21.2'), 0, 5), t0)),
			scrape(scrapeOf(body(v121Restarted([0.01]), 0, 0), t0 + 1000)),
		]);
		assert.equal(state.restarts, 1);
		const constants = figuresAt(state, t0 + 1000)!.constants;
		assert.equal(constants.eventedFallback, null);
		assert.equal(constants.evented, true);
	});
});

describe('baseline mark', () => {
	test('figures since the mark and the ratio of means', () => {
		// Window 60 s: t0 → t0 + 60 s has mean 10 ms. Mark there; then 60 relists of 20 ms, all in (10, 25] ms.
		const bucket = (le: string) => `kubelet_pleg_relist_duration_seconds_bucket{le="${le}"}`;
		const slower = setSamples(v121OneMinuteLater(), {
			[bucket('0.025')]: '1325558', // 1325498 + 60
			[bucket('0.05')]: '1600066', // 1600006 + 60
			[bucket('0.1')]: '1670383', // 1670323 + 60
			[bucket('0.25')]: '1672065', // 1672005 + 60
			[bucket('0.5')]: '1672066',
			[bucket('1')]: '1672067',
			[bucket('2.5')]: '1672068',
			[bucket('5')]: '1672069',
			[bucket('10')]: '1672069',
			[bucket('+Inf')]: '1672070', // 1672010 + 60
			kubelet_pleg_relist_duration_seconds_sum: '35472.77548711002', // 35471.57548711002 + 1.2 s (60 × 20 ms)
			kubelet_pleg_relist_duration_seconds_count: '1672070', // + 60
		});
		const marked = run([
			scrape(scrapeOf(readDump('1.21.2'), t0)),
			scrape(scrapeOf(v121OneMinuteLater(), t0 + 60_000)),
			{type: 'mark', at: t0 + 60_200},
		]);
		assert.equal(logToArray(marked.history).at(-1)?.event, 'mark');
		const state = feedReducer(marked, scrape(scrapeOf(slower, t0 + 120_000)));
		const baseline = figuresAt(state, t0 + 120_000)!.baseline!;
		assert.equal(baseline.markedAt, t0 + 60_200);
		assertClose(baseline.atMark?.meanSeconds, 0.01); // 0.6 s / 60
		assert.equal(baseline.sinceMark?.count, 60);
		assert.equal(baseline.sinceMark?.spanSeconds, 60);
		assertClose(baseline.sinceMark?.meanSeconds, 0.02); // 1.2 s / 60
		assertClose(baseline.meanRatio, 2); // 20 ms / 10 ms
		assertClose(baseline.sinceMark?.p50?.seconds, 0.0175); // rank 30 of 60 in (0.01, 0.025]: 0.01 + 0.015 × 30/60
		assert.deepEqual(
			logToArray(state.history).map((point) => point.event),
			[null, 'mark', null],
		);
	});

	test('a mark before any scrape does nothing', () => {
		const state = run([{type: 'mark', at: t0}]);
		assert.equal(state.baseline, null);
	});

	test('since the mark across a kubelet restart: the restarted counters count from 0', () => {
		const state = run([
			scrape(scrapeOf(readDump('1.21.2'), t0)),
			scrape(scrapeOf(v121OneMinuteLater(), t0 + 60_000)),
			{type: 'mark', at: t0 + 60_000},
			scrape(scrapeOf(v121Restarted([0.03, 0.05]), t0 + 61_000)),
		]);
		const baseline = figuresAt(state, t0 + 61_000)!.baseline!;
		assert.equal(baseline.sinceMark?.count, 2);
		assertClose(baseline.sinceMark?.meanSeconds, 0.04); // (0.03 + 0.05) / 2
		assertClose(baseline.meanRatio, 4); // 40 ms since the mark / 10 ms at it
		assert.notEqual(baseline.atMark, null);
	});
});

describe('state is plain data', () => {
	test('a spread of the state keeps everything, the history included', () => {
		const text = readDump('1.21.2');
		const state = run([scrape(scrapeOf(text, t0)), scrape(scrapeOf(text, t0 + 1000))]);
		const copy = {...state};
		assert.deepEqual(
			logToArray(copy.history).map((point) => point.at),
			[t0, t0 + 1000],
		);
		assert.deepEqual(Object.keys(copy).sort(), Object.keys(state).sort());
		assert.deepEqual(Object.getOwnPropertyNames(state).sort(), Object.keys(state).sort()); // nothing hidden
	});

	test('a scrape appends to the history log in place: no copy of the history per scrape', () => {
		const text = readDump('1.21.2');
		let state = run([scrape(scrapeOf(text, t0))], {node: 'n', windowSeconds: 10, historyLimit: 2000});
		const backing = state.history.items;
		for (let i = 1; i < 1000; i++) {
			state = feedReducer(state, scrape(scrapeOf(text, t0 + i * 1000)));
		}

		assert.equal(state.history.items, backing); // the same array, pushed onto, never copied
		assert.equal(logToArray(state.history).length, 1000);
	});
});

describe('reducer purity', () => {
	test('an old state is unchanged by later actions (StrictMode calls reducers twice)', () => {
		const first = run([scrape(scrapeOf(readDump('1.21.2'), t0))]);
		const second = scrape(scrapeOf(readDump('1.21.2'), t0 + 1000));
		const a = feedReducer(first, second);
		const b = feedReducer(first, second); // same input again
		assert.equal(logToArray(first.history).length, 1);
		assert.equal(logToArray(a.history).length, 2);
		assert.deepEqual(logToArray(b.history), logToArray(a.history));
		assert.equal(first.scrapes.end - first.scrapes.start, 1);
	});
});

describe('feedReducer: a _sum that falls while the _count rises', () => {
	test('no restart is invented: the rate is the count delta, the mean is left out, a note says why', () => {
		const duration = 'kubelet_pleg_relist_duration_seconds';
		// Each second +10 relists while the sum falls by 1 s (a broken exporter): before, each scrape counted as a
		// restart and added the whole 1.67 M count again, a rate of over a million a second.
		const at = (second: number) =>
			scrapeOf(
				setSamples(readDump('1.21.2'), {
					[`${duration}_count`]: String(1_671_950 + 10 * second),
					[`${duration}_sum`]: String(35470.97548711002 - second),
				}),
				t0 + 1000 * second,
			);
		const state = run([scrape(at(0)), scrape(at(1)), scrape(at(2))], {node: 'n', windowSeconds: 10});
		const figures = figuresAt(state, t0 + 2000)!;
		assert.equal(state.restarts, 0);
		assert.equal(figures.window!.count, 20); // 1,671,970 - 1,671,950
		assert.equal(figures.window!.ratePerSecond, 10); // 20 / 2 s
		assert.equal(figures.window!.meanSeconds, null);
		assert.ok(
			figures.unavailable.includes('relist duration: _sum fell while _count rose by 20: inconsistent series, no window mean'),
			figures.unavailable.join('\n'),
		);
	});
});

describe('feedReducer: the relist metrics change format mid-run (µs summary → seconds histogram)', () => {
	const legacy = (count: number, sumMicroseconds: number) =>
		setSamples(readDump('1.10.0'), {
			kubelet_pleg_relist_latency_microseconds_count: String(count),
			kubelet_pleg_relist_latency_microseconds_sum: String(sumMicroseconds),
		});
	const note = `metric format changed at ${timeOfDay(t0 + 2000)}: window restarted (µs summary → seconds histogram)`;
	const actions = [
		scrape(scrapeOf(legacy(286, 7_541_840), t0)),
		scrape(scrapeOf(legacy(287, 7_561_840), t0 + 1000)), // +1 relist of 20 ms
		scrape(scrapeOf(readDump('1.21.2'), t0 + 2000)), // the kubelet upgraded: the histogram from here on
		scrape(scrapeOf(v121OneMinuteLater(), t0 + 3000)), // +60 relists, Δsum 0.6 s
	];

	test('before the change the window is the summary’s', () => {
		const window = figuresAt(run(actions.slice(0, 2), {node: 'n', windowSeconds: 10}), t0 + 1000)!.window!;
		assert.equal(window.count, 1);
		assertClose(window.meanSeconds, 0.02); // 20,000 µs
	});

	test('the first scrape in the new format starts the window again, and the note says when', () => {
		const figures = figuresAt(run(actions.slice(0, 3), {node: 'n', windowSeconds: 10}), t0 + 2000)!;
		// One scrape spans nothing yet: no window rather than "no relist completed" over two formats.
		assert.equal(figures.window, null);
		assert.ok(figures.unavailable.includes(note), figures.unavailable.join('\n'));
	});

	test('the next scrape gives the histogram’s figures; the note stays while the window starts at the change', () => {
		const state = run(actions, {node: 'n', windowSeconds: 10});
		const figures = figuresAt(state, t0 + 3000)!;
		assert.equal(figures.window!.count, 60); // 1,672,010 - 1,671,950
		assertClose(figures.window!.meanSeconds, 0.01); // 0.6 s / 60
		assert.equal(figures.window!.spanSeconds, 1);
		assert.ok(figures.unavailable.includes(note));
		assert.deepEqual(state.formatChange, {
			at: t0 + 2000,
			from: 'kubelet_pleg_relist_latency_microseconds',
			to: 'kubelet_pleg_relist_duration_seconds',
		});
	});

	test('once the window has slid past the change, the note goes', () => {
		const later = (second: number) =>
			scrape(
				scrapeOf(
					setSamples(v121OneMinuteLater(), {kubelet_pleg_relist_duration_seconds_count: String(1_672_010 + second)}),
					t0 + 1000 * second,
				),
			);
		const state = run([...actions, later(4), later(5), later(6)], {node: 'n', windowSeconds: 2});
		assert.equal(
			figuresAt(state, t0 + 6000)!.unavailable.some((line) => line.startsWith('metric format changed')),
			false,
		);
	});
});
