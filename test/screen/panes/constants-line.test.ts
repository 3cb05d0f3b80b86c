// The kubelet source pane folded into one row (short terminals; `k` opens it again).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {constantsFor} from '../../../source/domain/health/kubelet-constants.js';
import {lineText, lineWidth} from '../../../source/screen/layout/line.js';
import {constantsSummaryLine} from '../../../source/screen/panes/constants-pane.js';

const generic = constantsFor('v1.28.0', false);

function summary(width: number, constants = generic, thresholdToMeanRatio: number | null = 180 / 0.0042): string {
	const line = constantsSummaryLine({constants, thresholdToPeriodRatio: 180, thresholdToMeanRatio, width});
	assert.ok(lineWidth(line) <= width, `${lineWidth(line)} cells > ${width}`);
	return lineText(line);
}

describe('constantsSummaryLine', () => {
	test('wide: every item, the key that opens the pane last', () => {
		// 180 s / 4.2 ms = 42,857.
		assert.equal(summary(120), 'kubelet source v1.28.0 · threshold 3m0s · relist 1s · evented off · threshold/mean ×42,857 · k details');
	});

	test('80 columns: the ratio goes first (a 25-cell item), the hint stays', () => {
		// 22 + 17 + 12 + 14 = 65 cells of items, + " · k details" 12 = 77 ≤ 80; with the ratio 102.
		assert.equal(summary(80), 'kubelet source v1.28.0 · threshold 3m0s · relist 1s · evented off · k details');
	});

	test('narrower: the threshold is the last to go', () => {
		// 22 + 3 + 14 + 3 + 9 = 51 cells, + " · k details" 12 = 63.
		assert.equal(summary(63), 'kubelet source v1.28.0 · threshold 3m0s · relist 1s · k details');
		assert.equal(summary(62), 'kubelet source v1.28.0 · threshold 3m0s · k details');
		assert.equal(summary(30), 'threshold 3m0s · k details');
	});

	test('no mean in the window: a dash, not a number', () => {
		assert.match(summary(120, generic, null), /threshold\/mean — · k details$/);
	});

	test('evented PLEG: its 10-minute threshold, and "evented on" kept before the relist period', () => {
		const evented = constantsFor('v1.28.0', true);
		assert.equal(
			summary(120, evented),
			'kubelet source v1.28.0 · threshold 10m0s · relist 5m0s · evented on · threshold/mean ×42,857 · k details',
		);
		// 22 + 3 + 15 + 3 + 10 = 53 cells, + " · k details" 12 = 65: the relist period (14 more) goes, "evented on" stays.
		assert.equal(summary(65, evented), 'kubelet source v1.28.0 · threshold 10m0s · evented on · k details');
	});

	test('the gate on but fallen back to the generic PLEG: its 3-minute threshold, and the fallback said', () => {
		const fellBack = constantsFor('v1.28.0', true, 'evented, fell back to generic after 5 stream errors');
		assert.equal(summary(100, fellBack), 'kubelet source v1.28.0 · threshold 3m0s · relist 1s · evented fell back to generic · k details');
		// 22 + 3 + 14 + 3 + 28 = 70, + " · k details" 12 = 82: the relist period goes first.
		assert.equal(summary(82, fellBack), 'kubelet source v1.28.0 · threshold 3m0s · evented fell back to generic · k details');
	});

	test('a constant with a caveat (a version not read, values derived) says so in the hint', () => {
		assert.match(summary(120, constantsFor('v1.25.0', false)), /· k details and caveats$/);
		assert.match(summary(120, constantsFor(null, false)), /· k details and caveats$/);
	});
});
