import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {bucketHistory, chooseBucketSeconds, type HistoryBucket} from '../../source/domain/history-buckets.js';
import type {HistoryPoint} from '../../source/domain/types.js';

/** 14:00:00 UTC: a whole minute, so 5 s buckets start on it. */
const t = Date.UTC(2024, 0, 15, 14, 0, 0);

function point(seconds: number, mean: number | null, age: number | null, event: HistoryPoint['event'] = null): HistoryPoint {
	return {at: t + seconds * 1000, windowMeanSeconds: mean, lastSeenAgeSeconds: age, event};
}

function bucket(startSeconds: number, fields: Partial<HistoryBucket> = {}): HistoryBucket {
	return {start: t + startSeconds * 1000, meanSeconds: null, ageSeconds: null, points: 0, restart: false, mark: false, ...fields};
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
