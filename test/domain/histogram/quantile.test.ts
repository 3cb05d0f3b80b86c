import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {deltaBuckets, histogramQuantile, histogramQuantileBound} from '../../../source/domain/histogram/quantile.js';
import type {Bucket} from '../../../source/domain/types.js';

const buckets = (pairs: Array<[number, number]>): Bucket[] => pairs.map(([le, count]) => ({le, count}));

function assertClose(actual: number | undefined, expected: number, message?: string): void {
	assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, message ?? `${actual} ≉ ${expected}`);
}

describe('histogramQuantile: vectors from kubernetes-mixin tests/kubelet-test.yaml', () => {
	test('all relists in (0, 1]: p50 0.5, p90 0.9, p99 0.99', () => {
		// kubelet_pleg_relist_duration_seconds_bucket{le="1"} and {le="+Inf"} both 0+60x5 → equal counts.
		const pleg = buckets([
			[1, 300],
			[Infinity, 300],
		]);
		assert.deepEqual(histogramQuantile(0.5, pleg), {seconds: 0.5, atLeast: false}); // 0 + 1 × 150/300
		assert.deepEqual(histogramQuantile(0.9, pleg), {seconds: 0.9, atLeast: false}); // 0 + 1 × 270/300
		assertClose(histogramQuantile(0.99, pleg)?.seconds, 0.99); // 0 + 1 × 297/300
	});

	test('pod worker: {99, +Inf} → p99 98.01', () => {
		const worker = buckets([
			[99, 16],
			[Infinity, 16],
		]);
		assertClose(histogramQuantile(0.99, worker)?.seconds, 98.01); // 0 + 99 × (0.99 × 16)/16
	});
});

