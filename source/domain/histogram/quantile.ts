// histogram_quantile as Prometheus computes it for classic histograms
// (prometheus/prometheus promql/quantile.go bucketQuantile; docs/querying/functions.md), so a figure on screen
// matches what the kubernetes-mixin recording rule would show for the same bucket deltas.
import type {Bucket, Quantile} from '../types.js';

/** Relative tolerance under which a bucket decrease is a float rounding error (Prometheus uses 1e-12). */
const precisionTolerance = 1e-12;

/**
 * The q-quantile of cumulative `buckets` (any order; the highest must be +Inf), by linear interpolation inside
 * the bucket where the rank q × total falls. The lowest bucket starts at 0 when its upper bound is above 0;
 * a rank in the +Inf bucket answers the highest finite bound with `atLeast: true`.
 * null where Prometheus answers NaN: q is NaN, no +Inf bucket, fewer than 2 buckets, no observations.
 * q outside [0, 1] is clamped (Prometheus answers ∓Inf; pleg-top only asks for 0.5, 0.9 and 0.99).
 */
export function histogramQuantile(q: number, buckets: Bucket[]): Quantile | null {
	return quantileBy(q, buckets, interpolate);
}

/**
 * The upper bound of the bucket where the rank q × total falls, `atMost: true`: what the buckets can say when an
 * interpolation would invent a figure (the relist interval: ~1 s every time, all in (1, 2.5], where interpolation
 * gives 2.485 for p99 on every healthy node). A rank in +Inf is the highest finite bound, `atLeast`, as above.
 */
export function histogramQuantileBound(q: number, buckets: Bucket[]): Quantile | null {
	return quantileBy(q, buckets, (rank, size) => {
		const value = interpolate(rank, size);
		return value.atLeast ? value : {seconds: bounds[bucketOf(rank, size)]!, atLeast: false, atMost: true}; // in bounds
	});
}

function quantileBy(q: number, buckets: Bucket[], answer: (rank: number, size: number) => Quantile): Quantile | null {
	if (Number.isNaN(q) || buckets.length === 0) {
		return null;
	}

	const sorted = isSorted(buckets) ? buckets : [...buckets].sort(byUpperBound);
	// Below: in bounds.
	if (sorted[sorted.length - 1]!.le !== Infinity) {
		return null;
	}

	const size = fixBuckets(sorted);
	const total = counts[size - 1]!; // in bounds
	if (size < 2 || total === 0) {
		return null;
	}

	const value = answer(Math.min(Math.max(q, 0), 1) * total, size);
	return Number.isNaN(value.seconds) ? null : value;
}

// The buckets of one call, sorted, coalesced and corrected, as bounds and counts side by side: the live screen asks
// for many quantiles a scrape, and building three arrays of bucket objects for each was a good part of what it
// allocated (bench/README.md).
let bounds = new Float64Array(64);
let counts = new Float64Array(64);

function isSorted(buckets: Bucket[]): boolean {
	for (let index = 1; index < buckets.length; index++) {
		// Below: in bounds.
		if (!(buckets[index - 1]!.le <= buckets[index]!.le)) {
			return false;
		}
	}

	return true;
}

/**
 * Fills `bounds` and `counts` from sorted buckets, as Prometheus prepares them: buckets with the same bound merged,
 * then correctPrecisionErrors (a change smaller than 1e-12 relative to the count is rounding, undone), then
 * ensureMonotonic (a cumulative count never goes down: a decrease is raised to the running maximum). Returns how many.
 */
function fixBuckets(sorted: Bucket[]): number {
	if (bounds.length < sorted.length) {
		bounds = new Float64Array(sorted.length * 2);
		counts = new Float64Array(sorted.length * 2);
	}

	let size = 0;
	for (const {le, count} of sorted) {
		if (size > 0 && bounds[size - 1] === le) {
			counts[size - 1]! += count; // in bounds
		} else {
			bounds[size] = le;
			counts[size] = count;
			size++;
		}
	}

	let previous = counts[0]!; // non-empty
	for (let index = 0; index < size; index++) {
		const count = counts[index]!; // in bounds
		const delta = Math.abs(count - previous);
		if (delta !== 0 && delta / count <= precisionTolerance) {
			counts[index] = previous;
		} else {
			previous = count;
		}
	}

	let max = -Infinity;
	for (let index = 0; index < size; index++) {
		const count = counts[index]!; // in bounds
		max = Math.max(max, count);
		if (count < max) {
			counts[index] = max;
		}
	}

	return size;
}

/** The first bucket (the +Inf one excluded) whose cumulative count reaches the rank, as Go's sort.Search finds it. */
function bucketOf(rank: number, size: number): number {
	const last = size - 1;
	let b = 0;
	// Below: in bounds.
	while (b < last && counts[b]! < rank) {
		b++;
	}

	return b;
}

/** Finds the bucket holding `rank` among the first `size` fixed buckets and interpolates inside it. */
function interpolate(rank: number, size: number): Quantile {
	const last = size - 1;
	const b = bucketOf(rank, size);

	if (b === last) {
		return {seconds: bounds[last - 1]!, atLeast: true}; // in bounds
	}

	// Below: non-empty.
	if (b === 0 && bounds[0]! <= 0) {
		return {seconds: bounds[0]!, atLeast: false}; // non-empty
	}

	const belowBound = b > 0 ? bounds[b - 1]! : 0; // in bounds
	const belowCount = b > 0 ? counts[b - 1]! : 0; // in bounds
	const seconds = belowBound + (bounds[b]! - belowBound) * ((rank - belowCount) / (counts[b]! - belowCount)); // in bounds
	return {seconds, atLeast: false};
}

/**
 * Bucket-wise `newer - older`, the buckets of the observations made between two scrapes (what rate() feeds
 * histogram_quantile). Only bounds present in both are kept. A negative delta means a counter reset, which
 * callers check first (window.ts isCounterReset).
 */
export function deltaBuckets(older: Bucket[], newer: Bucket[]): Bucket[] {
	const delta: Bucket[] = [];
	for (const bucket of newer) {
		const count = countAtBound(older, bucket.le);
		if (count !== undefined) {
			delta.push({le: bucket.le, count: bucket.count - count});
		}
	}

	return delta;
}

// The bucket helpers run on every scrape. They are plain loops and module-level functions, not callbacks made per
// call: V8 holds such a callback's optimised code only weakly, so each full GC threw it away and the compiler
// threads built it again, over and over on the live screen.

/** Sort order of buckets: by upper bound, ascending. */
export function byUpperBound(a: Bucket, b: Bucket): number {
	return a.le - b.le;
}

/** The count of the bucket with upper bound `le`; undefined when there is none (a histogram has ~15 buckets). */
export function countAtBound(buckets: Bucket[], le: number): number | undefined {
	for (const bucket of buckets) {
		if (bucket.le === le) {
			return bucket.count;
		}
	}

	return undefined;
}
