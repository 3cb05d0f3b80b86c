// One table row per node: what the overview shows of each node's RowView, the `slow` flag (a node far slower than the
// rest), and the orders the table can be sorted in (worst first by default) and the name filter.
import type {Failure, Quantile} from '../domain/types.js';
import {ageBand, countdownSecondsLeft, type AgeBand, type Band} from '../domain/health/health.js';
import {rowViews, scrapeAges, type FeedReader, type OverviewState, type RowView} from '../domain/fleet/overview-state.js';

/**
 * Where a row ranks, worst first: PLEG unhealthy, and critical with NotReady due now; critical (half the threshold or
 * more, by the time left); a failing read (error) or no verdict (unknown, stale); a warning (lagging, not ready); slow
 * (p99 far above the other nodes'); ok.
 */
export type RowState = 'unhealthy' | 'critical' | 'error' | 'unknown' | 'warn' | 'slow' | 'ok';

/** What the table shows of one node (built here, drawn by panes/overview-table.tsx). */
export type OverviewTableRow = {
	name: string;
	ready: 'True' | 'False' | 'Unknown' | null;
	kubeletVersion: string | null;
	/** The last-seen age the kubelet reported at the last good read, s (what the status is judged on). */
	lastSeenAgeSeconds: number | null;
	/** How long ago that read was, s: pleg-top's polling gap, shown beside the age, never judged. */
	readAgeSeconds: number | null;
	/** Estimated seconds left before the kubelet's rule makes the node NotReady, negative once past; null in the ok band. */
	notReadyInSeconds: number | null;
	/**
	 * The same in whole seconds as shown (health.ts countdownSecondsLeft of the age now), so that last seen, read and
	 * NotReady in add up to the threshold; 0 or less: NotReady is due now.
	 */
	notReadyLeftSeconds: number | null;
	meanSeconds: number | null;
	p99: Quantile | null;
	ratePerSecond: number | null;
	discardEvents: number | null;
	state: RowState;
	/** One word for the state, as scripts read it (--once JSON `status`): "unhealthy", "critical", "error", "lagging", "ok" … */
	word: string;
	/** Why a read failed, in a few words ("403 nodes/proxy", "kubelet unreachable"): the status column shows it. */
	reason: string | null;
	/** Window p99 ≥ 10 × the median of the other nodes' (overview-rows.ts flagSlow). */
	slow: boolean;
	stale: boolean;
	gone: boolean;
};

/** A table row (the fields the table shows) and the failure behind an error status. */
export type OverviewRow = OverviewTableRow & {
	failure: Failure | null;
	/** The band of the age at the last good read (unknown: no basis, a failing read, stale, gone). */
	band: Band;
};

/** A node is `slow` when its window p99 is at least this many times the median p99 of the other nodes. */
const slowFactor = 10;

/** The median needs at least this many other nodes with a p99: one neighbour is not a fleet. */
const slowMinOthers = 2;

/** What a row is judged against besides the node's own figures: the clock and the per-node polling cycle. */
export type RowContext = {
	/** The frame's time, ms. */
	now: number;
	/** How often each node is meant to be read, ms (the engine's effective interval). */
	cycleMs: number;
};

/**
 * A read older than this is stale: the node's figures are unknown rather than judged on an age pleg-top's own gap
 * made up. Two cycles (one late answer is normal at the rate bound) and 5 s of margin for the request itself.
 */
export function staleAfterMs(cycleMs: number): number {
	return 2 * cycleMs + 5000;
}

