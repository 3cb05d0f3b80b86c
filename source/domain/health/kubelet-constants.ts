// The kubelet's PLEG relist period and health threshold, with where each is written, per kubelet version.
// Read from tagged Kubernetes release trees, one row per version read (line numbers are 1-based).
// Values: 1 s / 3 min in every release read from 1.10 on; 300 s / 10 min when the Generic PLEG runs under the
// EventedPLEG gate (1.26+). Neither is configurable (no kubelet flag or config field exists).
import {formatGoDuration} from '../text/go-duration.js';
import type {DeltaFigures, KubeletConstants, PlegSample, SourceConstant} from '../types.js';

const kubeletGo = 'pkg/kubelet/kubelet.go';
const genericGo = 'pkg/kubelet/pleg/generic.go';

const genericPeriodSeconds = 1;
export const genericThresholdSeconds = 180;
export const eventedPeriodSeconds = 300;
export const eventedThresholdSeconds = 600;
/**
 * A relist rate from which the Generic PLEG runs at its own 1 s period: 60 times what it does under the gate
 * (one relist per 300 s). A generic loop with 4 s relists still makes 0.2/s.
 */
const genericRateEvidencePerSecond = 0.2;
/** Relists the window must hold before its rate counts as evidence. */
const rateEvidenceRelists = 3;

export type ConstantsRow = {
	/** The row's name: the version read, or the range of versions whose lines are the same. */
	row: string;
	/** First and last version the row was read for, inclusive. */
	from: string;
	to: string;
	/** kubelet.go line of plegRelistPeriod / genericPlegRelistPeriod; null = not read for this version. */
	periodLine: number | null;
	/** Where the 3-minute threshold is: generic.go (relistThreshold, ≤ 1.25) or kubelet.go (1.26+). */
	threshold: {file: typeof kubeletGo | typeof genericGo; line: number};
	/** kubelet.go lines of eventedPlegRelistPeriod / eventedPlegRelistThreshold (1.26+). */
	evented: {periodLine: number; thresholdLine: number} | null;
	/** generic.go line of Healthy(); null = not in the table for this version. */
	healthyLine: number | null;
	/**
	 * kubelet.go lines read from the OpenShift fork's vendored copy and corrected for its one fixed edit above the PLEG
	 * constants, not read from a pristine upstream tree.
	 */
	derived: boolean;
};

const oldLayout = (line = 83) => ({file: genericGo, line}) as const;
const newLayout = (line: number) => ({file: kubeletGo, line}) as const;

