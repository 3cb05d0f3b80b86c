// Sparklines of the windowed mean duration and the last-seen age over time buckets (the highest value of the
// scrapes in each column), log-scaled (relist times span 1 ms … 10 s), with restarts (R) and baseline marks (B)
// below. The chart covers at least twice the health threshold in force, so a stall and the recovery after it
// are both on screen; the title says the span and how much time one column holds.
import {formatSeconds} from '../../domain/text/format.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import {bucketHistory, chooseBucketSeconds, type HistoryBucket} from '../../domain/history/history-buckets.js';
import type {LogView} from '../../domain/history/bounded-log.js';
import type {HistoryPoint} from '../../domain/types.js';
import {cellWidth, seg, spread, type Line} from '../layout/line.js';
import {sparkBlocks} from '../layout/theme.js';

export type HistoryChartProps = {
	/** One point per scrape, oldest first. */
	history: LogView<HistoryPoint>;
	width: number;
	/** ms since the epoch: the right edge of the chart. */
	now: number;
	/** The health threshold in force, seconds: the chart spans at least twice it. */
	thresholdSeconds: number;
	/** Poll interval, seconds: no column is shorter than two of them. */
	intervalSeconds: number;
	/** Named marks (`pleg-top lab`'s phases): a mark's column shows its letter instead of B. */
	markNames?: readonly NamedMark[];
};

/** A mark set at `at` (ms) with a name; `letter` is what its column shows. */
export type NamedMark = {at: number; letter: string; name: string};

/** Floors of the log scales: values at or under them draw as the lowest block. */
const meanFloorSeconds = 0.001;
const ageFloorSeconds = 1;

const labelWidth = 5; // "mean " / "age  "
/** Room kept right of the sparklines for the longest axis label ("max 1m13.1s"), so the columns depend on the width alone. */
const axisWidth = 11;

/** Level 0 … 7 of `value` on a log scale from `floor` to `max`; null → no block. */
export function sparkLevel(value: number | null, floor: number, max: number): number | null {
	if (value === null) {
		return null;
	}

	if (value <= floor || max <= floor) {
		return 0;
	}

	const level = Math.round((Math.log(value / floor) / Math.log(max / floor)) * (sparkBlocks.length - 1));
	return Math.max(0, Math.min(sparkBlocks.length - 1, level));
}

/** One block per value on a log scale from `floor` to the highest value; `highest` when the caller has it already. */
function sparkline(values: ReadonlyArray<number | null>, floor: number, highest = highestOf(values)): string {
	const max = highest === null ? floor : Math.max(floor, highest);
	let spark = '';
	for (const value of values) {
		const level = sparkLevel(value, floor, max);
		spark += level === null ? ' ' : sparkBlocks[level];
	}

	return spark;
}

/** The highest value, null when there is none; a loop, as a spread into Math.max allocates an argument per column. */
function highestOf(values: ReadonlyArray<number | null>): number | null {
	let highest: number | null = null;
	for (const value of values) {
		if (value !== null) {
			highest = highest === null ? value : Math.max(highest, value);
		}
	}

	return highest;
}

/** "6 s/col", "1m0s/col". */
function bucketLabel(bucketSeconds: number): string {
	return bucketSeconds < 60 ? `${bucketSeconds} s/col` : `${formatGoDuration(bucketSeconds)}/col`;
}

