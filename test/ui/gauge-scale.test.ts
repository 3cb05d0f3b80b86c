import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {constantsFor} from '../../source/domain/kubelet-constants.js';
import {definition} from '../../source/domain/definitions.js';
import {
	filledCells,
	gaugeBand,
	gaugeMaxSeconds,
	tickCell,
	tickLabel,
	warnAfterSeconds,
} from '../../source/domain/gauge-scale.js';

const generic = constantsFor('v1.28.0', false);
const evented = constantsFor('v1.28.0', true);

describe('gauge bands', () => {
	test('warn boundary scales with the period and stops at half the threshold', () => {
		// Generic: min(5 × 1 s, 180 s / 2) = 5 s.
		assert.equal(warnAfterSeconds(generic), 5);
		// Evented: min(5 × 300 s, 600 s / 2) = 300 s.
		assert.equal(warnAfterSeconds(evented), 300);
	});

	test('ok up to 5 s, warn above, unhealthy only past the threshold (strictly, whole seconds)', () => {
		const cases: Array<[number, string]> = [
			[0, 'ok'],
			[2, 'ok'],
			[5, 'ok'],
			// 5.5 s is shown as "5 s ago": the band follows the shown whole seconds, or the screen would read "5 s ago · warn > 5s".
			[5.5, 'ok'],
			[6, 'warn'],
			[45, 'warn'],
			[180, 'warn'],
			// 180.9 s reads as 180 whole seconds: the kubelet's elapsed > 3m0s is not yet true.
			[180.9, 'warn'],
			[181, 'unhealthy'],
		];
		for (const [age, band] of cases) {
			assert.equal(gaugeBand(age, generic), band, `age ${age}`);
		}
	});

	test('evented mode is not warn between its 300 s relists', () => {
		assert.equal(gaugeBand(250, evented), 'ok');
		assert.equal(gaugeBand(301, evented), 'warn');
		assert.equal(gaugeBand(601, evented), 'unhealthy');
	});

	test('the definition quotes the same rule', () => {
		assert.match(definition('gauge-bands').formula, /min\(5 × period, threshold \/ 2\)/);
	});
});

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
