// A Prometheus node's history in one Float64Array used as a ring: the points read back as they went in (null kept as
// null), the newest `limit` kept, the buffer never replaced once full, and a state keeps its points when a later
// state appends (fewer than the room past the limit), or when two states append apart.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
	appendColumns,
	columnsView,
	emptyColumns,
	roomPastLimit,
	type HistoryColumns,
} from '../../../source/domain/history/history-columns.js';
import type {HistoryPoint} from '../../../source/domain/types.js';

const point = (at: number, mean: number | null = at / 1000, age: number | null = 1): HistoryPoint => ({
	at,
	windowMeanSeconds: mean,
	lastSeenAgeSeconds: age,
	event: null,
});

function points(columns: HistoryColumns): HistoryPoint[] {
	const view = columnsView(columns);
	return Array.from({length: view.length}, (_, i) => view.at(i)!);
}

function appendAll(columns: HistoryColumns, ats: number[], limit: number): HistoryColumns {
	return ats.reduce((log, at) => appendColumns(log, point(at), limit), columns);
}

test('points read back as appended, nulls as null, out of range as undefined', () => {
	let log = appendColumns(emptyColumns(), point(1000, 0.012_345_678_9, 2.5), 10);
	log = appendColumns(log, point(2000, null, null), 10);
	assert.deepEqual(points(log), [
		{at: 1000, windowMeanSeconds: 0.012_345_678_9, lastSeenAgeSeconds: 2.5, event: null},
		{at: 2000, windowMeanSeconds: null, lastSeenAgeSeconds: null, event: null},
	]);
	assert.equal(columnsView(log).at(2), undefined);
	assert.equal(columnsView(log).at(-1), undefined);
});

test('the newest `limit` points are kept across many turns of the ring', () => {
	const ats = Array.from({length: 1000}, (_, i) => i * 1000);
	const log = appendAll(emptyColumns(), ats, 7);
	assert.deepEqual(
		points(log).map((each) => each.at),
		ats.slice(-7),
	);
	// 7 points and their room (at least 8) in the buffer: never the whole run.
	assert.equal(log.buffer.values.length, (7 + 8) * 3);
});

test('an older state keeps its points when a later one appends, and when it appends apart from it', () => {
	const base = appendAll(emptyColumns(), [1, 2, 3], 5);
	const later = appendAll(base, [4, 5], 5);
	const apart = appendColumns(base, point(40), 5);
	assert.deepEqual(
		points(base).map((each) => each.at),
		[1, 2, 3],
	);
	assert.deepEqual(
		points(later).map((each) => each.at),
		[1, 2, 3, 4, 5],
	);
	assert.deepEqual(
		points(apart).map((each) => each.at),
		[1, 2, 3, 40],
	);
	assert.deepEqual(
		points(appendColumns(later, point(6), 5)).map((each) => each.at),
		[2, 3, 4, 5, 6],
	);
});

test('a smaller limit (the fleet grew) drops the oldest points at the next append', () => {
	const log = appendAll(emptyColumns(), [1, 2, 3, 4, 5, 6], 10);
	assert.deepEqual(
		points(appendColumns(log, point(7), 3)).map((each) => each.at),
		[5, 6, 7],
	);
});

test('once full the buffer is never replaced: 100 points and an eighth of room, written over in turn', () => {
	assert.deepEqual([1, 64, 100, 3600].map(roomPastLimit), [8, 8, 12, 450]);
	let log = appendAll(
		emptyColumns(),
		Array.from({length: 112}, (_, i) => i),
		100,
	);
	const {buffer} = log;
	assert.equal(buffer.values.length, 112 * 3);
	for (let at = 112; at < 1000; at++) {
		log = appendColumns(log, point(at), 100);
		assert.equal(log.buffer, buffer);
	}

	assert.deepEqual(
		points(log).map((each) => each.at),
		Array.from({length: 100}, (_, i) => 900 + i),
	);
});

test('an older state reads its points while a later one appends up to the room past the limit', () => {
	const older = appendAll(
		emptyColumns(),
		Array.from({length: 150}, (_, i) => i),
		100,
	);
	const expected = points(older);
	let later = older;
	for (let at = 150; at < 150 + roomPastLimit(100) - 1; at++) later = appendColumns(later, point(at), 100);
	assert.equal(later.buffer, older.buffer);
	assert.deepEqual(points(older), expected);
});
