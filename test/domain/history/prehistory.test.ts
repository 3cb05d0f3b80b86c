// The history from Prometheus (--history-from) as the feed holds it: the answers turned into chart points and the
// window's first scrape, and that scrape under the live ones, every figure computed by hand.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {logToArray} from '../../../source/domain/history/bounded-log.js';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../../source/domain/feed.js';
import {prehistoryFailed, prehistoryFrom, type HistoryAnswers, type RangeSeries} from '../../../source/domain/history/prehistory.js';
import type {Scrape} from '../../../source/domain/types.js';
import {prometheusFeedKind, type PrometheusFigures} from '../../../source/domain/fleet/prometheus-feed.js';

const url = 'http://prometheus:9090';
const bounds = ['0.025', '0.05', '0.1', '+Inf'];

/** The relist histogram with `fast` relists of 20 ms and `slow` of 80 ms, as exposition lines. */
function relistLines(fast: number, slow: number): string[] {
	const counts = [fast, fast, fast + slow, fast + slow];
	return [
		...bounds.map((le, index) => `kubelet_pleg_relist_duration_seconds_bucket{le="${le}"} ${counts[index]}`),
		`kubelet_pleg_relist_duration_seconds_sum ${fast * 0.02 + slow * 0.08}`,
		`kubelet_pleg_relist_duration_seconds_count ${fast + slow}`,
	];
}

/** The same counters as Prometheus answers them: one series per line, one point at `step` (s). */
function asSeries(lines: string[], step: number, target: Record<string, string> = {node: 'w1', job: 'kubelet'}): RangeSeries[] {
	return lines.map((line) => {
		const [, name, le, value] = /^(\w+)(?:\{le="([^"]+)"\})? (\S+)$/.exec(line)!;
		return {metric: {__name__: name!, ...(le === undefined ? {} : {le}), ...target}, values: [[step, Number(value)]]};
	});
}

function liveScrape(at: number, fast: number, slow: number): Scrape {
	return {
		at,
		latencyMs: 5,
		sample: parsePlegSample(`${relistLines(fast, slow).join('\n')}\nkubelet_pleg_last_seen_seconds ${at / 1000 - 1}\n`),
	};
}

/** Answers: means and ages over three steps 2 s apart, the counters at 1000 s (scraped at 995.5 s). */
function answers(counters: RangeSeries[] = asSeries(relistLines(100, 0), 1000)): HistoryAnswers {
	return {
		mean: [
			{
				metric: {},
				values: [
					[1000, 0.02],
					[1002, Number.NaN],
					[1004, 0.05],
				],
			},
		],
		// 1002: a gauge of 0 (no relist yet) reads as the scrape time itself, which is no age.
		age: [
			{
				metric: {},
				values: [
					[1000, 1],
					[1002, 1002],
					[1006, 3],
				],
			},
		],
		counters,
		countersAt: [{metric: {node: 'w1', job: 'kubelet'}, values: [[1000, 995.5]]}],
	};
}

describe('prehistoryFrom', () => {
	test('one chart point per step with a mean or an age, at the step time, the last marked; NaN and a gauge of 0 are none', () => {
		const history = prehistoryFrom(answers(), {url, node: 'w1'});
		assert.deepEqual(history.history, [
			{at: 1_000_000, windowMeanSeconds: 0.02, lastSeenAgeSeconds: 1, event: null},
			{at: 1_004_000, windowMeanSeconds: 0.05, lastSeenAgeSeconds: null, event: null},
			{at: 1_006_000, windowMeanSeconds: null, lastSeenAgeSeconds: 3, event: 'history'},
		]);
		assert.deepEqual(
			{points: history.points, startAt: history.startAt, endAt: history.endAt, error: history.error},
			{points: 3, startAt: 1_000_000, endAt: 1_006_000, error: null},
		);
	});

	test("the window's start: the counters read as from the kubelet, at Prometheus' scrape time", () => {
		const start = prehistoryFrom(answers(), {url, node: 'w1'}).windowStart!;
		assert.equal(start.at, 995_500);
		assert.deepEqual(start.sample.relistDuration, {
			buckets: [
				{le: 0.025, count: 100},
				{le: 0.05, count: 100},
				{le: 0.1, count: 100},
				{le: Infinity, count: 100},
			],
			sum: 100 * 0.02,
			count: 100,
		});
	});

	test("another target's series (a second job) and a label that is not a bound are left out", () => {
		const counters = [
			...asSeries(relistLines(100, 0), 1000),
			...asSeries(relistLines(7, 7), 1000, {node: 'w1', job: 'other'}),
			{
				metric: {__name__: 'kubelet_pleg_relist_duration_seconds_bucket', le: '1"} 9\nkubelet_x 1', node: 'w1', job: 'kubelet'},
				values: [[1000, 9]],
			},
		] satisfies RangeSeries[];
		const start = prehistoryFrom(answers(counters), {url, node: 'w1'}).windowStart!;
		assert.equal(start.sample.relistDuration!.count, 100);
		assert.equal(start.sample.relistDuration!.buckets.length, 4);
	});

	test('no series of the node: an error that names the URL and the node', () => {
		const none = prehistoryFrom({mean: [], age: [], counters: [], countersAt: []}, {url, node: 'w2'});
		assert.equal(
			none.error,
			'Prometheus at http://prometheus:9090 has no kubelet_pleg_relist_duration_seconds or kubelet_pleg_last_seen_seconds series for node w2',
		);
		assert.deepEqual([none.history, none.windowStart, none.points], [[], null, 0]);
	});
});

