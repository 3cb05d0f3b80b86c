import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../source/domain/feed.js';
import {jsonReport, rawText, textReport} from '../../source/report/report.js';
import {formatNodeOnce} from '../../source/run/once.js';
import type {Figures, Scrape} from '../../source/domain/types.js';
import {readDump, scrapeOf, setSamples, v121OneMinuteLater} from '../domain/dump.js';
import {contractKeys, extraKeys} from '../helpers/json-contract.js';

const gauge = 1_648_119_277; // kubelet_pleg_last_seen_seconds of the v1.21.2 dump
const t0 = gauge * 1000;

function figuresAfter(scrapes: Scrape[], now: number, extra: FeedAction[] = []): Figures {
	const actions: FeedAction[] = [...scrapes.map((scrape) => ({type: 'scrape', scrape}) as const), ...extra];
	const state = actions.reduce(feedReducer, initialFeedState({node: 'ip-10-0-1-1', windowSeconds: 60}));
	return figuresAt(state, now)!;
}

const constantsKeys = ['relistPeriodSeconds', 'relistThresholdSeconds', 'periodSource', 'thresholdSource', 'row', 'rowNote', 'pleg'];
const relistKeys = [
	'count',
	'sum',
	'lifetimeMeanSeconds',
	'windowSeconds',
	'windowCount',
	'windowMeanSeconds',
	'windowP50Seconds',
	'windowP90Seconds',
	'windowP99Seconds',
	'ratePerSecond',
	'intervalMeanSeconds',
];
const relistExtraKeys = ['windowP50AtLeast', 'windowP90AtLeast', 'windowP99AtLeast'];

