// The relist anatomy: the CRI calls behind each relist over the same window as the relist figures,
// from the deltas between the window-start scrape and the latest one. Pure: no clock.
import type {
	Bucket,
	CriOperation,
	CriOperationFigures,
	CriSample,
	DeltaFigures,
	OverLimit,
	RelistAnatomy,
	RelistOperations,
	Scrape,
} from '../types.js';
import {anatomyReading} from './anatomy-reading.js';
import {criAvailability, criAvailabilityNote} from '../exposition/names.js';
import {countAtBound, deltaBuckets, histogramQuantile} from '../histogram/quantile.js';

const noOperations: RelistOperations<null> = {listPodSandbox: null, listContainers: null, podSandboxStatus: null, containerStatus: null};

/**
 * `start` and `latest` are the window's first and last scrapes (start null before the second scrape), `window`
 * the relist figures over them (feed.ts windowOf); `kubeletVersion` tells a kubelet too old for a series from one
 * whose body lacks it.
 */
export function relistAnatomy(
	start: Scrape | null,
	latest: Scrape,
	window: DeltaFigures | null,
	kubeletVersion: string | null = latest.sample.kubeletVersion,
): RelistAnatomy {
	const after = latest.sample.cri ?? null;
	const before = start?.sample.cri ?? null;
	const spanSeconds = start && window ? window.spanSeconds : null;
	const operations = before && after && spanSeconds !== null ? windowOperations(before, after, spanSeconds) : noOperations;
	const relists = window?.count ?? null;
	const perRelist = (value: number | null) => (value !== null && relists !== null && relists > 0 ? value / relists : null);
	const status = statusTotals(operations);
	const statusSecondsPerRelist = perRelist(status.seconds);
	const mean = window?.meanSeconds ?? null;
	const share = (seconds: number | null) => (seconds !== null && mean !== null && mean > 0 ? seconds / mean : null);
	const running = after?.runningContainers?.['running'] ?? null;
	const figures: Omit<RelistAnatomy, 'reading'> = {
		spanSeconds,
		operations,
		relists,
		statusCallsPerRelist: perRelist(status.calls),
		statusSecondsPerRelist,
		listShareOfRelist: share(listMeans(operations)),
		statusShareOfRelist: share(statusSecondsPerRelist),
		relistSecondsPerContainer: mean !== null && running !== null && running > 0 ? mean / running : null,
		runningPods: after?.runningPods ?? null,
		runningContainers: after?.runningContainers ?? null,
		docker: before?.docker && after?.docker && spanSeconds !== null ? dockerOperations(before.docker, after.docker, spanSeconds) : null,
		unavailable: unavailableLines(after, kubeletVersion),
	};
	return {...figures, reading: anatomyReading(figures, window)};
}

/**
 * A HistogramVec child exists only from its first observation, so among exposed CRI series an absent operation
 * has made no call yet: absent at both ends is 0 calls, absent at the start counts from 0.
 */
function windowOperations(before: CriSample, after: CriSample, spanSeconds: number): RelistOperations<CriOperationFigures | null> {
	const op = (key: keyof RelistOperations<unknown>) => {
		const end = after.operations[key];
		if (!end) {
			return before.operations[key] ? null : noCalls;
		}

		return operationFigures(before.operations[key] ?? noCallsYet(end), end, spanSeconds);
	};
	return {
		listPodSandbox: op('listPodSandbox'),
		listContainers: op('listContainers'),
		podSandboxStatus: op('podSandboxStatus'),
		containerStatus: op('containerStatus'),
	};
}

function dockerOperations(
	before: NonNullable<CriSample['docker']>,
	after: NonNullable<CriSample['docker']>,
	spanSeconds: number,
): RelistAnatomy['docker'] {
	return {
		listContainers: operationFigures(before.listContainers, after.listContainers, spanSeconds),
		inspectContainer: operationFigures(before.inspectContainer, after.inspectContainer, spanSeconds),
	};
}

const noCalls: CriOperationFigures = {calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null, errors: 0, overLimit: null};

/** The same series before any call: every count and sum 0. */
function noCallsYet(op: CriOperation): CriOperation {
	return {
		duration: op.duration && {buckets: op.duration.buckets.map(({le}) => ({le, count: 0})), sum: 0, count: 0},
		legacyLatency: op.legacyLatency && {quantiles: [], sum: 0, count: 0},
		total: op.total === null ? null : 0,
		errors: 0,
	};
}

/**
 * One operation's window figures: the seconds histogram (1.14+), else the µs summary's sum and count (whose
 * quantiles cannot be windowed), else the call counter alone. null when absent at either end or when a counter
 * went back (a kubelet restart: deltas across it mean nothing, as for the relist figures).
 */
