// The live screen's title and bell: the one node's, or the fleet's until a node is opened from the table, then that
// node's as on `pleg-top NODE`, and the fleet's again once back (its bell counting from then).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createScreenSignals} from '../../source/run/screen-signals.js';
import type {Figures} from '../../source/domain/types.js';
import {lastSeenAt, makeFigures, quietIncident} from '../helpers/figures.js';
import {overviewRowOf} from '../helpers/overview-row.js';

const osc = (title: string) => `\u001B]2;${title}\u001B\\`;
const push = '\u001B[22;0t';
const pop = '\u001B[23;0t';
const bel = '\u0007';
const critical: Figures = makeFigures({lastSeen: lastSeenAt(172), incident: quietIncident});
const unhealthy = overviewRowOf('b', {state: 'unhealthy', word: 'unhealthy', band: 'unhealthy'});

describe('screen signals', () => {
	test('the table: the fleet title; a node opened: its title, its bell; back: the fleet title again, no bell for the past', () => {
		const written: string[] = [];
		const signals = createScreenSignals({single: null, bell: true, write: (text) => written.push(text)});
		const take = () => written.splice(0).join('');
		signals.look([overviewRowOf('a'), overviewRowOf('b')]);
		assert.equal(take(), push + osc('pleg-top: 2 nodes healthy'));
		// A read of a node while the table shows sets nothing of its own.
		signals.read(critical, false);
		assert.equal(take(), '');

		signals.open('a');
		assert.equal(signals.node, 'a');
		// The fleet's title goes (and its push is popped) before the node's.
		assert.equal(take(), osc('') + pop);
		// The node never read, its read failing: unknown, as `pleg-top a` says.
		signals.read(null, true);
		assert.equal(take(), push + osc('pleg-top a: unknown'));
		// 180 − 172 = 8 s left, past half the threshold: critical, and the bell (from unknown: worse than nothing known).
		signals.read(critical, false);
		assert.equal(take(), osc('pleg-top a: critical, NotReady in 8s') + bel);
		// The table's looks are not shown while the node is.
		signals.look([overviewRowOf('a'), unhealthy]);
		assert.equal(take(), '');

		signals.open(null);
		assert.equal(signals.node, null);
		assert.equal(take(), osc('') + pop);
		// Back: the fleet's title; b became unhealthy meanwhile, which rings nothing now (the first look).
		signals.look([overviewRowOf('a'), unhealthy]);
		assert.equal(take(), push + osc('pleg-top: 1 unhealthy'));
		signals.close();
		assert.equal(take(), osc('') + pop);
	});

	test('pleg-top NODE: the node from the start; opening does nothing', () => {
		const written: string[] = [];
		const signals = createScreenSignals({single: 'n', bell: true, write: (text) => written.push(text)});
		assert.equal(signals.node, 'n');
		signals.open(null);
		assert.equal(signals.node, 'n');
		signals.look([unhealthy]);
		assert.deepEqual(written, []);
		signals.read(critical, false);
		assert.deepEqual(written, [push + osc('pleg-top n: critical, NotReady in 8s')]);
	});
});
