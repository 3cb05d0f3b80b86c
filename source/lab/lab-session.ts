// The churn exercise as one fold over a session's scrapes and baseline marks: the same feed reducer and
// figuresAt() as the screen, plus what the screen does not keep: a plot point per scrape for the whole session,
// the segments between marks (before the first mark, then each mark to the next) and every span in which the
// kubelet's health rule failed. Used live (fed by the poller), by --record, and to summarise a recording.
// Each scrape folds in only the rule and the window (what figuresAt() derives them from); the full figures of a
// scrape are computed when asked for (a --record line, the summary), from the feed as that scrape left it.
// No I/O, no clock: every time comes with a call.
import {logLast} from '../domain/history/bounded-log.js';
import {feedReducer, figuresAt, initialFeedState, ruleAt, windowFigures, type FeedState, type Rule} from '../domain/feed.js';
import {deltaFigures} from '../domain/histogram/window.js';
import type {DeltaFigures, Figures, LastSeen, NodeInfo, Quantile, Scrape} from '../domain/types.js';

/** One plot point per scrape: the windowed figures and the age the screen showed then. Seconds. */
export type LabPoint = {
	at: number;
	meanSeconds: number | null;
	p99: Quantile | null;
	lastSeenAgeSeconds: number | null;
	event: 'mark' | 'restart' | null;
};

/**
 * A stretch of the session: deltas from its first to its last scrape, counters corrected as the feed corrects
 * them, so a stretch spans a kubelet restart as increase() does.
 */
type Segment = {
	/** When the mark that opened it was set (ms); null for the stretch before the first mark. */
	markedAt: number | null;
	first: Scrape;
	last: Scrape;
	maxAgeSeconds: number | null;
	restarts: number;
};

export type SegmentSummary = {
	/** "baseline" before the first mark, then "mark 1", "mark 2", … */
	label: string;
	markedAt: number | null;
	from: number;
	to: number;
	/** Δ from the first to the last scrape of the segment; null when it holds a single scrape. */
	figures: DeltaFigures | null;
	/** Highest last-seen age at any scrape in it (or count-unchanged time without the gauge), seconds. */
	maxLastSeenAgeSeconds: number | null;
	/** Kubelet restarts inside it: its figures span them (counters continue, as increase() does). */
	restarts: number;
	/** Time in it during which the health rule surely failed (a lower bound: see UnhealthySpan), seconds. */
	unhealthySeconds: number;
	/** Why it failed in that time: the causes of the spans that overlap it, in the order first seen. */
	unhealthyCauses: UnhealthyCause[];
	/**
	 * When a span it holds began before its first scrape (ms): the gauge dates it, so the stretch before the first
	 * mark (and the session) counts its time from there, as the span does. Null otherwise.
	 */
	unhealthyBeforeFrom: number | null;
	/** Its first and last scrape (counters continued across restarts): for the lab's CRI call figures per phase. */
	edges?: {first: Scrape; last: Scrape};
};

/**
 * Why the kubelet's Healthy() failed at a scrape: the last successful relist started more than the threshold ago
 * (or, without the gauge, the count stayed unchanged that long), or no relist has succeeded since the kubelet
 * started ("pleg has yet to be successful": the gauge is 0, as after a kubelet restart).
 */
export type UnhealthyCause = 'threshold' | 'yet-to-be-successful';

/**
 * A stretch in which the kubelet's health rule failed (PLEG is not healthy) as the scrapes show it. Scrapes only
 * sample it, so its ends are bounded from both sides: unhealthy for at least endAtLeast - from, at most
 * healthyAgainAt - from.
 */
export type UnhealthySpan = {
	/**
	 * When the rule tripped, ms: the last successful relist start (the gauge) + the threshold. Without a usable
	 * gauge (no relist yet after a start, or a kubelet without the gauge) the first scrape that saw it.
	 */
	from: number;
	/** `from` comes from the gauge (to its second), not from a scrape. */
	fromGauge: boolean;
	/** The last scrape that saw the rule fail, ms. */
	lastUnhealthyAt: number;
	/** It lasted at least until here, ms: the last unhealthy scrape, or the start of the relist that ended it if later. */
	endAtLeast: number;
	/** The first scrape that saw it healthy again, ms; null when it was still unhealthy at the last scrape. */
	healthyAgainAt: number | null;
	/** Highest last-seen age at a scrape in it, seconds; the true maximum lies between scrapes and is at least this. */
	maxAgeSeconds: number | null;
	/** The threshold in force, seconds. */
	thresholdSeconds: number;
	/** The kubelet's words at the last unhealthy scrape. */
	message: string;
	/** Why it failed, each cause once, in the order the scrapes showed them (a restart mid-stall adds the second). */
	causes: UnhealthyCause[];
};

export type LabSummary = {
	node: string;
	/** The whole session (first to last scrape). Null before any scrape. */
	session: SegmentSummary | null;
	/** The segments in order: [baseline, mark 1, mark 2, …]; empty before any scrape. */
	segments: SegmentSummary[];
	/** Figures at the last scrape; null before any scrape. */
	figures: Figures | null;
	/** One per scrape up to maxPoints; past that, neighbours merged (thinned) so a session of any length stays bounded. */
	points: LabPoint[];
	/** Every span of the session in which the health rule failed, oldest first. */
	unhealthy: UnhealthySpan[];
};

