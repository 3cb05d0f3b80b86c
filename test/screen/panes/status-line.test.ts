import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {FeedStatus} from '../../../source/domain/types.js';
import {lineText} from '../../../source/screen/layout/line.js';
import {statusLines, staleBannerLines} from '../../../source/screen/panes/status-line.js';
import {okStatus, testNow} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

process.env.TZ = 'UTC';
const failing: FeedStatus = okStatus({
	failure: {
		kind: 'forbidden',
		summary: 'forbidden: get nodes/proxy denied for user alice',
		details: ['GET https://10.0.0.1:6443/api/v1/nodes/demo-node/proxy/metrics', 'check: kubectl auth can-i get nodes/proxy'],
	},
	failingSince: testNow - 12_000,
	lastGoodAt: testNow - 12_000,
	consecutiveFailures: 12,
});

const status = (props: Partial<Parameters<typeof statusLines>[0]> = {}) =>
	paneFrame(statusLines({status: okStatus(), intervalSeconds: 1, now: testNow, width: 80, ...props}), props.width ?? 80);

describe('StatusLine', () => {
	test('fine: cadence, last request latency, key hints', () => {
		assert.equal(status(), 'every 1s  last scrape 320ms  q quit  ? help  p pause  b mark  a anatomy');
	});

	test('opened from the node table, q goes back there and says so', () => {
		assert.equal(status({quitHint: 'back'}), 'every 1s  last scrape 320ms  q back  ? help  p pause  b mark  a anatomy');
	});

	test('hints stop at the first that does not fit, in order', () => {
		// 27 columns of state + 2, then "q quit  ? help  p pause" = 23 → 52; "  b mark" would make 60.
		assert.equal(status({width: 59}), 'every 1s  last scrape 320ms  q quit  ? help  p pause');
		// The demo keys come after the common ones.
		assert.equal(
			status({demo: true, width: 100}),
			'every 1s  last scrape 320ms  q quit  ? help  p pause  b mark  a anatomy  k source  c churn  s stall',
		);
	});

	test('failure: the summary on its own row, its details, and the retry count', () => {
		assert.equal(
			status({status: failing}),
			[
				'✗ forbidden: get nodes/proxy denied for user alice',
				'  GET https://10.0.0.1:6443/api/v1/nodes/demo-node/proxy/metrics',
				'  check: kubectl auth can-i get nodes/proxy',
				// 12 consecutive failures: the back-off is at its 10 s cap.
				'retry back-off 10s · 12 failures  q quit  ? help  p pause  b mark  a anatomy',
			].join('\n'),
		);
		assert.equal(status({status: failing, maxDetails: 0}).split('\n').length, 2);
	});

	test('PAUSED says so and how to resume', () => {
		assert.match(status({status: okStatus({paused: true})}), /^PAUSED \(p resumes\) {2}q quit/);
	});
});

describe('staleBannerLines', () => {
	test('STALE with the age and the clock time of the last good data', () => {
		// lastGoodAt = 14:02:22 − 12 s = 14:02:10.
		assert.deepEqual(staleBannerLines({status: failing, now: testNow, width: 80}).map(lineText), [
			'STALE — last good data 12s ago (14:02:10)',
		]);
		assert.deepEqual(staleBannerLines({status: failing, now: testNow, width: 30}).map(lineText), ['STALE — 12s ago']);
	});

	test('nothing while scrapes succeed', () => {
		assert.deepEqual(staleBannerLines({status: okStatus(), now: testNow, width: 80}), []);
	});
});