export function overviewRow(view: RowView, context: RowContext): OverviewRow {
	const {figures, status} = view;
	const ready = figures?.ready?.status ?? view.node?.ready?.status ?? null;
	const failure = status.failure;
	const window = figures?.window ?? null;
	const ages = scrapeAges(view, context.now);
	const band = bandAtScrape(view, ages.atScrapeSeconds);
	const threshold = figures?.constants.threshold.seconds ?? null;
	// The countdown is an estimate from the last read on; only past the ok band, as the one-node verdict's. The age
	// now is the age at the read plus the time since: the one-node screen's now − gauge.
	const counting = (band === 'warn' || band === 'critical') && threshold !== null && failure === null && view.goneSince === null;
	const ageNow = counting ? ages.atScrapeSeconds! + (ages.sinceScrapeSeconds ?? 0) : null; // counting: not null
	const notReadyIn = ageNow === null ? null : threshold! - ageNow; // counting: not null
	const notReadyLeft = ageNow === null ? null : countdownSecondsLeft(ageNow, threshold!); // counting: not null
	const cycleMs = Math.max(context.cycleMs, view.readEveryMs ?? 0);
	const judged = judge(view, band, ages.sinceScrapeSeconds, ready, cycleMs, notReadyLeft !== null && notReadyLeft <= 0);
	// The band scripts and --fail-on read: the age's at the read, unknown whenever the row cannot be judged now.
	const judgeable = judged.state !== 'unknown' && judged.state !== 'error';
	// One object per row and frame, no spreads: a big fleet builds thousands a frame.
	return {
		name: view.name,
		ready,
		kubeletVersion: figures?.kubeletVersion ?? view.node?.kubeletVersion ?? null,
		lastSeenAgeSeconds: ages.atScrapeSeconds,
		readAgeSeconds: ages.sinceScrapeSeconds,
		notReadyInSeconds: notReadyIn,
		notReadyLeftSeconds: notReadyLeft,
		meanSeconds: window?.meanSeconds ?? null,
		p99: window?.p99 ?? null,
		ratePerSecond: window?.ratePerSecond ?? null,
		discardEvents: window?.discardEvents ?? null,
		stale: failure !== null && figures !== null,
		gone: view.goneSince !== null,
		slow: false,
		failure,
		state: judged.state,
		word: judged.word,
		reason: judged.reason,
		band: band !== null && (band === 'unhealthy' || judgeable) ? band : 'unknown',
	};
}

/**
 * The read's age as the table shows it, whole seconds: the whole seconds of last seen + read less last seen's, so
 * that last seen, read and NotReady in (the threshold − the whole seconds of that sum) add up to the threshold. It
 * is within a second of the read's age; without a last seen, the read's own whole seconds.
 */
export function shownReadSeconds(lastSeenSeconds: number | null, readSeconds: number | null): number | null {
	if (readSeconds === null) return null;
	return lastSeenSeconds === null ? Math.floor(readSeconds) : Math.floor(lastSeenSeconds + readSeconds) - Math.floor(lastSeenSeconds);
}

/** The band of the age the kubelet reported at the last read (never of the time since); null with no basis. */
function bandAtScrape(view: RowView, atScrape: number | null): AgeBand | null {
	const {figures} = view;
	if (figures === null) return null;
	if (atScrape !== null) return ageBand(atScrape, figures.constants);
	// A gauge of 0: the kubelet has yet to relist successfully, unhealthy by its own rule.
	return figures.lastSeen.neverSucceeded ? 'unhealthy' : null;
}

function judge(
	view: RowView,
	band: AgeBand | null,
	sinceRead: number | null,
	ready: OverviewRow['ready'],
	cycleMs: number,
	due: boolean,
): {state: RowState; word: string; reason: string | null} {
	const {figures, status} = view;
	if (view.goneSince !== null) {
		return {state: 'unknown', word: 'gone', reason: null};
	}

	// The node list's word needs no read: a node the kubelet says is NotReady ranks with the unhealthy from the
	// first frame, in the kubelet's own words, whether its metrics are read, failing or not read yet.
	const notReady = ready === 'False' ? {state: 'unhealthy' as const, word: 'not ready', reason: view.node?.ready?.message ?? null} : null;
	// A failed read is the same error whether or not a good read came before it: the figures of that good read
	// (shown dimmed) are old, and an age extrapolated from them says nothing about the kubelet now.
	if (status.failure) {
		if (notReady !== null) return notReady;
		// A node Prometheus knows but has no PLEG series of (its kubelet not scraped): no verdict, and why.
		const state = noSeries(status.failure) ? 'unknown' : 'error';
		return {state, word: state, reason: failureWord(status.failure)};
	}

	if (figures === null) {
		return notReady ?? {state: 'unknown', word: 'waiting', reason: null};
	}

	// Unhealthy by the kubelet's own figure at the read: the last word known, however old the read.
	if (band === 'unhealthy') {
		return {state: 'unhealthy', word: 'unhealthy', reason: null};
	}

	if (notReady !== null) return notReady;

	if (sinceRead !== null && sinceRead * 1000 > staleAfterMs(cycleMs)) {
		return {state: 'unknown', word: 'stale', reason: null};
	}

	// Past the threshold by the estimate (the age at the read plus the time since): critical whatever the band at the
	// read, ranked with the unhealthy until the next read says which it is.
	if (band === 'critical' || due) {
		return {state: 'critical', word: 'critical', reason: null};
	}

	if (ready === 'Unknown') {
		return {state: 'warn', word: 'not ready', reason: null};
	}

	if (band === 'warn') {
		return {state: 'warn', word: 'lagging', reason: null};
	}

	return band === null ? {state: 'unknown', word: 'unknown', reason: null} : {state: 'ok', word: 'ok', reason: null};
}

