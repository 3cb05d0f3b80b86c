// Time buckets for the history chart: each column is a fixed span of time holding the highest value of the
// scrapes in it, so a pane 80 columns wide covers minutes (twice the health threshold) rather than one
// column per scrape, and a one-scrape spike or a stall's peak age is never averaged away.
// Pure: `now` comes in as an argument.
import type {LogView} from './bounded-log.js';
import type {HistoryPoint} from '../types.js';

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
	/** The history from Prometheus (--history-from) ends in it. */
	historyEnd: boolean;
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
 * (as the feed keeps them); points outside the buckets are left out. Read newest first, stopping at the first point
 * before the chart: a point older than one before the chart is left out even if a clock step put it inside.
 *
 * The same answer as folding every shown point each frame, at the cost of the newest column or two: a column that
 * ends before the newest point can gain no point (they come in time order), so its fold is kept per bucket length
 * and reused while the log it came from is the one being read (see {@link Memo}).
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
	const chart = {firstStart, length, columns};
	const fold = scratchFor(columns);
	const memo = memos.get(length);
	const reusable =
		memo !== undefined && memo.coveredFrom <= firstStart && firstStart <= memo.finalEnd && memo.finalEnd <= firstStart + columns * length;
	let from = reusable ? memo.finalEnd : firstStart;
	let scan = foldNewest(points, from, chart, fold);
	if (reusable && (!scan.monotone || scan.stop !== memo.boundary)) {
		// Another log, a replaced past, or a clock step back: fold it all.
		from = firstStart;
		scan = foldNewest(points, from, chart, fold);
	}

	const oldestAt = points.at(0)?.at ?? Infinity;
	const kept = from === firstStart ? null : memo!; // set unless firstStart
	if (kept && oldestAt >= firstStart) {
		// Columns the log has dropped points of (it keeps the newest only): folded again from its front.
		foldOldest(points, Math.min(from, (Math.floor(oldestAt / length) + 1) * length), chart, fold);
	}

	const buckets: HistoryBucket[] = [];
	for (let column = 0; column < columns; column++) {
		const start = firstStart + column * length;
		if (kept && start < from && start > oldestAt) {
			const memoed = kept.columns.get(start) ?? emptyColumn;
			buckets.push(toBucket(start, memoed.mean, memoed.age, memoed.points, memoed.seen));
		} else {
			buckets.push(toBucket(start, fold.means[column]!, fold.ages[column]!, fold.counts[column]!, fold.events[column]!)); // in bounds
		}
	}

	remember(points, {chart, from, kept, scan, fold});
	return buckets;
}

/** How the newest points were read: where the read stopped, the newest point before `finalEnd`, and their order. */
type NewestScan = {
	/** The first point (newest first) before `from`; null when the log ran out first. */
	stop: HistoryPoint | null;
	/** Every point read was no later than the one after it. */
	monotone: boolean;
	/** The newest point's column start (capped to the chart's end): the columns before it can gain nothing more. */
	finalEnd: number;
	/** The newest point before finalEnd, the stop included; null when there is none. */
	boundary: HistoryPoint | null;
};

type Chart = {firstStart: number; length: number; columns: number};

/** Clears the fold and folds the points from the newest back to the first one before `from`. */
function foldNewest(points: LogView<HistoryPoint>, from: number, chart: Chart, fold: Scratch): NewestScan {
	fold.counts.fill(0);
	fold.events.fill(0);
	const newest = points.at(points.length - 1);
	const chartEnd = chart.firstStart + chart.columns * chart.length;
	const finalEnd = newest === undefined ? from : Math.min(chartEnd, Math.max(from, Math.floor(newest.at / chart.length) * chart.length));
	let monotone = true;
	let boundary: HistoryPoint | null = null;
	let later = Infinity;
	for (let index = points.length - 1; index >= 0; index--) {
		const point = points.at(index)!; // in bounds
		if (point.at > later) monotone = false;
		later = point.at;
		if (boundary === null && point.at < finalEnd) boundary = point;
		if (point.at < from) return {stop: point, monotone, finalEnd, boundary};
		foldPoint(point, chart, fold);
	}

	return {stop: null, monotone, finalEnd, boundary};
}

/** Folds the points from the oldest up to the first at or after `end`: the columns the log's front cut into. */
function foldOldest(points: LogView<HistoryPoint>, end: number, chart: Chart, fold: Scratch): void {
	for (let index = 0; index < points.length; index++) {
		const point = points.at(index)!; // in bounds
		if (point.at >= end) return;
		foldPoint(point, chart, fold);
	}
}

