// The --once reports: a JSON object with a fixed set of keys (seconds, camelCase; a figure that cannot be
// computed is null, never 0) and a plain multi-line text using the screen's formatters.
import {
	countOf,
	formatAge,
	formatCount,
	formatQuantile,
	formatRate,
	formatRatio,
	formatSeconds,
	formatSpan,
	missing,
} from '../domain/text/format.js';
import {formatGoDuration} from '../domain/text/go-duration.js';
import {clockOffsetText} from '../domain/health/clock-offset.js';
import {bandOf, countdownText, secondsToThreshold} from '../domain/health/health.js';
import {evictionInSeconds, evictionText, podsText} from '../domain/incident/eviction.js';
import {humanAge} from '../domain/incident/event-age.js';
import {nextSteps, stepsFor, type PasteContext} from '../domain/incident/next-steps.js';
import {anatomyReportLines} from '../domain/anatomy/anatomy-text.js';
import type {
	CriOperationFigures,
	DeltaFigures,
	EventsFigures,
	FeedStatus,
	Figures,
	KubeletConstants,
	PrehistoryInfo,
	Quantile,
	RelistAnatomy,
	SourceConstant,
} from '../domain/types.js';

/**
 * A figure for JSON rounded to what was measured: `ns` (9 decimals: sums are float seconds of nanosecond
 * durations, and means and quantiles follow from them), `ms` (3 decimals: scrape times and the ages and spans read
 * off the local clock in milliseconds). Rounding drops floating noise such as
 * 0.045000000000000005; a value that is not finite is null.
 */
export function ns(value: number | null | undefined): number | null {
	return rounded(value, 9);
}

export function ms(value: number | null | undefined): number | null {
	return rounded(value, 3);
}

/** Rates and ratios: nine significant digits, as far as the sums they come from are exact (18000.000000044 → 18000). */
export function sig(value: number | null | undefined): number | null {
	return value === null || value === undefined || !Number.isFinite(value) ? null : Number(value.toPrecision(9));
}

function rounded(value: number | null | undefined, decimals: number): number | null {
	return value === null || value === undefined || !Number.isFinite(value) ? null : Number(value.toFixed(decimals));
}

/**
 * --raw: the keys the JSON object gains (definitions.ts "raw-lines"): the last scrape's kubelet_pleg_* lines as
 * written, in their visible form, and how many past the bound were not kept; null before a scrape.
 */
export function rawJson(figures: Figures): {raw: string[] | null; rawOmitted: number | null} {
	return {raw: figures.raw?.lines ?? null, rawOmitted: figures.raw?.omitted ?? null};
}

/** --once --raw: the lines as `grep ^kubelet_pleg` prints them, and a comment (as the format writes one) for any not kept. */
export function rawText(figures: Figures): string {
	const raw = figures.raw;
	const lines = raw?.lines ?? [];
	const note =
		raw && raw.omitted > 0 ? [`# ${countOf(raw.omitted, 'more kubelet_pleg_* line')} not kept (pleg-top keeps ${lines.length})`] : [];
	return [...lines, ...note].map((line) => `${line}\n`).join('');
}

/** The --once JSON object, one JSON line's figures: the shape a script reads. */
export type JsonReport = ReturnType<typeof jsonReport>;