export type LabSession = {
	/**
	 * A scrape (after the feed has it): returns the figures at it and the pending mark (ms), if `b` came before it.
	 * The figures are computed on first read of `figures` (at most once), not by the fold.
	 */
	scrape(scrape: Scrape): {figures: Figures; markAt: number | null};
	node(node: NodeInfo): void;
	/** `b`: the baseline becomes the latest scrape, as in the feed. Ignored before the first scrape. */
	mark(at: number): void;
	summary(): LabSummary;
};

export function createLabSession(options: {node: string; windowSeconds: number}): LabSession {
	let feed: FeedState = initialFeedState({node: options.node, windowSeconds: options.windowSeconds, historyLimit: 1});
	let session: Segment | null = null;
	const segments: Segment[] = [];
	let points: LabPoint[] = [];
	/** The figures at the last scrape, computed when first read. */
	let lastFigures: (() => Figures) | null = null;
	let pendingMark: number | null = null;
	const unhealthy: UnhealthySpan[] = [];
	/** The span still open at the last scrape, if any (also the last of `unhealthy`). */
	let openSpan: UnhealthySpan | null = null;

	return {
		scrape(scrape) {
			const restartsBefore = feed.restarts;
			feed = feedReducer(feed, {type: 'scrape', scrape});
			const restarted = feed.restarts > restartsBefore;
			// figuresAt(feed, scrape.at)'s constants, lastSeen and verdict (not stale: the scrape just succeeded).
			const rule = ruleAt(feed, scrape.at)!; // a scrape was just fed
			const figures = lazyFigures(feed, scrape.at);
			lastFigures = figures;
			const age = ageOf(rule.lastSeen);
			// The feed's copy, its counters continued across restarts.
			const corrected = logLast(feed.scrapes) ?? scrape;
			session = session ? extend(session, corrected, age, restarted) : open(null, corrected, age);
			const current = segments.at(-1);
			if (current) segments[segments.length - 1] = extend(current, corrected, age, restarted);
			else segments.push(open(null, corrected, age));
			openSpan = followHealth(openSpan, rule, scrape.at, age);
			if (openSpan && unhealthy.at(-1) !== openSpan) unhealthy.push(openSpan);
			// A span closed by this scrape is done: the next failure opens a new one.
			if (openSpan?.healthyAgainAt !== null) openSpan = null;
			const window = windowFigures(feed);
			const markAt = pendingMark;
			pendingMark = null;
			points.push({
				at: scrape.at,
				meanSeconds: window?.meanSeconds ?? null,
				p99: window?.p99 ?? null,
				lastSeenAgeSeconds: age,
				event: restarted ? 'restart' : null,
			});
			if (points.length > maxPoints) points = thinned(points);
			return {
				get figures() {
					return figures();
				},
				markAt,
			};
		},
		node(node) {
			feed = feedReducer(feed, {type: 'node', node});
		},
		mark(at) {
			const latest = logLast(feed.scrapes);
			const current = segments.at(-1);
			if (!latest || !current) return;
			feed = feedReducer(feed, {type: 'mark', at});
			pendingMark = at;
			const point = points.at(-1);
			if (point) point.event ??= 'mark';
			// A second `b` before any new scrape moves the mark it just set instead of opening an empty segment.
			if (current.markedAt !== null && current.first === latest) segments[segments.length - 1] = {...current, markedAt: at};
			else segments.push(open(at, latest, points.at(-1)?.lastSeenAgeSeconds ?? null));
		},
		summary() {
			const spans = unhealthy.map((span) => ({...span, causes: [...span.causes]}));
			return {
				node: options.node,
				session: session && summarise(session, 'session', spans),
				segments: segments.map((segment, index) => summarise(segment, index === 0 ? 'baseline' : `mark ${index}`, spans)),
				figures: lastFigures?.() ?? null,
				points,
				unhealthy: spans,
			};
		},
	};
}

/** Plot points kept: a day at 1 s is 86,400 scrapes, and the plot is 858 px wide, so past this they are merged in pairs. */
export const maxPoints = 4096;

/** The first point as it is, then each pair of neighbours as one: a session of any length keeps at most maxPoints. */
function thinned(points: readonly LabPoint[]): LabPoint[] {
	const out = [points[0]!]; // in bounds
	for (let index = 1; index < points.length; index += 2) {
		const [a, b] = [points[index]!, points[index + 1]]; // in bounds
		out.push(b ? merged(a, b) : a);
	}

	return out;
}

/**
 * Two neighbouring points as one at the later's time: the higher of each figure, so a peak (a slow relist, an age
 * climbing to the threshold) is never thinned away; a restart in either is kept.
 */
