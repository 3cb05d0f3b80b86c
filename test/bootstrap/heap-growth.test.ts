import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {heapGrowthFlag} from '../../source/bootstrap/heap-growth.js';

describe('heapGrowthFlag', () => {
	test('pleg-top sets a 30 % growth when the user set none', () => {
		assert.equal(heapGrowthFlag([], undefined), '--heap-growing-percent=30');
		assert.equal(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512'), '--heap-growing-percent=30');
	});

	test("the user's own growth wins, as a node flag or in NODE_OPTIONS, spelt with - or _", () => {
		assert.equal(heapGrowthFlag(['--heap-growing-percent=10'], undefined), null);
		assert.equal(heapGrowthFlag([], '--inspect --heap_growing_percent=200'), null);
		assert.equal(heapGrowthFlag(['--heap-growing-percent'], undefined), null);
	});

	test('a flag that only starts the same way is not a choice', () => {
		assert.equal(heapGrowthFlag(['--heap-growing-percentage=10'], undefined), '--heap-growing-percent=30');
	});
});
