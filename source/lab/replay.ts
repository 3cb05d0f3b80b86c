// `--replay FILE`: a recording served as /metrics text in its recorded timing (scaled by --speed), so the same
// poller, parse, feed and screen run on it as on a live node. It also supplies the clock: recorded time, moving
// `speed` times faster than the real one, re-anchored on each served line so a scrape's time is the recorded
// one (to the millisecond), and never past the next line's time (a replay that falls behind slows down rather than skipping lines).
// The records are pulled one at a time as the replay reaches them (the file is streamed, never held whole): only the
// line last served and the next one are kept.
import {recordingFailure} from './recorder.js';
import {recordedDate, recordedNode, recordExposition, type RecordLine} from './recording.js';
import type {MetricsSource, NodeInfo} from '../domain/types.js';

/** Real ms the clock stays at a served line's recorded time once first read: the reads of that turn. */
const holdMs = 5;

/** Longest recorded gap the replay waits out, ms: longer gaps (two sessions appended to one file) are skipped. */
export const maxReplayGapMs = 60_000;

export type ReplayOptions = {
	/** The recording, oldest first; read as far as the replay has reached, one record ahead. */
	records: Iterable<RecordLine>;
	/** Recorded seconds per real second. */
	speed: number;
	/** Shown in the header. */
	file: string;
	/** The real clock, ms (the engine's). */
	realNow: () => number;
	/** Waits `ms` real milliseconds or until `signal` aborts (then rejects). Default setTimeout. */
	sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

export type ReplaySource = MetricsSource & {
	/** The replay clock: recorded time, ms since the epoch. Pass it as the feed's `now`. */
	now: () => number;
	/** Calls `listener(markAt)` when the replay reaches a recorded `b`; returns the unsubscribe. */
	onMark: (listener: (at: number) => void) => () => void;
	/** Resolves when the poller asks for a line after the last one (all lines have been shown). */
	readonly ended: Promise<void>;
	/** The recording as given (a file's records are read afresh on each iteration). */
	readonly records: Iterable<RecordLine>;
	/** The --window the recording was made with, seconds; null in a recording that does not say. */
	readonly recordedWindowSeconds: number | null;
	/** The --interval the recording was made with, ms; null in a recording that does not say. */
	readonly recordedIntervalMs: number | null;
	/**
	 * Recorded seconds per real second over the last few real seconds, once measured: below --speed when this machine
	 * cannot parse and show the lines that fast (the replay slows rather than skipping lines). Null before a measure.
	 */
	reachedSpeed: () => number | null;
};

export function createReplaySource(options: ReplayOptions): ReplaySource {
	const lines = readAhead(options.records, options.file);
	const first = lines.upcoming;
	if (!first) throw new RangeError('the recording has no lines');
	const clock = replayClock(first.at, options, lines.limit);
	const listeners = new Set<(at: number) => void>();
	const reached = speedMeter(options.realNow);
	let endReached: () => void = () => undefined;
	const ended = new Promise<void>((resolve) => {
		endReached = resolve;
	});

	const serve = async (signal: AbortSignal): Promise<RecordLine> => {
		signal.throwIfAborted();
		lines.throwIfBroken();
		const record = lines.upcoming;
		// Nothing more to show: stay open (the screen keeps the last figures) until the poller stops.
		if (!record) return endOfRecording(endReached, signal);
		const markAt = lines.pendingMark();
		if (markAt !== null) {
			await clock.waitUntil(markAt, signal);
			// Listeners read the clock for the mark's time: hold it at the recorded one while they run.
			clock.hold(markAt);
			for (const listener of listeners) listener(markAt);
			lines.markShown();
		}

		await clock.waitUntil(record.at, signal);
		lines.advance();
		clock.reanchor(record.at);
		clock.hold(record.at);
		reached.served(record.at);
		return record;
	};

	return {
		label: `replay of ${options.file} (node ${first.node}, recorded ${first.time}) ×${options.speed}`,
		node: first.node,
		...(first.sameClock ? {sameClock: true} : {}),
		ended,
		records: options.records,
		recordedWindowSeconds: first.windowSeconds ?? null,
		recordedIntervalMs: first.intervalMs ?? null,
		now: clock.now,
		reachedSpeed: reached.speed,
		onMark(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		fetchMetrics: async (signal) => recordExposition(await serve(signal)),
		// The recorded Date: the ages are read on the node's clock as they were live.
		async fetchMetricsDated(signal) {
			const record = await serve(signal);
			return {text: recordExposition(record), dateSeconds: recordedDate(record)};
		},
		close: lines.close,
		async fetchNode(signal): Promise<NodeInfo> {
			signal.throwIfAborted();
			return recordedNode(lines.served ?? first);
		},
	};
}

/** A promise that never resolves and rejects when `signal` aborts, once `endReached` was called. */
async function endOfRecording(endReached: () => void, signal: AbortSignal): Promise<never> {
	endReached();
	return new Promise<never>((_resolve, reject) => {
		signal.addEventListener('abort', () => reject(signal.reason), {once: true});
	});
}

/**
 * The records pulled one at a time as the replay reaches them: the line to serve next (`upcoming`, number `next`,
 * 0-based; null once all are served) and the one served before it; nothing else is held. A bad line met while
 * reading ahead is said by the next serve (the figures so far stay), and the replay ends there.
 */
function readAhead(records: Iterable<RecordLine>, file: string) {
	const reader = records[Symbol.iterator]();
	const pull = (): RecordLine | null => {
		const step = reader.next();
		return step.done ? null : step.value;
	};

	const state = {upcoming: pull(), served: null as RecordLine | null, next: 0, markShownFor: -1, broken: null as Error | null}; // widened
	return {
		get upcoming() {
			return state.upcoming;
		},
		get served() {
			return state.served;
		},
		/** Recorded time the replay must not pass before serving the next line: its mark, else its scrape. */
		limit: (): number => {
			const {upcoming, served} = state;
			if (!upcoming) return served!.at; // served before the last
			return state.markShownFor === state.next ? upcoming.at : (markTime(upcoming, served) ?? upcoming.at);
		},
		/** The next line's mark time when it has one not yet shown. */
		pendingMark(): number | null {
			return state.markShownFor === state.next ? null : state.upcoming && markTime(state.upcoming, state.served);
		},
		markShown() {
			state.markShownFor = state.next;
		},
		throwIfBroken() {
			const error = state.broken;
			state.broken = null;
			if (error !== null) throw error;
		},
		/** The upcoming line was served: read one line ahead, for the clock's limit. */
		advance() {
			state.served = state.upcoming;
			state.next++;
			try {
				state.upcoming = pull();
			} catch (error) {
				state.upcoming = null;
				state.broken = recordingFailure(file, error);
			}
		},
		/** Closes the file the records are read from. */
		close: () => {
			reader.return?.();
		},
	};
}

function markTime(record: RecordLine, previous: RecordLine | null): number | null {
	if (!record.mark) return null;
	// A hand-written line may carry `mark` alone: put the mark at the previous line, whose scrape it keeps.
	return Math.min(record.markAt ?? previous?.at ?? record.at, record.at);
}

/**
 * The replay clock: recorded time `anchor` at real time `anchorReal`, moving `speed` times faster than the real
 * one and never past `limit()` (the next line's time).
 */
function replayClock(start: number, {speed, realNow, sleep = abortableSleep}: ReplayOptions, limit: () => number) {
	let anchor = start;
	let anchorReal = realNow();
	// Between serving a line and the poller reading the clock for the scrape's time, the payload is parsed:
	// the clock holds still until that first read, however long the parse takes (a loaded machine can take tens of
	// ms, which at ×100 would be seconds of recorded time), so the scrape's time is exactly the recorded one.
	// Other reads of the clock in the few milliseconds after that first read (the Node read resolving in that turn)
	// see the same held time.
	let held: number | null = null;
	/** Real time of the first read of the held time; null until it is read. */
	let heldAt: number | null = null;
	const reanchor = (at: number) => {
		anchor = at;
		anchorReal = realNow();
	};

	const now = () => {
		if (held !== null) {
			heldAt ??= realNow();
			if (realNow() - heldAt <= holdMs) return held;
			anchor = held;
			anchorReal = heldAt;
			held = null;
		}

		return Math.min(anchor + (realNow() - anchorReal) * speed, Math.max(anchor, limit()));
	};

	return {
		now,
		reanchor,
		hold(at: number) {
			held = at;
			heldAt = null;
		},
		/** Waits until the replay clock reaches `at` (recorded ms), skipping gaps longer than maxReplayGapMs. */
		async waitUntil(at: number, signal: AbortSignal) {
			const gap = at - now();
			if (gap > 0) await sleep(Math.min(gap, maxReplayGapMs) / speed, signal);
			if (at - now() > 0) reanchor(at);
		},
	};
}

/** Real ms over which the reached speed is measured. */
const meterMs = 2000;

/**
 * Recorded ms served per real ms, measured over at least meterMs of real time of lines served back to back: a
 * pause, or lines due further apart than that, start the measure again rather than read as a slow replay.
 */
function speedMeter(realNow: () => number) {
	let from: {real: number; at: number} | null = null;
	let lastReal = -Infinity;
	let speed: number | null = null;
	return {
		served(at: number) {
			const real = realNow();
			const apart = real - lastReal > meterMs;
			lastReal = real;
			if (from === null || apart || at < from.at) {
				from = {real, at};
				return;
			}

			if (real - from.real >= meterMs) {
				speed = (at - from.at) / (real - from.real);
				from = {real, at};
			}
		},
		speed: () => speed,
	};
}

async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal.reason);
		};

		const timer = setTimeout(() => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		signal.addEventListener('abort', onAbort, {once: true});
	});
}

/** Lines whose gaps give the cadence: enough for a median, few enough to read at start-up whatever the file's length. */
const cadenceLines = 1000;

/**
 * The recording's usual cadence for the status line: the median gap between its first lines (up to cadenceLines),
 * to 100 ms (at least 100 ms).
 */
export function recordedIntervalMs(records: Iterable<RecordLine>): number {
	const gaps: number[] = [];
	let previous: number | null = null;
	try {
		for (const record of records) {
			if (previous !== null) gaps.push(record.at - previous);
			previous = record.at;
			if (gaps.length >= cadenceLines) break;
		}
	} catch {
		// A bad line: the gaps before it give the cadence; the replay says what is wrong when it reaches the line.
	}

	gaps.sort((a, b) => a - b);
	const median = gaps[Math.floor(gaps.length / 2)] ?? 1000;
	return Math.max(100, Math.round(median / 100) * 100);
}
