import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createLabSession, maxPoints} from '../../source/lab/lab-session.js';
import {assertClose, labSession, labTotals, markAt, scrapeAt, t0} from './exposition.js';

describe('lab session', () => {
	test('segments: baseline before the mark, mark 1 since it, and the whole session', () => {
		const summary = labSession().summary();
		assert.deepEqual(
			summary.segments.map(({label, markedAt, from, to}) => ({label, markedAt, from, to})),
			[
				{label: 'baseline', markedAt: null, from: t0, to: t0 + 20_000},
				// The mark keeps the scrape before it (t0+20 s) as its start, as the screen's baseline does.
				{label: 'mark 1', markedAt: markAt, from: t0 + 20_000, to: t0 + 40_000},
			],
		);
		const [baseline, churn] = summary.segments;
		assert.equal(baseline!.figures!.count, 20); // 120 - 100
		assertClose(baseline!.figures!.meanSeconds, 0.005); // (0.60 - 0.50) / 20
		assertClose(baseline!.figures!.ratePerSecond, 1); // 20 relists / 20 s
		assert.equal(churn!.figures!.count, 16); // 136 - 120
		assertClose(churn!.figures!.meanSeconds, 0.1); // (2.20 - 0.60) / 16
		assertClose(churn!.figures!.ratePerSecond, 0.8); // 16 / 20 s
		// All 16 in (0.01, 0.1]: rank 0.99 × 16 = 15.84 -> 0.01 + 0.09 × 15.84 / 16
		assertClose(churn!.figures!.p99!.seconds, 0.01 + (0.09 * 15.84) / 16);
		assert.equal(summary.session!.figures!.count, 36); // 136 - 100
		assertClose(summary.session!.figures!.meanSeconds, 1.7 / 36); // (2.20 - 0.50) / 36
	});

	test('max last-seen age per segment, at the scrapes', () => {
		const {segments, session} = labSession().summary();
		// Baseline scrapes: last seen 1 s before each. Mark 1: t0+30 s with the gauge at t0+26 s -> 4 s.
		assert.equal(segments[0]!.maxLastSeenAgeSeconds, 1);
		assert.equal(segments[1]!.maxLastSeenAgeSeconds, 4);
		assert.equal(session!.maxLastSeenAgeSeconds, 4);
	});

	test('one plot point per scrape with the window figures and the mark on the scrape before it', () => {
		const {points} = labSession().summary();
		assert.deepEqual(
			points.map((point) => point.event),
			[null, null, 'mark', null, null],
		);
		// Window 10 s at t0+30 s: t0+20 s -> t0+30 s, 8 relists, Δsum 0.8 s -> 100 ms.
		assertClose(points[3]!.meanSeconds, 0.1);
		assert.equal(points[0]!.meanSeconds, null); // one scrape: no window yet
		assert.equal(points[3]!.lastSeenAgeSeconds, 4);
	});

	test('scrape() hands back the pending mark once, for the record of the next scrape', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const marks = labTotals.map(({at, totals}, index) => {
			if (index === 1) lab.mark(t0 + 5000);
			return lab.scrape(scrapeAt(at, totals)).markAt;
		});
		assert.deepEqual(marks, [null, t0 + 5000, null, null, null]);
	});

	test('a second b before any new scrape moves the mark instead of opening an empty segment', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		for (const [index, {at, totals}] of labTotals.entries()) {
			if (index === 3) {
				lab.mark(markAt);
				lab.mark(markAt + 3000);
			}

			lab.scrape(scrapeAt(at, totals));
		}

		const {segments} = lab.summary();
		assert.deepEqual(
			segments.map(({label, markedAt}) => [label, markedAt]),
			[
				['baseline', null],
				['mark 1', markAt + 3000],
			],
		);
	});

	test('a second b after more scrapes opens a new segment', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		for (const [index, {at, totals}] of labTotals.entries()) {
			if (index === 2 || index === 4) lab.mark(at - 500);
			lab.scrape(scrapeAt(at, totals));
		}

		const {segments} = lab.summary();
		assert.deepEqual(
			segments.map(({label, from, to}) => [label, (from - t0) / 1000, (to - t0) / 1000]),
			[
				['baseline', 0, 10],
				['mark 1', 10, 30],
				['mark 2', 30, 40],
			],
		);
		assertClose(segments[2]!.figures!.meanSeconds, 0.1); // (2.2 - 1.4) / 8
	});

	test('a mark before any scrape is ignored, as by the feed', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		lab.mark(t0 - 1000);
		const {markAt: pending} = lab.scrape(scrapeAt(labTotals[0]!.at, labTotals[0]!.totals));
		assert.equal(pending, null);
		assert.equal(lab.summary().segments.length, 1);
	});

	test('a kubelet restart inside a segment: figures span it as increase() does, and it is counted', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const [a, b] = labTotals;
		lab.scrape(scrapeAt(a!.at, a!.totals));
		lab.scrape(scrapeAt(b!.at, b!.totals));
		// Counters back near 0 at t0+20 s, then 5 relists of 10 ms by t0+30 s.
		lab.scrape(scrapeAt(t0 + 20_000, {count: 2, sum: 0.02, buckets: [0, 2, 2, 2, 2], lastSeen: t0 / 1000 + 19}));
		lab.scrape(scrapeAt(t0 + 30_000, {count: 7, sum: 0.07, buckets: [0, 7, 7, 7, 7], lastSeen: t0 / 1000 + 29}));
		const {session, points} = lab.summary();
		assert.equal(session!.restarts, 1);
		assert.equal(session!.from, t0);
		// 10 relists before the restart, the 2 the new counter holds at the first scrape after it, then 5 more.
		assert.equal(session!.figures!.count, 17);
		assertClose(session!.figures!.meanSeconds, 0.12 / 17); // (0.05 + 0.02 + 0.05) / 17
		assert.equal(points[2]!.event, 'restart');
	});

	test('before any scrape the summary is empty', () => {
		const summary = createLabSession({node: 'worker-1', windowSeconds: 10}).summary();
		assert.deepEqual(summary, {node: 'worker-1', session: null, segments: [], figures: null, points: [], unhealthy: []});
	});
});

