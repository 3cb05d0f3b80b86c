// The feed reads every age on the node's clock (domain/health/clock-offset.ts): the verdict, the countdown, the unhealthy
// span and the history all follow from the corrected age.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../source/domain/feed.js';
import {bandOf, countdownText} from '../../source/domain/health/health.js';
import {logToArray} from '../../source/domain/history/bounded-log.js';
import {nodeInfoFromJson} from '../../source/sources/node-info.js';
import type {Scrape} from '../../source/domain/types.js';
import {readDump, scrapeOf, setSamples} from './dump.js';

const t0 = 1_800_000_000_000; // local ms
const base = readDump('1.21.2');
const count = 'kubelet_pleg_relist_duration_seconds_count';

/** The dump with the relist count and the gauge as given, scraped at local `at` ms. */
function kubelet(at: number, relists: number, gauge: number, dateSeconds: number | null = null): FeedAction {
	const scrape: Scrape = {
		...scrapeOf(setSamples(base, {[count]: String(relists), kubelet_pleg_last_seen_seconds: String(gauge)}), at),
		dateSeconds,
	};
	return {type: 'scrape', scrape};
}

/** Scrapes once a second from t0 + 0.5 s of a kubelet `offset` s off, relisting at 1/s (a relist started 0.4 s before). */
function relisting(offset: number, n: number): FeedAction[] {
	return Array.from({length: n}, (_, k) => {
		const at = t0 + 500 + k * 1000;
		return kubelet(at, 1000 + k, Math.floor(at / 1000 + offset - 0.4));
	});
}

const run = (actions: FeedAction[]) => actions.reduce(feedReducer, initialFeedState({node: 'n', windowSeconds: 60}));