/** Prometheus answered, but with no PLEG series of the node. */
function noSeries(failure: Failure): boolean {
	return failure.kind === 'not-found' && /no PLEG series/.test(failure.summary);
}

/** Why a read failed, in a few words for the status column: "403 nodes/proxy", "kubelet unreachable", "timeout". */
export function failureWord(failure: Failure): string {
	const {summary} = failure;
	switch (failure.kind) {
		case 'forbidden': {
			const resource = /\b(?:get|list) (nodes(?:\/[a-z]+)?)\b/.exec(summary)?.[1];
			return resource ? `403 ${resource}` : '403 forbidden';
		}

		case 'unauthorized': {
			return /\brejected\b/.test(summary) ? '401 unauthorized' : 'credentials failed';
		}

		case 'not-found': {
			if (/does not exist/.test(summary)) return '404 no such node';
			if (noSeries(failure)) return /not scraped/.test(summary) ? 'not scraped' : 'no series';
			return '404 not found';
		}

		case 'kubelet-unreachable': {
			return 'kubelet unreachable';
		}

		case 'timeout': {
			return 'timeout';
		}

		case 'network': {
			return /cut off/.test(summary) ? 'answer cut off' : 'network error';
		}

		case 'tls': {
			return 'TLS error';
		}

		case 'http': {
			// The API server's Retry-After (a 429): the fleet waits, nothing is wrong with the node.
			if (failure.retryAfterSeconds !== undefined) return 'throttled';
			const code = /\banswered (\d{3})\b/.exec(summary)?.[1];
			return code ? `HTTP ${code}` : 'HTTP error';
		}

		case 'parse': {
			return 'unparsable';
		}

		case 'config': {
			return 'config error';
		}
	}
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
	return sortedMedian(
		[...values].sort((a, b) => a - b),
		-1,
	);
}

/** The median of ascending `sorted` without its element at `skip` (-1: skip none), in O(1). */
function sortedMedian(sorted: readonly number[], skip: number): number | null {
	const count = skip < 0 ? sorted.length : sorted.length - 1;
	if (count <= 0) return null;
	const at = (k: number) => sorted[skip < 0 || k < skip ? k : k + 1]!; // in bounds
	const middle = Math.floor(count / 2);
	return count % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

/** The first index of `value` in ascending `sorted` (present). */
function lowerBound(sorted: readonly number[], value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		// Below: in bounds.
		if (sorted[mid]! < value) low = mid + 1;
		else high = mid;
	}

	return low;
}

/** A p99 read now: listed and its last read good (stale figures are old, a gone node's older). */
function currentP99(row: OverviewRow): number | null {
	return row.gone || row.failure !== null ? null : (row.p99?.seconds ?? null);
}

/**
 * Each row with `slow` set when its window p99 is ≥ slowFactor × the median p99 of the other nodes that have one
 * now (at least slowMinOthers of them). A slow node that is otherwise ok shows as `slow`; any other keeps its state
 * (it already ranks higher) but carries the flag. The p99s are sorted once: the median without one node is read
 * off that order, so a frame of N nodes costs O(N log N), not a sort per row.
 */
