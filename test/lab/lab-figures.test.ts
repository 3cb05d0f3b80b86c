// The lab session folds each scrape from the rule and the window alone and computes a scrape's full figures only
// when they are read: these must be figuresAt() of the feed as that scrape left it, whenever they are read, and the
// fold must agree with them (the plot points, the unhealthy spans).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedState} from '../../source/domain/feed.js';
import {createLabSession} from '../../source/lab/lab-session.js';
import type {Figures, NodeInfo, Scrape} from '../../source/domain/types.js';
import {scrapeAt, stallMarkAt, stallTotals, t0} from './exposition.js';

type Step = {scrape: Scrape} | {mark: number} | {node: NodeInfo};

const node = (kubeletVersion: string): NodeInfo => ({
	name: 'worker-1',
	kubeletVersion,
	ready: {status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', since: t0},
});

/** The gauge left out (a kubelet < 1.18): the age is the time the relist count stayed unchanged. */
function withoutGauge(scrape: Scrape): Scrape {
	return {...scrape, sample: {...scrape.sample, lastSeenSeconds: null}};
}

/**
 * stallTotals (a stall past the threshold, `b` after the second scrape, the Node object read), then a kubelet
 * restart, a second mark, and scrapes without the gauge whose count stops changing.
 */
const steps: Step[] = [
	...stallTotals.flatMap(({at, totals}, index): Step[] => [
		...(index === 2 ? [{mark: stallMarkAt}] : []),
		...(index === 4 ? [{node: node('v1.28.0')}] : []),
		{scrape: scrapeAt(at, totals)},
	]),
	{scrape: scrapeAt(t0 + 430_000, {count: 3, sum: 0.02, buckets: [3, 3, 3, 3, 3], lastSeen: t0 / 1000 + 429})},
	{mark: t0 + 435_000},
	{scrape: scrapeAt(t0 + 440_000, {count: 13, sum: 0.07, buckets: [13, 13, 13, 13, 13], lastSeen: t0 / 1000 + 439})},
	...[450, 460, 700, 710].map((seconds): Step => ({
		scrape: withoutGauge(scrapeAt(t0 + seconds * 1000, {count: 20, sum: 0.1, buckets: [20, 20, 20, 20, 20], lastSeen: 0})),
	})),
];

/** The same steps through the feed alone, as the lab session did before (historyLimit 1, no latency). */
function expectedFigures(): Figures[] {
	let feed: FeedState = initialFeedState({node: 'worker-1', windowSeconds: 10, historyLimit: 1});
	const figures: Figures[] = [];
	for (const step of steps) {
		if ('scrape' in step) {
			feed = feedReducer(feed, {type: 'scrape', scrape: step.scrape});
			figures.push(figuresAt(feed, step.scrape.at)!);
		} else if ('mark' in step) feed = feedReducer(feed, {type: 'mark', at: step.mark});
		else feed = feedReducer(feed, {type: 'node', node: step.node});
	}

	return figures;
}

describe('lab session: figures computed when read', () => {
	test('each scrape hands back figuresAt() at it, read at once or after later scrapes, marks and Node reads', () => {
		const expected = expectedFigures();
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const results: Array<{figures: Figures; markAt: number | null}> = [];
		for (const step of steps) {
			if ('scrape' in step) {
				const result = lab.scrape(step.scrape);
				// Every other one read at once, the rest only at the end.
				if (results.length % 2 === 0) assert.deepEqual(result.figures, expected[results.length]);
				results.push(result);
			} else if ('mark' in step) lab.mark(step.mark);
			else lab.node(step.node);
		}

		// A Node object read after the last scrape changes neither that scrape's figures nor the summary's.
		lab.node(node('v1.29.1'));
		assert.equal(results.length, expected.length);
		for (const [index, result] of results.entries()) assert.deepEqual(result.figures, expected[index], `scrape ${index}`);
		// Computed once: the same object on every read.
		assert.equal(results[3]!.figures, results[3]!.figures);
		const summary = lab.summary();
		assert.deepEqual(summary.figures, expected.at(-1));
		assert.equal(summary.figures, results.at(-1)!.figures);
		assert.equal(lab.summary().figures, summary.figures);
	});

	test('the plot points and the unhealthy spans agree with the figures at each scrape', () => {
		const expected = expectedFigures();
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		for (const step of steps) {
			if ('scrape' in step) lab.scrape(step.scrape);
			else if ('mark' in step) lab.mark(step.mark);
			else lab.node(step.node);
		}

		const {points, unhealthy} = lab.summary();
		assert.deepEqual(
			points.map(({at, meanSeconds, p99, lastSeenAgeSeconds}) => ({at, meanSeconds, p99, lastSeenAgeSeconds})),
			expected.map((figures) => ({
				at: figures.now,
				meanSeconds: figures.window?.meanSeconds ?? null,
				p99: figures.window?.p99 ?? null,
				lastSeenAgeSeconds: figures.lastSeen.ageSeconds ?? figures.lastSeen.countUnchangedSeconds,
			})),
		);
		// The stall, and the count unchanged past the threshold without the gauge (still open at the last scrape).
		assert.deepEqual(
			unhealthy.map(({fromGauge, healthyAgainAt}) => ({fromGauge, healthyAgainAt})),
			[
				{fromGauge: true, healthyAgainAt: t0 + 420_000},
				{fromGauge: false, healthyAgainAt: null},
			],
		);
		for (const span of unhealthy) {
			const last = expected.find((figures) => figures.now === span.lastUnhealthyAt)!;
			assert.equal(last.verdict.healthy, false);
			assert.equal(span.message, last.verdict.message);
			assert.equal(span.thresholdSeconds, last.constants.threshold.seconds);
		}
	});
});