describe('ages on the node clock', () => {
	test('200 s behind, relisting: last seen 0.5 s ago at the scrape, healthy, ok, no countdown', () => {
		const state = run(relisting(-200, 3));
		const figures = figuresAt(state, t0 + 2500)!;
		// Gauge ⌊1_800_000_002.5 − 200 − 0.4⌋ = 1_799_999_802; local age 200.5 s; offset −200.5: node age 0 s.
		assert.equal(figures.lastSeen.gaugeSeconds, 1_799_999_802);
		assert.equal(figures.lastSeen.ageSeconds, 0);
		assert.deepEqual(figures.clock, {offsetSeconds: -200.5, source: 'relist', atLeast: false});
		assert.equal(figures.verdict.healthy, true);
		assert.equal(bandOf(figures), 'ok');
		assert.equal(countdownText(figures), null);
		// The history holds the corrected ages too.
		assert.deepEqual(
			logToArray(state.history).map((point) => point.lastSeenAgeSeconds),
			[200.5, 0, 0], // the first scrape had nothing to tell the clock by
		);
	});

	test('60 s ahead, then a 185 s stall: unhealthy on the node clock (healthy on ours), unhealthy since on ours', () => {
		const before = relisting(60, 3);
		// The last relist started at gauge 1_800_000_062 (node); the count and gauge stay from here on.
		const stall = Array.from({length: 185}, (_, k) => kubelet(t0 + 3500 + k * 1000, 1002, 1_800_000_062));
		const state = run([...before, ...stall]);
		const now = t0 + 187_500;
		const figures = figuresAt(state, now)!;
		// Offset 1_800_000_062 − 1_800_000_002.5 = 59.5; age (1_800_000_187.5 + 59.5) − 1_800_000_062 = 185 s.
		assert.equal(figures.clock?.offsetSeconds, 59.5);
		assert.equal(figures.lastSeen.ageSeconds, 185);
		assert.equal(figures.verdict.message, 'PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s');
		// Unhealthy since the gauge + 180 s on the node clock = 1_800_000_242 node = 1_800_000_182.5 local.
		assert.equal(figures.incident?.unhealthySince, t0 + 182_500);
		assert.equal(figures.incident?.unhealthyForSeconds, 5);
	});

	test('30 s behind, stalled after relisting: the countdown moves second by second', () => {
		const before = relisting(-30, 3);
		const stall = Array.from({length: 100}, (_, k) => kubelet(t0 + 3500 + k * 1000, 1002, 1_799_999_972));
		const state = run([...before, ...stall]);
		// Offset 1_799_999_972 − 1_800_000_002.5 = −30.5; at t0 + 100.5 s: (1_800_000_100.5 − 30.5) − 1_799_999_972 = 98 s.
		const at = (seconds: number) => countdownText(figuresAt(state, t0 + seconds * 1000)!);
		assert.equal(at(100.5), 'NotReady in 1m22s (last seen 1m38s ago; threshold 3m0s)');
		assert.equal(at(101.5), 'NotReady in 1m21s (last seen 1m39s ago; threshold 3m0s)');
	});

	test('a stall from the start with a Date header: judged on the Date', () => {
		// Node 60 s ahead, its last relist 185 s ago on its clock; Date = ⌊local + 60⌋, sent 5 ms before.
		const frozen = (k: number) => kubelet(t0 + 500 + k * 1000, 1000, 1_800_000_060 - 185, 1_800_000_060 + k);
		const figures = figuresAt(run([frozen(0), frozen(1)]), t0 + 1500)!;
		// Each Date interval [60 − 0.5, 61 − 0.495]: offset 60.0025; age 1.5 + 60.0025 + 125 = 186.5025 s.
		assert.equal(figures.clock?.source, 'date-header');
		assert.ok(Math.abs(figures.clock.offsetSeconds! - 60.0025) < 1e-6, String(figures.clock?.offsetSeconds));
		assert.equal(figures.verdict.healthy, false);
		// A gauge of the node's second 62 (the count unchanged: no relist evidence) read at local 1.5 s on the Date's
		// offset: 1_800_000_001.5 + 60.0025 − 1_800_000_062 = −0.4975 s, within the Date's truncation: age 0 and
		// no "node clock ahead" of its own.
		const early = figuresAt(run([frozen(0), kubelet(t0 + 1500, 1000, 1_800_000_060 - 185 + 187, 1_800_000_061)]), t0 + 1500)!;
		assert.equal(early.lastSeen.ageSeconds, 0);
		assert.equal(early.lastSeen.skewSeconds, null);
	});

	test('the Ready heartbeat read with the Node object bounds the offset when nothing else does', () => {
		const node = nodeInfoFromJson(
			JSON.stringify({
				kind: 'Node',
				metadata: {name: 'n'},
				status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: '2027-01-15T08:01:40Z'}]},
			}),
			'n',
		);
		// 2027-01-15T08:01:40Z = 1_800_000_100 s: read at local 1_800_000_000 s, the node is at least 100 s ahead.
		assert.equal(node.ready?.heartbeatSeconds, 1_800_000_100);
		const state = run([{type: 'node', node, at: t0}, kubelet(t0 + 500, 1000, 1_800_000_000)]);
		assert.deepEqual(figuresAt(state, t0 + 500)?.clock, {offsetSeconds: 100, source: 'heartbeat', atLeast: true});
	});
});

test("the demo's kubelet is on pleg-top's own clock: a gauge read 5 s late under load is an age, never an offset", () => {
	// Relisting at 1/s, but every scrape read 5 s after its relist started (at --demo-speed 20 a quarter second late).
	const late = Array.from({length: 4}, (_, k): FeedAction => {
		const at = t0 + k * 1000;
		const action = kubelet(at, 2000 + k, at / 1000 - 5) as Extract<FeedAction, {type: 'scrape'}>;
		return {type: 'scrape', scrape: {...action.scrape, sameClock: true}};
	});
	const figures = figuresAt(run(late), t0 + 3000)!;
	assert.deepEqual(figures.clock, {offsetSeconds: 0, source: 'same-clock', atLeast: false});
	assert.equal(figures.lastSeen.ageSeconds, 5);
	// The same scrapes from a node of its own clock read as 5 s behind.
	const own = late.map((action): FeedAction => {
		const {sameClock: _, ...scrape} = (action as Extract<FeedAction, {type: 'scrape'}>).scrape;
		return {type: 'scrape', scrape};
	});
	assert.deepEqual(figuresAt(run(own), t0 + 3000)!.clock, {offsetSeconds: -5, source: 'relist', atLeast: false});
});