function operationFigures(before: CriOperation | null, after: CriOperation | null, spanSeconds: number): CriOperationFigures | null {
	if (!before || !after) {
		return null;
	}

	const histograms = before.duration && after.duration ? ([before.duration, after.duration] as const) : null;
	const summaries = before.legacyLatency && after.legacyLatency ? ([before.legacyLatency, after.legacyLatency] as const) : null;
	const totals = histograms ?? summaries;
	const calls = totals ? totals[1].count - totals[0].count : (after.total ?? Number.NaN) - (before.total ?? Number.NaN);
	const seconds = totals ? totals[1].sum - totals[0].sum : null;
	const errors = (after.errors ?? 0) - (before.errors ?? 0);
	const wentBack = histograms?.[0].buckets.some((bucket, index) => (histograms[1].buckets[index]?.count ?? Infinity) < bucket.count);
	if (Number.isNaN(calls) || calls < 0 || (seconds !== null && seconds < 0) || errors < 0 || wentBack) {
		return null;
	}

	const deltas = histograms && deltaBuckets(histograms[0].buckets, histograms[1].buckets);
	const buckets = deltas && calls > 0 ? deltas : null;
	return {
		calls,
		ratePerSecond: spanSeconds > 0 ? calls / spanSeconds : null,
		windowMeanSeconds: seconds !== null && calls > 0 ? seconds / calls : null,
		windowP99: buckets ? histogramQuantile(0.99, buckets) : null,
		errors,
		// With no call the buckets still say whether they reach the timeout: 0 timeouts is then a measured 0.
		overLimit: deltas ? overLimit(deltas) : null,
	};
}

/** The kubelet's default --runtime-request-timeout, s: a CRI call that reaches it fails with DeadlineExceeded. */
const runtimeRequestTimeoutSeconds = 120;
/** A bound this close below the timeout separates the calls that ran into it (119.2 s in the exponential buckets). */
const timeoutBucketFromSeconds = 100;

/**
 * The calls above the highest finite bound up to the timeout, from the window's bucket deltas (see
 * CriOperationFigures.overLimit); null when the buckets have no finite bound that low or no +Inf bucket.
 */
export function overLimit(buckets: Bucket[]): OverLimit | null {
	const total = countAtBound(buckets, Infinity);
	let below: Bucket | undefined;
	for (const bucket of buckets) {
		if (bucket.le <= runtimeRequestTimeoutSeconds && (below === undefined || bucket.le > below.le)) {
			below = bucket;
		}
	}

	if (total === undefined || !below) {
		return null;
	}

	return {overSeconds: below.le, calls: Math.max(0, total - below.count), timeouts: below.le >= timeoutBucketFromSeconds};
}

/** Status calls and their seconds in the window; null when either status series is missing. */
function statusTotals({podSandboxStatus, containerStatus}: RelistOperations<CriOperationFigures | null>): {
	calls: number | null;
	seconds: number | null;
} {
	if (!podSandboxStatus || !containerStatus) {
		return {calls: null, seconds: null};
	}

	const seconds = (op: CriOperationFigures) =>
		op.calls === 0 ? 0 : op.windowMeanSeconds === null ? null : op.windowMeanSeconds * op.calls;
	const sandbox = seconds(podSandboxStatus);
	const container = seconds(containerStatus);
	return {
		calls: podSandboxStatus.calls + containerStatus.calls,
		seconds: sandbox === null || container === null ? null : sandbox + container,
	};
}

/** mean list_podsandbox + mean list_containers, seconds; null when either has no mean in the window. */
function listMeans({listPodSandbox, listContainers}: RelistOperations<CriOperationFigures | null>): number | null {
	const sandboxes = listPodSandbox?.windowMeanSeconds ?? null;
	const containers = listContainers?.windowMeanSeconds ?? null;
	return sandboxes === null || containers === null ? null : sandboxes + containers;
}

function unavailableLines(cri: CriSample | null, kubeletVersion: string | null): string[] {
	if (!cri) {
		return [`CRI calls: ${criAvailability.operations}`];
	}

	const lines: string[] = [];
	const ops = Object.values(cri.operations);
	if (ops.every((op) => op === null)) {
		lines.push(`CRI calls: ${criAvailability.operations}`);
	} else if (ops.some((op) => op !== null && op.duration === null)) {
		lines.push(`p99: ${criAvailabilityNote('histograms', kubeletVersion)}`);
	}

	if (cri.runningPods === null) {
		lines.push(`running pods: ${criAvailabilityNote('runningPods', kubeletVersion)}`);
	}

	if (cri.runningContainers === null) {
		lines.push(`running containers: ${criAvailabilityNote('runningContainers', kubeletVersion)}`);
	}

	return lines;
}
