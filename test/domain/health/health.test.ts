import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	countdownLeftText,
	countdownSecondsLeft,
	countdownText,
	notReadyWhenText,
	readyPlegWords,
	thresholdToMean,
	verdict,
} from '../../../source/domain/health/health.js';
import {constantsFor} from '../../../source/domain/health/kubelet-constants.js';
import type {LastSeen} from '../../../source/domain/types.js';

const generic = constantsFor('v1.28.0', false);
const evented = constantsFor('v1.28.0', true);

function gaugeAge(ageSeconds: number): LastSeen {
	return {gaugeSeconds: 1_700_000_000, ageSeconds, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: null};
}

describe('verdict: the kubelet Healthy() rule', () => {
	test('age exactly 180 s is healthy (the kubelet compares elapsed > threshold)', () => {
		assert.deepEqual(verdict(gaugeAge(180), generic), {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'});
	});

	test('age 181 s is unhealthy, in the kubelet words', () => {
		assert.deepEqual(verdict(gaugeAge(181), generic), {
			healthy: false,
			message: 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s',
			basis: 'last-seen',
		});
	});

	test('age 180.9 s: the gauge is truncated to the second, so the whole seconds are judged (healthy)', () => {
		assert.equal(verdict(gaugeAge(180.9), generic).healthy, true);
	});

	test('a long stall prints a full Go duration', () => {
		assert.equal(
			verdict(gaugeAge(3700.4), generic).message,
			'PLEG is not healthy: pleg was last seen active 1h1m40s ago; threshold is 3m0s',
		);
	});

	test('gauge 0: no successful relist yet', () => {
		const lastSeen: LastSeen = {gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null};
		assert.deepEqual(verdict(lastSeen, generic), {
			healthy: false,
			message: 'PLEG is not healthy: pleg has yet to be successful',
			basis: 'last-seen',
		});
	});

	test('evented PLEG: threshold 600 s, printed 10m0s', () => {
		assert.equal(evented.threshold.seconds, 600);
		assert.equal(verdict(gaugeAge(600), evented).healthy, true);
		assert.equal(verdict(gaugeAge(601), evented).message, 'PLEG is not healthy: pleg was last seen active 10m1s ago; threshold is 10m0s');
	});

	test('no gauge (kubelet < 1.18): the same rule on "count unchanged"', () => {
		const unchanged = (seconds: number): LastSeen => ({
			gaugeSeconds: null,
			ageSeconds: null,
			skewSeconds: null,
			neverSucceeded: false,
			countUnchangedSeconds: seconds,
		});
		assert.deepEqual(verdict(unchanged(12), generic), {healthy: true, message: 'PLEG is healthy', basis: 'count-unchanged'});
		assert.deepEqual(verdict(unchanged(200), generic), {
			healthy: false,
			message: 'PLEG is not healthy: pleg was last seen active 3m20s ago; threshold is 3m0s',
			basis: 'count-unchanged',
		});
	});

	test('nothing to judge by', () => {
		const none: LastSeen = {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: null};
		assert.deepEqual(verdict(none, generic), {healthy: null, message: 'cannot judge yet', basis: 'none'});
	});
});

describe('the countdown, one definition for the one-node verdict and the overview', () => {
	test('seconds left: the threshold − the whole seconds of the age (172.9 → 8, 179.99 → 1, 180 → 0, 180.4 → 0, 183 → −3)', () => {
		assert.deepEqual(
			[172.9, 179.99, 180, 180.4, 183].map((age) => countdownSecondsLeft(age, 180)),
			[8, 1, 0, 0, -3],
		);
	});

	test('in words: "8s", "1m20s"; "due now" at 0 and below', () => {
		assert.deepEqual(
			[8, 80, 1, 0, -3].map((left) => countdownLeftText(left)),
			['8s', '1m20s', '1s', 'due now', 'due now'],
		);
		assert.equal(notReadyWhenText(8), 'NotReady in 8s');
		assert.equal(notReadyWhenText(0), 'NotReady due now');
		assert.equal(notReadyWhenText(-3), 'NotReady due now');
	});

	test("the one-node verdict's countdown says the same: 172.9 s → NotReady in 8s; 180 s (still healthy) → NotReady due now", () => {
		const judged = (age: number) => ({verdict: verdict(gaugeAge(age), generic), lastSeen: gaugeAge(age), constants: generic});
		assert.equal(countdownText(judged(172.9)), 'NotReady in 8s (last seen 2m52s ago; threshold 3m0s)');
		assert.equal(countdownText(judged(180)), 'NotReady due now (last seen 3m0s ago; threshold 3m0s)');
	});
});

describe("verdict: the evidence beside the age (a clock off, the node's own words)", () => {
	const readyWords = 'PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s';

	test("the node's Ready says PLEG is not healthy: never healthy, in the kubelet's words", () => {
		// 60 s ahead, stalled 185 s ago, read as 125 s on this machine's clock: healthy by the age alone.
		assert.deepEqual(verdict(gaugeAge(125), generic, {readyPleg: readyWords}), {
			healthy: false,
			message: readyWords,
			basis: 'ready-condition',
		});
	});

	test('past the threshold by its own age, the age is judged (its seconds are the newer)', () => {
		assert.deepEqual(verdict(gaugeAge(185.2), generic, {readyPleg: readyWords}), {
			healthy: false,
			message: 'PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s',
			basis: 'last-seen',
		});
	});

	test('count and gauge unmoved for 181 s of this machine: a stall whatever the age on a clock off by a minute', () => {
		assert.deepEqual(verdict(gaugeAge(125), generic, {unmovedSeconds: 181.3}), {
			healthy: false,
			message: 'PLEG is not healthy: no relist has ended and the last-seen gauge has not moved for 3m1s; threshold is 3m0s',
			basis: 'unmoved',
		});
		// ⌊180.9⌋ = 180 is not past 180, as the kubelet compares.
		assert.equal(verdict(gaugeAge(125), generic, {unmovedSeconds: 180.9}).healthy, true);
		// Evented: 600 s.
		assert.equal(verdict(gaugeAge(125), evented, {unmovedSeconds: 590}).healthy, true);
	});

	test('past the threshold on this machine only, with the node clock unknown: not judged (200 s behind reads 200 s)', () => {
		assert.deepEqual(verdict(gaugeAge(200.7), generic, {clockUnknown: true}), {
			healthy: null,
			message: "cannot judge yet: last seen 3m20s ago by this machine's clock, and the node's clock is not known yet",
			basis: 'none',
		});
		// Within the threshold it stays healthy: no false unhealthy is possible there.
		assert.equal(verdict(gaugeAge(125), generic, {clockUnknown: true}).healthy, true);
		// The clock-free evidence still decides.
		assert.equal(verdict(gaugeAge(200.7), generic, {clockUnknown: true, unmovedSeconds: 190}).basis, 'unmoved');
		assert.equal(verdict(gaugeAge(200.7), generic, {clockUnknown: true, readyPleg: readyWords}).message, readyWords);
	});

	test('a gauge of 0 needs no clock: "pleg has yet to be successful" stands', () => {
		const never: LastSeen = {gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null};
		assert.equal(verdict(never, generic, {clockUnknown: true}).message, 'PLEG is not healthy: pleg has yet to be successful');
	});

	test('without a gauge, count unchanged is the age already: the unmoved time adds nothing', () => {
		const unchanged: LastSeen = {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: 12};
		assert.equal(verdict(unchanged, generic, {unmovedSeconds: 200}).basis, 'count-unchanged');
		assert.equal(verdict(unchanged, generic, {unmovedSeconds: 200}).healthy, true);
	});

	test('readyPlegWords: the PLEG error out of the Ready message, alone or in an aggregate', () => {
		assert.equal(readyPlegWords(readyWords), readyWords);
		assert.equal(readyPlegWords(`[container runtime is down, ${readyWords}]`), readyWords);
		assert.equal(
			readyPlegWords('PLEG is not healthy: pleg has yet to be successful'),
			'PLEG is not healthy: pleg has yet to be successful',
		);
		assert.equal(readyPlegWords('kubelet is posting ready status'), null);
		assert.equal(readyPlegWords('container runtime network not ready: NetworkReady=false'), null);
		assert.equal(readyPlegWords(null), null);
	});
});

test('threshold / mean: 180 s over a 6 ms mean is ×30,000; none without a mean, or with one of 0 or below (a counter fault)', () => {
	assert.equal(thresholdToMean(180, 0.006), 30_000);
	assert.equal(thresholdToMean(180, null), null);
	assert.equal(thresholdToMean(null, 0.006), null);
	assert.equal(thresholdToMean(180, 0), null);
	assert.equal(thresholdToMean(180, -0.0068), null);
});
