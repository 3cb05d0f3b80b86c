// histogram_quantile as Prometheus computes it for classic histograms
// (prometheus/prometheus promql/quantile.go bucketQuantile; docs/querying/functions.md), so a figure on screen
// matches what the kubernetes-mixin recording rule would show for the same bucket deltas.
import type {Bucket, Quantile} from './types.js';

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
	if (Number.isNaN(q) || buckets.length === 0) {
		return null;
	}

	const sorted = [...buckets].sort(byUpperBound);
	if (sorted.at(-1)?.le !== Infinity) {
		return null;
	}

	const fixed = ensureMonotonic(correctPrecisionErrors(coalesce(sorted)));
	const total = fixed.at(-1)?.count ?? 0;
	if (fixed.length < 2 || total === 0) {
		return null;
	}

	const value = interpolate(Math.min(Math.max(q, 0), 1) * total, fixed);
	return Number.isNaN(value.seconds) ? null : value;
}

/** Finds the bucket holding `rank` and interpolates inside it; `buckets` are sorted, coalesced and monotonic. */
function interpolate(rank: number, buckets: Bucket[]): Quantile {
	const last = buckets.length - 1;
	// First bucket (the +Inf one excluded) whose cumulative count reaches the rank, as Go's sort.Search finds it.
	let b = 0;
	while (b < last && buckets[b]!.count < rank) {
		b++;
	}

	const bucket = buckets[b]!;
	if (b === last) {
		return {seconds: buckets[last - 1]!.le, atLeast: true};
	}

	if (b === 0 && bucket.le <= 0) {
		return {seconds: bucket.le, atLeast: false};
	}

	const below = b > 0 ? buckets[b - 1]! : {le: 0, count: 0};
	const seconds = below.le + (bucket.le - below.le) * ((rank - below.count) / (bucket.count - below.count));
	return {seconds, atLeast: false};
}

/** Merges buckets with the same upper bound (sorted input). */
function coalesce(sorted: Bucket[]): Bucket[] {
	const merged: Bucket[] = [];
	for (const bucket of sorted) {
		const last = merged.at(-1);
		if (last?.le === bucket.le) {
			merged[merged.length - 1] = {le: last.le, count: last.count + bucket.count};
		} else {
			merged.push({...bucket});
		}
	}

	return merged;
}

/** Prometheus' correctPrecisionErrors: a change smaller than 1e-12 relative to the count is rounding, undone. */
function correctPrecisionErrors(buckets: Bucket[]): Bucket[] {
	let previous = buckets[0]?.count ?? 0;
	const corrected: Bucket[] = [];
	for (const bucket of buckets) {
		const delta = Math.abs(bucket.count - previous);
		if (delta !== 0 && delta / bucket.count <= precisionTolerance) {
			corrected.push({le: bucket.le, count: previous});
		} else {
			previous = bucket.count;
			corrected.push(bucket);
		}
	}

	return corrected;
}

/** Prometheus' ensureMonotonic: a cumulative count never goes down, so a decrease is raised to the running maximum. */
function ensureMonotonic(buckets: Bucket[]): Bucket[] {
	let max = -Infinity;
	const raised: Bucket[] = [];
	for (const bucket of buckets) {
		max = Math.max(max, bucket.count);
		raised.push(bucket.count < max ? {le: bucket.le, count: max} : bucket);
	}

	return raised;
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
// threads built it again (4-5 times each in 1,200 ticks of the live screen, from a --log-code run).

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
