// The figures at the edges, through the built CLI (`--once`, text and JSON) against the fake API server with
// scripted /metrics bodies: a kubelet restart inside the window, an EventedPLEG gate whose kubelet fell back to the
// Generic PLEG, a patch release with no constants row of its own, a last-seen gauge that is not a time, a series a
// new kubelet simply lacks, JSON units and the one duration style. Each expectation is computed by hand.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import type {JsonReport} from '../../source/report/report.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, runCli} from '../helpers/run-cli.js';
import {readDump, setSamples, v121OneMinuteLater, v121Restarted} from '../domain/dump.js';
import {dumpThenMinuteLater, fast, startCluster, testToken, withLastSeen, type Cluster} from './cluster.js';

let cluster: Cluster;

before(async () => {
	cluster = await startCluster([
		{name: 'restarted', kubeletVersion: 'v1.21.2'},
		{name: 'evented', kubeletVersion: 'v1.28.4'},
		{name: 'patch-135', kubeletVersion: 'v1.35.0'},
		{name: 'gauge', kubeletVersion: 'v1.21.2'},
		{name: 'new-131', kubeletVersion: 'v1.31.4'},
		{
			name: 'ready',
			kubeletVersion: 'v1.21.2',
			ready: {
				status: 'True',
				reason: 'KubeletReady',
				message: 'kubelet is posting ready status',
				lastTransitionTime: '2024-01-15T13:40:02Z',
			},
		},
	]);
});

