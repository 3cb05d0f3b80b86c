import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createTerminalSignals, titleOf} from '../../source/run/terminal-signals.js';
import type {Figures} from '../../source/domain/types.js';
import {lastSeenAt, makeFigures, quietIncident} from '../helpers/figures.js';

const quiet = quietIncident;
const message = (age: string) => `PLEG is not healthy: pleg was last seen active ${age} ago; threshold is 3m0s`;

const healthyAt = (age: number): Figures => makeFigures({lastSeen: lastSeenAt(age), incident: quiet});
const unhealthyFor = (seconds: number, exact = true): Figures =>
	makeFigures({
		lastSeen: lastSeenAt(180 + seconds),
		verdict: {healthy: false, message: message('…'), basis: 'last-seen'},
		incident: {...quiet, unhealthySince: 0, unhealthyForSeconds: seconds, sinceExact: exact, transitions: 1, flaps: 1},
	});
const stale: Figures = makeFigures({
	lastSeen: lastSeenAt(200),
	verdict: {healthy: null, message: 'verdict unknown: the last good scrape is 20s old (then: …)', basis: 'none'},
	incident: quiet,
});

/** A read that failed: the last good figures, `lastGoodAgeSeconds` old, the verdict unknown. */
const failedRead = (lastGoodAgeSeconds: number): Figures => ({
	...stale,
	stale: {
		failure: 'the API server answered 503 Service Unavailable',
		lastGoodAt: 0,
		lastGoodAgeSeconds,
		verdictThen: {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'},
		estimatePastThreshold: false,
	},
});

const osc = (title: string) => `\u001B]2;${title}\u001B\\`;
const push = '\u001B[22;0t';
const pop = '\u001B[23;0t';
const bel = '\u0007';

describe('terminal title', () => {
	test('healthy, the countdown past the ok band, unhealthy for, unknown', () => {
		assert.equal(titleOf('worker-1', healthyAt(2)), 'pleg-top worker-1: healthy');
		// 180 − 60 = 120 s, in the warn band; 180 − 172 = 8 s, past half the threshold (90 s): critical.
		assert.equal(titleOf('worker-1', healthyAt(60)), 'pleg-top worker-1: NotReady in 2m0s');
		assert.equal(titleOf('worker-1', healthyAt(172)), 'pleg-top worker-1: critical, NotReady in 8s');
		assert.equal(titleOf('worker-1', unhealthyFor(72)), 'pleg-top worker-1: UNHEALTHY 1m12s');
		assert.equal(titleOf('worker-1', unhealthyFor(15, false)), 'pleg-top worker-1: UNHEALTHY ≥15s');
		assert.equal(titleOf('worker-1', stale), 'pleg-top worker-1: unknown');
	});
});

describe('terminal signals over a run of reads', () => {
	test('the title when it changes, the bell once on entering critical, unhealthy or unknown, the title cleared on exit', () => {
		const written: string[] = [];
		const signals = createTerminalSignals({node: 'n', bell: true, write: (text) => written.push(text)});
		const read = (figures: Figures | null) => {
			written.length = 0;
			signals.read(figures);
			return written.join('');
		};

		assert.equal(read(null), '', 'no figures yet: nothing');
		assert.equal(read(healthyAt(1)), push + osc('pleg-top n: healthy'));
		assert.equal(read(healthyAt(2)), '', 'the same title: nothing written');
		assert.equal(read(healthyAt(60)), osc('pleg-top n: NotReady in 2m0s'), 'the warn band: no bell');
		assert.equal(read(healthyAt(172)), osc('pleg-top n: critical, NotReady in 8s') + bel, 'critical: the warning before it is too late');
		assert.equal(read(healthyAt(173)), osc('pleg-top n: critical, NotReady in 7s'), 'still critical: no second bell');
		assert.equal(read(unhealthyFor(1)), osc('pleg-top n: UNHEALTHY 1s') + bel);
		// Still unhealthy: the title keeps up, no second bell.
		assert.equal(read(unhealthyFor(2)), osc('pleg-top n: UNHEALTHY 2s'));
		assert.equal(read(stale), osc('pleg-top n: unknown') + bel);
		assert.equal(read(stale), '');
		// Back to healthy: a change, but not one that rings; critical again rings again.
		assert.equal(read(healthyAt(1)), osc('pleg-top n: healthy'));
		assert.equal(read(healthyAt(100)), osc('pleg-top n: critical, NotReady in 1m20s') + bel);
		written.length = 0;
		signals.close();
		assert.equal(written.join(''), osc('') + pop);
	});

	test('starting on an unhealthy node is no change: no bell; --no-bell: never', () => {
		const written: string[] = [];
		const ringing = createTerminalSignals({node: 'n', bell: true, write: (text) => written.push(text)});
		ringing.read(unhealthyFor(30));
		assert.ok(!written.join('').endsWith(bel));
		const silent: string[] = [];
		const quietSignals = createTerminalSignals({node: 'n', bell: false, write: (text) => silent.push(text)});
		for (const figures of [healthyAt(1), unhealthyFor(1), stale, healthyAt(1), unhealthyFor(1)]) quietSignals.read(figures);
		assert.ok(silent.join('').includes(osc('pleg-top n: unknown')));
		assert.ok(!silent.join('').includes(bel));
	});

	test('a failed scrape is unknown only when confirmed: 2 in a row, or the last good one 5 s old; unhealthy at once', () => {
		const written: string[] = [];
		const signals = createTerminalSignals({node: 'n', bell: true, write: (text) => written.push(text)});
		const read = (figures: Figures) => {
			written.length = 0;
			signals.read(figures);
			return written.join('');
		};

		read(healthyAt(1));
		// Half the scrapes fail, each a second after a good one: neither the title nor the bell moves.
		for (let round = 0; round < 5; round++) {
			assert.equal(read(failedRead(1)), '', `blip ${round}`);
			assert.equal(read(healthyAt(1)), '');
		}

		// Two failed reads in a row: unknown, with the bell, on the second.
		assert.equal(read(failedRead(1)), '');
		assert.equal(read(failedRead(2)), osc('pleg-top n: unknown') + bel);
		assert.equal(read(failedRead(3)), '');
		assert.equal(read(healthyAt(1)), osc('pleg-top n: healthy'), 'back to the state known before: no bell');
		// One failed read after a long wait (a 10 s timeout): the last good scrape is 5 s old or more, unknown at once.
		assert.equal(read(failedRead(11)), osc('pleg-top n: unknown') + bel);
		// Unhealthy is never held back: the first read that shows it rings.
		assert.equal(read(unhealthyFor(1)), osc('pleg-top n: UNHEALTHY 1s') + bel);
	});

	test('nothing written on exit when no title was set', () => {
		const written: string[] = [];
		createTerminalSignals({node: 'n', bell: true, write: (text) => written.push(text)}).close();
		assert.deepEqual(written, []);
	});
});

describe('terminal signals before any good read', () => {
	test('nothing until a read fails; then unknown at once, no bell (nothing known before it); then a good read', () => {
		const written: string[] = [];
		const signals = createTerminalSignals({node: 'n', bell: true, write: (text) => written.push(text)});
		signals.read(null);
		assert.deepEqual(written, []);
		signals.read(null, true);
		assert.deepEqual(written, [push + osc('pleg-top n: unknown')]);
		signals.read(null, true);
		assert.equal(written.length, 1);
		signals.read(healthyAt(1));
		assert.deepEqual(written.slice(1), [osc('pleg-top n: healthy')]);
	});
});