export function flagSlow(rows: readonly OverviewRow[]): OverviewRow[] {
	const p99s = rows.map(currentP99);
	const sorted = p99s.filter((p99): p99 is number => p99 !== null).sort((a, b) => a - b);
	if (sorted.length - 1 < slowMinOthers) return [...rows];
	return rows.map((row, index) => {
		const own = p99s[index];
		if (own === null || own === undefined) return row;
		const middle = sortedMedian(sorted, lowerBound(sorted, own));
		if (middle === null || middle <= 0 || own < slowFactor * middle) return row;
		return row.state === 'ok' ? {...row, slow: true, state: 'slow', word: 'slow'} : {...row, slow: true};
	});
}

/** The rows of `views`, slow ones flagged, in no particular order. */
export function overviewRows(views: readonly RowView[], context: RowContext): OverviewRow[] {
	return flagSlow(views.map((view) => overviewRow(view, context)));
}

/** Worst first: unhealthy, critical, failing reads and unknowns, warnings, slow, ok. */
const rank: Record<RowState, number> = {unhealthy: 0, critical: 1, error: 2, unknown: 2, warn: 3, slow: 4, ok: 5};

/** Whether the row's countdown has run out: NotReady is due now (pleg-top's estimate until the next read). */
export function notReadyDue(row: Pick<OverviewTableRow, 'state' | 'notReadyLeftSeconds'>): boolean {
	return row.state === 'critical' && row.notReadyLeftSeconds !== null && row.notReadyLeftSeconds <= 0;
}

/** The row's rank: its state's, a critical one due now with the unhealthy. */
function rankOf(row: OverviewRow): number {
	return notReadyDue(row) ? rank.unhealthy : rank[row.state];
}

/** Smaller first, absent last. */
function ascending(a: number | null, b: number | null): number {
	return (a ?? Infinity) - (b ?? Infinity) || 0;
}

/**
 * Worst first: by rank (gone at the end); critical ones by the time left before NotReady; else by name, so rows of
 * equal rank keep their places from frame to frame instead of reshuffling with every read's age.
 */
function compareRows(a: OverviewRow, b: OverviewRow): number {
	return (
		Number(a.gone) - Number(b.gone) ||
		rankOf(a) - rankOf(b) ||
		(a.state === 'critical' && b.state === 'critical' && !notReadyDue(a) && !notReadyDue(b)
			? ascending(a.notReadyInSeconds, b.notReadyInSeconds)
			: 0) ||
		a.name.localeCompare(b.name)
	);
}

/** The columns the table can be sorted by, in the order `s` steps through them. */
export const sortColumns = [
	'status',
	'node',
	'ready',
	'kubelet',
	'last-seen',
	'read',
	'notready-in',
	'mean',
	'p99',
	'rate',
	'discards',
] as const;
export type SortColumn = (typeof sortColumns)[number];

/** The column and whether its usual order (sortKeys' `first`) is reversed (`S`). */
export type SortOrder = {column: SortColumn; reversed: boolean};

export const defaultSort: SortOrder = {column: 'status', reversed: false};

type SortKey = {
	/** The value sorted on; null always sorts last. */
	value(row: OverviewRow): number | string | null;
	/** The usual order: the largest value first (figures, trouble), or the smallest (names, versions). */
	largestFirst: boolean;
	/** The usual order and its reverse, in words. */
	first: [string, string];
};

const readyTrouble: Record<'True' | 'Unknown' | 'False', number> = {True: 0, Unknown: 1, False: 2};

