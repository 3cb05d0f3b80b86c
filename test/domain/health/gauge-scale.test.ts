import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {constantsFor} from '../../../source/domain/health/kubelet-constants.js';
import {filledCells, gaugeMaxSeconds, tickCell, tickLabel} from '../../../source/domain/health/gauge-scale.js';

const generic = constantsFor('v1.28.0', false);

describe('gauge scale', () => {
	test('log scale from 0.5 s to 2 × threshold', () => {
		assert.equal(gaugeMaxSeconds(generic), 360);
		// 50 cells. 1 s: ln(1/0.5)/ln(360/0.5) = 0.6931/6.5793 = 0.1054 → 5.27 → 5 cells.
		assert.equal(filledCells(1, 50, generic), 5);
		// 180 s: ln(360)/ln(720) = 5.8861/6.5793 = 0.8946 → 44.73 → 45 cells.
		assert.equal(filledCells(180, 50, generic), 45);
		assert.equal(filledCells(0, 50, generic), 0);
		assert.equal(filledCells(0.5, 50, generic), 0);
		assert.equal(filledCells(-3, 50, generic), 0);
		assert.equal(filledCells(10_000, 50, generic), 50);
	});

	test('ticks sit on the last cell their value fills', () => {
		assert.equal(tickCell(1, 50, generic), 4);
		assert.equal(tickCell(180, 50, generic), 44);
	});

	test('tick labels in Go-like units', () => {
		assert.equal(tickLabel(1), '1s');
		assert.equal(tickLabel(180), '3m');
		assert.equal(tickLabel(600), '10m');
		assert.equal(tickLabel(90), '90s');
	});
});
