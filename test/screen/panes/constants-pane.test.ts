import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {constantsFor} from '../../../source/domain/health/kubelet-constants.js';
import {constantsPaneLines} from '../../../source/screen/panes/constants-pane.js';
import {paneFrame} from '../../helpers/pane-rows.js';

function pane(version: string, options: {evented?: boolean; fallback?: string; meanRatio?: number | null; width?: number} = {}): string {
	const width = options.width ?? 44;
	const constants = constantsFor(version, options.evented ?? false, options.fallback ?? null);
	return paneFrame(
		constantsPaneLines({
			constants,
			thresholdToPeriodRatio: constants.threshold.seconds / constants.period.seconds,
			thresholdToMeanRatio: options.meanRatio === undefined ? 180 / 0.0042 : options.meanRatio,
			width,
		}),
		width,
	);
}

describe('ConstantsPane', () => {
	test('v1.28.0: period and threshold with file:line and Go identifier, Healthy(), both ratios', () => {
		assert.equal(
			pane('v1.28.0'),
			[
				'kubelet source · as of v1.28.0',
				'relist period 1s',
				'  pkg/kubelet/kubelet.go:178',
				'  genericPlegRelistPeriod',
				'health threshold 3m0s',
				'  pkg/kubelet/kubelet.go:179',
				'  genericPlegRelistThreshold',
				'Healthy() · pkg/kubelet/pleg/generic.go:165',
				// 180 s / 1 s = 180; 180 s / 4.2 ms = 42857.1 → ×42,857.
				'threshold/period ×180',
				'threshold/mean ×42,857',
				"  the lab's finding, live",
				'evented PLEG off · if on: 5m0s / 10m0s',
				'  last seen = check time',
			].join('\n'),
		);
	});

	test('a derived row says so beside each kubelet.go line', () => {
		const rows = pane('v1.29.4').split('\n');
		assert.deepEqual(rows.slice(1, 7), [
			'relist period 1s',
			'  pkg/kubelet/kubelet.go:180',
			'  genericPlegRelistPeriod · derived',
			'health threshold 3m0s',
			'  pkg/kubelet/kubelet.go:181',
			'  genericPlegRelistThreshold · derived',
		]);
	});

	test('a line not read for this version is said, not invented', () => {
		const rows = pane('v1.21.2').split('\n');
		assert.equal(rows[0], 'kubelet source · as of v1.18.6–v1.24.14');
		assert.deepEqual(rows.slice(1, 3), ['relist period 1s · plegRelistPeriod', '  not read for this version']);
		assert.equal(rows[4], '  pkg/kubelet/pleg/generic.go:83');
	});

	test('wide enough, a constant sits on one row', () => {
		const rows = pane('v1.28.0', {width: 90}).split('\n');
		assert.equal(rows[1], 'relist period 1s · pkg/kubelet/kubelet.go:178 · genericPlegRelistPeriod');
	});

	test('evented mode: 300 s / 10 min, ×2, and last seen = check time', () => {
		const rows = pane('v1.28.0', {evented: true, meanRatio: null}).split('\n');
		assert.deepEqual(rows.slice(1, 4), ['relist period 5m0s', '  pkg/kubelet/kubelet.go:182', '  eventedPlegRelistPeriod']);
		assert.ok(rows.includes('threshold/period ×2'));
		assert.ok(rows.includes('threshold/mean — · no mean in the window'));
		assert.deepEqual(rows.slice(-3), ['evented PLEG on', '  relist 5m0s, threshold 10m0s', '  last seen = check time']);
	});
});

describe('ConstantsPane caveats', () => {
	test('a version between known rows: the caveat is word-wrapped, never dropped', () => {
		// v1.16.3 lies between the v1.15.5 and v1.17.1 rows; the v1.15.5 numbers are shown with the caveat.
		const rows = pane('v1.16.3').split('\n');
		assert.equal(rows[0], 'kubelet source · as of v1.15.5');
		assert.deepEqual(rows.slice(1, 5), [
			'relist period 1s',
			'  pkg/kubelet/kubelet.go:163',
			'  plegRelistPeriod',
			'  between known rows v1.15.5 and v1.17.1',
		]);
	});

	test('an unlisted patch: the row of its own minor, and which row it is', () => {
		// v1.30.0 is not read: the v1.30.3 row (kubelet.go:181), not the v1.29.4 one (:180).
		const rows = pane('v1.30.0').split('\n');
		assert.equal(rows[0], 'kubelet source · as of v1.30.3');
		assert.deepEqual(rows.slice(1, 6), [
			'relist period 1s',
			'  pkg/kubelet/kubelet.go:181',
			'  genericPlegRelistPeriod',
			'  derived; v1.30.0 not read; the v1.30.3 row',
			'  of the same minor',
		]);
	});

	test('gate on but fallen back to generic: 1 s / 3 min in force, the evidence said', () => {
		const rows = pane('v1.28.0', {evented: true, fallback: 'evented, fell back to generic after 5 stream errors'}).split('\n');
		assert.deepEqual(rows.slice(1, 4), ['relist period 1s', '  pkg/kubelet/kubelet.go:178', '  genericPlegRelistPeriod']);
		assert.ok(rows.includes('threshold/period ×180'));
		assert.deepEqual(rows.slice(-5), [
			'evented PLEG gate on',
			'  evented, fell back to generic after 5',
			'  stream errors',
			'  relist 1s, threshold 3m0s',
			'  last seen = check time',
		]);
	});
});
