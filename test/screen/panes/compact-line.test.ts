import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compactLine} from '../../../source/screen/panes/compact-line.js';
import {lastSeenAt, makeFigures, okStatus, testNow} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

const failing = okStatus({
	failure: {kind: 'timeout', summary: 'timed out after 10s', details: []},
	failingSince: testNow - 5000,
	consecutiveFailures: 5,
});

const compact = (props: Partial<Parameters<typeof compactLine>[0]> & {width: number}) =>
	paneFrame([compactLine({figures: makeFigures(), status: okStatus(), sourceLabel: 'demo node', ...props})], props.width);

describe('CompactLine', () => {
	test('verdict symbol and age first, then whole figures as they fit', () => {
		assert.equal(compact({width: 60}), '✓ demo-node last seen 1s · mean 4.2ms · p99 9.3ms');
		// 25 + 3 + 11 = 39 ≤ 40; the p99 item would make 52.
		assert.equal(compact({width: 40}), '✓ demo-node last seen 1s · mean 4.2ms');
		assert.equal(compact({width: 20}), '✓ last seen 1s');
	});

	test('stale: "?" whatever the age, never ✓ or ✗; the node name goes before STALE does', () => {
		const stale = (age: number) =>
			makeFigures({
				lastSeen: lastSeenAt(age),
				verdict: {healthy: null, message: 'verdict unknown: the last good scrape is 5s old (then: PLEG is healthy)', basis: 'none'},
				stale: {
					failure: 'timed out after 10s',
					lastGoodAt: testNow - 5000,
					lastGoodAgeSeconds: 5,
					verdictThen: {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'},
					estimatePastThreshold: age > 180,
				},
			});
		assert.equal(compact({figures: stale(2), status: failing, width: 60}), '? demo-node last seen ≤ 2s STALE · mean 4.2ms · p99 9.3ms');
		// "? demo-node last seen ≤ 3m1s STALE" is 34 columns.
		assert.equal(compact({figures: stale(181), status: failing, width: 30}), '? last seen ≤ 3m1s STALE');
	});

	test('no relist in the window instead of a 0 ms mean', () => {
		const figures = makeFigures({lastSeen: lastSeenAt(45)});
		figures.window = {...figures.window!, count: 0, meanSeconds: null, p99: null};
		assert.equal(compact({figures, width: 80}), '! demo-node last seen 45s · no relist in window');
	});

	test('before the first scrape', () => {
		assert.equal(compact({figures: null, width: 40}), '… connecting to demo node');
	});
});
