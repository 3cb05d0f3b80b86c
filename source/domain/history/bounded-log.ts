// An append-only log with a moving start, shared between successive immutable states so that appending and
// dropping from the front cost O(1) amortised, not a copy of the whole history on every scrape.
//
// A log is a view [start, end) of a backing array. Appending pushes onto the array in place when nobody has
// appended past `end` yet (older states keep their own view, whose items never change); otherwise it copies.
// Dropping moves `start`; the dead prefix is cut off once it outgrows the live part.

export type BoundedLog<T> = {
	readonly items: readonly T[];
	readonly start: number;
	readonly end: number;
};

export function emptyLog<T>(): BoundedLog<T> {
	return {items: [], start: 0, end: 0};
}

export function logSize<T>(log: BoundedLog<T>): number {
	return log.end - log.start;
}

/** The i-th live item (0 = oldest). */
export function logAt<T>(log: BoundedLog<T>, index: number): T | undefined {
	return index >= 0 && index < logSize(log) ? log.items[log.start + index] : undefined;
}

export function logLast<T>(log: BoundedLog<T>): T | undefined {
	return logAt(log, logSize(log) - 1);
}

/** Read access to a log's live items, oldest first, without a copy; an array is one too. */
export type LogView<T> = {readonly length: number; at(index: number): T | undefined};

export function logView<T>(log: BoundedLog<T>): LogView<T> {
	return {length: logSize(log), at: (index) => logAt(log, index)};
}

export function logToArray<T>(log: BoundedLog<T>): T[] {
	return log.items.slice(log.start, log.end);
}

/** Appends `item`, then drops the oldest items beyond `limit`. */
export function appendToLog<T>(log: BoundedLog<T>, item: T, limit = Infinity): BoundedLog<T> {
	let appended: BoundedLog<T>;
	if (log.items.length === log.end) {
		// Nobody has appended past this view: extend the shared array in place.
		(log.items as T[]).push(item); // owned array, shared read-only
		appended = {items: log.items, start: log.start, end: log.end + 1};
	} else {
		const items = logToArray(log);
		items.push(item);
		appended = {items, start: 0, end: items.length};
	}

	return dropFromLog(appended, Math.max(0, logSize(appended) - limit));
}

/** Drops the `count` oldest items. */
export function dropFromLog<T>(log: BoundedLog<T>, count: number): BoundedLog<T> {
	if (count <= 0) {
		return log;
	}

	const start = Math.min(log.start + count, log.end);
	// Cut the dead prefix once it is larger than the live part: each item is copied O(1) times on average.
	if (start > 32 && start > log.end - start) {
		const items = log.items.slice(start, log.end);
		return {items, start: 0, end: items.length};
	}

	return {items: log.items, start, end: log.end};
}

/** Replaces the newest item (a copy of the live part: for rare events such as a mark, not for every scrape). */
export function replaceLast<T>(log: BoundedLog<T>, item: T): BoundedLog<T> {
	if (logSize(log) === 0) {
		return log;
	}

	const items = logToArray(log);
	items[items.length - 1] = item;
	return {items, start: 0, end: items.length};
}
