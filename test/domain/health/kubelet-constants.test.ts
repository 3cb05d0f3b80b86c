import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	constantsFor,
	constantsTable,
	eventedFallbackEvidence,
	knownVersionsKept,
	parseKubeletVersion,
} from '../../../source/domain/health/kubelet-constants.js';
import type {DeltaFigures, PlegSample} from '../../../source/domain/types.js';

describe('constantsFor: the kubelet source lines of each version', () => {
	test('v1.28.0 (pristine): kubelet.go:178 / :179, Healthy() generic.go:165', () => {
		assert.deepEqual(constantsFor('v1.28.0', false), {
			row: 'v1.28.0',
			rowNote: null,
			period: {seconds: 1, location: 'pkg/kubelet/kubelet.go:178', name: 'genericPlegRelistPeriod', note: null},
			threshold: {seconds: 180, location: 'pkg/kubelet/kubelet.go:179', name: 'genericPlegRelistThreshold', note: null},
			evented: false,
			eventedFallback: null,
			healthyLocation: 'pkg/kubelet/pleg/generic.go:165',
		});
	});

	test('v1.28.0 with EventedPLEG: 300 s / 10 min at kubelet.go:182 / :183', () => {
		const constants = constantsFor('v1.28.0', true);
		assert.deepEqual(constants.period, {seconds: 300, location: 'pkg/kubelet/kubelet.go:182', name: 'eventedPlegRelistPeriod', note: null});
		assert.deepEqual(constants.threshold, {
			seconds: 600,
			location: 'pkg/kubelet/kubelet.go:183',
			name: 'eventedPlegRelistThreshold',
			note: null,
		});
		assert.equal(constants.evented, true);
	});

	test('v1.21.2: threshold generic.go:83, period value known but its line not read', () => {
		assert.deepEqual(constantsFor('v1.21.2', false), {
			row: 'v1.18.6–v1.24.14',
			rowNote: null,
			period: {seconds: 1, location: null, name: 'plegRelistPeriod', note: 'not read for this version'},
			threshold: {seconds: 180, location: 'pkg/kubelet/pleg/generic.go:83', name: 'relistThreshold', note: null},
			evented: false,
			eventedFallback: null,
			healthyLocation: 'pkg/kubelet/pleg/generic.go:136',
		});
	});

	test('v1.21.2 with evented requested: no Evented PLEG before 1.26', () => {
		const constants = constantsFor('v1.21.2', true);
		assert.equal(constants.evented, false);
		assert.equal(constants.threshold.seconds, 180);
	});

	test('v1.29.4: derived rows say so', () => {
		const constants = constantsFor('v1.29.4', false);
		assert.equal(constants.period.location, 'pkg/kubelet/kubelet.go:180');
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:181');
		assert.equal(constants.period.note, 'derived');
		assert.equal(constants.threshold.note, 'derived');
	});

	test('v1.25.0: the period line is derived, generic.go:83 is not', () => {
		const constants = constantsFor('v1.25.0', false);
		assert.equal(constants.period.location, 'pkg/kubelet/kubelet.go:164');
		assert.equal(constants.period.note, 'derived');
		assert.equal(constants.threshold.location, 'pkg/kubelet/pleg/generic.go:83');
		assert.equal(constants.threshold.note, null);
	});

	test('v1.36.2: kubelet.go:215 / :216, Healthy() generic.go:238', () => {
		const constants = constantsFor('v1.36.2', false);
		assert.equal(constants.row, 'v1.36.2');
		assert.equal(constants.period.location, 'pkg/kubelet/kubelet.go:215');
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:216');
		assert.equal(constants.threshold.note, null);
		assert.equal(constants.healthyLocation, 'pkg/kubelet/pleg/generic.go:238');
	});

	test('a provider suffix is ignored: v1.21.2-eks-0389ca3, v1.28.3+k3s1', () => {
		assert.equal(constantsFor('v1.21.2-eks-0389ca3', false).row, 'v1.18.6–v1.24.14');
		assert.equal(constantsFor('v1.28.3+k3s1', false).row, 'v1.28.0'); // the row covers v1.28.0 … v1.28.7
	});

	test('v1.14.10: the 1.14 row (read at upstream cf0533c)', () => {
		const constants = constantsFor('v1.14.10', false);
		assert.equal(constants.row, '1.14 (cf0533c)');
		assert.equal(constants.period.location, null);
		assert.equal(constants.threshold.location, 'pkg/kubelet/pleg/generic.go:83');
	});
});

