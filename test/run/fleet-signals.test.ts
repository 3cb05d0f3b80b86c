// The overview's terminal title and bell: the fleet's trouble in a few words, the bell when more nodes are
// unhealthy than at the last look (not on the first), the title cleared and popped on exit.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createFleetSignals, fleetTitleOf} from '../../source/run/fleet-signals.js';
import {overviewRowOf} from '../helpers/overview-row.js';

const row = overviewRowOf;

const unhealthy = (name: string) => row(name, {state: 'unhealthy', word: 'unhealthy', band: 'unhealthy'});

describe('the fleet title', () => {
	test('2 unhealthy, 2 critical (the soonest: age 139.3 s, 180 − 139 = 41s left), 1 error; a gone unhealthy node does not count', () => {
		const rows = [
			unhealthy('a'),
			unhealthy('b'),
			row('c', {state: 'critical', notReadyInSeconds: 70}),
			row('d', {state: 'critical', notReadyInSeconds: 40.7, notReadyLeftSeconds: 41}),
			row('e', {state: 'error'}),
			row('f'),
			row('g', {state: 'unhealthy', gone: true}),
		];
		assert.equal(fleetTitleOf(rows), 'pleg-top: 2 unhealthy, 2 NotReady in 41s, 1 error');
	});

	test('a countdown run out (age 180.4 s by the estimate: 180 − 180 = 0 left) reads "NotReady due now", as the one-node title', () => {
		const rows = [
			row('c', {state: 'critical', notReadyInSeconds: 30}),
			row('d', {state: 'critical', notReadyInSeconds: -0.4, notReadyLeftSeconds: 0}),
		];
		assert.equal(fleetTitleOf(rows), 'pleg-top: 2 NotReady due now');
	});

	test('no trouble: the count of nodes; warn and slow are no trouble for the title', () => {
		assert.equal(fleetTitleOf([row('a'), row('b', {state: 'warn'}), row('c', {state: 'slow'})]), 'pleg-top: 3 nodes healthy');
		assert.equal(fleetTitleOf([row('a')]), 'pleg-top: 1 node healthy');
	});

	test('nodes that cannot be judged now are unknown, never counted healthy', () => {
		assert.equal(fleetTitleOf([row('a', {state: 'unknown'}), row('b', {state: 'unknown'})]), 'pleg-top: 2 unknown');
		assert.equal(
			fleetTitleOf([unhealthy('a'), row('b', {state: 'error'}), row('c', {state: 'unknown'}), row('d')]),
			'pleg-top: 1 unhealthy, 1 error, 1 unknown',
		);
	});

	test('the bell: not at the first look, once when a node more is unhealthy, not while it stays; the title popped on close', () => {
		const out: string[] = [];
		const signals = createFleetSignals({bell: true, write: (text) => out.push(text)});
		signals.look([unhealthy('a'), row('b')]);
		signals.look([unhealthy('a'), row('b')]);
		signals.look([unhealthy('a'), unhealthy('b')]);
		signals.look([unhealthy('a'), unhealthy('b')]);
		signals.close();
		assert.deepEqual(out, [
			'\u001B[22;0t\u001B]2;pleg-top: 1 unhealthy\u001B\\',
			'\u001B]2;pleg-top: 2 unhealthy\u001B\\\u0007',
			'\u001B]2;\u001B\\\u001B[23;0t',
		]);
	});
});