export function historyChartLines({history, width, now, thresholdSeconds, intervalSeconds, markNames = []}: HistoryChartProps): Line[] {
	if (history.length === 0) {
		return [[seg('history: no scrapes yet', 'dim')]];
	}

	let columns = width - labelWidth - 1 - axisWidth;
	let bucketSeconds = 0;
	let shown: HistoryBucket[] = [];
	let series = seriesOf(shown);
	// An axis label longer than the room kept for it (an age of ten hours) costs columns, never the label; the
	// columns then grow longer, so the chart still spans twice the threshold.
	for (let attempt = 0; attempt < 3 && columns >= 4; attempt++) {
		bucketSeconds = chooseBucketSeconds({columns, minSpanSeconds: 2 * thresholdSeconds, minBucketSeconds: 2 * intervalSeconds});
		shown = bucketHistory(history, {now, columns, bucketSeconds});
		series = seriesOf(shown);
		const room = width - labelWidth - 1 - Math.max(cellWidth(series.mean.axis), cellWidth(series.age.axis));
		if (room >= columns) {
			break;
		}

		columns = room;
	}

	if (columns < 4 || shown.length !== columns) {
		return [];
	}

	const span = `last ${formatGoDuration(shown.length * bucketSeconds)}, ${bucketLabel(bucketSeconds)}`;
	const title = [`history · ${span}`, span].find((text) => cellWidth(text) <= width) ?? span;
	const {markers, both, history: fromPrometheus} = markerRow(shown, letterOf(markNames, bucketSeconds));
	const marks = marksLegend(markNames, markers);
	const legend = `log scale · R restart · ${marks}${both ? ' · * both' : ''}${fromPrometheus ? ' · P Prometheus' : ''}`;
	const lines: Line[] = [
		spread([seg(title, 'title')], [seg(legend, 'dim')], width),
		seriesLine('mean', sparkline(series.mean.values, meanFloorSeconds, series.mean.highest), series.mean.axis, shown.length),
		seriesLine('age', sparkline(series.age.values, ageFloorSeconds, series.age.highest), series.age.axis, shown.length),
	];
	if (markers.trim()) {
		lines.push([seg(' '.repeat(labelWidth)), seg(markers.trimEnd(), 'warn')]);
	}

	return lines;
}

/**
 * The mark letters the chart shows, named: a phase whose column a later one took has no letter to explain, and an
 * unnamed mark's B among named ones has. "B mark" when nothing is shown yet, so the key is known before it is pressed.
 */
function marksLegend(markNames: readonly NamedMark[], markers: string): string {
	// split gives one at least, hence the `!`.
	const named = [...new Map(markNames.map((mark) => [mark.letter, mark.name.split(' ')[0]!])).entries()]
		.filter(([letter]) => markers.includes(letter))
		.map(([letter, name]) => `${letter} ${name}`);
	if (named.length === 0 || (markers.includes('B') && !markNames.some((mark) => mark.letter === 'B'))) named.push('B mark');
	return named.join(' · ');
}

type Series = {values: Array<number | null>; highest: number | null; axis: string};

/** Each series' values, highest value and axis label, once per bucketing: the room for the axis and the rows both use them. */
function seriesOf(buckets: HistoryBucket[]): {mean: Series; age: Series} {
	const means: Array<number | null> = [];
	const ages: Array<number | null> = [];
	for (const bucket of buckets) {
		means.push(bucket.meanSeconds);
		ages.push(bucket.ageSeconds);
	}

	const mean = highestOf(means);
	const age = highestOf(ages);
	return {
		mean: {values: means, highest: mean, axis: axisLabel(mean, formatSeconds)},
		// Whole seconds, as the last-seen gauge has them.
		age: {values: ages, highest: age, axis: axisLabel(age, (seconds) => formatGoDuration(Math.floor(seconds)))},
	};
}

/**
 * R restart, B mark, * both, P the end of the history from Prometheus, one character per column; `both` when any
 * column has the two, `history` when a P is shown.
 */
function markerRow(
	buckets: HistoryBucket[],
	letter: (bucket: HistoryBucket) => string,
): {markers: string; both: boolean; history: boolean} {
	let markers = '';
	let both = false;
	let history = false;
	for (const bucket of buckets) {
		both ||= bucket.restart && bucket.mark;
		const end = bucket.historyEnd && !bucket.restart && !bucket.mark;
		history ||= end;
		markers += bucket.restart && bucket.mark ? '*' : bucket.restart ? 'R' : bucket.mark ? letter(bucket) : end ? 'P' : ' ';
	}

	return {markers, both, history};
}

/** The letter of the last named mark inside the bucket's time, else B. */
function letterOf(marks: readonly NamedMark[], bucketSeconds: number): (bucket: HistoryBucket) => string {
	return (bucket) => marks.findLast((mark) => mark.at >= bucket.start && mark.at < bucket.start + bucketSeconds * 1000)?.letter ?? 'B';
}

function axisLabel(highest: number | null, format: (seconds: number) => string): string {
	return highest === null ? 'max —' : `max ${format(highest)}`;
}

function seriesLine(label: string, spark: string, axis: string, columns: number): Line {
	return [seg(label.padEnd(labelWidth), 'label'), seg(spark.padEnd(columns), 'value'), seg(' '), seg(axis, 'dim')];
}