export const constantsTable: readonly ConstantsRow[] = [
	{
		row: 'v1.10.9',
		from: 'v1.10.9',
		to: 'v1.10.9',
		periodLine: null,
		threshold: oldLayout(),
		evented: null,
		healthyLine: 133,
		derived: false,
	},
	{
		row: 'v1.11.0',
		from: 'v1.11.0',
		to: 'v1.11.0',
		periodLine: 155,
		threshold: oldLayout(),
		evented: null,
		healthyLine: null,
		derived: false,
	},
	// Read at upstream commit cf0533c, which names the minor release only: the row stands for all of 1.14.
	{
		row: '1.14 (cf0533c)',
		from: 'v1.14.0',
		to: 'v1.14.999',
		periodLine: null,
		threshold: oldLayout(),
		evented: null,
		healthyLine: 136,
		derived: false,
	},
	{
		row: 'v1.15.5',
		from: 'v1.15.5',
		to: 'v1.15.5',
		periodLine: 163,
		threshold: oldLayout(),
		evented: null,
		healthyLine: 136,
		derived: false,
	},
	{
		row: 'v1.17.1',
		from: 'v1.17.1',
		to: 'v1.17.1',
		periodLine: null,
		threshold: oldLayout(),
		evented: null,
		healthyLine: 136,
		derived: false,
	},
	{
		row: 'v1.18.6–v1.24.14',
		from: 'v1.18.6',
		to: 'v1.24.14',
		periodLine: null,
		threshold: oldLayout(),
		evented: null,
		healthyLine: 136,
		derived: false,
	},
	{row: 'v1.25.0', from: 'v1.25.0', to: 'v1.25.0', periodLine: 164, threshold: oldLayout(), evented: null, healthyLine: 136, derived: true},
	{
		row: 'v1.26.2',
		from: 'v1.26.2',
		to: 'v1.26.2',
		periodLine: 169,
		threshold: newLayout(170),
		evented: {periodLine: 173, thresholdLine: 174},
		healthyLine: 163,
		derived: true,
	},
	{
		row: 'v1.27.4',
		from: 'v1.27.4',
		to: 'v1.27.4',
		periodLine: 178,
		threshold: newLayout(179),
		evented: {periodLine: 182, thresholdLine: 183},
		healthyLine: 165,
		derived: true,
	},
	{
		row: 'v1.28.0',
		from: 'v1.28.0',
		to: 'v1.28.7',
		periodLine: 178,
		threshold: newLayout(179),
		evented: {periodLine: 182, thresholdLine: 183},
		healthyLine: 165,
		derived: false,
	},
	{
		row: 'v1.29.4',
		from: 'v1.29.4',
		to: 'v1.29.4',
		periodLine: 180,
		threshold: newLayout(181),
		evented: {periodLine: 184, thresholdLine: 185},
		healthyLine: 165,
		derived: true,
	},
	{
		row: 'v1.30.3',
		from: 'v1.30.3',
		to: 'v1.30.3',
		periodLine: 181,
		threshold: newLayout(182),
		evented: {periodLine: 185, thresholdLine: 186},
		healthyLine: 165,
		derived: true,
	},
	{
		row: 'v1.31.4',
		from: 'v1.31.4',
		to: 'v1.31.4',
		periodLine: 182,
		threshold: newLayout(183),
		evented: {periodLine: 186, thresholdLine: 187},
		healthyLine: 165,
		derived: true,
	},
	// Upstream 1.32 (000d954) read directly; the derived v1.32.6 numbers equal it.
	{
		row: 'v1.32.6',
		from: 'v1.32.6',
		to: 'v1.32.6',
		periodLine: 193,
		threshold: newLayout(194),
		evented: {periodLine: 197, thresholdLine: 198},
		healthyLine: 182,
		derived: false,
	},
	{
		row: 'v1.33.5',
		from: 'v1.33.5',
		to: 'v1.33.5',
		periodLine: 207,
		threshold: newLayout(208),
		evented: {periodLine: 211, thresholdLine: 212},
		healthyLine: 182,
		derived: true,
	},
	{
		row: 'v1.34.2',
		from: 'v1.34.2',
		to: 'v1.34.2',
		periodLine: 206,
		threshold: newLayout(207),
		evented: {periodLine: 210, thresholdLine: 211},
		healthyLine: 180,
		derived: true,
	},
	{
		row: 'v1.35.3',
		from: 'v1.35.3',
		to: 'v1.35.3',
		periodLine: 212,
		threshold: newLayout(213),
		evented: {periodLine: 216, thresholdLine: 217},
		healthyLine: 180,
		derived: true,
	},
	// Upstream text; the derived numbers equal it.
	{
		row: 'v1.36.2',
		from: 'v1.36.2',
		to: 'v1.36.2',
		periodLine: 215,
		threshold: newLayout(216),
		evented: {periodLine: 219, thresholdLine: 220},
		healthyLine: 238,
		derived: false,
	},
];

type Version = [number, number, number];

/** "v1.21.2-eks-0389ca3" -> [1, 21, 2]; null when it is not a version. */
export function parseKubeletVersion(text: string | null): Version | null {
	const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text?.trim() ?? '');
	return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

