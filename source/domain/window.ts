// Figures from the difference between two scrapes: what rate()/increase() and histogram_quantile over a range
// would give. The lifetime sum/count averages over every relist since the kubelet started, so the screen shows
// these windowed figures instead (practice.md §4.2).
import type {DeltaFigures, Histogram, PlegSample, Scrape, Summary} from './types.js';
import {deltaBuckets, histogramQuantile} from './quantile.js';

type Totals = {sum: number; count: number};

export function deltaFigures(older: Scrape, newer: Scrape): DeltaFigures {
	const spanSeconds = (newer.at - older.at) / 1000;
	const before = older.sample;
	const after = newer.sample;
	const histograms = bothOrNull(before.relistDuration, after.relistDuration);
	// Without the seconds histograms (kubelet < 1.14) the µs summaries still give sum and count. Their quantiles
	// are computed inside the kubelet over its own decay window and cannot be differenced into this window, so the
	// quantiles stay null.
	const totals = histograms ?? bothOrNull(before.legacyRelistLatency, after.legacyRelistLatency);
	const duration = totals && delta(totals[0], totals[1]);
	const count = duration?.count ?? 0;
	const buckets = histograms && count > 0 ? deltaBuckets(histograms[0].buckets, histograms[1].buckets) : null;
	const quantile = (q: number) => (buckets ? histogramQuantile(q, buckets) : null);
	return {
		spanSeconds,
		count,
		meanSeconds: duration ? meanOf(duration) : null,
		p50: quantile(0.5),
		p90: quantile(0.9),
		p99: quantile(0.99),
		// Rate 0 is a measured figure (no relist completed in the span), unlike the mean, which does not exist then.
		ratePerSecond: duration && spanSeconds > 0 ? count / spanSeconds : null,
		intervalMeanSeconds: intervalMean(before, after),
		discardEvents: discardDelta(before.discardEvents, after.discardEvents),
	};
}

function intervalMean(before: PlegSample, after: PlegSample): number | null {
	const pair =
		bothOrNull(before.relistInterval, after.relistInterval) ??
		bothOrNull(before.legacyRelistInterval, after.legacyRelistInterval);
	return pair ? meanOf(delta(pair[0], pair[1])) : null;
}

function discardDelta(before: number | null, after: number | null): number | null {
	if (after === null) {
		return null;
	}

	// In kubelet 1.14-1.17 the counter is absent until the first discard, so absent-then-present counts from 0.
	return after - (before ?? 0);
}

function delta(older: Totals, newer: Totals): Totals {
	return {sum: newer.sum - older.sum, count: newer.count - older.count};
}

function meanOf({sum, count}: Totals): number | null {
	return count > 0 ? sum / count : null;
}

function bothOrNull<T extends Histogram | Summary>(older: T | null, newer: T | null): [T, T] | null {
	return older && newer ? [older, newer] : null;
}

/**
 * A kubelet restart between two scrapes: a cumulative series went down (count, sum, any bucket, the discard or
 * evented counters). Deltas across it would be nonsense, so the window starts again.
 */
export function isCounterReset(previous: PlegSample, next: PlegSample): boolean {
	return (
		histogramDecreased(previous.relistDuration, next.relistDuration) ||
		histogramDecreased(previous.relistInterval, next.relistInterval) ||
		totalsDecreased(previous.legacyRelistLatency, next.legacyRelistLatency) ||
		totalsDecreased(previous.legacyRelistInterval, next.legacyRelistInterval) ||
		decreased(previous.discardEvents, next.discardEvents) ||
		decreased(previous.eventedConnectionSuccess, next.eventedConnectionSuccess) ||
		decreased(previous.eventedConnectionError, next.eventedConnectionError)
	);
}

function histogramDecreased(previous: Histogram | null, next: Histogram | null): boolean {
	if (!previous || !next) {
		return false;
	}

	const after = new Map(next.buckets.map(bucket => [bucket.le, bucket.count]));
	return (
		totalsDecreased(previous, next) ||
		previous.buckets.some(bucket => decreased(bucket.count, after.get(bucket.le) ?? null))
	);
}

function totalsDecreased(previous: Totals | null, next: Totals | null): boolean {
	return previous !== null && next !== null && (next.count < previous.count || next.sum < previous.sum);
}

function decreased(previous: number | null, next: number | null): boolean {
	return previous !== null && next !== null && next < previous;
}