/** "v1.28.4" as a number that orders versions: 1.28.4 → 1_028_004. */
function versionValue(version: string | null): number | null {
	const match = version === null ? null : /(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
	return match ? Number(match[1]) * 1_000_000 + Number(match[2]) * 1000 + Number(match[3] ?? 0) : null;
}

const sortKeys: Record<SortColumn, SortKey> = {
	status: {value: (row) => -rankOf(row), largestFirst: true, first: ['worst first', 'best first']},
	node: {value: (row) => row.name, largestFirst: false, first: ['A → Z', 'Z → A']},
	ready: {
		value: (row) => (row.ready === null ? null : readyTrouble[row.ready]),
		largestFirst: true,
		first: ['not ready first', 'ready first'],
	},
	kubelet: {value: (row) => versionValue(row.kubeletVersion), largestFirst: false, first: ['oldest first', 'newest first']},
	'last-seen': {value: (row) => row.lastSeenAgeSeconds, largestFirst: true, first: ['oldest first', 'newest first']},
	read: {value: (row) => row.readAgeSeconds, largestFirst: true, first: ['oldest first', 'newest first']},
	'notready-in': {value: (row) => row.notReadyInSeconds, largestFirst: false, first: ['soonest first', 'latest first']},
	mean: {value: (row) => row.meanSeconds, largestFirst: true, first: ['largest first', 'smallest first']},
	p99: {value: (row) => row.p99?.seconds ?? null, largestFirst: true, first: ['largest first', 'smallest first']},
	rate: {value: (row) => row.ratePerSecond, largestFirst: true, first: ['largest first', 'smallest first']},
	discards: {value: (row) => row.discardEvents, largestFirst: true, first: ['largest first', 'smallest first']},
};

/** True when the rows are shown largest value first (the header's ↓), false for smallest first (↑). */
export function sortsDescending(order: SortOrder): boolean {
	return sortKeys[order.column].largestFirst !== order.reversed;
}

/** The order in words, e.g. "p99, largest first". */
export function sortWords(order: SortOrder): string {
	const {first} = sortKeys[order.column];
	return `${order.column}, ${order.reversed ? first[1] : first[0]}`;
}

function compareValues(a: number | string, b: number | string): number {
	return typeof a === 'string' && typeof b === 'string' ? a.localeCompare(b) : Number(a) - Number(b);
}

/** `rows` in `order`: gone nodes and absent values last in either direction, ties worst first. */
export function sortRows(rows: readonly OverviewRow[], order: SortOrder = defaultSort): OverviewRow[] {
	const key = sortKeys[order.column];
	const sign = sortsDescending(order) ? -1 : 1;
	return [...rows].sort((a, b) => {
		if (a.gone !== b.gone) return Number(a.gone) - Number(b.gone);
		const x = key.value(a);
		const y = key.value(b);
		if (x === null || y === null) {
			if (x !== y) return x === null ? 1 : -1;
		} else {
			const by = sign * compareValues(x, y);
			if (by !== 0) return by;
		}

		return compareRows(a, b);
	});
}

/** The rows of `views`, slow ones flagged, in `order` (worst first by default). */
export function sortedRows(views: readonly RowView[], context: RowContext, order: SortOrder = defaultSort): OverviewRow[] {
	return sortRows(overviewRows(views, context), order);
}

/**
 * sortedRows of a state's views, remembering its last answer: the same state, time, cycle and order give the same
 * rows (a key press redraws without a new frame). One answer is kept; the screen holds no other.
 */
export function lastRowsMemo<F>(kind: FeedReader<F>): (state: OverviewState<F>, context: RowContext, order: SortOrder) => OverviewRow[] {
	let last: {state: OverviewState<F>; context: RowContext; order: SortOrder; rows: OverviewRow[]} | null = null;
	return (state, context, order) => {
		if (last?.state !== state || last.context.now !== context.now || last.context.cycleMs !== context.cycleMs || last.order !== order) {
			last = {state, context, order, rows: sortedRows(rowViews(kind, state), context, order)};
		}

		return last.rows;
	};
}

/** The next sort column (`s`): the usual order of the next column, after the last back to status. */
export function nextSort(order: SortOrder): SortOrder {
	const index = sortColumns.indexOf(order.column);
	return {column: sortColumns[(index + 1) % sortColumns.length]!, reversed: false}; // in bounds
}

/** Whether a node name matches the filter typed after `/`: a case-insensitive part of the name. */
function matchesFilter(name: string, filter: string): boolean {
	return filter === '' || name.toLowerCase().includes(filter.toLowerCase());
}

export function filterRows<R extends {name: string}>(rows: readonly R[], filter: string): R[] {
	return filter === '' ? [...rows] : rows.filter((row) => matchesFilter(row.name, filter));
}