describe('histogramQuantile: vectors from prometheus promql/promqltest/testdata/histograms.test', () => {
	// testhistogram{start="positive"} at 50m: 0.1 → 50, 0.2 → 70, 1 → 110, +Inf → 120.
	const positive = buckets([
		[0.1, 50],
		[0.2, 70],
		[1, 110],
		[Infinity, 120],
	]);
	// testhistogram{start="negative"} at 50m: -0.2 → 10, -0.1 → 20, 0.3 → 20, +Inf → 30.
	const negative = buckets([
		[-0.2, 10],
		[-0.1, 20],
		[0.3, 20],
		[Infinity, 30],
	]);

	test('positive: 0.2 → 0.048, 0.5 → 0.15, 0.8 → 0.72, 0 → 0, 1 → 1 (in +Inf)', () => {
		assertClose(histogramQuantile(0.2, positive)?.seconds, 0.048); // rank 24: 0 + 0.1 × 24/50
		assertClose(histogramQuantile(0.5, positive)?.seconds, 0.15); // rank 60: 0.1 + 0.1 × 10/20
		assertClose(histogramQuantile(0.8, positive)?.seconds, 0.72); // rank 96: 0.2 + 0.8 × 26/40
		assert.deepEqual(histogramQuantile(0, positive), {seconds: 0, atLeast: false});
		// rank 120 is past the 110 of le=1: the +Inf bucket, answered with the highest finite bound.
		assert.deepEqual(histogramQuantile(1, positive), {seconds: 1, atLeast: true});
	});

	test('negative lowest bound: its upper bound is returned, no interpolation from 0', () => {
		assert.deepEqual(histogramQuantile(0, negative), {seconds: -0.2, atLeast: false});
		assert.deepEqual(histogramQuantile(0.2, negative), {seconds: -0.2, atLeast: false}); // rank 6 ≤ 10
		assertClose(histogramQuantile(0.5, negative)?.seconds, -0.15); // rank 15: -0.2 + 0.1 × 5/10
		assert.deepEqual(histogramQuantile(0.8, negative), {seconds: 0.3, atLeast: true}); // rank 24 > 20
	});

	test('testhistogram2: ranks in the middle of buckets → 1, 3, 5', () => {
		const h = buckets([
			[0, 0],
			[2, 1],
			[4, 2],
			[6, 3],
			[Infinity, 3],
		]);
		assert.equal(histogramQuantile(1 / 6, h)?.seconds, 1); // rank 0.5: 0 + 2 × 0.5/1
		assert.equal(histogramQuantile(0.5, h)?.seconds, 3); // rank 1.5: 2 + 2 × 0.5/1
		assert.equal(histogramQuantile(5 / 6, h)?.seconds, 5); // rank 2.5: 4 + 2 × 0.5/1
	});

	test('testhistogram3 positive: le=0 bucket, q=1 inside the last finite bucket', () => {
		const h = buckets([
			[0, 0],
			[0.1, 50],
			[0.2, 70],
			[1, 110],
			[Infinity, 110],
		]);
		assert.deepEqual(histogramQuantile(0, h), {seconds: 0, atLeast: false}); // b = 0 and le ≤ 0
		assertClose(histogramQuantile(0.25, h)?.seconds, 0.055); // rank 27.5: 0 + 0.1 × 27.5/50
		assertClose(histogramQuantile(0.75, h)?.seconds, 0.45); // rank 82.5: 0.2 + 0.8 × 12.5/40
		assert.deepEqual(histogramQuantile(1, h), {seconds: 1, atLeast: false}); // rank 110 = count at le=1
	});

	test('non-monotonic buckets are raised to the running maximum (0.0045, 8.5, 979.75)', () => {
		// nonmonotonic_bucket at 50m: 20, 10, 50, 40, 90, 80 → envelope 20, 20, 50, 50, 90, 90 (total 90, not 80).
		const h = buckets([
			[0.1, 20],
			[1, 10],
			[10, 50],
			[100, 40],
			[1000, 90],
			[Infinity, 80],
		]);
		assertClose(histogramQuantile(0.01, h)?.seconds, 0.0045); // rank 0.9: 0.1 × 0.9/20
		assertClose(histogramQuantile(0.5, h)?.seconds, 8.5); // rank 45: 1 + 9 × 25/30
		assertClose(histogramQuantile(0.99, h)?.seconds, 979.75); // rank 89.1: 100 + 900 × 39.1/40
	});

	test('duplicate bounds (0.2, 2e-1, 2.0e-1) are merged: 0.5 → 0.15, 0.75 → 0.2, 1 → 0.2', () => {
		const h = buckets([
			[0.1, 10],
			[0.2, 10],
			[0.2, 10],
			[0.2, 10],
			[Infinity, 40],
		]);
		assertClose(histogramQuantile(0.5, h)?.seconds, 0.15); // merged 0.2 → 30; rank 20: 0.1 + 0.1 × 10/20
		assertClose(histogramQuantile(0.75, h)?.seconds, 0.2); // rank 30: 0.1 + 0.1 × 20/20
		assertClose(histogramQuantile(1, h)?.seconds, 0.2); // rank 40 > 30: +Inf → 0.2
		assert.equal(histogramQuantile(1, h)?.atLeast, true);
	});

	test('a change below 1e-12 relative is float rounding and is undone', () => {
		// 100 then 100 + 1e-11 (relative 1e-13) for le=2 and +Inf: corrected back to 100, so the total is 100
		// and rank 100 lands at le=1: 0 + 1 × 100/100 = 1. Uncorrected it would land in (1, 2] and give 2.
		const h = buckets([
			[1, 100],
			[2, 100 + 1e-11],
			[Infinity, 100 + 1e-11],
		]);
		assert.deepEqual(histogramQuantile(1, h), {seconds: 1, atLeast: false});
	});
});