function foldPoint(point: HistoryPoint, {firstStart, length, columns}: Chart, fold: Scratch): void {
	const column = Math.floor((point.at - firstStart) / length);
	if (!(column >= 0 && column < columns)) {
		return;
	}

	const {means, ages, counts, events} = fold;
	counts[column] = counts[column]! + 1; // in bounds
	let seen = events[column]!; // in bounds
	const mean = point.windowMeanSeconds;
	if (mean !== null) {
		means[column] = seen & meanBit ? Math.max(means[column]!, mean) : mean; // in bounds
		seen |= meanBit;
	}

	const age = point.lastSeenAgeSeconds;
	if (age !== null) {
		ages[column] = seen & ageBit ? Math.max(ages[column]!, age) : age; // in bounds
		seen |= ageBit;
	}

	events[column] = seen | (point.event === null ? 0 : eventBits[point.event]);
}

function toBucket(start: number, mean: number, age: number, points: number, seen: number): HistoryBucket {
	return {
		start,
		meanSeconds: seen & meanBit ? mean : null,
		ageSeconds: seen & ageBit ? age : null,
		points,
		restart: (seen & restartBit) !== 0,
		mark: (seen & markBit) !== 0,
		historyEnd: (seen & historyBit) !== 0,
	};
}

const restartBit = 1;
const markBit = 2;
const meanBit = 4;
const ageBit = 8;
const historyBit = 16;
const eventBits = {restart: restartBit, mark: markBit, history: historyBit} as const;

/** A final column's fold, as the scratch arrays hold it. */
type ColumnFold = {mean: number; age: number; points: number; seen: number};
const emptyColumn: ColumnFold = {mean: 0, age: 0, points: 0, seen: 0};

/**
 * The final columns of one bucket length, folded. It holds for a log whose newest point before `finalEnd` is
 * `boundary` and whose points are in time order (checked when it is made and for each later point): such a log
 * is the one the memo was made from, grown at its end, maybe cut at its front (those columns are folded again).
 */
type Memo = {
	/** Columns that start before this are final: every later point is at or after the newest one. */
	finalEnd: number;
	/** The memo holds every final column from here on. */
	coveredFrom: number;
	boundary: HistoryPoint | null;
	/** The final columns that hold points, by start. */
	columns: Map<number, ColumnFold>;
};

/** By bucket length: a frame may try two lengths (an axis label costing columns), a resize brings another. */
const memos = new Map<number, Memo>();
const maxMemos = 4;

function remember(
	points: LogView<HistoryPoint>,
	{chart, from, kept, scan, fold}: {chart: Chart; from: number; kept: Memo | null; scan: NewestScan; fold: Scratch},
): void {
	const {firstStart, length} = chart;
	// Nothing final inside the chart (no scrape for its whole span): nothing to keep, and no order to check.
	if (scan.finalEnd <= firstStart || !scan.monotone || (!kept && !inTimeOrder(points))) {
		memos.delete(length);
		return;
	}

	// A kept memo is brought up to date in place: a frame adds a column now and then and drops one that scrolled out.
	const memo: Memo = kept ?? {finalEnd: firstStart, coveredFrom: firstStart, boundary: null, columns: new Map()};
	for (const start of memo.columns.keys()) {
		if (start < firstStart) memo.columns.delete(start);
	}

	for (let start = from; start < scan.finalEnd; start += length) {
		const column = (start - firstStart) / length;
		// Below: in bounds.
		if (fold.counts[column]! > 0) {
			memo.columns.set(start, {
				mean: fold.means[column]!, // in bounds
				age: fold.ages[column]!, // in bounds
				points: fold.counts[column]!, // in bounds
				seen: fold.events[column]!, // in bounds
			});
		}
	}

	memo.finalEnd = scan.finalEnd;
	memo.coveredFrom = firstStart;
	memo.boundary = scan.boundary;
	memos.delete(length);
	if (memos.size >= maxMemos) memos.delete(memos.keys().next().value!); // size > 0
	memos.set(length, memo);
}

function inTimeOrder(points: LogView<HistoryPoint>): boolean {
	for (let index = 1; index < points.length; index++) {
		if (points.at(index)!.at < points.at(index - 1)!.at) return false; // in bounds
	}

	return true;
}

type Scratch = {means: Float64Array; ages: Float64Array; counts: Uint32Array; events: Uint8Array};

/**
 * Per-column work arrays, kept between calls (a frame asks once, for one width); nothing of them is returned. Typed
 * arrays and a bit in `events` for "has a mean / an age yet": a max written into a field that also holds null
 * boxed a number per point, a cost seen in every frame's profile.
 */
let scratch: Scratch | null = null;

function scratchFor(columns: number): Scratch {
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