function merged(a: LabPoint, b: LabPoint): LabPoint {
	const higher = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));
	const p99 = !a.p99 || (b.p99 && b.p99.seconds >= a.p99.seconds) ? b.p99 : a.p99;
	const event = a.event === 'restart' || b.event === 'restart' ? 'restart' : (b.event ?? a.event);
	return {
		at: b.at,
		meanSeconds: higher(a.meanSeconds, b.meanSeconds),
		p99,
		lastSeenAgeSeconds: higher(a.lastSeenAgeSeconds, b.lastSeenAgeSeconds),
		event,
	};
}

/** figuresAt(feed, at), computed on the first call only; `feed` is immutable, so any later call gives the same. */
function lazyFigures(feed: FeedState, at: number): () => Figures {
	let figures: Figures | null = null;
	return () => (figures ??= figuresAt(feed, at)!); // after a scrape
}

/** The age the health rule uses: the last-seen gauge, else (kubelet < 1.18) time since the count changed. */
function ageOf(lastSeen: LastSeen): number | null {
	return lastSeen.ageSeconds ?? lastSeen.countUnchangedSeconds;
}

function open(markedAt: number | null, scrape: Scrape, age: number | null): Segment {
	return {markedAt, first: scrape, last: scrape, maxAgeSeconds: age, restarts: 0};
}

function extend(segment: Segment, scrape: Scrape, age: number | null, restarted: boolean): Segment {
	const maxAgeSeconds = age === null ? segment.maxAgeSeconds : Math.max(age, segment.maxAgeSeconds ?? age);
	return {...segment, last: scrape, maxAgeSeconds, restarts: segment.restarts + (restarted ? 1 : 0)};
}

/**
 * The open span after one more scrape: opened when the rule fails (the verdict pleg-top shows, which is the
 * kubelet's rule), extended while it fails, closed by the first scrape that is healthy again. A scrape that
 * cannot be judged changes nothing.
 */
function followHealth(span: UnhealthySpan | null, rule: Rule, at: number, age: number | null): UnhealthySpan | null {
	const {healthy, message} = rule.verdict;
	const thresholdSeconds = rule.constants.threshold.seconds;
	const {lastSeen} = rule;
	// The start of the last successful relist, to the gauge's second.
	const gaugeAt = lastSeen.gaugeSeconds !== null && lastSeen.ageSeconds !== null ? at - lastSeen.ageSeconds * 1000 : null;
	if (healthy === false) {
		const cause: UnhealthyCause =
			lastSeen.neverSucceeded || message.includes('yet to be successful') ? 'yet-to-be-successful' : 'threshold';
		if (span) {
			if (!span.causes.includes(cause)) span.causes.push(cause);
			span.lastUnhealthyAt = at;
			span.endAtLeast = at;
			span.maxAgeSeconds = age === null ? span.maxAgeSeconds : Math.max(age, span.maxAgeSeconds ?? age);
			span.message = message;
			return span;
		}

		// Judged by the node's own words or an unmoved count, the gauge does not say when the rule tripped.
		const fromGauge = gaugeAt !== null && rule.verdict.basis === 'last-seen';
		return {
			from: fromGauge ? gaugeAt + thresholdSeconds * 1000 : at,
			fromGauge,
			lastUnhealthyAt: at,
			endAtLeast: at,
			healthyAgainAt: null,
			maxAgeSeconds: age,
			thresholdSeconds,
			message,
			causes: [cause],
		};
	}

	if (healthy === true && span) {
		// Healthy again once the relist that started at the new gauge got its pods: not before that start.
		span.endAtLeast = Math.max(span.lastUnhealthyAt, gaugeAt ?? span.lastUnhealthyAt);
		span.healthyAgainAt = at;
	}

	return span;
}

/** Surely unhealthy time inside [from, to] (each span from its start to its lower-bound end, clipped) and its causes. */
function unhealthyWithin(from: number, to: number, spans: readonly UnhealthySpan[]): {seconds: number; causes: UnhealthyCause[]} {
	let ms = 0;
	const causes = new Set<UnhealthyCause>();
	for (const span of spans) {
		const overlap = Math.max(0, Math.min(to, span.endAtLeast) - Math.max(from, span.from));
		ms += overlap;
		if (overlap > 0) for (const cause of span.causes) causes.add(cause);
	}

	return {seconds: ms / 1000, causes: [...causes]};
}

function summarise(segment: Segment, label: string, spans: readonly UnhealthySpan[]): SegmentSummary {
	// Before the first mark nothing bounds the stretch at its start: a span the gauge dates earlier counts whole.
	const start = segment.markedAt === null ? -Infinity : segment.first.at;
	const unhealthy = unhealthyWithin(start, segment.last.at, spans);
	const earlier = spans.find((span) => span.from < segment.first.at && span.endAtLeast > start && span.from < segment.last.at);
	return {
		label,
		markedAt: segment.markedAt,
		from: segment.first.at,
		to: segment.last.at,
		figures: segment.first === segment.last ? null : deltaFigures(segment.first, segment.last),
		maxLastSeenAgeSeconds: segment.maxAgeSeconds,
		restarts: segment.restarts,
		unhealthySeconds: unhealthy.seconds,
		unhealthyCauses: unhealthy.causes,
		unhealthyBeforeFrom: segment.markedAt === null && earlier ? earlier.from : null,
		edges: {first: segment.first, last: segment.last},
	};
}
