// The exposition reader through the built CLI: bodies that follow the text format but not the kubelet's habits
// (extra labels, no TYPE line, tabs, exemplars, a duplicate family) give the right figures; a body without PLEG
// series (cAdvisor's) is "unreadable", exit 3, naming what was missing and the URL it was read from; a bad line is
// named by its number, cut short, with no credential in it.
import assert from 'node:assert/strict';
import {after, before, beforeEach, describe, test} from 'node:test';
import {testTls} from '../helpers/fake-api-server.js';
import {startFakeKubelet, type FakeKubelet} from '../helpers/fake-kubelet.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, cliPath, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';
import {readDump} from '../domain/dump.js';
import {cadvisorBody, duplicateDiscardNote, instanceNote, roughen, twoInstanceBody} from '../domain/exposition-bodies.js';
import {dumpThenMinuteLater, fast, startCluster, testToken, type Cluster} from './cluster.js';

const kubeletToken = 'exposition-kubelet-token-7f3a9c21d8e4b605';
/** A token written into a bad line of a body, to show the parse error never carries it. */
const bodyToken = 'Zx9Qw7Lm3Np5Rt8Vb2Kd6Hf4Jc1Gs0Yu';
let cluster: Cluster;
let kubelet: FakeKubelet;
let kubeletBody = cadvisorBody;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster();
	kubelet = await startFakeKubelet({metrics: () => kubeletBody, tokens: {[kubeletToken]: 'pleg-top'}, allowed: ['pleg-top']});
});

beforeEach(() => {
	cluster.fake.clearFaults();
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await kubelet.close();
	await cluster.close();
	assertNoSecretsIn(
		capturedOutput,
		integrationSecrets({'test token': testToken, 'kubelet token': kubeletToken, 'token in a body': bodyToken}),
	);
});

const once = (...extra: string[]) => ['--node', 'worker-1', '--once', ...fast, ...extra];

/** Serves make(n) for the n-th metrics request of worker-1. */
function serve(make: (request: number) => string): void {
	let calls = 0;
	cluster.fake.setMetrics('worker-1', () => make(++calls));
}

/** The --once JSON report, as far as these tests read it. */
type Report = {
	relist: Record<
		'count' | 'windowCount' | 'windowMeanSeconds' | 'windowP50Seconds' | 'windowP90Seconds' | 'windowP99Seconds' | 'intervalMeanSeconds',
		number
	>;
	verdict: string;
	unavailable: string[];
	discardEvents: number;
	discardEventsInWindow: number;
};

async function onceJson(): Promise<Report> {
	const result = await runCli(once('--output', 'json'), {env: cluster.env});
	assert.equal(result.stderr, '');
	assert.equal(result.code, 0);
	return JSON.parse(result.stdout) as Report;
}

async function failing(args: string[]): Promise<string[]> {
	const result = await runCli(args, {env: cluster.env});
	assert.equal(result.stdout, '');
	assert.equal(result.code, 3, result.stderr);
	assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
	return result.stderr.trimEnd().split('\n');
}

const lookedFor =
	'  looked for kubelet_pleg_relist_duration_seconds, kubelet_pleg_relist_interval_seconds, kubelet_pleg_relist_latency_microseconds, kubelet_pleg_relist_interval_microseconds, kubelet_pleg_last_seen_seconds, kubelet_pleg_discard_events: none is there';
const holds =
	"  it holds other series, e.g. cadvisor_version_info, container_cpu_usage_seconds_total, container_memory_working_set_bytes (cAdvisor's, as /metrics/cadvisor serves)";

describe('text-format bodies the kubelet does not write, through --once', () => {
	test('the relist histogram in two series (extra label instance): added up, windowed, and said so', async () => {
		const lastSeen = () => Math.floor(Date.now() / 1000) - 1;
		serve((n) => twoInstanceBody(n === 1 ? 1 : 2, lastSeen()));
		const report = await onceJson();
		const {relist} = report;
		// Added up: 280 then 300 relists (exposition-bodies.ts), Δsum 3.5 - 3 = 0.5 s.
		assert.equal(relist.count, 300);
		assert.equal(relist.windowCount, 20);
		assert.ok(Math.abs(relist.windowMeanSeconds - 0.025) < 1e-9, String(relist.windowMeanSeconds));
		// Bucket deltas 12 (≤ 5 ms), 19 (≤ 10 ms), 20 (≤ 25 ms), 20 (+Inf).
		// p50 rank 10 in (0, 5] ms: 10/12 × 5 = 4.1667 ms; p90 rank 18 in (5, 10] ms: 5 + 6/7 × 5 = 9.2857 ms;
		// p99 rank 19.8 in (10, 25] ms: 10 + 0.8/1 × 15 = 22 ms.
		assert.ok(Math.abs(relist.windowP50Seconds - 0.025 / 6) < 1e-6, String(relist.windowP50Seconds));
		assert.ok(Math.abs(relist.windowP90Seconds - (0.005 + (6 / 7) * 0.005)) < 1e-6, String(relist.windowP90Seconds));
		assert.ok(Math.abs(relist.windowP99Seconds - 0.022) < 1e-6, String(relist.windowP99Seconds));
		assert.equal(report.verdict, 'PLEG is healthy');
		assert.deepEqual(report.unavailable, [instanceNote]);
	});

	test('the discard counter as OpenMetrics writes it (kubelet_pleg_discard_events_total): read, total and window', async () => {
		const plain = dumpThenMinuteLater();
		// 3 discarded events at the first scrape, 7 at the second: 7 in all, 4 in the window.
		serve((n) => plain(n).replace(/^kubelet_pleg_discard_events \d+$/m, `kubelet_pleg_discard_events_total ${n % 2 === 1 ? 3 : 7}`));
		const report = await onceJson();
		assert.equal(report.discardEvents, 7);
		assert.equal(report.discardEventsInWindow, 4);
	});

	test('no TYPE for the relist histogram, exemplars, tabs, a duplicate family: the figures of the plain dump', async () => {
		const plain = dumpThenMinuteLater();
		serve((n) => roughen(plain(n)));
		const report = await onceJson();
		const {relist} = report;
		// The same figures as the plain dump one minute apart (once.int.test.ts): +60 relists, Δsum 0.6 s.
		assert.equal(relist.count, 1_672_010);
		assert.equal(relist.windowCount, 60);
		assert.ok(Math.abs(relist.windowMeanSeconds - 0.01) < 1e-9);
		assert.ok(Math.abs(relist.windowP50Seconds - 0.008_333_333) < 1e-6);
		assert.ok(Math.abs(relist.windowP90Seconds - 0.024) < 1e-9);
		assert.ok(Math.abs(relist.intervalMeanSeconds - 1.02) < 1e-6);
		// The first discard family is read (0 then 2), not the copy with 999.
		assert.equal(report.discardEvents, 2);
		assert.equal(report.discardEventsInWindow, 2);
		assert.equal(report.verdict, 'PLEG is healthy');
		assert.deepEqual(report.unavailable, [duplicateDiscardNote]);
	});
});