describe('histogramQuantile: null and edge cases', () => {
	test('NaN cases of Prometheus are null', () => {
		assert.equal(histogramQuantile(0.5, []), null);
		assert.equal(histogramQuantile(0.5, buckets([[Infinity, 5]])), null); // fewer than 2 buckets
		assert.equal(
			histogramQuantile(
				0.5,
				buckets([
					[1, 0],
					[Infinity, 0],
				]),
			),
			null,
		); // no observations
		assert.equal(
			histogramQuantile(
				0.5,
				buckets([
					[1, 3],
					[2, 4],
				]),
			),
			null,
		); // no +Inf bucket
		assert.equal(
			histogramQuantile(
				Number.NaN,
				buckets([
					[1, 3],
					[Infinity, 4],
				]),
			),
			null,
		);
	});

	test('one call leaves nothing behind for the next: 200 buckets (uniform, 1 per 0.01 s), then 2, then 200 again', () => {
		// 200 finite bounds 0.01 … 2.00 with cumulative count = 100 × le, +Inf 200: p50 at rank 100 is exactly 1.00.
		const wide = buckets([...Array.from({length: 200}, (_, index): [number, number] => [(index + 1) / 100, index + 1]), [Infinity, 200]]);
		assertClose(histogramQuantile(0.5, wide)?.seconds, 1);
		assert.deepEqual(
			histogramQuantile(
				0.5,
				buckets([
					[4, 10],
					[Infinity, 10],
				]),
			),
			{seconds: 2, atLeast: false},
		);
		assertClose(histogramQuantile(0.25, wide)?.seconds, 0.5);
	});

	test('q outside [0, 1] is clamped', () => {
		const h = buckets([
			[1, 10],
			[2, 20],
			[Infinity, 20],
		]);
		assert.deepEqual(histogramQuantile(-1, h), histogramQuantile(0, h));
		assert.deepEqual(histogramQuantile(2, h), histogramQuantile(1, h));
	});

	test('input order does not matter (the library returns "1", "5", "10" before "0.005")', () => {
		const sorted = buckets([
			[0.005, 1],
			[0.01, 3],
			[1, 4],
			[5, 4],
			[10, 4],
			[Infinity, 4],
		]);
		const shuffled = [sorted[2]!, sorted[3]!, sorted[4]!, sorted[0]!, sorted[5]!, sorted[1]!];
		assert.deepEqual(histogramQuantile(0.5, shuffled), histogramQuantile(0.5, sorted));
		assert.deepEqual(
			shuffled.map((bucket) => bucket.le),
			[1, 5, 10, 0.005, Infinity, 0.01],
		); // not sorted in place
	});

	test('kubelet DefBuckets, 2 of 100 relists above 10 s: p99 is "at least 10 s"', () => {
		const h = buckets([
			[0.005, 0],
			[0.01, 90],
			[0.025, 90],
			[0.05, 90],
			[0.1, 90],
			[0.25, 90],
			[0.5, 90],
			[1, 90],
			[2.5, 90],
			[5, 90],
			[10, 98],
			[Infinity, 100],
		]);
		assertClose(histogramQuantile(0.5, h)?.seconds, 0.005 + 0.005 * (50 / 90)); // rank 50 in (0.005, 0.01]
		assertClose(histogramQuantile(0.9, h)?.seconds, 0.01); // rank 90: 0.005 + 0.005 × 90/90
		assert.deepEqual(histogramQuantile(0.99, h), {seconds: 10, atLeast: true}); // rank 99 > 98
	});
});

describe('deltaBuckets', () => {
	test('bucket-wise newer - older, matched by bound', () => {
		const older = buckets([
			[0.005, 88778],
			[0.01, 112188],
			[Infinity, 1671950],
		]);
		const newer = buckets([
			[0.005, 88788],
			[0.01, 112228],
			[Infinity, 1672010],
		]);
		assert.deepEqual(
			deltaBuckets(older, newer),
			buckets([
				[0.005, 10],
				[0.01, 40],
				[Infinity, 60],
			]),
		);
	});

	test('a bound missing from either side is left out', () => {
		const older = buckets([
			[1, 5],
			[Infinity, 9],
		]);
		const newer = buckets([
			[1, 6],
			[2, 7],
			[Infinity, 12],
		]);
		assert.deepEqual(
			deltaBuckets(older, newer),
			buckets([
				[1, 1],
				[Infinity, 3],
			]),
		);
	});
});

describe('histogramQuantileBound: the bucket, not an interpolation', () => {
	const interval = (counts: number[]) => [1, 2.5, 5, 10, Infinity].map((le, index) => ({le, count: counts[index]!}));

	test('every interval in (1, 2.5]: p99 is at most 2.5 s (interpolation would say 2.485 s)', () => {
		assert.deepEqual(histogramQuantileBound(0.99, interval([0, 60, 60, 60, 60])), {seconds: 2.5, atLeast: false, atMost: true});
	});

	test('rank 0.99 × 100 = 99 past the 98 in (1, 2.5]: the (2.5, 5] bucket, at most 5 s; in +Inf: at least 10 s', () => {
		assert.deepEqual(histogramQuantileBound(0.99, interval([0, 98, 100, 100, 100])), {seconds: 5, atLeast: false, atMost: true});
		assert.deepEqual(histogramQuantileBound(0.99, interval([0, 90, 90, 90, 100])), {seconds: 10, atLeast: true});
		assert.equal(histogramQuantileBound(0.99, interval([0, 0, 0, 0, 0])), null);
	});
});
