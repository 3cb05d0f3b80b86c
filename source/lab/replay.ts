// `--replay FILE`: a recording served as /metrics text in its recorded timing (scaled by --speed), so the same
// poller, parse, feed and screen run on it as on a live node. It also supplies the clock: recorded time, moving
// `speed` times faster than the real one, re-anchored on each served line so a scrape's time is the recorded
// one (to the millisecond), and never past the next line's time (a replay that falls behind slows down rather than skipping lines).
// The records are pulled one at a time as the replay reaches them (the file is streamed, never held whole): only the
// line last served and the next one are kept.
import {recordingFailure} from './recorder.js';
import {recordedNode, recordExposition, type RecordLine} from './recording.js';
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
};

export function createReplaySource(options: ReplayOptions): ReplaySource {
	const {speed} = options;
	const {realNow} = options;
	const sleep = options.sleep ?? abortableSleep;
	const reader = options.records[Symbol.iterator]();
	const pull = (): RecordLine | null => {
		const step = reader.next();
		return step.done ? null : step.value;
	};

	const first = pull();
	if (!first) throw new RangeError('the recording has no lines');
	const listeners = new Set<(at: number) => void>();
	/** The line to serve next (number `next`, 0-based; null once all are served) and the one served before it. */
	let upcoming: RecordLine | null = first;
	let served: RecordLine | null = null;
	let next = 0;
	let markShownFor = -1;
	/** A bad line met while reading ahead: said by the next fetch (the figures so far stay), and the replay ends there. */
	let broken: Error | null = null;
	// The clock: recorded time `anchor` at real time `anchorReal`.
	let anchor = first.at;
	let anchorReal = realNow();
	let endReached: () => void = () => undefined;
	const ended = new Promise<void>((resolve) => {
		endReached = resolve;
	});

	/** Recorded time the replay must not pass before serving line `next`: its mark, else its scrape. */
	const limit = () => {
		if (!upcoming) return served!.at;
		return markShownFor === next ? upcoming.at : (markTime(upcoming, served) ?? upcoming.at);
	};

	const reanchor = (at: number) => {
		anchor = at;
		anchorReal = realNow();
	};

	// Between serving a line and the poller reading the clock for the scrape's time, the payload is parsed:
	// the clock holds still until that first read, however long the parse takes (a loaded machine can take tens of
	// ms, which at ×100 would be seconds of recorded time), so the scrape's time is exactly the recorded one.
	// Other reads of the clock in the few milliseconds after that first read (the Node read resolving in that turn)
	// see the same held time.
	let held: number | null = null;
	/** Real time of the first read of the held time; null until it is read. */
	let heldAt: number | null = null;
	const hold = (at: number) => {
		held = at;
		heldAt = null;
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

	/** Waits until the replay clock reaches `at` (recorded ms), skipping gaps longer than maxReplayGapMs. */
	const waitUntil = async (at: number, signal: AbortSignal) => {
		const gap = at - now();
		if (gap > 0) await sleep(Math.min(gap, maxReplayGapMs) / speed, signal);
		if (at - now() > 0) reanchor(at);
	};

	const markTime = (record: RecordLine, previous: RecordLine | null): number | null => {
		if (!record.mark) return null;
		// A hand-written line may carry `mark` alone: put the mark at the previous line, whose scrape it keeps.
		return Math.min(record.markAt ?? previous?.at ?? record.at, record.at);
	};

	return {
		label: `replay of ${options.file} (node ${first.node}, recorded ${first.time}) ×${speed}`,
		node: first.node,
		ended,
		records: options.records,
		now,
		onMark(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		async fetchMetrics(signal) {
			signal.throwIfAborted();
			if (broken !== null) {
				const error = broken;
				broken = null;
				throw error;
			}

			const index = next;
			const record = upcoming;
			if (!record) {
				endReached();
				// Nothing more to show: stay open (the screen keeps the last figures) until the poller stops.
				return new Promise<string>((_resolve, reject) => {
					signal.addEventListener('abort', () => reject(signal.reason), {once: true});
				});
			}

			const markAt = markTime(record, served);
			if (markAt !== null && markShownFor !== index) {
				await waitUntil(markAt, signal);
				// Listeners read the clock for the mark's time: hold it at the recorded one while they run.
				hold(markAt);
				for (const listener of listeners) listener(markAt);
				markShownFor = index;
			}

			await waitUntil(record.at, signal);
			next = index + 1;
			served = record;
			// One line ahead, for the clock's limit.
			try {
				upcoming = pull();
			} catch (error) {
				upcoming = null;
				broken = recordingFailure(options.file, error);
			}

			reanchor(record.at);
			hold(record.at);
			return recordExposition(record);
		},
		close() {
			// Closes the file the records are read from.
			reader.return?.();
		},
		async fetchNode(signal): Promise<NodeInfo> {
			signal.throwIfAborted();
			return recordedNode(served ?? first);
		},
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
export const cadenceLines = 1000;

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
