// The PromQL of one scrape job and the choice of that job, as pure functions: a job matcher on every selector when
// there is another job to keep apart; the job with most kubelet PLEG series read, --job whatever the counts.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {absentQuery, jobsQuery, lastScrapeQuery, plegQueries} from '../../../source/sources/prometheus/queries.js';
import {chooseJob} from '../../../source/sources/prometheus/source.js';

const sample = (job: string | undefined, value: number): {metric: Record<string, string>; value: number} => ({
	metric: job === undefined ? {} : {job},
	value,
});

describe('Prometheus queries of one job', () => {
	test('every selector of every figure carries the job; without one, none does', () => {
		const queries = Object.values(plegQueries(30, null, 'kubelet'));
		for (const query of queries) {
			const selectors = query.match(/kubelet_pleg_\w+|kubernetes_build_info/g)!;
			assert.equal((query.match(/\{job="kubelet"\}/g) ?? []).length, selectors.length, query);
		}

		assert.equal(
			plegQueries(30, null, 'kubelet').ratePerSecond,
			'sum by (node, instance) (rate(kubelet_pleg_relist_duration_seconds_count{job="kubelet"}[30s]))',
		);
		assert.ok(Object.values(plegQueries(30)).every((query) => !query.includes('job=')));
		// One node and one job: both matchers on each side of the `or`.
		assert.match(
			plegQueries(30, 'worker-1', 'kubelet').lifetimeCount,
			/\{job="kubelet",node="worker-1"\}.* or .*\{job="kubelet",instance=~/,
		);
	});

	test('the jobs, the absent nodes and their last good scrape are each one query', () => {
		assert.equal(jobsQuery(), 'count by (job) ((kubelet_pleg_relist_duration_seconds_count))');
		// The job read so far counts 0 while Prometheus still has targets of it.
		assert.equal(
			jobsQuery(null, 'kubelet'),
			'count by (job) ((kubelet_pleg_relist_duration_seconds_count)) or (count by (job) (up{job="kubelet"}) * 0)',
		);
		const absent = absentQuery('kubelet');
		assert.match(absent, /min by \(node, instance\) \(up\{job="kubelet"\}\)/);
		assert.match(absent, /kubelet_pleg_relist_duration_seconds_count\{job!="kubelet"\}/);
		assert.match(absent, /unless on \(node, instance\) \(kubelet_pleg_last_seen_seconds\{job="kubelet"\}/);
		assert.equal(
			lastScrapeQuery('kubelet', ['10.0.0.5:10250', '10.0.0.6:10250']),
			'max by (node, instance) (max_over_time((timestamp(up{job="kubelet",instance=~"10\\\\.0\\\\.0\\\\.5:10250|10\\\\.0\\\\.0\\\\.6:10250"}) and up{job="kubelet",instance=~"10\\\\.0\\\\.0\\\\.5:10250|10\\\\.0\\\\.0\\\\.6:10250"} == 1)[3600s:1s]))',
		);
	});
});

describe('which job is read', () => {
	test('the one with most series, ties by name; the others named', () => {
		assert.deepEqual(chooseJob([sample('b', 3), sample('a', 3), sample('c', 5)], null), {chosen: 'c', others: ['a', 'b'], asked: false});
		assert.deepEqual(chooseJob([sample('kubelet-copy', 10), sample('kubelet', 10)], null), {
			chosen: 'kubelet',
			others: ['kubelet-copy'],
			asked: false,
		});
	});

	test('the job read so far stays while Prometheus still has it, with series or only targets; gone, the counts choose', () => {
		// Every kubelet of "kubelet" stopped: its series went stale a scrape before the copy's, its targets say up=0.
		assert.deepEqual(chooseJob([sample('kubelet-copy', 3), sample('kubelet', 0)], null, 'kubelet'), {
			chosen: 'kubelet',
			others: ['kubelet-copy'],
			asked: false,
		});
		assert.deepEqual(chooseJob([sample('kubelet', 0)], null, 'kubelet'), {chosen: 'kubelet', others: [], asked: false});
		assert.deepEqual(chooseJob([sample('kubelet-copy', 3), sample('kubelet', 10)], null, 'kubelet-copy'), {
			chosen: 'kubelet-copy',
			others: ['kubelet'],
			asked: false,
		});
		// No target of it left (a job renamed in Prometheus's config): the one with most series.
		assert.deepEqual(chooseJob([sample('b', 3), sample('c', 5)], null, 'a'), {chosen: 'c', others: ['b'], asked: false});
	});

	test('--job is read whatever the counts, even with no series', () => {
		assert.deepEqual(chooseJob([sample('a', 9), sample('b', 1)], 'b'), {chosen: 'b', others: ['a'], asked: true});
		assert.deepEqual(chooseJob([sample('a', 9)], 'z'), {chosen: 'z', others: ['a'], asked: true});
	});

	test('series without a job label choose none: every series is read as it comes', () => {
		assert.deepEqual(chooseJob([sample(undefined, 4)], null), {chosen: null, others: [], asked: false});
		assert.deepEqual(chooseJob([], null), {chosen: null, others: [], asked: false});
	});
});
