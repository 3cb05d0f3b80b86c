// The history of a node read from Prometheus, kept as numbers in one Float64Array (time, window mean, last-seen age
// per point) instead of one object per point. A fleet of 10,000 nodes kept 2,000,000 points when this was written:
// as objects (a HistoryPoint and three boxed doubles, about 64 bytes) that was over 120 MiB of heap the garbage
// collector walked on every full collection, and a refresh added 10,000 objects that all died old; here a point is
// 24 bytes of memory the collector never looks into.
//
// As bounded-log.ts: successive immutable states share one buffer; appending writes in place when nobody has
// appended past `end` yet (older states keep their own view, whose points never change), otherwise it copies. A
// buffer doubles as it fills, up to the limit plus about a quarter: once full, the live points move to a new buffer,
// so each point is copied O(1) times on average. How much room past the limit varies by node (`stagger`): a fleet
// whose nodes all started together and append once a refresh would otherwise move every node's points in the same
// refresh, every quarter-limit refreshes (at 10,000 nodes, 30 MB of new buffers at once while the old ones await a
// collection).
import type {LogView} from './bounded-log.js';
import type {HistoryPoint} from './types.js';

/** Numbers per point: at (ms), window mean (s, NaN for null), last-seen age (s, NaN for null). */
const stride = 3;

type Store = {readonly values: Float64Array; filled: number};

export type HistoryColumns = {
	readonly buffer: Store;
	/** Live points [start, end), in points. */
	readonly start: number;
	readonly end: number;
};

export function emptyColumns(): HistoryColumns {
	return {buffer: {values: new Float64Array(0), filled: 0}, start: 0, end: 0};
}

export function columnsSize(columns: HistoryColumns): number {
	return columns.end - columns.start;
}

const toNumber = (value: number | null) => value ?? Number.NaN;
const toValue = (value: number) => (Number.isNaN(value) ? null : value);

/**
 * Room past the limit in a full buffer: a quarter of it (at least 8 points), times 0.5 to 1.5 by `stagger`, so
 * nodes appending in step move their points in different refreshes.
 */
function roomPastLimit(keep: number, stagger: number): number {
	return Math.max(1, Math.floor(Math.max(8, keep >> 2) * (0.5 + stagger)));
}

/**
 * Appends the point (its event is dropped: a Prometheus history has none), then keeps the newest `limit`.
 * `stagger` in [0, 1), fixed per node (staggerOf), sets how much room past the limit its buffers have.
 */
export function appendColumns(columns: HistoryColumns, point: HistoryPoint, limit: number, stagger = 0.5): HistoryColumns {
	const keep = Math.max(1, limit);
	let {buffer, start, end} = columns;
	const capacity = buffer.values.length / stride;
	if (buffer.filled !== end || end >= capacity) {
		// Shared past our end, or full: the newest keep - 1 points move to a buffer of their own.
		const from = Math.max(start, end - (keep - 1));
		// Twice the points it gets, up to the limit and its room: a new node's history does not take it all at once.
		const room = Math.min(keep + roomPastLimit(keep, stagger), Math.max(16, 2 * (end - from + 1)));
		const values = new Float64Array(room * stride);
		values.set(buffer.values.subarray(from * stride, end * stride));
		buffer = {values, filled: end - from};
		start = 0;
		end = buffer.filled;
	}

	const at = end * stride;
	buffer.values[at] = point.at;
	buffer.values[at + 1] = toNumber(point.windowMeanSeconds);
	buffer.values[at + 2] = toNumber(point.lastSeenAgeSeconds);
	end++;
	buffer.filled = end;
	return {buffer, start: Math.max(start, end - keep), end};
}

/**
 * The points read from Prometheus at start (--prometheus NODE), older than every live point, put before them; the
 * newest `limit` kept. Returns the columns and the time of the last point put in (null: none was older).
 */
export function columnsAfter(
	points: readonly HistoryPoint[],
	columns: HistoryColumns,
	limit: number,
): {columns: HistoryColumns; lastAt: number | null} {
	const live = columnsView(columns);
	const firstLiveAt = live.at(0)?.at ?? Infinity;
	const older = points.filter((point) => point.at < firstLiveAt);
	let joined = emptyColumns();
	for (const point of older) joined = appendColumns(joined, point, limit);
	for (let index = 0; index < live.length; index++) joined = appendColumns(joined, live.at(index)!, limit);
	return {columns: joined, lastAt: older.at(-1)?.at ?? null};
}

/**
 * Read access to the live points, oldest first (a point object is made for each read); the point at `historyEndAt`
 * (the last one from Prometheus' history) carries the `history` event the chart marks.
 */
export function columnsView(columns: HistoryColumns, historyEndAt: number | null = null): LogView<HistoryPoint> {
	const {buffer, start} = columns;
	const length = columnsSize(columns);
	return {
		length,
		at(index) {
			if (index < 0 || index >= length) return undefined;
			const at = (start + index) * stride;
			const {values} = buffer;
			const time = values[at]!;
			return {
				at: time,
				windowMeanSeconds: toValue(values[at + 1]!),
				lastSeenAgeSeconds: toValue(values[at + 2]!),
				event: time === historyEndAt ? 'history' : null,
			};
		},
	};
}

/** A node's stagger in [0, 1): its name hashed (FNV-1a, then mixed so names that differ in one digit spread), the same on every run. */
export function staggerOf(name: string): number {
	let hash = 0x81_1c_9d_c5;
	for (let index = 0; index < name.length; index++) {
		hash ^= name.charCodeAt(index);
		hash = Math.imul(hash, 0x01_00_01_93);
	}

	// MurmurHash3's finalizer: FNV-1a's high bits barely move with the last character.
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x85_eb_ca_6b);
	hash ^= hash >>> 13;
	hash = Math.imul(hash, 0xc2_b2_ae_35);
	hash ^= hash >>> 16;
	return (hash >>> 0) / 2 ** 32;
}