describe('lab session: plot points of a long session', () => {
	test('past maxPoints, neighbours merge: the first and last scrape kept, every peak and the restart kept', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const scrapes = 10_000;
		// One scrape a second, one relist of 5 ms between two, last seen 1 s before each; at scrape 5,000 the age
		// reads 150 s (a stalled loop seen once); at scrape 7,001 the kubelet restarted (the count starts again at 1).
		for (let i = 0; i < scrapes; i++) {
			const at = t0 + i * 1000;
			const count = i <= 7000 ? 100 + i : i - 7000;
			const lastSeen = at / 1000 - (i === 5000 ? 150 : 1);
			lab.scrape(scrapeAt(at, {count, sum: count * 0.005, buckets: [count, count, count, count, count], lastSeen}));
		}

		const {points, session} = lab.summary();
		// Thinned whenever it passed 4,096: 4,097 -> 2,049, then ... never more than maxPoints.
		assert.ok(points.length <= maxPoints && points.length > maxPoints / 2, `${points.length} points`);
		assert.equal(points[0]!.at, t0);
		assert.equal(points.at(-1)!.at, t0 + (scrapes - 1) * 1000);
		assert.deepEqual(
			points.map((point) => point.at),
			[...points.map((point) => point.at)].sort((a, b) => a - b),
		);
		assert.equal(Math.max(...points.map((point) => point.lastSeenAgeSeconds ?? 0)), 150);
		assert.equal(session!.maxLastSeenAgeSeconds, 150);
		assert.equal(points.filter((point) => point.event === 'restart').length, 1);
	});
});
