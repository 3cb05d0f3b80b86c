// The relist anatomy in one plain sentence with the numbers it rests on: is the relist slow because the runtime
// answers its two list calls slowly, or because it inspects many changed pods one status call at a time?
// The CRI counters include every kubelet caller (pod workers, stats, GC), so per-relist call counts are upper
// bounds for the relist's own calls ("at most"), and list means may mix in other callers' list calls.
import {formatSeconds, formatSpan, missing} from '../text/format.js';
import type {AnatomyReading, DeltaFigures, RelistAnatomy} from '../types.js';

/** The two list calls' means together from which the runtime "answers slowly", seconds (an idle node: ~5-25 ms). */
const slowListSeconds = 0.1;
/** The list calls "are" the relist from this share of the mean relist on. */
const listBoundShare = 0.5;
/** Fewer status calls per relist than this is an idle node (most relists find no changed pod). */
const idleStatusCalls = 1;

export function anatomyReading(anatomy: Omit<RelistAnatomy, 'reading'>, window: DeltaFigures | null): AnatomyReading {
	if (anatomy.spanSeconds === null || !window) {
		return {kind: 'waiting', text: 'the window opens at the second scrape'};
	}

	const {listPodSandbox, listContainers} = anatomy.operations;
	if (!listPodSandbox && !listContainers) {
		return {kind: 'unavailable', text: 'no runtime operation series: the relist cannot be taken apart'};
	}

	const mean = window.meanSeconds;
	if (window.count === 0 || mean === null) {
		return {
			kind: 'no-relist',
			text: `no relist completed in the last ${formatSpan(window.spanSeconds)}: a relist waiting on the runtime is counted only when it returns`,
		};
	}

	const listShare = anatomy.listShareOfRelist;
	const statusShare = anatomy.statusShareOfRelist ?? 0;
	const statusCalls = anatomy.statusCallsPerRelist;
	const listSeconds = (listPodSandbox?.windowMeanSeconds ?? 0) + (listContainers?.windowMeanSeconds ?? 0);
	const ofMean = `of the ${formatSeconds(mean)} mean relist`;
	if (statusCalls !== null && statusCalls >= idleStatusCalls && statusShare > (listShare ?? 0)) {
		return {
			kind: 'status',
			text: `relist ≈ per-pod status inspection: ${formatCalls(statusCalls)} status calls per relist taking ${percent(statusShare)} ${ofMean} (at most: other loops call too); list calls ${listShare === null ? 'unknown' : percent(listShare)}`,
		};
	}

	if (listShare === null) {
		return {kind: 'mixed', text: `no list call timed in the window beside ${window.count} relists: the relist cannot be taken apart`};
	}

	if (listShare < listBoundShare) {
		const status = statusCalls === null ? '' : `, status calls at most ${percent(statusShare)}`;
		return {
			kind: 'mixed',
			text: `relist is not mostly CRI calls: list calls ${percent(listShare)}${status} ${ofMean}`,
		};
	}

	const lists = `list calls take ${listShareText(listShare)} the ${formatSeconds(mean)} mean relist (ListPodSandbox ${formatSeconds(listPodSandbox?.windowMeanSeconds ?? null)} + ListContainers ${formatSeconds(listContainers?.windowMeanSeconds ?? null)})`;
	if (listSeconds >= slowListSeconds) {
		return {kind: 'list-slow', text: `relist ≈ list calls (runtime answers slowly): ${lists}`};
	}

	if (statusCalls === null || statusCalls < idleStatusCalls) {
		const status =
			statusCalls === null
				? 'status calls not exposed'
				: statusCalls === 0
					? 'no status calls'
					: `${formatCalls(statusCalls)} status calls per relist`;
		return {kind: 'idle', text: `idle: 2 list calls per relist, ${status}; ${lists}`};
	}

	return {kind: 'list', text: `relist ≈ list calls: ${lists}; ${formatCalls(statusCalls)} status calls per relist (at most)`};
}

/**
 * Above 1 the list means exceed the relist mean, which the relist's own calls cannot: other callers' slower list
 * calls and failed relists (ended after ListPodSandbox) blur the split.
 */
function listShareText(share: number): string {
	return share > 1
		? `≈ all (means add up to ${percent(share)}: other callers and failed relists blur the split) of`
		: `${percent(share)} of`;
}

function percent(share: number): string {
	return Number.isFinite(share) ? `${Math.round(share * 100)}%` : missing;
}

/** Calls per relist: "11", "2.4", "0.02". */
export function formatCalls(calls: number): string {
	if (!Number.isFinite(calls)) {
		return missing;
	}

	if (calls >= 10) {
		return String(Math.round(calls));
	}

	return calls >= 1 ? String(Number(calls.toFixed(1))) : String(Number(calls.toPrecision(1)));
}
