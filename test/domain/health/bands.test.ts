import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	ageBand,
	bandOf,
	bandReaches,
	countdownText,
	criticalFromSeconds,
	secondsToThreshold,
	warnAfterSeconds,
} from '../../../source/domain/health/health.js';
import {definition} from '../../../source/domain/definitions.js';
import {constantsFor} from '../../../source/domain/health/kubelet-constants.js';
import type {LastSeen, Verdict} from '../../../source/domain/types.js';

const generic = constantsFor('v1.28.0', false);
const evented = constantsFor('v1.28.0', true);
const healthy: Verdict = {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'};

function gaugeAge(ageSeconds: number): LastSeen {
	return {gaugeSeconds: 1_700_000_000, ageSeconds, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: null};
}

/** Figures judged on a gauge age, with the verdict the rule gives it (181 whole seconds and up: not healthy). */
function judged(ageSeconds: number, constants = generic) {
	const unhealthy = Math.floor(ageSeconds) > constants.threshold.seconds;
	const verdict: Verdict = unhealthy ? {healthy: false, message: 'PLEG is not healthy: …', basis: 'last-seen'} : healthy;
	return {verdict, lastSeen: gaugeAge(ageSeconds), constants};
}

describe('bands: one definition', () => {
	test('warn after min(5 × period, threshold / 2), critical from threshold / 2', () => {
		// Generic: min(5 × 1 s, 180 s / 2) = 5 s; critical from 180 / 2 = 90 s.
		assert.equal(warnAfterSeconds(generic), 5);
		assert.equal(criticalFromSeconds(generic), 90);
		// Evented: min(5 × 300 s, 600 s / 2) = 300 s, which is also where critical begins.
		assert.equal(warnAfterSeconds(evented), 300);
		assert.equal(criticalFromSeconds(evented), 300);
	});

	test('generic ages in whole seconds: ok ≤ 5, warn above, critical from 90, unhealthy only past 180', () => {
		const cases: Array<[number, string]> = [
			[0, 'ok'],
			[5, 'ok'],
			// Shown as "5s ago": the band follows the shown whole seconds.
			[5.5, 'ok'],
			[6, 'warn'],
			[89.9, 'warn'],
			[90, 'critical'],
			[172, 'critical'],
			[180, 'critical'],
			// 180.9 s reads as 180 whole seconds: the kubelet's elapsed > 3m0s is not yet true.
			[180.9, 'critical'],
			[181, 'unhealthy'],
		];
		for (const [age, band] of cases) {
			assert.equal(ageBand(age, generic), band, `age ${age}`);
		}
	});

	test('evented: ok between its 300 s relists, critical from 300 s (no room for warn), unhealthy past 600 s', () => {
		assert.equal(ageBand(299, evented), 'ok');
		assert.equal(ageBand(300, evented), 'critical');
		assert.equal(ageBand(600, evented), 'critical');
		assert.equal(ageBand(601, evented), 'unhealthy');
	});

	test("the figures' band: unknown when the verdict is, unhealthy with the verdict, else the age's", () => {
		assert.equal(bandOf(judged(172)), 'critical');
		assert.equal(bandOf(judged(181)), 'unhealthy');
		assert.equal(bandOf(judged(2)), 'ok');
		const stale = {...judged(2), verdict: {healthy: null, message: 'verdict unknown: …', basis: 'none'} as Verdict};
		assert.equal(bandOf(stale), 'unknown');
		const never: LastSeen = {gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null};
		const notYet = {
			verdict: {healthy: false, message: 'PLEG is not healthy: pleg has yet to be successful', basis: 'last-seen'} as Verdict,
		};
		assert.equal(bandOf({...notYet, lastSeen: never, constants: generic}), 'unhealthy');
	});

	test('--fail-on order: a band reaches itself and every worse band; unknown reaches none', () => {
		assert.equal(bandReaches('critical', 'warn'), true);
		assert.equal(bandReaches('critical', 'critical'), true);
		assert.equal(bandReaches('warn', 'critical'), false);
		assert.equal(bandReaches('unhealthy', 'unhealthy'), true);
		assert.equal(bandReaches('critical', 'unhealthy'), false);
		assert.equal(bandReaches('unknown', 'warn'), false);
	});

	test('the definition quotes the same rule', () => {
		assert.match(definition('gauge-bands').formula, /min\(5 × period, threshold \/ 2\)/);
		assert.match(definition('gauge-bands').formula, /critical ≥ threshold \/ 2/);
	});
});

describe('seconds to the threshold', () => {
	test('threshold − age, negative once past, null when unknown or without an age', () => {
		assert.equal(secondsToThreshold(judged(172)), 8); // 180 − 172
		assert.equal(secondsToThreshold(judged(172.5)), 7.5);
		assert.equal(secondsToThreshold(judged(181)), -1); // 180 − 181
		const stale = {...judged(2), verdict: {healthy: null, message: 'verdict unknown: …', basis: 'none'} as Verdict};
		assert.equal(secondsToThreshold(stale), null);
		const never: LastSeen = {gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null};
		const verdict: Verdict = {healthy: false, message: 'PLEG is not healthy: pleg has yet to be successful', basis: 'last-seen'};
		assert.equal(secondsToThreshold({verdict, lastSeen: never, constants: generic}), null);
	});
});

describe('countdown', () => {
	test('age 172 s of 180: NotReady in 8s, in whole seconds as the age is shown', () => {
		assert.equal(countdownText(judged(172)), 'NotReady in 8s (last seen 2m52s ago; threshold 3m0s)');
		assert.equal(countdownText(judged(172.6)), 'NotReady in 8s (last seen 2m52s ago; threshold 3m0s)');
	});

	test('from the warn band on: 6 s of 180 is NotReady in 2m54s', () => {
		assert.equal(countdownText(judged(6)), 'NotReady in 2m54s (last seen 6s ago; threshold 3m0s)');
	});

	test('none in the ok band, none once unhealthy (the kubelet has said it) and none while unknown', () => {
		assert.equal(countdownText(judged(5)), null);
		assert.equal(countdownText(judged(181)), null);
		const stale = {...judged(100), verdict: {healthy: null, message: 'verdict unknown: …', basis: 'none'} as Verdict};
		assert.equal(countdownText(stale), null);
	});

	test('180 whole seconds: the rule may trip within the second', () => {
		assert.equal(countdownText(judged(180.5)), 'NotReady due now (last seen 3m0s ago; threshold 3m0s)');
	});

	test('evented: 10-minute threshold', () => {
		assert.equal(countdownText(judged(420, evented)), 'NotReady in 3m0s (last seen 7m0s ago; threshold 10m0s)');
	});

	test('judged on count unchanged, it says so', () => {
		const lastSeen: LastSeen = {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: 120};
		const verdict: Verdict = {healthy: true, message: 'PLEG is healthy', basis: 'count-unchanged'};
		assert.equal(
			countdownText({verdict, lastSeen, constants: generic}),
			'NotReady in 1m0s (relist count unchanged for 2m0s; threshold 3m0s)',
		);
	});
});
