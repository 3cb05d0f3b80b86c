// The node's past from Prometheus, as the feed holds its own (--history-from): the history chart's points and the
// window's first scrape, so a paged operator sees the last 15 minutes at once. Prometheus windows the chart
// (rate of _sum over rate of _count: increase over the range, as histogram windows must be read); the window's start
// is the kubelet's own counters as Prometheus stored them, so the live scrapes difference against them exactly as
// against an earlier scrape of their own: no relist counted twice, no jump. Pure: every time comes in the answers.
import {parsePlegSample} from '../exposition/parse.js';
import {families} from '../exposition/names.js';
import {logAt, logSize, logToArray, dropFromLog, type BoundedLog} from './bounded-log.js';
import type {HistoryPoint, PrehistoryInfo, Scrape} from '../types.js';

/** One series of a range answer: its points as [Unix seconds, value]. */
export type RangeSeries = {metric: Record<string, string>; values: ReadonlyArray<readonly [number, number]>};

/** Prometheus' answers to the history queries of one node (sources/prometheus/range-history.ts asks them). */
export type HistoryAnswers = {
	/** rate(_sum[R]) / rate(_count[R]) of the relist duration, one point per step: the chart's windowed mean. */
	mean: RangeSeries[];
	/** timestamp(gauge) − gauge of the last-seen gauge, one point per step: the age at Prometheus' scrape. */
	age: RangeSeries[];
	/** The relist, interval, discard and CRI counters at the window's start: one point per series. */
	counters: RangeSeries[];
	/** timestamp() of the relist count at the window's start: when Prometheus scraped those counters. */
	countersAt: RangeSeries[];
};

export type Prehistory = PrehistoryInfo & {
	/** Oldest first, at the step times. */
	history: HistoryPoint[];
	/** The kubelet's counters as Prometheus stored them one --window before now, at their scrape time; null without. */
	windowStart: Scrape | null;
};

/** No history: `error` says why (already sanitized and redacted by the source). */
export function prehistoryFailed(url: string, error: string): Prehistory {
	return {url, points: 0, startAt: null, endAt: null, error, history: [], windowStart: null};
}

/** The chart points and the window's start from the answers; an answer with no series of the node is an error. */
export function prehistoryFrom(answers: HistoryAnswers, {url, node}: {url: string; node: string}): Prehistory {
	const history = historyPoints(answers.mean[0], answers.age[0]);
	const windowStart = windowStartScrape(answers.counters, answers.countersAt);
	if (history.length === 0 && windowStart === null) {
		return prehistoryFailed(url, `Prometheus at ${url} has no ${families.relistDuration} or ${families.lastSeen} series for node ${node}`);
	}

	return {
		url,
		points: history.length,
		startAt: history[0]?.at ?? null,
		endAt: history.at(-1)?.at ?? null,
		error: null,
		history,
		windowStart,
	};
}

/** One point per step that has a mean or an age, oldest first; the steps of the two answers are the same times. */
function historyPoints(mean: RangeSeries | undefined, age: RangeSeries | undefined): HistoryPoint[] {
	const byTime = new Map<number, HistoryPoint>();
	const pointAt = (seconds: number): HistoryPoint => {
		const at = Math.round(seconds * 1000);
		const point = byTime.get(at) ?? {at, windowMeanSeconds: null, lastSeenAgeSeconds: null, event: null};
		byTime.set(at, point);
		return point;
	};

	for (const [seconds, value] of mean?.values ?? []) {
		// rate() / rate() is NaN or infinite with no relist in the range: no mean, as the live window says.
		if (Number.isFinite(value) && value >= 0) pointAt(seconds).windowMeanSeconds = value;
	}

	for (const [seconds, value] of age?.values ?? []) {
		// A gauge of 0 (no relist yet) gives the scrape time itself: no age, as the live reading says.
		if (Number.isFinite(value) && value >= 0 && value < seconds) pointAt(seconds).lastSeenAgeSeconds = value;
	}

	const points = [...byTime.values()].sort((a, b) => a.at - b.at);
	// The chart marks where Prometheus' part ends (P).
	if (points.length > 0) points[points.length - 1]!.event = 'history'; // in bounds
	return points;
}

/** The labels that tell one target's series apart from another's (two jobs scraping one kubelet). */
function targetKey(metric: Record<string, string>): string {
	const {__name__: _name, le: _le, operation_type: _operation, ...target} = metric;
	return JSON.stringify(Object.entries(target).sort(([a], [b]) => a.localeCompare(b)));
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const bucketBound = /^(?:[+-]?Inf|[0-9.eE+-]+)$/;
const operationType = /^[a-z_]+$/;

/**
 * The window's first scrape: the counters of one target written back as exposition lines and read by the one
 * reader, so every family is read as from the kubelet. Only the name, `le` and `operation_type` are written, each
 * checked first: label values are the scraped target's to choose. Null when there is no relist count to start from.
 */
function windowStartScrape(counters: RangeSeries[], countersAt: RangeSeries[]): Scrape | null {
	const stamp = countersAt.find((series) => series.values.length > 0);
	if (!stamp) return null;
	const target = targetKey(stamp.metric);
	const lines: string[] = [];
	for (const series of counters) {
		const value = series.values.at(-1)?.[1];
		const name = series.metric['__name__'] ?? '';
		if (value === undefined || targetKey(series.metric) !== target || !metricName.test(name)) continue;
		const {le, operation_type: operation} = series.metric;
		if ((le !== undefined && !bucketBound.test(le)) || (operation !== undefined && !operationType.test(operation))) continue;
		const labels = [operation === undefined ? null : `operation_type="${operation}"`, le === undefined ? null : `le="${le}"`]
			.filter(Boolean)
			.join(',');
		lines.push(`${name}${labels ? `{${labels}}` : ''} ${value}`);
	}

	try {
		const sample = parsePlegSample(`${lines.join('\n')}\n`);
		return sample.relistDuration ? {at: Math.round(stamp.values.at(-1)![1] * 1000), sample, latencyMs: 0} : null; // non-empty
	} catch {
		// Counters the reader cannot take (a family cut short by the target checks) give no window start.
		return null;
	}
}

/** `before`, then the items of `log`: a new log (once, at start: a copy is cheap then). */
export function joined<T>(before: readonly T[], log: BoundedLog<T>): BoundedLog<T> {
	const items = [...before, ...logToArray(log)];
	return {items, start: 0, end: items.length};
}

/** The chart's history with Prometheus' points older than its first put before it, the newest `limit` kept. */
export function historyWith(points: readonly HistoryPoint[], history: BoundedLog<HistoryPoint>, limit: number): BoundedLog<HistoryPoint> {
	const firstLiveAt = logAt(history, 0)?.at ?? Infinity;
	const all = joined(
		points.filter((point) => point.at < firstLiveAt),
		history,
	);
	return dropFromLog(all, logSize(all) - limit);
}

/** Why the chart has no history from Prometheus, when it was asked for and none came: a line under unavailable. */
export function prehistoryNote(info: PrehistoryInfo | null | undefined): string[] {
	return info?.error ? [`no history: ${info.error}`] : [];
}
