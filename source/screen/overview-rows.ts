// One table row per node: what the overview shows of each NodeView, the `slow` flag (a node far slower than the
// rest), and the orders the table can be sorted in (worst first by default) and the name filter.
import type {Failure} from '../domain/types.js';
import {ageBand} from '../domain/health.js';
import type {OverviewTableRow, RowState} from './panes/overview-table.js';
import type {NodeView} from '../domain/overview-state.js';

/** A table row (the fields the table shows) and the failure behind an error status. */
export type OverviewRow = OverviewTableRow & {failure: Failure | null};

/** A node is `slow` when its window p99 is at least this many times the median p99 of the other nodes. */
export const slowFactor = 10;

/** The median needs at least this many other nodes with a p99: one neighbour is not a fleet. */
export const slowMinOthers = 2;

export function overviewRow(view: NodeView): OverviewRow {
	const {figures, status} = view;
	const ready = figures?.ready?.status ?? view.node?.ready?.status ?? null;
	const failure = status.failure;
	const window = figures?.window ?? null;
	const base = {
		name: view.name,
		ready,
		kubeletVersion: figures?.kubeletVersion ?? view.node?.kubeletVersion ?? null,
		lastSeenAgeSeconds: figures?.lastSeen.ageSeconds ?? figures?.lastSeen.countUnchangedSeconds ?? null,
		meanSeconds: window?.meanSeconds ?? null,
		p99: window?.p99 ?? null,
		ratePerSecond: window?.ratePerSecond ?? null,
		discardEvents: window?.discardEvents ?? null,
		stale: failure !== null && figures !== null,
		gone: view.goneSince !== null,
		slow: false,
		failure,
	};
	return {...base, ...judge(view, base.lastSeenAgeSeconds, ready)};
}

function judge(view: NodeView, age: number | null, ready: OverviewRow['ready']): {state: RowState; word: string; reason: string | null} {
	const {figures, status} = view;
	if (view.goneSince !== null) {
		return {state: 'unknown', word: 'gone', reason: null};
	}

	// A failed read is the same error whether or not a good read came before it: the figures of that good read
	// (shown dimmed) are old, and an age extrapolated from them says nothing about the kubelet now.
	if (status.failure) {
		return {state: 'error', word: 'error', reason: failureWord(status.failure)};
	}

	if (figures === null) {
		return {state: 'unknown', word: 'waiting', reason: null};
	}

	if (figures.verdict.healthy === false) {
		return {state: 'unhealthy', word: 'unhealthy', reason: null};
	}

	if (ready !== null && ready !== 'True') {
		return {state: 'warn', word: 'not ready', reason: null};
	}

	if (age !== null && ageBand(age, figures.constants) !== 'ok') {
		return {state: 'warn', word: 'lagging', reason: null};
	}

	return {
		state: figures.verdict.healthy === null ? 'unknown' : 'ok',
		word: figures.verdict.healthy === null ? 'unknown' : 'ok',
		reason: null,
	};
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
			if (/no PLEG series/.test(summary)) return 'no series';
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
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A p99 read now: listed and its last read good (stale figures are old, a gone node's older). */
function currentP99(row: OverviewRow): number | null {
	return row.gone || row.failure !== null ? null : (row.p99?.seconds ?? null);
}

/**
 * Each row with `slow` set when its window p99 is ≥ slowFactor × the median p99 of the other nodes that have one
 * now (at least slowMinOthers of them). A slow node that is otherwise ok or warn shows as `slow` and ranks above
 * them; an unhealthy, failing or unknown one keeps its state (it already ranks higher) but carries the flag.
 */
export function flagSlow(rows: readonly OverviewRow[]): OverviewRow[] {
	const p99s = rows.map(currentP99);
	return rows.map((row, index) => {
		const own = p99s[index];
		if (own === null || own === undefined) return row;
		const others = p99s.filter((p99, other): p99 is number => other !== index && p99 !== null);
		const middle = others.length >= slowMinOthers ? median(others) : null;
		if (middle === null || middle <= 0 || own < slowFactor * middle) return row;
		return row.state === 'ok' || row.state === 'warn' ? {...row, slow: true, state: 'slow', word: 'slow'} : {...row, slow: true};
	});
}

/** The rows of `views`, slow ones flagged, in no particular order. */
export function overviewRows(views: readonly NodeView[]): OverviewRow[] {
	return flagSlow(views.map(overviewRow));
}

/** Worst first: unhealthy, then failing reads and unknowns, slow, warnings, ok. */
const rank: Record<RowState, number> = {unhealthy: 0, error: 1, unknown: 1, slow: 2, warn: 3, ok: 4};

/** Larger first, absent last. */
function descending(a: number | null, b: number | null): number {
	return (b ?? -Infinity) - (a ?? -Infinity) || 0;
}

/** Worst first: by state (gone at the end); within a state, oldest last-seen, then highest p99, then by name. */
export function compareRows(a: OverviewRow, b: OverviewRow): number {
	return (
		Number(a.gone) - Number(b.gone) ||
		rank[a.state] - rank[b.state] ||
		descending(a.lastSeenAgeSeconds, b.lastSeenAgeSeconds) ||
		descending(a.p99?.seconds ?? null, b.p99?.seconds ?? null) ||
		a.name.localeCompare(b.name)
	);
}

/** The columns the table can be sorted by, in the order `s` steps through them. */
export const sortColumns = ['status', 'node', 'ready', 'kubelet', 'last-seen', 'mean', 'p99', 'rate', 'discards'] as const;
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

export const sortKeys: Record<SortColumn, SortKey> = {
	status: {value: (row) => -rank[row.state], largestFirst: true, first: ['worst first', 'best first']},
	node: {value: (row) => row.name, largestFirst: false, first: ['A → Z', 'Z → A']},
	ready: {
		value: (row) => (row.ready === null ? null : readyTrouble[row.ready]),
		largestFirst: true,
		first: ['not ready first', 'ready first'],
	},
	kubelet: {value: (row) => versionValue(row.kubeletVersion), largestFirst: false, first: ['oldest first', 'newest first']},
	'last-seen': {value: (row) => row.lastSeenAgeSeconds, largestFirst: true, first: ['oldest first', 'newest first']},
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
export function sortedRows(views: readonly NodeView[], order: SortOrder = defaultSort): OverviewRow[] {
	return sortRows(overviewRows(views), order);
}

/** The next sort column (`s`): the usual order of the next column, after the last back to status. */
export function nextSort(order: SortOrder): SortOrder {
	const index = sortColumns.indexOf(order.column);
	return {column: sortColumns[(index + 1) % sortColumns.length]!, reversed: false};
}

/** Whether a node name matches the filter typed after `/`: a case-insensitive part of the name. */
export function matchesFilter(name: string, filter: string): boolean {
	return filter === '' || name.toLowerCase().includes(filter.toLowerCase());
}

export function filterRows<R extends {name: string}>(rows: readonly R[], filter: string): R[] {
	return filter === '' ? [...rows] : rows.filter((row) => matchesFilter(row.name, filter));
}