describe('constantsFor: versions that are not rows', () => {
	test('between two rows of other minors: the lower row, with a note', () => {
		const constants = constantsFor('v1.16.3', false);
		assert.equal(constants.row, 'v1.15.5');
		assert.equal(constants.rowNote, 'between known rows v1.15.5 and v1.17.1');
		assert.equal(constants.period.note, 'between known rows v1.15.5 and v1.17.1');
		assert.equal(constants.threshold.note, 'between known rows v1.15.5 and v1.17.1');
	});

	test('an unlisted patch takes the row of its own minor: v1.35.0 -> v1.35.3 (kubelet.go:212/213), not v1.34.2 (206/207)', () => {
		const constants = constantsFor('v1.35.0', false);
		assert.equal(constants.row, 'v1.35.3');
		assert.equal(constants.rowNote, 'v1.35.0 not read; the v1.35.3 row of the same minor');
		assert.equal(constants.period.location, 'pkg/kubelet/kubelet.go:212');
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:213');
		assert.equal(constants.threshold.note, 'derived; v1.35.0 not read; the v1.35.3 row of the same minor');
	});

	test("below or above the patch of its minor's row: v1.15.3 and v1.15.9 both take v1.15.5", () => {
		for (const version of ['v1.15.3', 'v1.15.9']) {
			const constants = constantsFor(version, false);
			assert.equal(constants.row, 'v1.15.5');
			assert.equal(constants.period.location, 'pkg/kubelet/kubelet.go:163');
			assert.equal(constants.rowNote, `${version} not read; the v1.15.5 row of the same minor`);
		}
	});

	test('a minor inside a row that spans minors: v1.18.0 takes v1.18.6–v1.24.14', () => {
		const constants = constantsFor('v1.18.0', false);
		assert.equal(constants.row, 'v1.18.6–v1.24.14');
		assert.equal(constants.rowNote, 'v1.18.0 not read; the v1.18.6–v1.24.14 row of the same minor');
	});

	test('v1.26.0 takes the v1.26.2 row: the 1.26 layout (kubelet.go:169/170), not the v1.25.0 one', () => {
		const constants = constantsFor('v1.26.0', false);
		assert.equal(constants.row, 'v1.26.2');
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:170');
		assert.equal(constants.period.note, 'derived; v1.26.0 not read; the v1.26.2 row of the same minor');
	});

	test('v1.26.0 with EventedPLEG: the evented lines of the v1.26.2 row', () => {
		const constants = constantsFor('v1.26.0', true);
		assert.equal(constants.evented, true);
		assert.equal(constants.threshold.seconds, 600);
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:174');
		assert.equal(constants.threshold.name, 'eventedPlegRelistThreshold');
	});

	test('newer than v1.36.2', () => {
		const constants = constantsFor('v1.37.1', false);
		assert.equal(constants.row, 'v1.36.2');
		assert.equal(constants.threshold.location, 'pkg/kubelet/kubelet.go:216');
		assert.equal(constants.threshold.note, 'newer than any version read (v1.36.2)');
	});

	test('v1.10.0: the v1.10.9 row of its minor', () => {
		const constants = constantsFor('v1.10.0', false);
		assert.equal(constants.row, 'v1.10.9');
		assert.equal(constants.threshold.note, 'v1.10.0 not read; the v1.10.9 row of the same minor');
	});

	test('older than 1.10: the first row, with the 2016 threshold as a note', () => {
		const constants = constantsFor('v1.9.11', false);
		assert.equal(constants.row, 'v1.10.9');
		assert.equal(constants.threshold.seconds, 180);
		assert.match(constants.threshold.note ?? '', /^older than any version read \(v1\.10\.9\); the 2016 code .* 2 min$/);
	});

	test('unknown or garbage version: the current generic constants', () => {
		for (const version of [null, 'banana', '']) {
			const constants = constantsFor(version, false);
			assert.equal(constants.row, 'v1.36.2');
			assert.equal(constants.period.seconds, 1);
			assert.equal(constants.threshold.seconds, 180);
			assert.equal(constants.threshold.name, 'genericPlegRelistThreshold');
			assert.equal(constants.threshold.note, 'kubelet version unknown');
		}
	});
});

