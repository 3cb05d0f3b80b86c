// A node Prometheus knows without PLEG series, as pure functions: why in words (clock times in UTC here), the
// failure its feed holds, and the overview row it makes: unknown, counted, with the reason in its status.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	absenceWhy,
	initialPrometheusFeed,
	jobsText,
	prometheusFeedReducer,
	type NodeAbsence,
} from '../../../source/domain/fleet/prometheus-feed.js';
import {overviewRow} from '../../../source/screen/overview-rows.js';

process.env['TZ'] = 'UTC';
// 2026-12-06 06:11:02 UTC, Unix seconds.
const lastScrapeAt = Date.UTC(2026, 11, 6, 6, 11, 2) / 1000;
const dead: NodeAbsence = {knownBy: 'up', up: 0, lastScrapeAt, job: 'kubelet'};

describe('a node Prometheus knows without PLEG series', () => {
	test('why, in words, for each way Prometheus knows it', () => {
		assert.equal(absenceWhy(dead), 'kubelet not scraped since 06:11:02, up=0');
		assert.equal(absenceWhy({...dead, lastScrapeAt: null}), 'kubelet not scraped in the last hour, up=0');
		assert.equal(absenceWhy({...dead, up: 1}), 'kubelet scraped (up=1) but no PLEG series in job kubelet');
		assert.equal(
			absenceWhy({knownBy: 'other_job', otherJob: 'kubelet-copy', up: null, lastScrapeAt: null, job: 'kubelet'}),
			'PLEG series only in job kubelet-copy, not read (--job kubelet-copy)',
		);
		assert.equal(
			absenceWhy({knownBy: 'kube_node_info', up: null, lastScrapeAt: null, job: 'kubelet'}),
			'kube_node_info lists it, but job kubelet has no target for it',
		);
	});

	test('its feed holds a not-found failure saying so, and its row is unknown with the reason "not scraped"', () => {
		const at = lastScrapeAt * 1000 + 30_000;
		const feed = prometheusFeedReducer(initialPrometheusFeed('node-09', 60), {type: 'absent', at, absence: dead});
		assert.deepEqual(feed.status.failure, {
			kind: 'not-found',
			summary: 'Prometheus has no PLEG series for node "node-09": kubelet not scraped since 06:11:02, up=0',
			details: ['its target in job kubelet answers up=0: check the kubelet (systemctl status kubelet) and the path from Prometheus to it'],
		});
		const row = overviewRow({name: 'node-09', figures: null, status: feed.status, node: null, goneSince: null}, {now: at, cycleMs: 1000});
		assert.deepEqual([row.state, row.word, row.reason, row.band], ['unknown', 'unknown', 'not scraped', 'unknown']);
	});

	test('the jobs in words: the header names the job read and the others; --once adds how to choose', () => {
		assert.equal(jobsText(null), '');
		assert.equal(jobsText({chosen: null, others: [], asked: false}), '');
		assert.equal(jobsText({chosen: 'kubelet', others: [], asked: false}), 'job kubelet');
		const two = {chosen: 'kubelet', others: ['kubelet-copy'], asked: false};
		assert.equal(jobsText(two), 'job kubelet (also seen: kubelet-copy)');
		assert.equal(jobsText(two, true), 'job kubelet (also seen: kubelet-copy, not read; --job to choose)');
	});
});
