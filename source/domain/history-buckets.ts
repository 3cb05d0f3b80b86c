// Time buckets for the history chart: each column is a fixed span of time holding the highest value of the
// scrapes in it, so a pane 80 columns wide covers minutes (twice the health threshold) rather than one
// column per scrape, and a one-scrape spike or a stall's peak age is never averaged away.
// Pure: `now` comes in as an argument.
import type {LogView} from './bounded-log.js';
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
	points: LogView<HistoryPoint>,
	{now, columns, bucketSeconds}: {now: number; columns: number; bucketSeconds: number},
): HistoryBucket[] {
	if (columns <= 0) {
		return [];
	}

	const length = bucketSeconds * 1000;
	const firstStart = Math.floor(now / length) * length - (columns - 1) * length;
	// Folded into typed arrays, a bit in `events` telling whether a column has a mean or an age yet, and made into
	// objects once per column: a max written into a field that also holds null boxed a number per point (0.15 ms
	// a frame for the 3,600 points of six minutes at 100 ms ticks, from a profile).
	const {means, ages, counts, events} = scratchFor(columns);
	counts.fill(0);
	events.fill(0);
	// Newest first, stopping at the first point older than the chart: a long history costs only what is shown.
	for (let index = points.length - 1; index >= 0; index--) {
		const point = points.at(index)!;
		if (point.at < firstStart) {
			break;
		}

		const column = Math.floor((point.at - firstStart) / length);
		if (!(column < columns)) {
			continue;
		}

		counts[column] = counts[column]! + 1;
		let seen = events[column]!;
		const mean = point.windowMeanSeconds;
		if (mean !== null) {
			means[column] = seen & meanBit ? Math.max(means[column]!, mean) : mean;
			seen |= meanBit;
		}

		const age = point.lastSeenAgeSeconds;
		if (age !== null) {
			ages[column] = seen & ageBit ? Math.max(ages[column]!, age) : age;
			seen |= ageBit;
		}

		events[column] = seen | (point.event === 'restart' ? restartBit : point.event === 'mark' ? markBit : 0);
	}

	const buckets: HistoryBucket[] = [];
	for (let column = 0; column < columns; column++) {
		const seen = events[column]!;
		buckets.push({
			start: firstStart + column * length,
			meanSeconds: seen & meanBit ? means[column]! : null,
			ageSeconds: seen & ageBit ? ages[column]! : null,
			points: counts[column]!,
			restart: (seen & restartBit) !== 0,
			mark: (seen & markBit) !== 0,
		});
	}

	return buckets;
}

const restartBit = 1;
const markBit = 2;
const meanBit = 4;
const ageBit = 8;

/** Per-column work arrays, kept between calls (a frame asks once, for one width); nothing of them is returned. */
let scratch: {means: Float64Array; ages: Float64Array; counts: Uint32Array; events: Uint8Array} | null = null;

function scratchFor(columns: number): NonNullable<typeof scratch> {
	if (!scratch || scratch.means.length !== columns) {
		scratch = {
			means: new Float64Array(columns),
			ages: new Float64Array(columns),
			counts: new Uint32Array(columns),
			events: new Uint8Array(columns),
		};
	}

	return scratch;
}