describe('a body without PLEG series: unreadable, exit 3', () => {
	test("cAdvisor's body through the API server: what was missing, the URL, and what the body holds", async () => {
		serve(() => cadvisorBody);
		for (const output of ['text', 'json']) {
			const lines = await failing(once('--output', output));
			assert.deepEqual(lines, [
				`pleg-top: no PLEG series in the metrics from ${cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics: is it the kubelet's /metrics?`,
				lookedFor,
				holds,
				`  from worker-1 via ${cluster.fake.url}`,
			]);
		}
	});

	test('--kubelet-url: the kubelet URL it read', async () => {
		const tokenFile = cluster.temp.write('kubelet-token', kubeletToken);
		const caFile = cluster.temp.write('kubelet-ca.crt', testTls.caCert);
		kubeletBody = cadvisorBody;
		const lines = await failing(['--kubelet-url', kubelet.url, '--token-file', tokenFile, '--kubelet-ca', caFile, '--once', ...fast]);
		assert.equal(lines[0], `pleg-top: no PLEG series in the metrics from ${kubelet.url}/metrics: is it the kubelet's /metrics?`);
		assert.equal(lines[1], lookedFor);
	});

	test('JSON lines: every line is the failure, never figures', async () => {
		serve(() => cadvisorBody);
		const cli = spawnCli(['--node', 'worker-1', ...fast], {env: cluster.env, timeoutMs: 30_000});
		running.push(cli);
		await cli.waitForStdout((stdout) => stdout.split('\n').length > 2, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		const lines = result.stdout
			.split('\n')
			.slice(0, -1)
			.map((text) => JSON.parse(text) as {verdict?: string; stale?: boolean; error: {kind: string; summary: string}});
		assert.ok(lines.length >= 2);
		for (const line of lines) {
			assert.equal(line.verdict, undefined, 'no verdict without PLEG series');
			assert.equal(line.stale, true);
			assert.equal(line.error.kind, 'parse');
			assert.equal(
				line.error.summary,
				`no PLEG series in the metrics from ${cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics: is it the kubelet's /metrics?`,
			);
		}
	});

	test('the live screen: the failure, no verdict', {skip: hasTmux ? false : 'tmux not installed'}, async () => {
		serve(() => cadvisorBody);
		const session = startTmux(`${process.execPath} ${cliPath} --node worker-1 --interval 200ms --window 1s`, {
			columns: 200,
			rows: 30,
			env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...cluster.env},
		});
		try {
			const screen = await session.waitFor(
				`no PLEG series in the metrics from ${cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics`,
				20_000,
			);
			capturedOutput.push(screen);
			assert.doesNotMatch(screen, /PLEG is healthy|cannot judge/);
			session.keys('q');
		} finally {
			session.kill();
		}
	});
});

describe('a parse error names the first bad line', () => {
	test('{le="0.005" 12 on line 1, before a good dump: line 1 and its text', async () => {
		serve(() => `{le="0.005" 12\n${readDump('1.21.2')}`);
		const lines = await failing(once());
		assert.equal(lines[0], 'pleg-top: metrics could not be parsed (line 1): malformed sample: {le="0.005" 12');
	});

	test('a bad line carrying a bearer token: the token is masked before the line is cut short', async () => {
		// The token begins at column 70: cut at 77 characters first, 8 of its characters would show, too few for a
		// credential pattern to catch.
		const bad = `{"padding":"${'p'.repeat(40)}","auth":"Bearer ${bodyToken}"} 1`;
		serve(() => `${readDump('1.21.2')}${bad}\n`);
		const lines = await failing(once());
		// Redacted, then cut to 80 characters.
		assert.equal(
			lines[0],
			`pleg-top: metrics could not be parsed (line 1840): malformed sample: {"padding":"${'p'.repeat(40)}","auth":"Bearer [redacte...`,
		);
		assert.ok(!lines.join('\n').includes(bodyToken.slice(0, 6)));
	});
});
