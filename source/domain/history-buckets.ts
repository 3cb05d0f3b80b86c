// Time buckets for the history chart: each column is a fixed span of time holding the highest value of the
// scrapes in it, so a pane 80 columns wide covers minutes (twice the health threshold) rather than one
// column per scrape, and a one-scrape spike or a stall's peak age is never averaged away.
// Pure: `now` comes in as an argument.
import type {HistoryPoint} from './types.js';

export type HistoryBucket = {
	/** Start of the bucket, ms since the epoch: a multiple of the bucket length, so columns do not shift as time passes. */
	start: number;
	/** Highest windowed mean of the bucket's scrapes, seconds; null when none had one (no relist in the window). */
	meanSeconds: number | null;
	/** Highest last-seen age of the bucket's scrapes, seconds; null when none had one. */
	ageSeconds: number | null;
	/** Scrapes that landed in the bucket; 0 is a gap (no good scrape then). */
	points: number;
	/** A kubelet restart (counter reset) was seen at one of its scrapes. */
	restart: boolean;
	/** A baseline mark was set at one of its scrapes. */
	mark: boolean;
};

/** Bucket lengths to pick from, seconds: round numbers, so the label ("6 s/col") and the span read easily. */
export const bucketSteps: readonly number[] = [1, 2, 3, 5, 6, 10, 15, 20, 30, 60, 120, 180, 300, 600, 900, 1800, 3600];

export type BucketChoice = {
	/** Columns the chart has for buckets. */
	columns: number;
	/** The chart must cover at least this much time, seconds (twice the health threshold in force). */
	minSpanSeconds: number;
	/**
	 * No bucket shorter than this, seconds. Scrapes come one interval plus one request apart, so buckets as short
	 * as the interval would leave empty columns between scrapes that look like gaps.
	 */
	minBucketSeconds: number;
};

/** The shortest step from bucketSteps with columns × step ≥ minSpanSeconds and step ≥ minBucketSeconds. */
export function chooseBucketSeconds({columns, minSpanSeconds, minBucketSeconds}: BucketChoice): number {
	const needed = Math.max(minSpanSeconds / Math.max(1, columns), minBucketSeconds);
	return bucketSteps.find((step) => step >= needed) ?? Math.ceil(needed / 3600) * 3600;
}

/**
 * `columns` buckets of `bucketSeconds` each, oldest first; the last one holds `now` (ms). Points are oldest first
 * (as the feed keeps them); points outside the buckets are left out.
 */
export function bucketHistory(
	points: readonly HistoryPoint[],
	{now, columns, bucketSeconds}: {now: number; columns: number; bucketSeconds: number},
): HistoryBucket[] {
	if (columns <= 0) {
		return [];
	}

	const length = bucketSeconds * 1000;
	const firstStart = Math.floor(now / length) * length - (columns - 1) * length;
	const buckets: HistoryBucket[] = [];
	for (let index = 0; index < columns; index++) {
		buckets.push({start: firstStart + index * length, meanSeconds: null, ageSeconds: null, points: 0, restart: false, mark: false});
	}

	// Newest first, stopping at the first point older than the chart: a long history costs only what is shown.
	for (let index = points.length - 1; index >= 0; index--) {
		const point = points[index]!;
		if (point.at < firstStart) {
			break;
		}

		const bucket = buckets[Math.floor((point.at - firstStart) / length)];
		if (!bucket) {
			continue;
		}

		bucket.points++;
		const mean = point.windowMeanSeconds;
		if (mean !== null) {
			bucket.meanSeconds = bucket.meanSeconds === null ? mean : Math.max(bucket.meanSeconds, mean);
		}

		const age = point.lastSeenAgeSeconds;
		if (age !== null) {
			bucket.ageSeconds = bucket.ageSeconds === null ? age : Math.max(bucket.ageSeconds, age);
		}

		if (point.event === 'restart') {
			bucket.restart = true;
		} else if (point.event === 'mark') {
			bucket.mark = true;
		}
	}

	return buckets;
}