describe('the feed with a history from Prometheus', () => {
	const options = {node: 'w1', windowSeconds: 10};
	const prehistory: FeedAction = {type: 'prehistory', prehistory: prehistoryFrom(answers(), {url, node: 'w1'})};

	test("in before the first scrape: the window starts at Prometheus' counters, each relist counted once", () => {
		// 100 fast relists by 995.5 s; by 1010 s 10 more fast and 4 slow.
		const state = [prehistory, {type: 'scrape', scrape: liveScrape(1_010_000, 110, 4)} as FeedAction].reduce(
			feedReducer,
			initialFeedState(options),
		);
		const window = figuresAt(state, 1_010_000)!.window!;
		assert.equal(window.spanSeconds, 14.5); // 1010 − 995.5
		assert.equal(window.count, 14);
		// (10 × 0.02 + 4 × 0.08) / 14
		assert.ok(Math.abs(window.meanSeconds! - 0.52 / 14) < 1e-12, String(window.meanSeconds));
		// rank 0.99 × 14 = 13.86 in (0.05, 0.1], which holds ranks 10 to 14: 0.05 + 0.05 × 3.86 / 4
		assert.ok(Math.abs(window.p99!.seconds - (0.05 + (0.05 * 3.86) / 4)) < 1e-12, String(window.p99!.seconds));
		// The chart: Prometheus' points, then the scrape's, whose mean is this window's.
		const points = logToArray(state.history);
		assert.deepEqual(
			points.map((point) => point.at),
			[1_000_000, 1_004_000, 1_006_000, 1_010_000],
		);
		assert.equal(points.at(-1)!.windowMeanSeconds, window.meanSeconds);
	});

	test('in after the first scrape: its points go before, and the window starts under the scrapes', () => {
		const state = [{type: 'scrape', scrape: liveScrape(1_005_000, 105, 0)} as FeedAction, prehistory].reduce(
			feedReducer,
			initialFeedState(options),
		);
		// Only the points older than the first scrape's: the one at 1006 s is the scrape's time already.
		assert.deepEqual(
			logToArray(state.history).map((point) => point.at),
			[1_000_000, 1_004_000, 1_005_000],
		);
		const window = figuresAt(state, 1_005_000)!.window!;
		assert.deepEqual([window.spanSeconds, window.count], [9.5, 5]);
	});

	test('counters above the live ones (the kubelet restarted since): no window start from them', () => {
		const state = [prehistory, {type: 'scrape', scrape: liveScrape(1_010_000, 3, 0)} as FeedAction].reduce(
			feedReducer,
			initialFeedState(options),
		);
		assert.equal(figuresAt(state, 1_010_000)!.window, null);
		assert.equal(figuresAt(state, 1_010_000)!.prehistory!.points, 3);
	});

	test('a failed read: no points, and the reason among the unavailable lines', () => {
		const failed: FeedAction = {type: 'prehistory', prehistory: prehistoryFailed(url, 'Prometheus at http://prometheus:9090 answered 503')};
		const state = [failed, {type: 'scrape', scrape: liveScrape(1_010_000, 110, 4)} as FeedAction].reduce(
			feedReducer,
			initialFeedState(options),
		);
		const figures = figuresAt(state, 1_010_000)!;
		assert.equal(figures.window, null);
		assert.ok(
			figures.unavailable.includes('no history: Prometheus at http://prometheus:9090 answered 503'),
			figures.unavailable.join('\n'),
		);
		assert.equal(logToArray(state.history).length, 1);
	});
});

describe('the --prometheus feed with its history', () => {
	const figures: PrometheusFigures = {
		node: 'w1',
		at: 1_005_000,
		windowSeconds: 10,
		kubeletVersion: 'v1.28.4',
		lastSeenAgeSeconds: 1,
		lastSeenScrapedAt: null,
		meanSeconds: 0.02,
		p50: null,
		p90: null,
		p99: null,
		ratePerSecond: 1,
		intervalMeanSeconds: null,
		discardEvents: null,
		lifetimeCount: 100,
		lifetimeSum: 2,
	};

	test("Prometheus' points before the first answer's, and what came in the figures", () => {
		const feed = [
			{type: 'figures', figures, latencyMs: 3} as const,
			{type: 'prehistory', prehistory: prehistoryFrom(answers(), {url, node: 'w1'})} as const,
		].reduce((state, action) => prometheusFeedKind.reduce(state, action), prometheusFeedKind.initial('w1', 10));
		const history = prometheusFeedKind.history(feed);
		assert.deepEqual(
			Array.from({length: history.length}, (_, index) => history.at(index)!.at),
			[1_000_000, 1_004_000, 1_005_000],
		);
		assert.equal(prometheusFeedKind.figures(feed, 1_005_000)!.prehistory!.points, 3);
	});

	test('a failed read is a line under unavailable', () => {
		const feed = [
			{type: 'prehistory', prehistory: prehistoryFailed(url, 'Prometheus at http://prometheus:9090 answered 503')} as const,
			{type: 'figures', figures, latencyMs: 3} as const,
		].reduce((state, action) => prometheusFeedKind.reduce(state, action), prometheusFeedKind.initial('w1', 10));
		assert.ok(
			prometheusFeedKind.figures(feed, 1_005_000)!.unavailable.includes('no history: Prometheus at http://prometheus:9090 answered 503'),
		);
	});
});
