import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {cellWidth, fitItems, flowItems, lineText, lineWidth, seg, wrapWords} from '../../../source/screen/layout/line.js';
import {paneRows} from '../../helpers/pane-rows.js';

describe('fitItems', () => {
	test('keeps items in order and skips whole items that would overflow', () => {
		const items = [[seg('mean 4.2 ms')], [seg('p99 ≥ 10 s')], [seg('rate 0.98/s')]];
		// 11 + 3 + 10 = 24 fits 24; adding " · rate 0.98/s" (3 + 11) would make 38.
		assert.equal(lineText(fitItems(items, 24)), 'mean 4.2 ms · p99 ≥ 10 s');
		// At 23: p99 needs 11 + 3 + 10 = 24, rate 11 + 3 + 11 = 25: both skipped.
		assert.equal(lineText(fitItems(items, 23)), 'mean 4.2 ms');
		assert.equal(lineText(fitItems(items, 10)), 'p99 ≥ 10 s');
	});
});

describe('flowItems', () => {
	test('breaks between items only, indenting continuation rows', () => {
		const rows = flowItems([[seg('relist period 1s')], [seg('pkg/kubelet/kubelet.go:178')], [seg('genericPlegRelistPeriod')]], 30);
		assert.deepEqual(rows.map(lineText), ['relist period 1s', '  pkg/kubelet/kubelet.go:178', '  genericPlegRelistPeriod']);
		assert.ok(rows.every((row) => lineWidth(row) <= 30));
	});

	test('an item wider than the row is left out', () => {
		const rows = flowItems([[seg('short')], [seg('x'.repeat(40))]], 20);
		assert.deepEqual(rows.map(lineText), ['short']);
	});
});

describe('wrapWords', () => {
	const message = 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s';

	test('breaks at spaces so durations stay whole', () => {
		const rows = wrapWords(message, 40, 3, undefined, 2).map(lineText);
		assert.deepEqual(rows, ['PLEG is not healthy: pleg was last seen', '  active 3m1s ago; threshold is 3m0s']);
	});

	test('ends with an ellipsis after a whole word when rows run out', () => {
		const rows = wrapWords(message, 30, 1).map(lineText);
		assert.deepEqual(rows, ['PLEG is not healthy: pleg …']);
	});
});

describe('cellWidth', () => {
	test('counts terminal cells, not code points: wide CJK, zero-width combining marks', () => {
		assert.equal(cellWidth('node-1'), 6);
		assert.equal(cellWidth('ノード'), 6);
		assert.equal(cellWidth('e\u0301'), 1);
		assert.equal(cellWidth('✓ ok · █'), 8);
	});

	test('a wrapped word cut to the width counts wide characters as two cells', () => {
		// "ノードノードノード" is 18 cells: cut to 7 it keeps three characters (6 cells) and the ellipsis.
		const [row] = wrapWords('ノードノードノード', 7, 1);
		assert.equal(lineText(row!), 'ノード…');
		assert.ok(lineWidth(row!) <= 7);
	});
});

describe("paneRows (how the pane tests read a builder's rows)", () => {
	test("each row's segments side by side, trailing blanks dropped as on the screen", () => {
		assert.deepEqual(paneRows([[seg('mean '), seg('4.2 ms', 'value'), seg('   ')], [], [seg('p99 ≥ 10 s')]], 14), [
			'mean 4.2 ms',
			'',
			'p99 ≥ 10 s',
		]);
	});

	test('a row wider than the pane fails the test, naming it (the renderer would cut it silently)', () => {
		// "界" takes two cells: 3 + 2 = 5 > 4.
		assert.throws(() => paneRows([[seg('ok')], [seg('abc'), seg('界')]], 4), {
			message: "row 2 is 5 cells, wider than the pane's 4: abc界",
		});
	});
});
