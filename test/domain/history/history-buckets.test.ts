import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {bucketHistory, chooseBucketSeconds, type HistoryBucket} from '../../../source/domain/history/history-buckets.js';
import {appendToLog, emptyLog, logLast, logToArray, logView, replaceLast} from '../../../source/domain/history/bounded-log.js';
import type {HistoryPoint} from '../../../source/domain/types.js';

/** 14:00:00 UTC: a whole minute, so 5 s buckets start on it. */
const t = Date.UTC(2024, 0, 15, 14, 0, 0);

function point(seconds: number, mean: number | null, age: number | null, event: HistoryPoint['event'] = null): HistoryPoint {
	return {at: t + seconds * 1000, windowMeanSeconds: mean, lastSeenAgeSeconds: age, event};
}

function bucket(startSeconds: number, fields: Partial<HistoryBucket> = {}): HistoryBucket {
	return {
		start: t + startSeconds * 1000,
		meanSeconds: null,
		ageSeconds: null,
		points: 0,
		restart: false,
		mark: false,
		historyEnd: false,
		...fields,
	};
}

/** The rule written plainly: newest first, stop at the first point before the chart, skip points past it. */
function plainFold(points: HistoryPoint[], now: number, columns: number, bucketSeconds: number): HistoryBucket[] {
	const length = bucketSeconds * 1000;
	const first = Math.floor(now / length) * length - (columns - 1) * length;
	const buckets = Array.from({length: columns}, (_, index) => bucket((first - t) / 1000 + index * bucketSeconds));
	for (const each of [...points].reverse()) {
		if (each.at < first) break;
		const target = buckets[Math.floor((each.at - first) / length)];
		if (!target) continue;
		target.points++;
		if (each.windowMeanSeconds !== null) target.meanSeconds = Math.max(target.meanSeconds ?? -Infinity, each.windowMeanSeconds);
		if (each.lastSeenAgeSeconds !== null) target.ageSeconds = Math.max(target.ageSeconds ?? -Infinity, each.lastSeenAgeSeconds);
		target.restart ||= each.event === 'restart';
		target.mark ||= each.event === 'mark';
		target.historyEnd ||= each.event === 'history';
	}

	return buckets;
}

/** A linear congruential generator: the same sequence on every run. */
function seeded(seed: number): () => number {
	return () => {
		seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
		return seed / 2 ** 32;
	};
}

describe('chooseBucketSeconds: the shortest round step covering the span', () => {
	test('generic PLEG (2 × 3 min = 360 s) at the column counts of 40, 60, 80, 100, 120 and 200 wide panes', () => {
		// 360 / 24 = 15 → 15; 360 / 44 = 8.2 → 10; 360 / 64 = 5.6 → 6; 360 / 84 = 4.3 → 5; 360 / 104 = 3.5 → 5;
		// 360 / 184 = 1.96 → 2.
		assert.deepEqual(
			[24, 44, 64, 84, 104, 184].map((columns) => chooseBucketSeconds({columns, minSpanSeconds: 360, minBucketSeconds: 2})),
			[15, 10, 6, 5, 5, 2],
		);
	});

	test('evented PLEG (2 × 10 min = 1200 s) in 64 columns: 18.75 → 20 s', () => {
		assert.equal(chooseBucketSeconds({columns: 64, minSpanSeconds: 1200, minBucketSeconds: 2}), 20);
	});

	test('never shorter than the minimum bucket (a slow poll interval), even when the span would allow it', () => {
		// 360 / 184 = 1.96 s, but scrapes 10 s apart need 2 × 10 = 20 s buckets.
		assert.equal(chooseBucketSeconds({columns: 184, minSpanSeconds: 360, minBucketSeconds: 20}), 20);
	});

	test('past the last step: whole hours', () => {
		// 360,000 s / 64 = 5,625 s → 2 h.
		assert.equal(chooseBucketSeconds({columns: 64, minSpanSeconds: 360_000, minBucketSeconds: 1}), 7200);
	});
});

describe('bucketHistory: the highest value per bucket, buckets on multiples of their length', () => {
	// now 14:00:20.5 with 5 s buckets and 4 columns: the last bucket starts 14:00:20, the first 14:00:05.
	const now = t + 20_500;
	const points = [
		point(3, 0.5, 9), // before the first bucket: left out
		point(5, 0.004, 1), // a bucket's start belongs to it
		point(7, 0.009, 2, 'mark'),
		point(9.999, null, 3), // no relist in the window: the mean of the bucket stays the others' highest
		// 14:00:10 – 14:00:15: no scrape (a gap)
		point(15, null, null, 'restart'),
		point(17, 0.002, 1, 'mark'),
		point(20, 0.003, 1),
		point(20.5, 0.001, 0),
		point(26, 9, 9), // past the last bucket (a clock step): left out
	];

	test('four buckets by hand', () => {
		assert.deepEqual(bucketHistory(points, {now, columns: 4, bucketSeconds: 5}), [
			bucket(5, {meanSeconds: 0.009, ageSeconds: 3, points: 3, mark: true}),
			bucket(10),
			bucket(15, {meanSeconds: 0.002, ageSeconds: 1, points: 2, restart: true, mark: true}),
			bucket(20, {meanSeconds: 0.003, ageSeconds: 1, points: 2}),
		]);
	});

	test('the same columns a second later: the buckets do not move, only the last one fills', () => {
		const later = bucketHistory([...points.slice(0, -1), point(21.5, 0.02, 1)], {now: now + 1000, columns: 4, bucketSeconds: 5});
		assert.deepEqual(
			later.map((b) => b.start),
			[5, 10, 15, 20].map((seconds) => t + seconds * 1000),
		);
		assert.equal(later[3]!.meanSeconds, 0.02);
		assert.equal(later[3]!.points, 3);
	});

	test('a history shorter than the chart leaves the oldest buckets empty', () => {
		const buckets = bucketHistory([point(19, 0.004, 1)], {now, columns: 4, bucketSeconds: 5});
		assert.deepEqual(
			buckets.map((b) => b.points),
			[0, 0, 1, 0],
		);
	});

	test('no columns: no buckets', () => {
		assert.deepEqual(bucketHistory(points, {now, columns: 0, bucketSeconds: 5}), []);
	});
});

