// A Prometheus node's history in one Float64Array: the points read back as they went in (null kept as null), the
// newest `limit` kept, and a state keeps its points when a later state appends, or when two states append apart.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {appendColumns, columnsView, emptyColumns, staggerOf, type HistoryColumns} from '../../source/domain/history-columns.js';
import type {HistoryPoint} from '../../source/domain/types.js';

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

test('the newest `limit` points are kept across many buffer moves', () => {
	const ats = Array.from({length: 1000}, (_, i) => i * 1000);
	const log = appendAll(emptyColumns(), ats, 7);
	assert.deepEqual(
		points(log).map((each) => each.at),
		ats.slice(-7),
	);
	// 7 points and a quarter of room (at least 8) in the buffer: never the whole run.
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

test('stagger sets the room past the limit: 0.5 to 1.5 times a quarter of it; staggerOf is fixed per name and spread', () => {
	assert.equal(
		appendAll(
			emptyColumns(),
			Array.from({length: 300}, (_, i) => i),
			100,
		).buffer.values.length / 3,
		125,
	);
	const roomOf = (stagger: number) =>
		Array.from({length: 300}, (_, i) => i).reduce((log, at) => appendColumns(log, point(at), 100, stagger), emptyColumns()).buffer.values
			.length / 3;
	assert.deepEqual([roomOf(0), roomOf(0.5), roomOf(0.999)], [112, 125, 137]);
	assert.equal(staggerOf('node-00042'), staggerOf('node-00042'));
	// 10,000 names in ten buckets of [0, 1): none far from a tenth.
	const buckets = Array.from({length: 10}, () => 0);
	for (let i = 0; i < 10_000; i++) buckets[Math.floor(staggerOf(`node-${String(i).padStart(5, '0')}`) * 10)]!++;
	assert.ok(Math.min(...buckets) > 800 && Math.max(...buckets) < 1200, buckets.join(' '));
});