describe('no false verdict from a clock: the evidence the clock cannot bend', () => {
	// t0 is 08:00:00Z: a heartbeat at 08:00:50 bounds the node at least 50 s ahead (it is 60 s ahead).
	const readyFalse = (message: string, heartbeat = '2027-01-15T08:00:50Z') =>
		nodeInfoFromJson(
			JSON.stringify({
				kind: 'Node',
				metadata: {name: 'n'},
				status: {conditions: [{type: 'Ready', status: 'False', reason: 'KubeletNotReady', message, lastHeartbeatTime: heartbeat}]},
			}),
			'n',
		);
	const words = 'PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s';

	test('200 s behind with no Date: the first scrape is not judged unhealthy; the relist loop then says healthy; nothing was counted', () => {
		const state = run(relisting(-200, 3).slice(0, 1));
		// Gauge ⌊1_800_000_000.5 − 200.4⌋ = 1_799_999_800: 200.5 s on this machine's clock, the offset not known yet.
		const first = figuresAt(state, t0 + 500)!;
		assert.equal(first.verdict.healthy, null);
		assert.equal(
			first.verdict.message,
			"cannot judge yet: last seen 3m20s ago by this machine's clock, and the node's clock is not known yet",
		);
		assert.equal(bandOf(first), 'unknown');
		const later = run(relisting(-200, 3));
		const figures = figuresAt(later, t0 + 2500)!;
		assert.equal(figures.verdict.healthy, true);
		assert.deepEqual([figures.incident!.transitions, figures.incident!.recovered, figures.incident!.unhealthySince], [0, null, null]);
	});

	test("60 s ahead, stalled 185 s ago, no Date: the node's own Ready words make it unhealthy, from when it was seen", () => {
		// Gauge 185 s before node time t0 + 60 s: 125 s on this machine's clock.
		const gauge = t0 / 1000 + 60 - 185;
		const state = run([kubelet(t0, 5000, gauge), {type: 'node', node: readyFalse(words), at: t0 + 100}, kubelet(t0 + 1000, 5000, gauge)]);
		const figures = figuresAt(state, t0 + 1000)!;
		// By the age alone: 126 s + at least 49.9 s (the heartbeat read at t0 + 0.1 s) = 175.9 s, healthy and critical.
		assert.equal(Math.floor(figures.lastSeen.ageSeconds!), 175);
		assert.deepEqual(figures.verdict, {healthy: false, message: words, basis: 'ready-condition'});
		assert.equal(bandOf(figures), 'unhealthy');
		// The age says nothing of when the rule tripped: at least since the first scrape that saw it.
		assert.equal(figures.incident!.unhealthySince, t0 + 1000);
		assert.equal(figures.incident!.sinceExact, false);
	});

	test('a relist that succeeds after the Node object was read makes its Ready words old news', () => {
		const gauge = t0 / 1000 - 150;
		const state = run([
			kubelet(t0, 5000, gauge),
			{type: 'node', node: readyFalse(words), at: t0 + 100},
			kubelet(t0 + 1000, 5000, gauge),
			kubelet(t0 + 2000, 5001, t0 / 1000 + 1, Math.floor((t0 + 2000) / 1000)),
		]);
		assert.equal(figuresAt(state, t0 + 2000)!.verdict.message, 'PLEG is healthy');
	});

	test('count and gauge unmoved for 181 s of this machine, no Date: unhealthy whatever the node clock', () => {
		const gauge = t0 / 1000 + 60 - 100;
		const scrapes = Array.from({length: 20}, (_, k) => kubelet(t0 + k * 10_000, 5000, gauge));
		const state = run([...scrapes, kubelet(t0 + 181_000, 5000, gauge)]);
		// 181 s unmoved from the first scrape; the gauge reads 40 + 181 = 221 s locally, judged only because nothing moved.
		const figures = figuresAt(state, t0 + 181_000)!;
		assert.equal(figures.verdict.basis, 'unmoved');
		assert.equal(
			figures.verdict.message,
			'PLEG is not healthy: no relist has ended and the last-seen gauge has not moved for 3m1s; threshold is 3m0s',
		);
		// At 170 s unmoved: 210 s on this machine's clock, the node's unknown: not judged.
		assert.equal(figuresAt(run(scrapes.slice(0, 18)), t0 + 170_000)!.verdict.healthy, null);
	});
});