after(async () => {
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

/** The n-th /metrics request of `node` gets bodies[n - 1] (the last one from then on). */
function serve(node: string, ...bodies: Array<() => string>): void {
	let calls = 0;
	cluster.fake.setMetrics(node, () => bodies[Math.min(calls++, bodies.length - 1)]!());
}

async function once(node: string, ...extra: string[]): Promise<{code: number | null; stdout: string; stderr: string}> {
	return runCli(['--node', node, '--once', ...fast, ...extra], {env: cluster.env});
}

async function onceJson(node: string): Promise<{code: number | null; report: JsonReport}> {
	const result = await once(node, '-o', 'json');
	assert.equal(result.stderr, '');
	return {code: result.code, report: JSON.parse(result.stdout) as JsonReport};
}

/** The value of a `label  value` line of the text report. */
function line(stdout: string, label: string): string | undefined {
	return stdout
		.split('\n')
		.find((text) => text.startsWith(`${label} `))
		?.slice(label.length)
		.trim();
}

const gauge = (text: string) =>
	`${text.trimEnd()}\n# TYPE kubernetes_feature_enabled gauge\nkubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 1\n`;
const streams = (text: string, success: number, errors: number) =>
	`${text.trimEnd()}\n# TYPE kubelet_evented_pleg_connection_success_count counter\nkubelet_evented_pleg_connection_success_count ${success}\n` +
	`# TYPE kubelet_evented_pleg_connection_error_count counter\nkubelet_evented_pleg_connection_error_count ${errors}\n`;

describe('a kubelet restart between the two scrapes', () => {
	test('the window spans it: three slow relists after the restart give a 201 ms mean, not a restarted window', async () => {
		// A stalled kubelet (its gauge 1 s old at each scrape, its count not moving), restarted: its first three
		// relists take 150, 200 and 254 ms (sum 0.604 s; buckets ≤0.25: 2, ≤0.5: 3), two intervals of 1.2 and 1.25 s.
		const stalled = () => withLastSeen(readDump('1.21.2'), 1);
		const restarted = () => withLastSeen(v121Restarted([0.15, 0.2, 0.254], [1.2, 1.25]), 1);
		serve('restarted', stalled, restarted);
		const {code, report} = await onceJson('restarted');
		assert.equal(code, 0);
		const relist = report.relist;
		assert.equal(relist.count, 3); // since the kubelet started
		assert.equal(relist.windowCount, 3);
		assert.equal(relist.windowMeanSeconds, 0.201333333); // 0.604 / 3
		assert.equal(relist.windowP50Seconds, 0.2125); // rank 1.5 in (0.1, 0.25]: 0.1 + 0.15 × 1.5/2
		assert.equal(relist.windowP90Seconds, 0.425); // rank 2.7 in (0.25, 0.5]: 0.25 + 0.25 × 0.7
		assert.equal(relist.windowP99Seconds, 0.4925); // rank 2.97: 0.25 + 0.25 × 0.97
		assert.equal(relist.intervalMeanSeconds, 1.225); // (1.2 + 1.25) / 2
		assert.ok(relist.ratePerSecond !== null && relist.ratePerSecond > 0);

		serve('restarted', stalled, restarted);
		const text = await once('restarted');
		assert.match(line(text.stdout, 'window') ?? '', /^(?:\d+ms|[\d.]+s): 3 relists, mean 201ms, [\d.]+\/s$/);
		assert.equal(line(text.stdout, 'quantiles'), 'p50 212ms, p90 425ms, p99 492ms');
	});
});

describe('EventedPLEG gate on, yet fallen back to the Generic PLEG', () => {
	test('5 stream errors, no stream ever obtained: 1 s / 3 min in force, judged on 3 min, the evidence said', async () => {
		serve('evented', () => streams(gauge(withLastSeen(readDump('1.21.2'), 200)), 0, 5));
		const {code, report} = await onceJson('evented');
		assert.deepEqual(report.constants, {
			relistPeriodSeconds: 1,
			relistThresholdSeconds: 180,
			periodSource: 'pkg/kubelet/kubelet.go:178',
			thresholdSource: 'pkg/kubelet/kubelet.go:179',
			row: 'v1.28.0',
			rowNote: null,
			pleg: 'evented, fell back to generic after 5 stream errors',
		});
		// 200 s: past 3 min, though within the evented 10 min.
		assert.match(report.verdict, /^PLEG is not healthy: pleg was last seen active 3m2[0-2]s ago; threshold is 3m0s$/);
		assert.equal(report.healthy, false);
		assert.equal(code, 1);

		const text = await once('evented');
		assert.equal(line(text.stdout, 'threshold'), '3m0s (genericPlegRelistThreshold, pkg/kubelet/kubelet.go:179)');
		assert.equal(
			line(text.stdout, 'evented PLEG'),
			'evented, fell back to generic after 5 stream errors; 1s / 3m0s in force; last seen = health-check time',
		);
	});

	test('relists at the generic pace with a stream obtained: fallen back, said with the measured rate', async () => {
		const bodies = dumpThenMinuteLater(1);
		cluster.fake.setMetrics('evented', () => streams(gauge(bodies(0)), 1, 0));
		const {report} = await onceJson('evented');
		// 60 relists within the ~200 ms window: hundreds a second, where the evented Generic PLEG makes one per 300 s.
		assert.match(report.constants.pleg, /^evented, fell back to generic: relists at \d+\/s, not one per 5m0s$/);
		assert.equal(report.constants.relistThresholdSeconds, 180);
	});

	test('a stream obtained and the relists at the evented pace: 5m0s / 10m0s, still evented', async () => {
		cluster.fake.setMetrics('evented', () => streams(gauge(withLastSeen(readDump('1.21.2'), 1)), 1, 0));
		const {report} = await onceJson('evented');
		assert.equal(report.constants.pleg, 'evented');
		assert.equal(report.constants.relistPeriodSeconds, 300);
	});
});

describe('a patch release with no constants row of its own', () => {
	test('v1.35.0 takes the v1.35.3 row (kubelet.go:212/213), not v1.34.2 (206/207), and says which', async () => {
		serve('patch-135', () => withLastSeen(readDump('1.21.2'), 1));
		const {report} = await onceJson('patch-135');
		assert.equal(report.constants.periodSource, 'pkg/kubelet/kubelet.go:212');
		assert.equal(report.constants.thresholdSource, 'pkg/kubelet/kubelet.go:213');
		assert.equal(report.constants.row, 'v1.35.3');
		assert.equal(report.constants.rowNote, 'v1.35.0 not read; the v1.35.3 row of the same minor');
		const text = await once('patch-135');
		assert.equal(
			line(text.stdout, 'threshold'),
			'3m0s (genericPlegRelistThreshold, pkg/kubelet/kubelet.go:213; derived; v1.35.0 not read; the v1.35.3 row of the same minor)',
		);
	});
});

describe('a last-seen gauge that is not a time', () => {
	for (const value of ['NaN', '+Inf', '-Inf', '-5']) {
		test(`${value}: read as absent, the count fallback judges, the reason said, never NaN or Infinity printed`, async () => {
			serve('gauge', () => setSamples(readDump('1.21.2'), {kubelet_pleg_last_seen_seconds: value}));
			const {code, report} = await onceJson('gauge');
			const why = {NaN: 'not a number', '+Inf': 'infinite', '-Inf': 'infinite', '-5': 'negative'}[value];
			assert.equal(report.lastSeenSeconds, null);
			assert.equal(report.lastSeenAgeSeconds, null);
			// Two scrapes of the same body: the count has not moved since the first, a fraction of a second ago.
			assert.ok(report.countUnchangedSeconds !== null && report.countUnchangedSeconds < 5);
			// In whole seconds: 0s, or more when a loaded machine took a second between the two scrapes.
			assert.match(
				report.unavailable[0] ?? '',
				new RegExp(`^last seen: kubelet_pleg_last_seen_seconds is ${why}, not a time; using 'count unchanged for [0-4]s'$`),
			);
			assert.equal(report.healthy, true);
			assert.equal(code, 0);

			const text = await once('gauge');
			assert.doesNotMatch(text.stdout, /NaN|Infinity|Inf\b/);
			assert.match(line(text.stdout, 'last seen') ?? '', /^no gauge; relist count unchanged for [0-4]s$/);
			assert.equal(line(text.stdout, 'verdict'), 'PLEG is healthy');
		});
	}
});

describe('wording that blames the right thing', () => {
	test('a v1.31 kubelet whose body lacks kubelet_running_pods: "not in this kubelet\'s /metrics", not "exists from 1.19"', async () => {
		const withoutRunningPods = (text: string) =>
			text.replace(
				'# HELP kubelet_running_pods [ALPHA] Number of pods currently running\n# TYPE kubelet_running_pods gauge\nkubelet_running_pods 29\n',
				'',
			);
		serve('new-131', () => withoutRunningPods(withLastSeen(readDump('1.21.2'), 1)));
		const text = await once('new-131');
		const unavailable = text.stdout.split('\n').filter((row) => row.startsWith('unavailable '));
		assert.ok(
			unavailable.some((row) => row.endsWith("running pods: kubelet_running_pods is not in this kubelet's /metrics")),
			unavailable.join('\n'),
		);
		assert.doesNotMatch(text.stdout, /exists from kubelet 1\.19/);
	});

	test('one new CRI error is "1 error", and every duration reads as Go writes it', async () => {
		const errorsLine = 'kubelet_runtime_operations_errors_total{operation_type="exec_sync"} 16';
		const oneError = (text: string) =>
			text.replace(errorsLine, `${errorsLine}\nkubelet_runtime_operations_errors_total{operation_type="list_podsandbox"} 1`);
		serve(
			'new-131',
			() => withLastSeen(readDump('1.21.2'), 1),
			() => oneError(withLastSeen(v121OneMinuteLater(), 1)),
		);
		const text = await once('new-131');
		assert.equal(line(text.stdout, 'ListPodSandbox'), 'no call in the window, 1 error');
		assert.doesNotMatch(text.stdout, /\b1 errors\b/);
		// Ages, spans and means in one style: "1s", "3m0s", "10ms", never "1 s" or "3 minutes".
		assert.match(line(text.stdout, 'last seen') ?? '', /^[1-3]s ago \(gauge \d+\)$/);
		assert.match(line(text.stdout, 'window') ?? '', /^(?:\d+ms|[\d.]+s): 60 relists, mean 10ms, [\d.]+\/s$/);
		assert.equal(line(text.stdout, 'interval'), '1.02s');
		assert.doesNotMatch(text.stdout, /\d (?:ms|s|µs)\b|minutes?|seconds?/);
	});
});

describe('JSON units', () => {
	test('readyCondition.since in Unix seconds, and no floating noise in any figure', async () => {
		serve(
			'ready',
			() => withLastSeen(readDump('1.21.2'), 1),
			() => withLastSeen(v121OneMinuteLater(), 1),
		);
		const result = await once('ready', '-o', 'json');
		const report = JSON.parse(result.stdout) as JsonReport;
		// 2024-01-15T13:40:02Z
		assert.equal(report.readyCondition?.since, 1_705_326_002);
		assert.equal(report.relist.windowMeanSeconds, 0.01); // 0.6 s / 60, not 0.009999999999975747
		assert.equal(report.relist.intervalMeanSeconds, 1.02); // 61.2 s / 60, not 1.019999999999224
		assert.equal(report.relist.sum, 35471.57548711);
		assert.doesNotMatch(result.stdout, /\d\.\d{10,}/);
	});
});
