// Figures from the difference between two scrapes: what rate()/increase() and histogram_quantile over a range
// would give. The lifetime sum/count averages over every relist since the kubelet started, so the screen shows
// these windowed figures instead.
// Across a kubelet restart the counters start again from 0. As Prometheus' increase() does, a counter that went
// down contributes its new value: the feed keeps an offset per counter series (correctCounters) so that the
// corrected counters only ever rise and a window spans the restart. For a histogram or summary the reset is the
// count's (or a bucket's): a _sum that falls while _count does not is no restart but inconsistent series, and
// only the window mean is left out (DeltaFigures.sumFell).
import type {Bucket, CriOperation, CriSample, DeltaFigures, Histogram, PlegSample, Quantile, Scrape, Summary} from '../types.js';
import {countAtBound, deltaBuckets, histogramQuantile, histogramQuantileBound} from './quantile.js';

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
	// Corrected counts never fall; a negative delta would mean a series that vanished and came back lower, so
	// the window says nothing rather than something negative.
	const change = totals && delta(totals[0], totals[1]);
	const duration = change && change.count >= 0 ? change : null;
	const count = duration?.count ?? 0;
	// A sum that fell while the count did not: the count stands, the mean (of a negative sum) is left out.
	const sumFell = duration !== null && duration.sum < 0;
	const buckets = histograms && count > 0 ? deltaBuckets(histograms[0].buckets, histograms[1].buckets) : null;
	const quantile = (q: number) => (buckets ? histogramQuantile(q, buckets) : null);
	return {
		spanSeconds,
		count,
		meanSeconds: duration && !sumFell ? meanOf(duration) : null,
		...(sumFell ? {sumFell} : {}),
		p50: quantile(0.5),
		p90: quantile(0.9),
		p99: quantile(0.99),
		// Rate 0 is a measured figure (no relist completed in the span), unlike the mean, which does not exist then.
		ratePerSecond: duration && spanSeconds > 0 ? count / spanSeconds : null,
		intervalMeanSeconds: intervalMean(before, after),
		intervalP99: intervalP99(before.relistInterval, after.relistInterval),
		discardEvents: discardDelta(before.discardEvents, after.discardEvents),
	};
}

function intervalMean(before: PlegSample, after: PlegSample): number | null {
	const pair =
		bothOrNull(before.relistInterval, after.relistInterval) ?? bothOrNull(before.legacyRelistInterval, after.legacyRelistInterval);
	const totals = pair && nonNegative(delta(pair[0], pair[1]));
	return totals ? meanOf(totals) : null;
}

/**
 * The 0.99 quantile of the intervals observed in the span, as the upper bound of its bucket (histogramQuantileBound);
 * null without the seconds histograms (the µs summaries' quantiles cannot be windowed) or without an interval.
 */
function intervalP99(before: Histogram | null, after: Histogram | null): Quantile | null {
	const pair = bothOrNull(before, after);
	const totals = pair && nonNegative(delta(pair[0], pair[1]));
	// The bound, not an interpolation: ~1 s intervals all land in (1, 2.5], where interpolating says 2.485 s every time.
	return pair && totals && totals.count > 0 ? histogramQuantileBound(0.99, deltaBuckets(pair[0].buckets, pair[1].buckets)) : null;
}

function discardDelta(before: number | null, after: number | null): number | null {
	if (after === null) {
		return null;
	}

	// In kubelet 1.14-1.17 the counter is absent until the first discard, so absent-then-present counts from 0.
	const delta = after - (before ?? 0);
	return delta >= 0 ? delta : null;
}

/**
 * _sum / _count since the kubelet started; null with no relist, and null when the _sum is negative (a broken
 * series: durations add up to no negative time), never a negative mean.
 */
export function lifetimeMean(sum: number, count: number): number | null {
	return count > 0 && sum >= 0 ? sum / count : null;
}

