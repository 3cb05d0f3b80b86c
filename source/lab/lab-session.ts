// The churn exercise as one fold over a session's scrapes and baseline marks: the same feed reducer and
// figuresAt() as the screen, plus what the screen does not keep: a plot point per scrape for the whole session
// and the segments between marks (idle before the first mark, then each mark to the next). Used live (fed
// by the poller), by --record, and to summarise a recording. No I/O, no clock: every time comes with a call.
import {feedReducer, figuresAt, initialFeedState, type FeedState} from '../domain/feed.js';
import {deltaFigures} from '../domain/window.js';
import type {DeltaFigures, Figures, LastSeen, NodeInfo, Quantile, Scrape} from '../domain/types.js';

/** One plot point per scrape: the windowed figures and the age the screen showed then. Seconds. */
export type LabPoint = {
	at: number;
	meanSeconds: number | null;
	p99: Quantile | null;
	lastSeenAgeSeconds: number | null;
	event: 'mark' | 'restart' | null;
};

/** A stretch of the session: deltas from its first to its last scrape (after the last kubelet restart in it). */
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
	/** Kubelet restarts inside it: the figures cover the part after the last one. */
	restarts: number;
};

export type LabSummary = {
	node: string;
	/** The whole session (first to last scrape). Null before any scrape. */
	session: SegmentSummary | null;
	/** The segments in order: [baseline, mark 1, mark 2, …]; empty before any scrape. */
	segments: SegmentSummary[];
	/** Figures at the last scrape; null before any scrape. */
	figures: Figures | null;
	points: LabPoint[];
};

export type LabSession = {
	/** A scrape (after the feed has it): returns the figures at it and the pending mark (ms), if `b` came before it. */
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
	const points: LabPoint[] = [];
	let figures: Figures | null = null;
	let pendingMark: number | null = null;

	return {
		scrape(scrape) {
			const restartsBefore = feed.restarts;
			feed = feedReducer(feed, {type: 'scrape', scrape});
			const restarted = feed.restarts > restartsBefore;
			figures = figuresAt(feed, scrape.at)!;
			const age = ageOf(figures.lastSeen);
			session = session ? extend(session, scrape, age, restarted) : open(null, scrape, age);
			const current = segments.at(-1);
			if (current) segments[segments.length - 1] = extend(current, scrape, age, restarted);
			else segments.push(open(null, scrape, age));
			const window = figures.window;
			const markAt = pendingMark;
			pendingMark = null;
			points.push({
				at: scrape.at,
				meanSeconds: window?.meanSeconds ?? null,
				p99: window?.p99 ?? null,
				lastSeenAgeSeconds: age,
				event: restarted ? 'restart' : null,
			});
			return {figures, markAt};
		},
		node(node) {
			feed = feedReducer(feed, {type: 'node', node});
		},
		mark(at) {
			const latest = feed.latest;
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
			return {
				node: options.node,
				session: session && summarise(session, 'session'),
				segments: segments.map((segment, index) => summarise(segment, index === 0 ? 'baseline' : `mark ${index}`)),
				figures,
				points,
			};
		},
	};
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
	// After a restart the counters start again from 0: the deltas can only be taken from this scrape on.
	return restarted
		? {...segment, first: scrape, last: scrape, maxAgeSeconds, restarts: segment.restarts + 1}
		: {...segment, last: scrape, maxAgeSeconds};
}

function summarise(segment: Segment, label: string): SegmentSummary {
	return {
		label,
		markedAt: segment.markedAt,
		from: segment.first.at,
		to: segment.last.at,
		figures: segment.first === segment.last ? null : deltaFigures(segment.first, segment.last),
		maxLastSeenAgeSeconds: segment.maxAgeSeconds,
		restarts: segment.restarts,
	};
}