describe('bucketHistory: the same buckets as a plain fold, whatever came before', () => {
	test('300 random histories (gaps, nulls, marks, restarts, a clock step back), ten at each width in turn', () => {
		const random = seeded(7);

		for (let round = 0; round < 300; round++) {
			const points: HistoryPoint[] = [];
			let seconds = 0;
			for (let index = Math.floor(random() * 400); index > 0; index--) {
				seconds += random() < 0.05 ? -random() * 30 : random() * 3;
				const event = random() < 0.03 ? 'restart' : random() < 0.03 ? 'mark' : null;
				points.push(point(seconds, random() < 0.2 ? null : random() * 2, random() < 0.1 ? null : Math.floor(random() * 200), event));
			}

			const now = t + (seconds + random() * 10) * 1000;
			const columns = [1, 7, 40, 96][Math.floor(round / 10) % 4]!;
			const bucketSeconds = [1, 2, 5, 15][Math.floor(random() * 4)]!;
			assert.deepEqual(
				bucketHistory(points, {now, columns, bucketSeconds}),
				plainFold(points, now, columns, bucketSeconds),
				`round ${round}`,
			);
		}
	});
});

describe('bucketHistory: a kept fold of the final columns gives what a fresh fold gives', () => {
	const random = seeded(11);

	test('a feed-like log over 20,000 scrapes: appended, cut to its limit, a mark replacing the newest, a second log read between', () => {
		let log = emptyLog<HistoryPoint>();
		let other = emptyLog<HistoryPoint>();
		let seconds = 0;
		let reused = 0;
		for (let scrape = 0; scrape < 20_000; scrape++) {
			// Mostly 100 ms to 1 s apart, now and then a pause or a clock step back.
			seconds += random() < 0.0002 ? -random() * 40 : random() < 0.002 ? random() * 120 : 0.1 + random() * 0.9;
			const event = random() < 0.01 ? 'restart' : null;
			log = appendToLog(
				log,
				point(seconds, random() < 0.1 ? null : random() * 2, random() < 0.05 ? null : Math.floor(random() * 200), event),
				400,
			);
			if (random() < 0.01) log = replaceLast(log, {...logLast(log)!, event: 'mark'});
			if (random() < 0.02) other = appendToLog(other, point(seconds - random() * 5, random(), random() * 10), 50);
			const now = t + (seconds + random() * 2) * 1000;
			// Mostly one width, now and then a resize or an axis label costing columns.
			const columns = random() < 0.98 ? 64 : [20, 63, 100][Math.floor(random() * 3)]!;
			const bucketSeconds = random() < 0.98 ? 6 : [1, 5, 15][Math.floor(random() * 3)]!;
			const read = random() < 0.01 ? other : log;
			const expected = plainFold(logToArray(read), now, columns, bucketSeconds);
			assert.deepEqual(bucketHistory(logView(read), {now, columns, bucketSeconds}), expected, `scrape ${scrape}`);
			if (read === log) reused++;
		}

		assert.ok(reused > 15_000);
	});

	test('a log out of time order before the chart is read as the plain rule reads it, once its front is cut too', () => {
		// 5 s columns from 10 s to 30 s. Newest first the read stops at 5 s, before the chart: 18 s, a clock step
		// earlier, is left out although it lies inside.
		let log = emptyLog<HistoryPoint>();
		for (const each of [point(18, 9, 9), point(5, 1, 1), point(21, 2, 2), point(26, 3, 3)]) log = appendToLog(log, each);
		const now = t + 29_000;
		const read = () => bucketHistory(logView(log), {now, columns: 4, bucketSeconds: 5});
		assert.deepEqual(read(), plainFold(logToArray(log), now, 4, 5));
		log = appendToLog(log, point(27, 4, 4));
		assert.deepEqual(read(), [
			bucket(10),
			bucket(15),
			bucket(20, {meanSeconds: 2, ageSeconds: 2, points: 1}),
			bucket(25, {meanSeconds: 4, ageSeconds: 4, points: 2}),
		]);
	});
});