describe('jsonReport', () => {
	test('v1.21.2, two scrapes a minute apart: every contract key, figures by hand', () => {
		const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0), scrapeOf(v121OneMinuteLater(), t0 + 60_000)], t0 + 60_500);
		const report = jsonReport(figures);
		assert.deepEqual(Object.keys(report), [...contractKeys, ...extraKeys]);
		assert.deepEqual(Object.keys(report.constants), constantsKeys);
		assert.deepEqual(Object.keys(report.relist), [...relistKeys, ...relistExtraKeys]);
		assert.deepEqual(report, {
			node: 'ip-10-0-1-1',
			kubeletVersion: 'v1.21.2',
			healthy: true,
			verdict: 'PLEG is healthy',
			band: 'ok', // age 0.5 s ≤ 5 s
			secondsToThreshold: 179.5, // 180 − 0.5
			unhealthyForSeconds: null, // healthy
			podsEvictedInSeconds: null, // no Node object read: no Ready condition to count from
			podsOnNode: null, // counted only while the Node is not Ready
			podsOnNodeError: null,
			transitions: 0, // healthy at both scrapes
			events: [], // the Events were not read: said, not shown as none
			eventsError: "the node's Events were not read",
			lastSeenSeconds: gauge + 60,
			lastSeenAgeSeconds: 0.5, // t0 + 60.5 s - (gauge + 60 s)
			clockOffsetSeconds: 0, // the gauge advanced with the count: (gauge + 60 s) − (t0 + 60 s)
			clockOffsetSource: 'relist',
			constants: {
				relistPeriodSeconds: 1,
				relistThresholdSeconds: 180,
				periodSource: null, // kubelet.go not read for 1.18-1.24
				thresholdSource: 'pkg/kubelet/pleg/generic.go:83',
				row: 'v1.18.6–v1.24.14',
				rowNote: null, // v1.21.2 lies inside the row
				pleg: 'generic',
			},
			relist: {
				count: 1672010, // 1671950 + 60
				sum: 35471.57548711, // 35471.57548711002 to the nanosecond
				lifetimeMeanSeconds: 0.02121493, // 35471.57548711 / 1672010 = 0.021214930…
				windowSeconds: 60,
				windowCount: 60,
				windowMeanSeconds: 0.01, // 0.6 s / 60, without the float noise of the difference (0.009999999999975747)
				windowP50Seconds: 0.008333333, // rank 30 in (0.005, 0.01]: 0.005 + 0.005 × 20/30
				windowP90Seconds: 0.024, // rank 54 in (0.01, 0.025]: 0.01 + 0.015 × 14/15
				windowP99Seconds: 0.047, // rank 59.4 in (0.025, 0.05]: 0.025 + 0.025 × 4.4/5 (0.04699999999999999 unrounded)
				ratePerSecond: 1, // 60 / 60 s
				intervalMeanSeconds: 1.02, // 61.2 s / 60 (1.019999999999224 unrounded)
				windowP50AtLeast: false,
				windowP90AtLeast: false,
				windowP99AtLeast: false,
			},
			discardEvents: 2,
			discardEventsInWindow: 2,
			thresholdToMeanRatio: 18000, // 180 s / 10 ms, nine significant digits (18000.000000043656 unrounded)
			historyFrom: null, // no --history-from
			time: '2022-03-24T10:55:37.500Z', // gauge 10:54:37Z + 60.5 s
			skewSeconds: null,
			countUnchangedSeconds: null,
			unavailable: [],
			readyCondition: null,
			// The edited copy moves no CRI counter: 0 calls in the window, so no rate is 0 but no mean or p99 exists.
			cri: {
				listPodSandbox: {ratePerSecond: 0, windowMeanSeconds: null, windowP99Seconds: null, errors: 0},
				listContainers: {ratePerSecond: 0, windowMeanSeconds: null, windowP99Seconds: null, errors: 0},
				podSandboxStatus: {ratePerSecond: 0, windowMeanSeconds: null, windowP99Seconds: null, errors: 0},
				containerStatus: {ratePerSecond: 0, windowMeanSeconds: null, windowP99Seconds: null, errors: 0},
				statusCallsPerRelist: 0, // 0 status calls / 60 relists
				runningPods: 29,
				runningContainers: {created: 1, exited: 9, running: 33},
				listShareOfRelist: null,
			},
		});
	});

	test('times in seconds: readyCondition.since is Unix seconds; no floating noise, no NaN', () => {
		const since = Date.UTC(2024, 0, 15, 13, 40, 2); // lastTransitionTime 2024-01-15T13:40:02Z
		const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0), scrapeOf(v121OneMinuteLater(), t0 + 60_123)], t0 + 60_500, [
			{
				type: 'node',
				node: {
					name: 'ip-10-0-1-1',
					kubeletVersion: 'v1.21.2',
					ready: {status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', since},
				},
			},
		]);
		const report = jsonReport(figures);
		assert.deepEqual(report['readyCondition'], {
			status: 'True',
			reason: 'KubeletReady',
			message: 'kubelet is posting ready status',
			since: 1_705_326_002,
		});
		assert.equal(report['relist'].windowSeconds, 60.123); // the span, to the millisecond
		assert.equal(report['relist'].ratePerSecond, 0.997954194); // 60 / 60.123 s, nine significant digits
		assert.equal(report['lastSeenAgeSeconds'], 0.5);
		// Every number as written: at most 9 decimals (JSON.stringify would print 0.045000000000000005 as is).
		const text = JSON.stringify(report);
		assert.doesNotMatch(text, /\d\.\d{10,}/);
		assert.doesNotMatch(text, /NaN|Infinity/);
	});

	test('v1.10.0, one scrape: what cannot be computed is null, never 0', () => {
		const report = jsonReport(figuresAfter([scrapeOf(readDump('1.10.0'), t0)], t0 + 12_000));
		for (const key of [
			'lastSeenSeconds',
			'lastSeenAgeSeconds',
			'discardEvents',
			'discardEventsInWindow',
			'thresholdToMeanRatio',
		] as const) {
			assert.equal(report[key], null, key);
		}

		for (const key of relistKeys.filter((key) => key.startsWith('window') || key === 'ratePerSecond' || key === 'intervalMeanSeconds')) {
			assert.equal(report.relist[key as keyof typeof report.relist], null, key);
		}

		// What the µs summary does give: 7.54184e6 µs over 286 relists.
		assert.equal(report['relist'].count, 286);
		assert.equal(report['relist'].sum, 7.54184);
		assert.equal(report['relist'].lifetimeMeanSeconds, 0.02637007); // 7.54184 / 286 = 0.026370069…
		assert.equal(report['countUnchangedSeconds'], 12);
		assert.equal(report['constants'].periodSource, null);
	});

	test('no relist series over two scrapes: relist count and rate null, not 0', () => {
		// Only the discard counter: a body without any PLEG series is a parse error.
		const text = '# TYPE go_goroutines gauge\ngo_goroutines 7\nkubelet_pleg_discard_events 0\n';
		const report = jsonReport(figuresAfter([scrapeOf(text, t0), scrapeOf(text, t0 + 1000)], t0 + 1000));
		assert.equal(report['relist'].count, null);
		assert.equal(report['relist'].windowCount, null);
		assert.equal(report['relist'].ratePerSecond, null);
		assert.equal(report['relist'].windowSeconds, 1); // the span itself is known
		assert.equal(report['healthy'], null);
		assert.equal(report['verdict'], 'cannot judge yet');
		assert.equal(report['kubeletVersion'], null);
	});

	test('a p99 in the +Inf bucket is flagged as a lower bound', () => {
		const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0)], t0);
		const overflowing: Figures = {
			...figures,
			window: {
				spanSeconds: 60,
				count: 100,
				meanSeconds: 1.1672,
				ratePerSecond: 100 / 60,
				intervalMeanSeconds: null,
				discardEvents: 0,
				p50: {seconds: 0.0077, atLeast: false},
				p90: {seconds: 0.01, atLeast: false},
				p99: {seconds: 10, atLeast: true},
			},
		};
		const relist = jsonReport(overflowing).relist;
		assert.equal(relist.windowP99Seconds, 10);
		assert.equal(relist.windowP99AtLeast, true);
		assert.match(textReport(overflowing), /^quantiles +p50 7\.7ms, p90 10ms, p99 ≥ 10s$/m);
	});
});