function nonNegative(totals: Totals): Totals | null {
	return totals.count >= 0 && totals.sum >= 0 ? totals : null;
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
 * A kubelet restart between two scrapes: a cumulative series went down (a count, any bucket, the discard or
 * evented counters). Every counter of the kubelet started again from 0 then, not only the one seen going down.
 * A _sum is not looked at (Prometheus' rule for histograms): one that falls while its count rises is a broken
 * series, and taking it for a restart added the whole count again at every scrape (rates of thousands a second).
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

	if (totalsDecreased(previous, next)) {
		return true;
	}

	for (const bucket of previous.buckets) {
		if (decreased(bucket.count, countAtBound(next.buckets, bucket.le) ?? null)) {
			return true;
		}
	}

	return false;
}

function totalsDecreased(previous: Totals | null, next: Totals | null): boolean {
	return previous !== null && next !== null && next.count < previous.count;
}

function decreased(previous: number | null, next: number | null): boolean {
	return previous !== null && next !== null && next < previous;
}

/** Per counter series (keyed as mapCounters names them), what to add to the exposed value: the totals before each restart. */
export type CounterOffsets = ReadonlyMap<string, number>;

export const noOffsets: CounterOffsets = new Map();

/**
 * The offsets after a restart between `previous` and `next`: each counter series exposed in `previous` adds its
 * value then, so the corrected series continues from where it was (Prometheus' counter correction, applied to
 * every series at once, since a restart resets them all). Unchanged when there was no restart.
 */
export function offsetsAfter(offsets: CounterOffsets, previous: PlegSample, next: PlegSample): CounterOffsets {
	if (!isCounterReset(previous, next)) {
		return offsets;
	}

	const updated = new Map(offsets);
	mapCounters(previous, (key, value) => {
		updated.set(key, (updated.get(key) ?? 0) + value);
		return value;
	});
	return updated;
}

/**
 * `sample` with every counter series raised by its offset: the counts, sums and buckets of the relist and CRI
 * histograms and summaries, the call and error counters and the discard counter. Gauges and the Evented PLEG
 * connection counters (read as evidence, never windowed) stay as exposed. Without offsets, `sample` itself.
 */
export function correctCounters(sample: PlegSample, offsets: CounterOffsets): PlegSample {
	return offsets.size === 0 ? sample : mapCounters(sample, (key, value) => value + (offsets.get(key) ?? 0));
}

type CounterMap = (key: string, value: number) => number;

/** A copy of `sample` with `map` applied to each counter series; the key names the series (e.g. "d/le=0.5"). */
function mapCounters(sample: PlegSample, map: CounterMap): PlegSample {
	return {
		...sample,
		relistDuration: mapHistogram(sample.relistDuration, 'd', map),
		relistInterval: mapHistogram(sample.relistInterval, 'i', map),
		legacyRelistLatency: mapSummary(sample.legacyRelistLatency, 'ld', map),
		legacyRelistInterval: mapSummary(sample.legacyRelistInterval, 'li', map),
		discardEvents: mapValue(sample.discardEvents, 'discard', map),
		cri: sample.cri && mapCri(sample.cri, map),
	};
}

function mapCri(cri: CriSample, map: CounterMap): CriSample {
	const operation = (op: CriOperation | null, key: string) => op && mapOperation(op, key, map);
	const {operations, docker} = cri;
	return {
		...cri,
		operations: {
			listPodSandbox: operation(operations.listPodSandbox, 'cri/listPodSandbox'),
			listContainers: operation(operations.listContainers, 'cri/listContainers'),
			podSandboxStatus: operation(operations.podSandboxStatus, 'cri/podSandboxStatus'),
			containerStatus: operation(operations.containerStatus, 'cri/containerStatus'),
		},
		docker: docker && {
			listContainers: operation(docker.listContainers, 'docker/listContainers'),
			inspectContainer: operation(docker.inspectContainer, 'docker/inspectContainer'),
		},
	};
}

function mapOperation(op: CriOperation, key: string, map: CounterMap): CriOperation {
	return {
		duration: mapHistogram(op.duration, `${key}/d`, map),
		legacyLatency: mapSummary(op.legacyLatency, `${key}/l`, map),
		total: mapValue(op.total, `${key}/total`, map),
		errors: mapValue(op.errors, `${key}/errors`, map),
	};
}

function mapHistogram(histogram: Histogram | null, key: string, map: CounterMap): Histogram | null {
	return (
		histogram && {
			buckets: histogram.buckets.map((bucket: Bucket) => ({le: bucket.le, count: map(`${key}/le=${bucket.le}`, bucket.count)})),
			sum: map(`${key}/sum`, histogram.sum),
			count: map(`${key}/count`, histogram.count),
		}
	);
}

function mapSummary(summary: Summary | null, key: string, map: CounterMap): Summary | null {
	// The quantiles are the kubelet's own, over its own decay window: not counters.
	return summary && {quantiles: summary.quantiles, sum: map(`${key}/sum`, summary.sum), count: map(`${key}/count`, summary.count)};
}

function mapValue(value: number | null, key: string, map: CounterMap): number | null {
	return value === null ? null : map(key, value);
}