export function jsonReport(figures: Figures) {
	const {lastSeen, constants, lifetime, window} = figures;
	// Without any duration series there is no relist count, so "relists in the window" is unknown, not 0.
	const hasRelists = lifetime !== null;
	const ready = figures.ready ?? null;
	return {
		node: figures.node,
		kubeletVersion: figures.kubeletVersion,
		// null while the figures cannot be judged, and while stale (the last scrape failed): never the old verdict.
		healthy: figures.verdict.healthy,
		verdict: figures.verdict.message,
		// The one set of bands (health.ts): "ok" | "warn" | "critical" | "unhealthy" | "unknown".
		band: bandOf(figures),
		// threshold − age: negative once past, null when unknown.
		secondsToThreshold: ms(secondsToThreshold(figures)),
		// null while not unhealthy, and while stale; a lower bound when the start is not the gauge's.
		unhealthyForSeconds: ms(figures.incident?.unhealthyForSeconds),
		// Once the Node is NotReady: until pods with the default toleration (300 s) are evicted, negative once passed.
		podsEvictedInSeconds: ms(evictionInSeconds(ready, figures.now)),
		// Counted (spec.nodeName) while the Node is not Ready; null otherwise, or with the reason when not countable.
		podsOnNode: figures.pods?.count ?? null,
		podsOnNodeError: figures.pods?.error ?? null,
		// Changes between healthy and unhealthy seen in this run; null where the source does not follow them.
		transitions: figures.incident?.transitions ?? null,
		// The node's recent Events, newest first; [] when there are none, or when they could not be read: eventsError says why.
		events: (figures.events?.items ?? []).map((event) => ({
			reason: event.reason,
			message: event.message,
			ageSeconds: ms(event.ageSeconds),
			count: event.count,
		})),
		eventsError: eventsError(figures.events ?? null),
		lastSeenSeconds: lastSeen.gaugeSeconds,
		lastSeenAgeSeconds: ms(lastSeen.ageSeconds),
		// node clock − local clock (clock-offset.ts), null when it cannot be known; the ages are read on it beyond ±2 s.
		clockOffsetSeconds: ms(figures.clock?.offsetSeconds),
		// "relist" | "date-header" | "heartbeat" (a bound: at least that far ahead) | "unknown".
		clockOffsetSource: figures.clock?.source ?? 'unknown',
		constants: {
			relistPeriodSeconds: constants.period.seconds,
			relistThresholdSeconds: constants.threshold.seconds,
			periodSource: constants.period.location,
			thresholdSource: constants.threshold.location,
			// The kubelet-source row the lines come from, and why that row when it was not read for this version.
			row: constants.row,
			rowNote: constants.rowNote,
			// "generic", "evented", or "evented, fell back to generic after N stream errors" (the evidence).
			pleg: plegMode(constants),
		},
		relist: {
			count: lifetime?.count ?? null,
			sum: ns(lifetime?.sum),
			lifetimeMeanSeconds: ns(lifetime?.meanSeconds),
			windowSeconds: ms(window?.spanSeconds),
			windowCount: hasRelists ? ns(window?.count) : null,
			windowMeanSeconds: ns(window?.meanSeconds),
			windowP50Seconds: ns(window?.p50?.seconds),
			windowP90Seconds: ns(window?.p90?.seconds),
			windowP99Seconds: ns(window?.p99?.seconds),
			ratePerSecond: hasRelists ? sig(window?.ratePerSecond) : null,
			intervalMeanSeconds: ns(window?.intervalMeanSeconds),
			// true = the quantile fell in the +Inf bucket: the value is the top finite bound, a lower bound.
			windowP50AtLeast: window?.p50?.atLeast ?? null,
			windowP90AtLeast: window?.p90?.atLeast ?? null,
			windowP99AtLeast: window?.p99?.atLeast ?? null,
		},
		discardEvents: discardTotal(figures),
		discardEventsInWindow: window?.discardEvents ?? null,
		thresholdToMeanRatio: sig(figures.thresholdToMeanRatio),
		// --history-from: what Prometheus gave the chart and the window at start, or why nothing; null when not asked (or not in yet).
		historyFrom: historyFromJson(figures.prehistory ?? null),
		time: new Date(figures.now).toISOString(),
		skewSeconds: ms(lastSeen.skewSeconds),
		countUnchangedSeconds: ms(lastSeen.countUnchangedSeconds),
		unavailable: figures.unavailable,
		// lastTransitionTime as Unix seconds, like every other time in this report.
		readyCondition: ready && {...ready, since: ready.since === null ? null : ms(ready.since / 1000)},
		cri: criJson(figures.anatomy ?? null),
	};
}

function historyFromJson(prehistory: PrehistoryInfo | null) {
	return (
		prehistory && {
			url: prehistory.url,
			points: prehistory.points,
			fromSeconds: ms(prehistory.startAt === null ? null : prehistory.startAt / 1000),
			untilSeconds: ms(prehistory.endAt === null ? null : prehistory.endAt / 1000),
			error: prehistory.error,
		}
	);
}

/** Why `events` may not be the node's Events: the read was refused (the RBAC rule is named) or failed, or none was made. */
function eventsError(events: EventsFigures | null): string | null {
	if (!events) {
		return "the node's Events were not read";
	}

	if (!events.error) {
		return null;
	}

	const needed = events.error.details.find((detail) => detail.startsWith('needed: '));
	return needed ? `${events.error.summary}; ${needed}` : events.error.summary;
}

/** Which PLEG durations are in force, in words: "generic", "evented", or the fallback and its evidence. */
function plegMode(constants: KubeletConstants): string {
	return constants.eventedFallback ?? (constants.evented ? 'evented' : 'generic');
}

/** The `cri` key: the four relist operations, status calls per relist, running pods/containers, list share (≤ 1). */
function criJson(anatomy: RelistAnatomy | null) {
	const ops = anatomy?.operations;
	const share = anatomy?.listShareOfRelist ?? null;
	return {
		listPodSandbox: operationJson(ops?.listPodSandbox ?? null),
		listContainers: operationJson(ops?.listContainers ?? null),
		podSandboxStatus: operationJson(ops?.podSandboxStatus ?? null),
		containerStatus: operationJson(ops?.containerStatus ?? null),
		statusCallsPerRelist: sig(anatomy?.statusCallsPerRelist),
		runningPods: anatomy?.runningPods ?? null,
		runningContainers: anatomy?.runningContainers ?? null,
		// A share of the relist cannot pass 1; above it other callers' list calls blur the split (anatomy-reading.ts).
		listShareOfRelist: share === null ? null : sig(Math.min(share, 1)),
	};
}

