// `--replay FILE`: a recording served as /metrics text in its recorded timing (scaled by --speed), so the same
// poller, parse, feed and screen run on it as on a live node. It also supplies the clock: recorded time, moving
// `speed` times faster than the real one, re-anchored on each served line so a scrape's time is the recorded
// one (to the millisecond), and never past the next line's time (a replay that falls behind slows down rather than skipping lines).
import {recordedNode, recordExposition, type RecordLine} from '../lab/recording.js';
import type {MetricsSource, NodeInfo} from '../domain/types.js';

/** Longest recorded gap the replay waits out, ms: longer gaps (two sessions appended to one file) are skipped. */
export const maxReplayGapMs = 60_000;

export type ReplayOptions = {
	records: readonly RecordLine[];
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
	now(): number;
	/** Calls `listener(markAt)` when the replay reaches a recorded `b`; returns the unsubscribe. */
	onMark(listener: (at: number) => void): () => void;
	/** Resolves when the poller asks for a line after the last one (all lines have been shown). */
	readonly ended: Promise<void>;
	readonly records: readonly RecordLine[];
};

export function createReplaySource(options: ReplayOptions): ReplaySource {
	const {records, speed} = options;
	const {realNow} = options;
	const sleep = options.sleep ?? abortableSleep;
	const first = records[0];
	if (!first) throw new RangeError('the recording has no lines');
	const listeners = new Set<(at: number) => void>();
	let next = 0;
	let markShownFor = -1;
	// The clock: recorded time `anchor` at real time `anchorReal`.
	let anchor = first.at;
	let anchorReal = realNow();
	let endReached: () => void = () => undefined;
	const ended = new Promise<void>((resolve) => {
		endReached = resolve;
	});

	/** Recorded time the replay must not pass before serving line `next`: its mark, else its scrape. */
	const limit = () => {
		const record = records[next];
		if (!record) return records.at(-1)!.at;
		return markShownFor === next ? record.at : (markTime(next) ?? record.at);
	};

	const reanchor = (at: number) => {
		anchor = at;
		anchorReal = realNow();
	};

	// Between serving a line and the poller reading the clock for the scrape's time, the payload is parsed:
	// the clock holds still until that first read, so the scrape's time is exactly the recorded one.
	let held: number | null = null;
	const now = () => {
		if (held !== null) {
			reanchor(held);
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

	const markTime = (index: number): number | null => {
		const record = records[index]!;
		if (!record.mark) return null;
		// A hand-written line may carry `mark` alone: put the mark at the previous line, whose scrape it keeps.
		return Math.min(record.markAt ?? records[index - 1]?.at ?? record.at, record.at);
	};

	return {
		label: `replay of ${options.file} (node ${first.node}, recorded ${first.time}) ×${speed}`,
		node: first.node,
		records,
		ended,
		now,
		onMark(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		async fetchMetrics(signal) {
			signal.throwIfAborted();
			const index = next;
			const record = records[index];
			if (!record) {
				endReached();
				// Nothing more to show: stay open (the screen keeps the last figures) until the poller stops.
				return new Promise<string>((_resolve, reject) => {
					signal.addEventListener('abort', () => reject(signal.reason), {once: true});
				});
			}

			const markAt = markTime(index);
			if (markAt !== null && markShownFor !== index) {
				await waitUntil(markAt, signal);
				// Listeners read the clock for the mark's time: hold it at the recorded one while they run.
				held = markAt;
				for (const listener of listeners) listener(markAt);
				markShownFor = index;
			}

			await waitUntil(record.at, signal);
			next = index + 1;
			reanchor(record.at);
			held = record.at;
			return recordExposition(record);
		},
		async fetchNode(signal): Promise<NodeInfo> {
			signal.throwIfAborted();
			return recordedNode(records[Math.max(0, next - 1)]!);
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

/** The recording's usual cadence for the status line: the median gap between lines, to 100 ms (at least 100 ms). */
export function recordedIntervalMs(records: readonly RecordLine[]): number {
	const gaps = records
		.slice(1)
		.map((record, index) => record.at - records[index]!.at)
		.sort((a, b) => a - b);
	const median = gaps[Math.floor(gaps.length / 2)] ?? 1000;
	return Math.max(100, Math.round(median / 100) * 100);
}