function compare(a: Version, b: Version): number {
	return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

const versionOf = (text: string): Version => parseKubeletVersion(text)!; // versions of our table

/** The EventedPLEG gate (and the RelistDuration layout) exist from 1.26. */
const eventedSince: Version = [1, 26, 0];
const notRead = 'not read for this version';

/** Whether a row's versions include some of major.minor. */
function coversMinor(row: ConstantsRow, version: Version): boolean {
	const first: Version = [version[0], version[1], 0];
	const last: Version = [version[0], version[1], Infinity];
	return compare(versionOf(row.from), last) <= 0 && compare(versionOf(row.to), first) >= 0;
}

/** Distance in patch releases from a version to a row of its minor (0 inside the row). */
function patchDistance(row: ConstantsRow, version: Version): number {
	const from = versionOf(row.from);
	const to = versionOf(row.to);
	if (compare(version, from) < 0) return from[1] === version[1] ? from[2] - version[2] : Infinity;
	return to[1] === version[1] ? version[2] - to[2] : Infinity;
}

/**
 * The table row for a version and why that row (null when the row was read for it). A version not read takes
 * a row of its own minor when there is one (the PLEG lines move between minors, not between patches), else the
 * row below it.
 */
function rowFor(version: Version | null): {row: ConstantsRow; note: string | null} {
	const first = constantsTable[0]!; // non-empty
	const last = constantsTable.at(-1)!; // non-empty
	if (!version) {
		return {row: last, note: 'kubelet version unknown'};
	}

	const exact = constantsTable.find((row) => compare(versionOf(row.from), version) <= 0 && compare(version, versionOf(row.to)) <= 0);
	if (exact) {
		return {row: exact, note: null};
	}

	const name = `v${version.join('.')}`;
	const sameMinor = constantsTable
		.filter((row) => coversMinor(row, version))
		.sort((a, b) => patchDistance(a, version) - patchDistance(b, version))[0];
	if (sameMinor) {
		return {row: sameMinor, note: `${name} not read; the ${sameMinor.row} row of the same minor`};
	}

	if (compare(version, versionOf(last.to)) > 0) {
		return {row: last, note: `newer than any version read (${last.row})`};
	}

	if (compare(version, versionOf(first.from)) < 0) {
		return {row: first, note: `older than any version read (${first.row}); the 2016 code (~1.2-1.4) used 2 min`};
	}

	const lowerIndex = constantsTable.findLastIndex((row) => compare(versionOf(row.from), version) <= 0);
	const lower = constantsTable[lowerIndex]!; // in bounds
	return {row: lower, note: `between known rows ${lower.row} and ${constantsTable[lowerIndex + 1]!.row}`}; // in bounds
}

/**
 * With the EventedPLEG gate on, whether the kubelet fell back to the Generic PLEG: after failed event streams
 * (evented.go watchEventsChannel gives up and restores the 1 s / 3 min durations) the connection error counter is
 * above 0 with no stream ever obtained; or the relists run at the generic pace. The text says which evidence;
 * null when neither shows.
 */
export function eventedFallbackEvidence(sample: PlegSample, window: DeltaFigures | null): string | null {
	const errors = sample.eventedConnectionError ?? 0;
	if (errors > 0 && (sample.eventedConnectionSuccess ?? 0) === 0) {
		return `evented, fell back to generic after ${errors} stream ${errors === 1 ? 'error' : 'errors'}`;
	}

	const rate = window?.ratePerSecond ?? null;
	if (window && rate !== null && window.count >= rateEvidenceRelists && rate >= genericRateEvidencePerSecond) {
		const perSecond = rate >= 10 ? rate.toFixed(0) : rate.toFixed(2);
		return `evented, fell back to generic: relists at ${perSecond}/s, not one per ${formatGoDuration(eventedPeriodSeconds)}`;
	}

	return null;
}

/**
 * The period and threshold that apply to a kubelet, with file:line. `evented` = the EventedPLEG gate is on,
 * which from 1.26 gives the Generic PLEG the 300 s / 10 min durations; before 1.26 there is no Evented PLEG.
 * `fallback` = the evidence that the kubelet fell back to the Generic PLEG (eventedFallbackEvidence): then the
 * generic durations are in force again, with the gate on.
 */
export function constantsFor(kubeletVersion: string | null, evented: boolean, fallback: string | null = null): KubeletConstants {
	// Every scrape asks again for the same kubelets: a fleet mid-upgrade runs two or three versions side by side, and
	// one remembered answer recomputed (and kept a copy per node) at each change of version down the node list.
	// The last answer first: most calls ask it again, and the table's key is a string made per call.
	if (last?.kubeletVersion === kubeletVersion && last.evented === evented && last.fallback === fallback) return last.constants;
	const key = `${kubeletVersion ?? ''}\u0000${evented ? 1 : 0}\u0000${fallback ?? '\u0001'}`;
	let constants = known.get(key);
	if (constants === undefined) {
		// Versions are the cluster's strings: a hostile or endless variety of them only refills a bounded table.
		if (known.size >= knownVersionsKept) known.clear();
		constants = lookUpConstants(kubeletVersion, evented, fallback);
		known.set(key, constants);
	}

	last = {kubeletVersion, evented, fallback, constants};
	return constants;
}

let last: {kubeletVersion: string | null; evented: boolean; fallback: string | null; constants: KubeletConstants} | null = null;

/** Distinct (version, evented, fallback) answers remembered; a real fleet has a handful. */
export const knownVersionsKept = 64;
const known = new Map<string, KubeletConstants>();

function lookUpConstants(kubeletVersion: string | null, evented: boolean, fallback: string | null): KubeletConstants {
	const version = parseKubeletVersion(kubeletVersion);
	const {row, note} = rowFor(version);
	const derived = row.derived ? 'derived' : null;
	// The gate exists from 1.26, also for a 1.26 version below the first 1.26 row (then its lines were not read).
	const gateOn = evented && (row.evented !== null || (version !== null && compare(version, eventedSince) >= 0));
	const useEvented = gateOn && fallback === null;
	const newNames = row.evented !== null;
	const periodLine = useEvented ? (row.evented?.periodLine ?? null) : row.periodLine;
	const thresholdLocation = useEvented
		? row.evented && `${kubeletGo}:${row.evented.thresholdLine}`
		: `${row.threshold.file}:${row.threshold.line}`;
	const period: SourceConstant = {
		seconds: useEvented ? eventedPeriodSeconds : genericPeriodSeconds,
		location: periodLine === null ? null : `${kubeletGo}:${periodLine}`,
		name: useEvented ? 'eventedPlegRelistPeriod' : newNames ? 'genericPlegRelistPeriod' : 'plegRelistPeriod',
		note: joinNotes(periodLine === null ? notRead : derived, note),
	};
	const threshold: SourceConstant = {
		seconds: useEvented ? eventedThresholdSeconds : genericThresholdSeconds,
		location: thresholdLocation,
		name: useEvented ? 'eventedPlegRelistThreshold' : newNames ? 'genericPlegRelistThreshold' : 'relistThreshold',
		// generic.go is not touched by the OpenShift edit: only kubelet.go lines are derived.
		note: joinNotes(thresholdLocation === null ? notRead : thresholdLocation.startsWith(kubeletGo) ? derived : null, note),
	};
	return {
		row: row.row,
		rowNote: note,
		period,
		threshold,
		evented: useEvented,
		eventedFallback: gateOn ? fallback : null,
		healthyLocation: row.healthyLine === null ? null : `${genericGo}:${row.healthyLine}`,
	};
}

function joinNotes(...notes: Array<string | null>): string | null {
	const present = notes.filter((note) => note !== null);
	return present.length > 0 ? present.join('; ') : null;
}