function operationJson(op: CriOperationFigures | null) {
	return {
		ratePerSecond: sig(op?.ratePerSecond),
		windowMeanSeconds: ns(op?.windowMeanSeconds),
		windowP99Seconds: ns(op?.windowP99?.seconds),
		errors: op?.errors ?? null,
	};
}

/** The discard counter itself is not in Figures; the window and baseline carry deltas only. */
function discardTotal(figures: Figures): number | null {
	return figures.discardEventsTotal ?? null;
}

/**
 * The --once text report: one figure per line, no colour. `status` adds a line when no good scrape came yet; `paste`
 * is where the next steps' kubectl lines go and the node's runtime; `via` the proxy the requests went through.
 */
export function textReport(figures: Figures, status?: FeedStatus, paste?: PasteContext, via?: string): string {
	const {constants, lifetime, window} = figures;
	const lines: Array<[string, string]> = [
		['node', figures.node],
		// The proxy the requests went through: a proxy from the environment is not in the kubeconfig to be seen.
		...(via ? [['via', via] satisfies [string, string]] : []),
		['kubelet', figures.kubeletVersion ?? 'unknown'],
		['verdict', figures.verdict.message],
		['band', bandText(figures)],
		['last seen', lastSeenText(figures)],
		...nodeClockLines(figures),
		['threshold', constantText(constants.threshold)],
		['period', constantText(constants.period)],
		...eventedLines(constants),
		['lifetime', lifetime ? `${countOf(lifetime.count, 'relist')}, mean ${formatSeconds(lifetime.meanSeconds)}` : missing],
		['window', window ? windowText(window) : `not enough scrapes yet (target ${formatGoDuration(figures.windowTargetSeconds)})`],
		['quantiles', window ? quantilesText(window) : missing],
		['interval', formatSeconds(window?.intervalMeanSeconds ?? null)],
		['interval p99', formatQuantile(window?.intervalP99 ?? null)],
		['discards', discardsText(figures)],
		['threshold/mean', formatRatio(figures.thresholdToMeanRatio)],
	];
	if (figures.ready) {
		const {status: readyStatus, reason, message} = figures.ready;
		lines.push(['Ready', [readyStatus, reason, message].filter(Boolean).join(' · ')]);
		const eviction = evictionInSeconds(figures.ready, figures.now);
		if (eviction !== null) lines.push(['eviction', evictionText(eviction)]);
		if (figures.pods) lines.push(['pods', podsText(figures.pods)]);
	}

	for (const line of figures.unavailable) {
		lines.push(['unavailable', line]);
	}

	// The staleness is in the figures (feed.ts figuresAt); `status` is kept for callers that still pass it.
	const stale = figures.stale;
	if (stale) {
		lines.push(['stale', `${stale.failure} (last good scrape ${formatAge(stale.lastGoodAgeSeconds)} ago)`]);
	} else if (status?.failure && status.lastGoodAt === null) {
		lines.push(['stale', `${status.failure.summary} (no good scrape yet)`]);
	}

	// The relist anatomy follows as its own block, aligned on its own labels; then the Events and, when unhealthy, what to run.
	const incident = [...eventLines(figures.events ?? null), ...nextStepLines(figures, paste)];
	return alignLines(lines) + alignLines(anatomyReportLines(figures.anatomy ?? null)) + (incident.length > 0 ? alignLines(incident) : '');
}

/** One line per Event, "NodeNotReady ×1, 2m ago (kubelet): Node … status is now: NodeNotReady"; none when not read. */
function eventLines(events: EventsFigures | null): Array<[string, string]> {
	if (!events) {
		return [];
	}

	const lines = events.items.map((event): [string, string] => {
		const from = event.source ? ` (${event.source})` : '';
		const message = event.message ? `: ${event.message.replaceAll('\n', ' ')}` : '';
		return ['event', `${event.reason} ×${event.count}, ${humanAge(event.ageSeconds)} ago${from}${message}`];
	});
	const total = events.total;
	if (total && total.count > lines.length) {
		// The newest only: how many the API server holds beyond them.
		lines.push(['events', `${total.atLeast ? 'at least ' : ''}${total.count} in all, the ${lines.length} newest listed`]);
	}

	const error = eventsError(events);
	if (error) {
		lines.push(['events', error]);
	} else if (lines.length === 0) {
		lines.push(['events', 'none']);
	}

	return lines;
}

