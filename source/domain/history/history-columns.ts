// The history of a node read from Prometheus, kept as numbers in one Float64Array (time, window mean, last-seen age
// per point) instead of one object per point. For a large fleet, objects (a HistoryPoint and three boxed doubles)
// were heap the garbage collector walked on every full collection, and each refresh added an object a node that
// died old; here a point is three doubles the collector never looks into.
//
// Successive immutable states share one buffer, used as a ring once it is full: appending writes in place when
// nobody has appended past `end` yet (otherwise it copies), over the oldest point, which the new state no longer
// holds. A buffer doubles while the history grows, up to the limit and a little room; after that it is never
// replaced. A buffer whose points moved to a new one whenever it filled made garbage at a steady rate (buffers dead
// until a full collection) and, as all nodes filled in step, in bursts.
// An older state reads its points as long as fewer than `room` points were appended after it (the screens hold a
// state for a frame or two, far under the room of 8 points or more).
import type {LogView} from './bounded-log.js';
import type {HistoryPoint} from '../types.js';

/** Numbers per point: at (ms), window mean (s, NaN for null), last-seen age (s, NaN for null). */
const stride = 3;

/** `filled`: how many points were ever written, the index one past the newest; point i lies at i mod capacity. */
type Store = {readonly values: Float64Array; filled: number};

export type HistoryColumns = {
	readonly buffer: Store;
	/** Live points [start, end), counted from the buffer's first point ever written. */
	readonly start: number;
	readonly end: number;
};

export function emptyColumns(): HistoryColumns {
	return {buffer: {values: new Float64Array(0), filled: 0}, start: 0, end: 0};
}

function columnsSize(columns: HistoryColumns): number {
	return columns.end - columns.start;
}

/** Points a full buffer holds past the limit: an eighth of it, at least 8 (what older states read safely). */
export function roomPastLimit(keep: number): number {
	return Math.max(8, keep >> 3);
}

const toNumber = (value: number | null) => value ?? Number.NaN;
const toValue = (value: number) => (Number.isNaN(value) ? null : value);
const capacityOf = (buffer: Store) => buffer.values.length / stride;

/** Appends the point (its event is dropped: a Prometheus history has none), then keeps the newest `limit`. */
export function appendColumns(columns: HistoryColumns, point: HistoryPoint, limit: number): HistoryColumns {
	const keep = Math.max(1, limit);
	const full = keep + roomPastLimit(keep);
	let {buffer, start, end} = columns;
	const from = Math.max(start, end + 1 - keep);
	const live = end + 1 - from;
	const capacity = capacityOf(buffer);
	// Shared past our end, too small for the points kept, or sized for a larger limit: the newest points move to a
	// buffer of their own, twice their count while the history grows, then the limit and its room.
	if (buffer.filled !== end || live > capacity || capacity > full) {
		const size = Math.min(full, Math.max(16, 2 * live));
		const values = new Float64Array(size * stride);
		for (let index = from; index < end; index++) values.set(pointAt(buffer, index), (index - from) * stride);
		buffer = {values, filled: end - from};
		end -= from;
		start = 0;
	}

	const at = (end % capacityOf(buffer)) * stride;
	buffer.values[at] = point.at;
	buffer.values[at + 1] = toNumber(point.windowMeanSeconds);
	buffer.values[at + 2] = toNumber(point.lastSeenAgeSeconds);
	end++;
	buffer.filled = end;
	return {buffer, start: Math.max(start, end - keep), end};
}

/** The three numbers of point `index` (a view, no copy). */
function pointAt(buffer: Store, index: number): Float64Array {
	const at = (index % capacityOf(buffer)) * stride;
	return buffer.values.subarray(at, at + stride);
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
	for (let index = 0; index < live.length; index++) joined = appendColumns(joined, live.at(index)!, limit); // in bounds
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
			const at = ((start + index) % capacityOf(buffer)) * stride;
			const {values} = buffer;
			const time = values[at]!; // in bounds
			return {
				at: time,
				windowMeanSeconds: toValue(values[at + 1]!), // in bounds
				lastSeenAgeSeconds: toValue(values[at + 2]!), // in bounds
				event: time === historyEndAt ? 'history' : null,
			};
		},
	};
}