describe('constantsFor: remembered per version', () => {
	test('a fleet mid-upgrade gets one answer per version, whichever node asked last', () => {
		const old = constantsFor('v1.27.9', false);
		const upgraded = constantsFor('v1.29.1', false);
		assert.notEqual(old.threshold.location, upgraded.threshold.location);
		for (let node = 0; node < 10; node++) {
			assert.equal(constantsFor(node % 2 === 0 ? 'v1.27.9' : 'v1.29.1', false), node % 2 === 0 ? old : upgraded);
		}
	});

	test('endless distinct versions (a hostile cluster) keep the table bounded and the answers right', () => {
		const expected = constantsFor('v1.28.4', false);
		for (let index = 0; index < knownVersionsKept * 3; index++) constantsFor(`v1.28.${index}-evil`, index % 2 === 0);
		assert.deepEqual(constantsFor('v1.28.4', false), expected);
	});
});

describe('constantsTable', () => {
	test('rows ascend without overlap; 1.26+ rows have evented lines 3 and 4 below the period', () => {
		// Every version is 1.x with minor and patch below 1000: one number orders them.
		const key = (version: string) => {
			const [major, minor, patch] = parseKubeletVersion(version)!;
			return major * 1e6 + minor * 1e3 + patch;
		};
		for (const [i, row] of constantsTable.entries()) {
			assert.ok(key(row.from) <= key(row.to), `${row.row}: from ≤ to`);
			const previous = constantsTable[i - 1];
			assert.ok(!previous || key(previous.to) < key(row.from), `${row.row} comes after ${previous?.row}`);
		}

		for (const row of constantsTable) {
			const isNew = parseKubeletVersion(row.from)![1] >= 26;
			assert.equal(row.evented !== null, isNew, row.row);
			if (row.evented && row.periodLine !== null) {
				// genericPlegRelistPeriod, genericPlegRelistThreshold, (blank, comment), eventedPlegRelistPeriod, …Threshold
				assert.equal(row.threshold.line, row.periodLine + 1, row.row);
				assert.equal(row.evented.periodLine, row.periodLine + 4, row.row);
				assert.equal(row.evented.thresholdLine, row.periodLine + 5, row.row);
			}
		}
	});
});

describe('eventedFallbackEvidence', () => {
	const sample = (success: number | null, errors: number | null) =>
		({eventedConnectionSuccess: success, eventedConnectionError: errors}) as PlegSample;
	const window = (count: number, spanSeconds: number) => ({count, spanSeconds, ratePerSecond: count / spanSeconds}) as DeltaFigures;

	test('connection errors with no stream ever obtained', () => {
		assert.equal(eventedFallbackEvidence(sample(0, 7), null), 'evented, fell back to generic after 7 stream errors');
		assert.equal(eventedFallbackEvidence(sample(null, 2), null), 'evented, fell back to generic after 2 stream errors');
		assert.equal(eventedFallbackEvidence(sample(3, 7), null), null); // a stream was obtained: not evidence by itself
		assert.equal(eventedFallbackEvidence(sample(0, 0), null), null);
	});

	test('the relist rate: from 0.2/s over at least 3 relists (evented relists once per 300 s)', () => {
		assert.equal(
			eventedFallbackEvidence(sample(1, 0), window(3, 15)),
			'evented, fell back to generic: relists at 0.20/s, not one per 5m0s',
		);
		assert.equal(eventedFallbackEvidence(sample(1, 0), window(2, 15)), null); // 0.13/s
		assert.equal(eventedFallbackEvidence(sample(1, 0), window(2, 2)), null); // 1/s but only 2 relists
		assert.equal(
			eventedFallbackEvidence(sample(1, 0), window(600, 60)),
			'evented, fell back to generic: relists at 10/s, not one per 5m0s',
		);
	});

	test('constantsFor with fallback evidence: the generic lines, the gate still noted; without the gate no fallback', () => {
		const fellBack = constantsFor('v1.28.0', true, 'evented, fell back to generic after 5 stream errors');
		assert.equal(fellBack.evented, false);
		assert.equal(fellBack.period.name, 'genericPlegRelistPeriod');
		assert.equal(fellBack.period.location, 'pkg/kubelet/kubelet.go:178');
		assert.equal(fellBack.eventedFallback, 'evented, fell back to generic after 5 stream errors');
		assert.equal(constantsFor('v1.28.0', false, 'anything').eventedFallback, null);
		assert.equal(constantsFor('v1.21.2', true, 'anything').eventedFallback, null); // no Evented PLEG before 1.26
	});
});
