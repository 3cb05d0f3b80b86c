import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	appendToLog,
	dropFromLog,
	emptyLog,
	logAt,
	logLast,
	logSize,
	logToArray,
	logView,
	replaceLast,
	type BoundedLog,
} from '../../../source/domain/history/bounded-log.js';

function appendAll(log: BoundedLog<number>, items: number[], limit?: number): BoundedLog<number> {
	return items.reduce((current, item) => appendToLog(current, item, limit), log);
}

describe('BoundedLog', () => {
	test('appends in place and keeps the newest `limit` items', () => {
		const log = appendAll(emptyLog(), [1, 2, 3, 4, 5, 6, 7], 3);
		assert.deepEqual(logToArray(log), [5, 6, 7]);
		assert.equal(logSize(log), 3);
		assert.equal(logAt(log, 0), 5);
		assert.equal(logLast(log), 7);
		assert.equal(logAt(log, 3), undefined);
	});

	test('older views never change', () => {
		const a = appendAll(emptyLog(), [1, 2]);
		const b = appendToLog(a, 3); // extends the shared array in place
		const c = appendToLog(a, 4); // a branch from `a`: must copy, not overwrite b's item
		assert.deepEqual(logToArray(a), [1, 2]);
		assert.deepEqual(logToArray(b), [1, 2, 3]);
		assert.deepEqual(logToArray(c), [1, 2, 4]);
	});

	test('the dead prefix is cut once it outgrows the live part: the backing array stays bounded', () => {
		// 10 000 appends with limit 100: without cutting, the backing array would hold 10 000 items.
		const log = appendAll(
			emptyLog(),
			Array.from({length: 10_000}, (_, i) => i),
			100,
		);
		assert.deepEqual(
			logToArray(log),
			Array.from({length: 100}, (_, i) => 9900 + i),
		);
		assert.ok(log.items.length <= 2 * 100 + 1, `backing array ${log.items.length}`);
	});

	test('appends copy O(1) items on average', () => {
		// A new backing array means its live items were copied: add up their number over 1 000 appends, limit 50.
		let copied = 0;
		let log = emptyLog<number>();
		for (let i = 0; i < 1000; i++) {
			const next = appendToLog(log, i, 50);
			if (next.items !== log.items) {
				copied += next.items.length;
			}

			log = next;
		}

		// Each cut copies ≤ 50 live items and happens at most once every ~50 appends: about 1 copy per append.
		assert.ok(copied > 0 && copied <= 1000, `copied ${copied} items for 1000 appends`);
	});

	test('a view reads the live items oldest first, as the array would, and later appends do not reach it', () => {
		const log = appendAll(emptyLog(), [1, 2, 3, 4, 5, 6], 4);
		const view = logView(log);
		assert.equal(view.length, 4);
		const read = Array.from({length: view.length}, (_, index) => view.at(index));
		assert.deepEqual(read, logToArray(log));
		assert.deepEqual(read, [3, 4, 5, 6]);
		assert.equal(view.at(-1), undefined);
		assert.equal(view.at(4), undefined);
		// The next scrape extends the shared array in place: this view still ends where its log ended.
		appendToLog(log, 7, 4);
		assert.equal(view.at(4), undefined);
		assert.equal(view.at(3), 6);
	});

	test('drop and replaceLast', () => {
		const log = appendAll(emptyLog(), [1, 2, 3, 4]);
		assert.deepEqual(logToArray(dropFromLog(log, 2)), [3, 4]);
		assert.deepEqual(logToArray(dropFromLog(log, 9)), []);
		const replaced = replaceLast(log, 40);
		assert.deepEqual(logToArray(replaced), [1, 2, 3, 40]);
		assert.deepEqual(logToArray(log), [1, 2, 3, 4]);
		assert.deepEqual(logToArray(replaceLast(emptyLog<number>(), 1)), []);
	});
});
