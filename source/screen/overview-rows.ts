// One table row per node, worst first: what the overview shows of each NodeView, and the order it shows them in.
import type {Failure} from '../domain/types.js';
import {gaugeBand} from '../domain/gauge-scale.js';
import type {OverviewTableRow} from './panes/overview-table.js';
import type {Health} from './layout/theme.js';
import type {NodeView} from '../domain/overview-state.js';

/** A table row (the fields the table shows) and the failure behind an error or stale status. */
export type OverviewRow = OverviewTableRow & {failure: Failure | null};

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
		failure,
	};
	return {...base, ...judge(view, base.lastSeenAgeSeconds, ready)};
}

function judge(view: NodeView, age: number | null, ready: OverviewRow['ready']): {health: Health; word: string} {
	const {figures, status} = view;
	if (view.goneSince !== null) {
		return {health: 'unknown', word: 'gone'};
	}

	if (figures === null) {
		return status.failure ? {health: 'unhealthy', word: 'error'} : {health: 'unknown', word: 'waiting'};
	}

	if (figures.verdict.healthy === false) {
		return {health: 'unhealthy', word: 'unhealthy'};
	}

	if (status.failure) {
		return {health: 'warn', word: 'stale'};
	}

	if (ready !== null && ready !== 'True') {
		return {health: 'warn', word: 'not ready'};
	}

	if (age !== null && gaugeBand(age, figures.constants) === 'warn') {
		return {health: 'warn', word: 'lagging'};
	}

	return figures.verdict.healthy === null ? {health: 'unknown', word: 'unknown'} : {health: 'ok', word: 'ok'};
}

const severity: Record<Health, number> = {unhealthy: 0, warn: 1, ok: 2, unknown: 3};

/** Larger first, absent last. */
function descending(a: number | null, b: number | null): number {
	return (b ?? -Infinity) - (a ?? -Infinity) || 0;
}

/** Worst first: unhealthy, then warnings, ok, unknown; gone at the end; within each, oldest last-seen, then highest p99. */
export function compareRows(a: OverviewRow, b: OverviewRow): number {
	return (
		Number(a.gone) - Number(b.gone) ||
		severity[a.health] - severity[b.health] ||
		descending(a.lastSeenAgeSeconds, b.lastSeenAgeSeconds) ||
		descending(a.p99?.seconds ?? null, b.p99?.seconds ?? null) ||
		a.name.localeCompare(b.name)
	);
}

export function sortedRows(views: NodeView[]): OverviewRow[] {
	return views.map(overviewRow).sort(compareRows);
}