/** The commands to run next, with the node filled in, while the kubelet's rule fails. */
function nextStepLines(figures: Figures, paste: PasteContext | undefined): Array<[string, string]> {
	if (bandOf(figures) !== 'unhealthy') {
		return [];
	}

	return nextSteps(stepsFor(figures, paste)).map((step) => [
		'next step',
		step.where === 'on the node' ? `${step.command}  # on the node` : step.command,
	]);
}

/** "critical; NotReady in 8s (last seen 2m52s ago; threshold 3m0s), pleg-top's estimate", or "unhealthy for 1m12s". */
function bandText(figures: Figures): string {
	const parts: string[] = [bandOf(figures)];
	const countdown = countdownText(figures);
	if (countdown) {
		parts.push(`${countdown}, pleg-top's estimate`);
	}

	const incident = figures.incident;
	if (incident?.unhealthyForSeconds !== null && incident?.unhealthyForSeconds !== undefined) {
		parts.push(`unhealthy for ${incident.sinceExact ? '' : 'at least '}${formatAge(incident.unhealthyForSeconds)}`);
	}

	if (incident && incident.transitions > 0) {
		parts.push(`${incident.transitions} healthy/unhealthy ${incident.transitions === 1 ? 'change' : 'changes'} seen`);
	}

	return parts.join('; ');
}

function alignLines(lines: Array<[string, string]>): string {
	const width = Math.max(...lines.map(([label]) => label.length));
	return lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n') + '\n';
}

/** What clock the ages were read on, when it is worth a line: an offset beyond the noise, or none to be had. */
function nodeClockLines(figures: Figures): Array<[string, string]> {
	const text = clockOffsetText(figures);
	if (text === null) {
		return [];
	}

	const from = {
		relist: 'from the relist loop; ages on the node clock',
		'date-header': 'from the Date header; ages on the node clock',
		heartbeat: 'from the Ready heartbeat, a bound; ages on it',
		'same-clock': "the demo's simulated kubelet runs on pleg-top's own clock",
		unknown: "no relist seen to complete and no Date header; ages on this machine's clock",
	}[figures.clock!.source]; // the text implies a clock
	return [['node clock', `${text.replace(/^node clock /, '')} (${from})`]];
}

function lastSeenText({lastSeen}: Figures): string {
	if (lastSeen.neverSucceeded) {
		return 'never (no successful relist yet)';
	}

	if (lastSeen.ageSeconds !== null) {
		const skew = lastSeen.skewSeconds === null ? '' : `, node clock ahead by ${formatAge(lastSeen.skewSeconds)}`;
		return `${formatAge(lastSeen.ageSeconds)} ago (gauge ${lastSeen.gaugeSeconds}${skew})`;
	}

	if (lastSeen.countUnchangedSeconds !== null) {
		return `no gauge; relist count unchanged for ${formatAge(lastSeen.countUnchangedSeconds)}`;
	}

	return missing;
}

function constantText(constant: SourceConstant): string {
	// A null location always comes with the note "not read for this version".
	const details = [constant.name, constant.location].filter(Boolean).join(', ');
	const note = constant.note === null ? '' : `; ${constant.note}`;
	return `${formatGoDuration(constant.seconds)} (${details}${note})`;
}

/** A line only when the EventedPLEG gate is on: the durations it brings, or the fallback and its evidence. */
function eventedLines(constants: KubeletConstants): Array<[string, string]> {
	const checkTime = 'last seen = health-check time';
	if (constants.eventedFallback) {
		return [
			[
				'evented PLEG',
				`${constants.eventedFallback}; ${formatGoDuration(constants.period.seconds)} / ${formatGoDuration(constants.threshold.seconds)} in force; ${checkTime}`,
			],
		];
	}

	return constants.evented
		? [
				[
					'evented PLEG',
					`on: relist every ${formatGoDuration(constants.period.seconds)}, unhealthy after ${formatGoDuration(constants.threshold.seconds)}; ${checkTime}`,
				],
			]
		: [];
}

function windowText(window: DeltaFigures): string {
	const mean = window.meanSeconds === null ? 'no relist completed' : `mean ${formatSeconds(window.meanSeconds)}`;
	return `${formatSpan(window.spanSeconds)}: ${countOf(window.count, 'relist')}, ${mean}, ${formatRate(window.ratePerSecond)}`;
}

function quantilesText(window: DeltaFigures): string {
	const quantile = (label: string, value: Quantile | null) => `${label} ${formatQuantile(value)}`;
	return [quantile('p50', window.p50), quantile('p90', window.p90), quantile('p99', window.p99)].join(', ');
}

function discardsText(figures: Figures): string {
	const total = discardTotal(figures);
	const inWindow = figures.window?.discardEvents ?? null;
	return total === null ? missing : `${formatCount(total)} total, ${inWindow === null ? missing : formatCount(inWindow)} in window`;
}