describe('values that are not numbers', () => {
	test('NaN and ±Inf in the body never reach the text or the JSON as NaN or Infinity', () => {
		const odd = setSamples(readDump('1.21.2'), {
			kubelet_pleg_last_seen_seconds: '+Inf',
			kubelet_pleg_discard_events: 'NaN',
			kubelet_running_pods: 'NaN',
			'kubelet_running_containers{container_state="running"}': '+Inf',
		});
		const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0), scrapeOf(odd, t0 + 60_000)], t0 + 60_500);
		const text = textReport(figures);
		assert.doesNotMatch(text, /NaN|Infinity|Inf\b/);
		assert.match(text, /^running +— pods; containers: — running/m);
		assert.doesNotMatch(JSON.stringify(jsonReport(figures)), /NaN|Infinity/);
	});
});

describe('textReport', () => {
	test('the band line: the countdown while healthy past the ok band; unhealthy for, and the changes seen, past the threshold', () => {
		const body = readDump('1.21.2'); // its gauge: the last relist started at t0
		const band = (text: string) => text.split('\n').find((line) => line.startsWith('band '));
		// 172 s after the relist: 180 − 172 = 8 s to go.
		assert.equal(
			band(textReport(figuresAfter([scrapeOf(body, t0 + 172_000)], t0 + 172_000))),
			"band            critical; NotReady in 8s (last seen 2m52s ago; threshold 3m0s), pleg-top's estimate",
		);
		// Healthy at 20 s, unhealthy at 200 s: since t0 + 180 s, so for 20 s; one change seen.
		const stalled = figuresAfter([scrapeOf(body, t0 + 20_000), scrapeOf(body, t0 + 200_000)], t0 + 200_000);
		assert.equal(band(textReport(stalled)), 'band            unhealthy; unhealthy for 20s; 1 healthy/unhealthy change seen');
	});

	test('v1.21.2, two scrapes a minute apart', () => {
		const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0), scrapeOf(v121OneMinuteLater(), t0 + 60_000)], t0 + 60_500);
		assert.equal(
			textReport(figures),
			[
				'node            ip-10-0-1-1',
				'kubelet         v1.21.2',
				'verdict         PLEG is healthy',
				'band            ok', // 0.5 s ≤ 5 s: no countdown
				'last seen       0s ago (gauge 1648119337)', // 0.5 s, whole seconds
				'threshold       3m0s (relistThreshold, pkg/kubelet/pleg/generic.go:83)',
				'period          1s (plegRelistPeriod; not read for this version)',
				'lifetime        1,672,010 relists, mean 21.2ms', // 35471.58 s / 1672010
				'window          1m0s: 60 relists, mean 10ms, 1.00/s',
				'quantiles       p50 8.3ms, p90 24ms, p99 47ms',
				'interval        1.02s',
				'interval p99    ≤ 2.5s', // rank 59.4 of 60 in the interval bucket deltas' (1, 2.5]: its bound, not 2.485
				'discards        2 total, 2 in window',
				'threshold/mean  ×18,000', // 180 s / 10 ms
				// The relist anatomy, its own block (the edited copy moves no CRI counter).
				'anatomy           no list call timed in the window beside 60 relists: the relist cannot be taken apart',
				'ListPodSandbox    no call in the window, 0 errors',
				'ListContainers    no call in the window, 0 errors',
				'PodSandboxStatus  no call in the window, 0 errors',
				'ContainerStatus   no call in the window, 0 errors',
				'docker            list_containers no call in the window, 0 errors; inspect_container no call in the window, 0 errors',
				"status/relist     0 (every caller counted: at most this many are the relist's)",
				'list share        —',
				'running           29 pods; containers: 33 running, 9 exited, 1 created',
				'per container     303µs of mean relist per running container', // 10 ms / 33 running
				'',
			].join('\n'),
		);
	});

	test('stale figures and missing ones, with no ANSI escapes', () => {
		const state = [
			{type: 'scrape', scrape: scrapeOf(readDump('1.10.0'), t0)},
			{type: 'failure', failure: {kind: 'timeout', summary: 'request timed out after 5 s', details: []}, at: t0 + 5000},
		] satisfies FeedAction[];
		const reduced = state.reduce(feedReducer, initialFeedState({node: 'old', windowSeconds: 60}));
		const text = textReport(figuresAt(reduced, t0 + 200_000)!, reduced.status);
		assert.ok(!text.includes('\u001B'));
		// Stale: unknown, the count fallback past the threshold only as pleg-top's estimate.
		assert.match(
			text,
			/^verdict +verdict unknown: the last good scrape is 3m20s old \(then: PLEG is healthy\); pleg-top's estimate: relist count unchanged for up to 3m20s, past the 3m0s threshold$/m,
		);
		assert.match(text, /^last seen +no gauge; relist count unchanged for 3m20s$/m);
		assert.match(text, /^window +not enough scrapes yet \(target 1m0s\)$/m);
		assert.match(text, /^discards +—$/m);
		assert.match(text, /^unavailable +quantiles: the µs summaries of kubelet < 1\.14 cannot be windowed$/m);
		assert.match(text, /^stale +request timed out after 5 s \(last good scrape 3m20s ago\)$/m);
	});
});

