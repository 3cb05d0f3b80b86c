import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {verdictLines} from '../../../source/screen/panes/verdict-line.js';
import type {Incident, Verdict} from '../../../source/domain/types.js';
import {lastSeenAt, makeFigures, quietIncident, readyNode, testNow} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

process.env.TZ = 'UTC';
const message = 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s';
const unhealthy = {healthy: false, message, basis: 'last-seen'} as const;
const notReady = readyNode({ready: {status: 'False', reason: 'KubeletNotReady', message, since: testNow - 1000}});

describe('VerdictLine', () => {
	test("the kubelet's words, then the node's Ready condition with its message, wrapped between words", () => {
		assert.equal(
			paneFrame(verdictLines({verdict: unhealthy, node: notReady, width: 80}), 80),
			[
				`✗ ${message}`,
				'✗ node Ready=False KubeletNotReady since 14:02:21: PLEG is not healthy: pleg was',
				'  last seen active 3m1s ago; threshold is 3m0s',
			].join('\n'),
		);
	});

	test('one row each when asked: the cut is after a whole word, marked …', () => {
		const frame = paneFrame(verdictLines({verdict: unhealthy, node: notReady, width: 60, maxLinesEach: 1}), 60);
		assert.equal(
			frame,
			['✗ PLEG is not healthy: pleg was last seen active 3m1s ago; …', '✗ node Ready=False KubeletNotReady since 14:02:21: PLEG is …'].join(
				'\n',
			),
		);
	});

	test('healthy, judged on the count fallback, node without a Ready condition', () => {
		const frame = paneFrame(
			verdictLines({
				verdict: {healthy: true, message: 'PLEG is healthy', basis: 'count-unchanged'},
				node: readyNode({ready: null}),
				width: 80,
			}),
			80,
		);
		assert.equal(
			frame,
			['✓ PLEG is healthy (judged on "count unchanged", no last-seen gauge)', '? node demo-node: no Ready condition reported'].join('\n'),
		);
	});

	test('no Node object read: the verdict alone', () => {
		assert.equal(
			paneFrame(verdictLines({verdict: {healthy: null, message: 'cannot judge yet', basis: 'none'}, node: null, width: 80}), 80),
			'? cannot judge yet',
		);
	});

	test('stale: the unknown verdict under "?", its own symbol, never the ✓ of the last good scrape', () => {
		const stale = {
			healthy: null,
			message: 'verdict unknown: the last good scrape is 47s old (then: PLEG is healthy)',
			basis: 'none',
		} as const;
		assert.equal(
			paneFrame(verdictLines({verdict: stale, node: null, width: 80}), 80),
			'? verdict unknown: the last good scrape is 47s old (then: PLEG is healthy)',
		);
	});
});

describe('VerdictLine: the incident view', () => {
	const generic = makeFigures().constants;
	const quiet = quietIncident;
	const healthy = {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'} as const;
	const lines = (verdict: Verdict, age: number, incident: Incident, width = 80) =>
		paneFrame(verdictLines({verdict, node: null, width, figures: {lastSeen: lastSeenAt(age), constants: generic, incident}}), width);

	test("healthy in the ok band: the kubelet's words, no countdown, no incident row", () => {
		assert.equal(lines(healthy, 2, quiet), '✓ PLEG is healthy');
	});

	test("172 s of 180: NotReady in 8s, critical (!!), said as pleg-top's estimate", () => {
		assert.equal(lines(healthy, 172, quiet), "!! NotReady in 8s (last seen 2m52s ago; threshold 3m0s) · pleg-top's estimate");
	});

	test('45 s: warn (!), NotReady in 2m15s', () => {
		assert.equal(lines(healthy, 45, quiet), "! NotReady in 2m15s (last seen 45s ago; threshold 3m0s) · pleg-top's estimate");
	});

	test("unhealthy: the kubelet's words, then for how long and since when (14:01:10 = 72 s before 14:02:22), and the flaps", () => {
		const incident: Incident = {
			...quiet,
			unhealthySince: testNow - 72_000,
			unhealthyForSeconds: 72,
			sinceExact: true,
			transitions: 5,
			flaps: 3,
		};
		assert.equal(lines(unhealthy, 181, incident), [`✗ ${message}`, '  unhealthy for 1m12s, since 14:01:10 · flaps 3'].join('\n'));
	});

	test('a start only bounded (no gauge, or pleg-top saw it first): at least, or before', () => {
		const incident: Incident = {...quiet, unhealthySince: testNow - 15_000, unhealthyForSeconds: 15, sinceExact: false};
		assert.equal(lines(unhealthy, 181, incident).split('\n')[1], '  unhealthy for at least 15s, since 14:02:07 or before');
	});

	test("after recovery: recovered 40s ago after 4m3s unhealthy, with the flaps and Ready flips, on the verdict's row", () => {
		const incident: Incident = {
			...quiet,
			recovered: {at: testNow - 40_000, agoSeconds: 40, afterSeconds: 243, exact: true},
			transitions: 2,
			flaps: 1,
			readyFlips: 2,
		};
		assert.equal(lines(healthy, 1, incident, 120), '✓ PLEG is healthy · recovered 40s ago after 4m3s unhealthy · flaps 1 · Ready flips 2');
		// 80 columns: the row holds the span and the flaps; the Ready flips give way rather than take a row.
		assert.equal(lines(healthy, 1, incident), '✓ PLEG is healthy · recovered 40s ago after 4m3s unhealthy · flaps 1');
		// 50 columns: the span alone does not fit beside the verdict: a row of its own.
		assert.equal(lines(healthy, 1, incident, 50), ['✓ PLEG is healthy', '  recovered 40s ago after 4m3s unhealthy · flaps 1'].join('\n'));
	});

	test('narrow: the counts give way before the span', () => {
		const incident: Incident = {
			...quiet,
			unhealthySince: testNow - 72_000,
			unhealthyForSeconds: 72,
			sinceExact: true,
			flaps: 3,
			readyFlips: 4,
		};
		assert.equal(lines(unhealthy, 181, incident, 44).split('\n').at(-1), '  unhealthy for 1m12s, since 14:01:10');
	});
});