describe('--raw in the --once report', () => {
	const figures = figuresAfter([scrapeOf(readDump('1.21.2'), t0)], t0 + 2000);

	test('text: the 30 kubelet_pleg_* lines of the dump, one a line, nothing else', () => {
		const lines = formatNodeOnce(figures, 'text', undefined, true).split('\n');
		assert.equal(lines.length, 31);
		assert.equal(lines[0], 'kubelet_pleg_discard_events 0');
		assert.equal(lines[29], 'kubelet_pleg_relist_interval_seconds_count 1.671949e+06');
		assert.equal(lines[30], '');
	});

	test('text: lines past the bound are counted in a comment line', () => {
		const many = {...figures, raw: {lines: ['kubelet_pleg_discard_events{shard="0"} 0'], omitted: 150, at: t0}};
		assert.equal(rawText(many), 'kubelet_pleg_discard_events{shard="0"} 0\n# 150 more kubelet_pleg_* lines not kept (pleg-top keeps 1)\n');
	});

	test('json: the report with raw and rawOmitted after its keys; without --raw neither', () => {
		const report = JSON.parse(formatNodeOnce(figures, 'json', undefined, true)) as Record<string, unknown>;
		assert.deepEqual(Object.keys(report).slice(-2), ['raw', 'rawOmitted']);
		assert.equal((report['raw'] as string[]).length, 30);
		assert.equal((report['raw'] as string[])[1], 'kubelet_pleg_last_seen_seconds 1.648119277e+09');
		assert.equal(report['rawOmitted'], 0);
		assert.ok(!('raw' in (JSON.parse(formatNodeOnce(figures, 'json')) as object)));
	});
});
