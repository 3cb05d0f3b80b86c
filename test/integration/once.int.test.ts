// `pleg-top --once` end to end: the built CLI as a child process against the fake API server, one test per
// fault it tells apart. Each checks the exit code (0 healthy, 1 PLEG unhealthy, 2 configuration,
// 3 anything met while talking to the cluster) and the text the user reads on stderr.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, before, beforeEach, describe, test} from 'node:test';
import {startFakeApiServer, testTls} from '../helpers/fake-api-server.js';
import {singleContext, writeExecPlugin, writeFailingPlugin} from '../helpers/kubeconfig-files.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, runCli} from '../helpers/run-cli.js';
import {readDump, setSamples} from '../domain/dump.js';
import {
	closedPort,
	dumpThenMinuteLater,
	fast,
	startCluster,
	testToken,
	tokenUser,
	withEventedGate,
	withLastSeen,
	type Cluster,
} from './cluster.js';

const pluginToken = 'pleg-top-exec-plugin-token-77aa31c9e0d4';
let cluster: Cluster;

before(async () => {
	cluster = await startCluster();
});

beforeEach(() => {
	cluster.fake.clearFaults();
	cluster.fake.setMetrics('worker-1', dumpThenMinuteLater());
});

after(async () => {
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken, 'exec plugin token': pluginToken}));
});

const once = (node: string, ...extra: string[]) => ['--node', node, '--once', ...fast, ...extra];

describe('--once against a healthy v1.21.2 kubelet', () => {
	test('JSON: windowed figures from the counters advanced between the two scrapes, exit 0', async () => {
		const result = await runCli(once('worker-1', '--output', 'json'), {env: cluster.env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as Record<string, any>;
		assert.equal(report['healthy'], true);
		assert.equal(report['verdict'], 'PLEG is healthy');
		assert.equal(report['kubeletVersion'], 'v1.21.2');
		// The gauge was written 1 s before the answer, in whole seconds: 1 to 3 s old when read.
		assert.ok(report['lastSeenAgeSeconds'] >= 0.5 && report['lastSeenAgeSeconds'] < 3, String(report['lastSeenAgeSeconds']));
		assert.equal(report['constants'].relistThresholdSeconds, 180);
		assert.equal(report['constants'].thresholdSource, 'pkg/kubelet/pleg/generic.go:83');
		const relist = report['relist'];
		// dump.ts v121OneMinuteLater: +60 relists, Δsum 0.6 s -> mean 0.6 / 60 = 0.01 s.
		assert.equal(relist.count, 1_672_010); // 1,671,950 + 60
		assert.equal(relist.windowCount, 60);
		assert.ok(Math.abs(relist.windowMeanSeconds - 0.01) < 1e-9);
		// Bucket deltas +10 (≤5 ms), +40 (≤10 ms), +55 (≤25 ms), +60 (≤50 ms):
		// p50 rank 30 in (5, 10] ms: 5 + (30-10)/(40-10) × 5 = 8.333 ms
		assert.ok(Math.abs(relist.windowP50Seconds - 0.008_333_333) < 1e-6);
		// p90 rank 54 in (10, 25] ms: 10 + (54-40)/(55-40) × 15 = 24 ms
		assert.ok(Math.abs(relist.windowP90Seconds - 0.024) < 1e-9);
		// p99 rank 59.4 in (25, 50] ms: 25 + (59.4-55)/(60-55) × 25 = 47 ms
		assert.ok(Math.abs(relist.windowP99Seconds - 0.047) < 1e-9);
		// +60 intervals, Δsum 61.2 s -> 1.02 s.
		assert.ok(Math.abs(relist.intervalMeanSeconds - 1.02) < 1e-6);
		// The span is the real time between the two scrapes (≥ the 200 ms window); the rate is 60 relists over it.
		assert.ok(relist.windowSeconds >= 0.2 && relist.windowSeconds < 5, String(relist.windowSeconds));
		assert.ok(Math.abs(relist.ratePerSecond * relist.windowSeconds - 60) < 1e-6);
		assert.equal(report['discardEvents'], 2);
		assert.equal(report['discardEventsInWindow'], 2);
		// 180 s / 0.01 s
		assert.ok(Math.abs(report['thresholdToMeanRatio'] - 18_000) < 1e-3);
		assert.deepEqual(report['unavailable'], []);
	});

	test('text: the same figures as lines, exit 0', async () => {
		const result = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(result.code, 0);
		assert.equal(result.stderr, '');
		const lines = result.stdout.split('\n');
		const line = (label: string) =>
			lines
				.find((text) => text.startsWith(`${label} `))
				?.slice(label.length)
				.trim();
		assert.equal(line('verdict'), 'PLEG is healthy');
		assert.equal(line('kubelet'), 'v1.21.2');
		assert.match(line('window') ?? '', /: 60 relists, mean 10ms, /);
		assert.equal(line('quantiles'), 'p50 8.3ms, p90 24ms, p99 47ms');
		assert.equal(line('interval'), '1.02s');
		// All 60 intervals in (1, 2.5]: the bucket's bound, not the 2.48 s an interpolation would invent.
		assert.equal(line('interval p99'), '≤ 2.5s');
		assert.equal(line('discards'), '2 total, 2 in window');
		assert.equal(line('threshold'), '3m0s (relistThreshold, pkg/kubelet/pleg/generic.go:83)');
	});

	test("last seen 200 s ago: exit 1 and the kubelet's own words", async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(200));
		const result = await runCli(once('worker-1', '-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 1);
		const report = JSON.parse(result.stdout) as Record<string, unknown>;
		assert.equal(report['healthy'], false);
		// 200 s old when written, a fraction of a second more when read.
		assert.match(String(report['verdict']), /^PLEG is not healthy: pleg was last seen active 3m2[0-2]s ago; threshold is 3m0s$/);
		// Unhealthy since the first scrape's gauge + 180 s. The fake writes its gauge 200 s before each answer, so the
		// second scrape's gauge is up to 1.2 s later (whole seconds, 200 ms apart, more on a loaded machine): for
		// age − 180 s, a second or two more.
		const age = report['lastSeenAgeSeconds'] as number;
		const unhealthyFor = report['unhealthyForSeconds'] as number;
		assert.equal(report['band'], 'unhealthy');
		assert.ok(Math.abs((report['secondsToThreshold'] as number) - (180 - age)) < 0.0015);
		assert.ok(unhealthyFor > age - 180 - 0.0015 && unhealthyFor < age - 180 + 3, `${unhealthyFor} for age ${age}`);
		// Unhealthy at both scrapes: no transition seen.
		assert.equal(report['transitions'], 0);
	});

	test('last seen 172 s ago: band critical, about 8 s to the threshold, still exit 0 without --fail-on', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(172));
		const result = await runCli(once('worker-1', '-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as Record<string, any>;
		assert.equal(report['healthy'], true);
		assert.equal(report['band'], 'critical');
		// 180 − age; the gauge is whole seconds written at the answer, so the age is 172 s and a fraction.
		assert.ok(Math.abs(report['secondsToThreshold'] - (180 - report['lastSeenAgeSeconds'])) < 0.0015);
		assert.ok(report['secondsToThreshold'] > 5 && report['secondsToThreshold'] <= 8, String(report['secondsToThreshold']));
		assert.equal(report['unhealthyForSeconds'], null);
		assert.equal(report['transitions'], 0);
		// The text report says the band and the countdown in the whole seconds shown: they add up to 180 s.
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(172));
		const text = await runCli(once('worker-1'), {env: cluster.env});
		const band = /^band +critical; NotReady in (\d)s \(last seen 2m(\d\d)s ago; threshold 3m0s\), pleg-top's estimate$/m.exec(text.stdout);
		assert.ok(band, text.stdout);
		assert.equal(Number(band[1]) + 120 + Number(band[2]), 180);
	});

	test('a v1.10 kubelet (µs summaries only): no last seen, and which figures are unavailable since when', async () => {
		const result = await runCli(once('old-110', '-o', 'json'), {env: cluster.env});
		assert.equal(result.stderr, '');
		const report = JSON.parse(result.stdout) as Record<string, any>;
		assert.equal(report['lastSeenSeconds'], null);
		assert.equal(report['lastSeenAgeSeconds'], null);
		// The v1.10 dump's latency summary: _count 286, _sum 7.54184e6 µs = 7.54184 s.
		assert.equal(report['relist'].count, 286);
		assert.ok(Math.abs(report['relist'].sum - 7.541_84) < 1e-9);
		const unavailable = report['unavailable'] as string[];
		assert.match(unavailable[0]!, /^last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1\.18; using 'count unchanged for 0s'$/);
		assert.ok(
			unavailable.some((line) => line.startsWith('quantiles: the µs summaries of kubelet < 1.14 cannot be windowed')),
			unavailable.join('\n'),
		);
		assert.ok(
			unavailable.some((line) => /^discard events: kubelet_pleg_discard_events exists from kubelet 1\.14/.test(line)),
			unavailable.join('\n'),
		);
		// Judged on the count fallback: unchanged for ~0.2 s of a 3 min threshold.
		assert.equal(report['healthy'], true);
		assert.equal(result.code, 0);
	});

	test('EventedPLEG on (feature gate exposed): 300 s / 10 min with their kubelet.go lines, verdict on 10m0s', async () => {
		cluster.fake.setMetrics('new-128', () => withLastSeen(withEventedGate(readDump('1.21.2')), 700));
		const result = await runCli(once('new-128', '-o', 'json'), {env: cluster.env});
		const report = JSON.parse(result.stdout) as Record<string, any>;
		assert.deepEqual(report['constants'], {
			relistPeriodSeconds: 300,
			relistThresholdSeconds: 600,
			periodSource: 'pkg/kubelet/kubelet.go:182',
			thresholdSource: 'pkg/kubelet/kubelet.go:183',
			row: 'v1.28.0', // v1.28.4 lies inside the v1.28.0 … v1.28.7 row
			rowNote: null,
			pleg: 'evented', // the gate on, no stream error, the count not moving: nothing says it fell back
		});
		// 700 s > 600 s: unhealthy under the evented threshold (it would be under 3 min too, but the message names 10m0s).
		assert.match(String(report['verdict']), /^PLEG is not healthy: pleg was last seen active 11m4[01]s ago; threshold is 10m0s$/);
		assert.equal(result.code, 1);
	});

	test('client certificate and exec plugin users work too (what the secret scan then checks)', async () => {
		const certEnv = cluster.envFor(
			'cert.yaml',
			singleContext(cluster.fake.url, {name: 'cert-user', certData: testTls.clientCert, keyData: testTls.clientKey}),
		);
		const plugin = writeExecPlugin(cluster.temp, 'good-plugin', {token: pluginToken});
		cluster.fake.setMetrics('worker-1', () => withLastSeen(readDump('1.21.2'), 1));
		const execCluster = await startFakeApiServer({
			nodes: [{name: 'worker-1', metrics: () => withLastSeen(readDump('1.21.2'), 1)}],
			tokens: {[pluginToken]: 'bob'},
		});
		try {
			const execEnv = cluster.envFor('exec.yaml', singleContext(execCluster.url, {name: 'exec-user', exec: {command: plugin}}));
			for (const env of [certEnv, execEnv]) {
				const result = await runCli(once('worker-1', '-o', 'json'), {env});
				assert.equal(result.code, 0, result.stderr);
				assert.equal((JSON.parse(result.stdout) as {verdict: string}).verdict, 'PLEG is healthy');
			}
		} finally {
			await execCluster.close();
		}
	});
});

describe('--once: the node as a word, any window of at least 100 ms, --record, --fail-on', () => {
	test('pleg-top NODE --once: the node as a positional word, as kubectl takes it', async () => {
		const result = await runCli(['worker-1', '--once', '-o', 'json', ...fast], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as Record<string, any>;
		assert.equal(report['node'], 'worker-1');
		assert.equal(report['relist'].windowCount, 60);
	});

	test('--once --window 1s is accepted: two scrapes at least 1 s apart, whatever --interval says', async () => {
		const result = await runCli(['worker-1', '--once', '--window', '1s', '-o', 'json'], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const relist = (JSON.parse(result.stdout) as Record<string, any>)['relist'];
		assert.ok(relist.windowSeconds >= 1 && relist.windowSeconds < 5, String(relist.windowSeconds));
		assert.equal(relist.windowCount, 60);
	});

	test('--record with --once writes its two scrapes, and says where', async () => {
		const file = `${cluster.temp.dir}/once-record.jsonl`;
		const result = await runCli(once('worker-1', '--record', file), {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assert.equal(result.stderr, `recording appended to ${file}\n`);
		const records = readFileSync(file, 'utf8')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, any>);
		assert.equal(records.length, 2);
		for (const record of records) {
			assert.equal(record['node'], 'worker-1');
			assert.equal(record['kubeletVersion'], 'v1.21.2');
		}

		// The first scrape alone is no window; the second is the report's: 60 relists more.
		assert.equal(records[0]!['figures'].relist.windowCount, null);
		assert.equal(records[1]!['figures'].relist.windowCount, 60);
		assert.equal(records[1]!['figures'].relist.count, records[0]!['figures'].relist.count + 60);
	});

	test('--fail-on critical exits 1 from half the threshold on (100 s of 180 s); the default waits for unhealthy', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(100));
		const plain = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(plain.code, 0, plain.stderr);
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(100));
		const critical = await runCli(once('worker-1', '--fail-on', 'critical'), {env: cluster.env});
		assert.equal(critical.code, 1, critical.stderr);
		assert.match(critical.stdout, /^verdict +PLEG is healthy$/m);
	});

	test('--fail-on warn exits 1 past the ok band (10 s > 5 s), 0 within it (1 s)', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(10));
		const warn = await runCli(once('worker-1', '--fail-on', 'warn'), {env: cluster.env});
		assert.equal(warn.code, 1, warn.stderr);
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(10));
		const critical = await runCli(once('worker-1', '--fail-on', 'critical'), {env: cluster.env});
		assert.equal(critical.code, 0, critical.stderr);
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(1));
		const ok = await runCli(once('worker-1', '--fail-on', 'warn'), {env: cluster.env});
		assert.equal(ok.code, 0, ok.stderr);
	});
});

/** Runs --once, expects `code` and returns stderr split in lines (stdout must be empty). */
async function failing(args: string[], env: Record<string, string>, code: 2 | 3): Promise<string[]> {
	const result = await runCli(args, {env});
	assert.equal(result.stdout, '');
	assert.equal(result.code, code, result.stderr);
	assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
	return result.stderr.trimEnd().split('\n');
}

// These suites touch no shared fault state (their own kubeconfigs or servers): their tests run side by side.
describe('configuration faults: exit 2, which files were tried and which contexts exist', {concurrency: true}, () => {
	test('no kubeconfig anywhere', async () => {
		const lines = await failing(once('worker-1'), {HOME: cluster.temp.dir}, 2);
		assert.deepEqual(lines, [
			'pleg-top: no kubeconfig found',
			`  files tried: ${cluster.temp.dir}/.kube/config`,
			'  point pleg-top at a kubeconfig with --kubeconfig FILE or KUBECONFIG=FILE[:FILE...]',
			'  in a pod, pleg-top uses its service account when KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are set and its token is mounted; it never falls back to http://localhost:8080',
		]);
	});

	test('KUBECONFIG naming two files that do not exist', async () => {
		const missing = [`${cluster.temp.dir}/a.yaml`, `${cluster.temp.dir}/b.yaml`];
		const lines = await failing(once('worker-1'), {HOME: cluster.temp.dir, KUBECONFIG: missing.join(':')}, 2);
		assert.equal(lines[0], 'pleg-top: no kubeconfig found');
		assert.equal(lines[1], `  files tried: ${missing.join(', ')}`);
	});

	test("invalid YAML names the file and the parser's complaint", async () => {
		const file = cluster.temp.write('broken.yaml', 'apiVersion: v1\nclusters: [\n  - bad: : yaml\n');
		const lines = await failing(once('worker-1'), {HOME: cluster.temp.dir, KUBECONFIG: file}, 2);
		assert.equal(lines[0], `pleg-top: kubeconfig ${file} is not valid YAML`);
		assert.ok(lines.includes(`  kubeconfig file: ${file}`), lines.join('\n'));
	});

	test('an unreadable kubeconfig (a directory) names it', async () => {
		const lines = await failing(once('worker-1', '--kubeconfig', cluster.temp.dir), {HOME: cluster.temp.dir}, 2);
		assert.match(lines.join('\n'), new RegExp(cluster.temp.dir.replaceAll('/', '\\/')));
	});

	test('an unknown --context lists the contexts of every file read', async () => {
		const second = cluster.envFor('second.yaml', {
			clusters: [{name: 'other', server: cluster.fake.url, caData: testTls.caCert}],
			users: [tokenUser],
			contexts: [
				{name: 'staging', cluster: 'other', user: 'token-user'},
				{name: 'prod', cluster: 'other', user: 'token-user'},
			],
		});
		const env = {HOME: cluster.temp.dir, KUBECONFIG: `${cluster.kubeconfig}:${second.KUBECONFIG}`};
		const lines = await failing(once('worker-1', '--context', 'nope'), env, 2);
		assert.deepEqual(lines, [
			'pleg-top: context "nope" not found (from --context)',
			`  files read: ${cluster.kubeconfig}, ${second.KUBECONFIG}`,
			'  contexts that exist: fake-ctx, staging, prod',
		]);
	});
});

describe('several kubeconfig files, as kubectl reads them', () => {
	test('KUBECONFIG=a:b with --context from the second file: its cluster and user are used', async () => {
		// b.yaml's context "staging" names cluster "staging-cluster" and user "staging-user", defined only in b.yaml;
		// a.yaml's current-context (fake-ctx) wins without --context.
		const second = cluster.envFor('b.yaml', {
			clusters: [{name: 'staging-cluster', server: cluster.fake.url, caData: testTls.caCert}],
			users: [{name: 'staging-user', token: testToken}],
			contexts: [{name: 'staging', cluster: 'staging-cluster', user: 'staging-user'}],
			currentContext: 'staging',
		});
		const env = {HOME: cluster.temp.dir, KUBECONFIG: `${cluster.kubeconfig}:${second.KUBECONFIG}`};
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		const [staging, first] = await Promise.all([runCli(once('worker-1', '--context', 'staging'), {env}), runCli(once('worker-1'), {env})]);
		// The 403 names the context and user that were used.
		assert.match(staging.stderr, /^pleg-top: context "staging" \(user "staging-user"\) is not allowed to get nodes\/proxy/);
		assert.match(first.stderr, /^pleg-top: context "fake-ctx" \(user "token-user"\) is not allowed to get nodes\/proxy/);
	});
});

describe('network faults: exit 3, the server URL and the cause', () => {
	test('connection refused', async () => {
		const port = await closedPort();
		const env = cluster.envFor('refused.yaml', singleContext(`https://127.0.0.1:${port}`, tokenUser));
		const lines = await failing(once('worker-1'), env, 3);
		assert.deepEqual(lines, [
			`pleg-top: cannot reach https://127.0.0.1:${port}: connection refused`,
			`  the API server of cluster "fake" in ${env.KUBECONFIG}`,
			'  request: GET /api/v1/nodes/worker-1',
		]);
	});

	test('DNS lookup fails', async () => {
		const env = cluster.envFor('dns.yaml', singleContext('https://no-such-api-server.invalid:6443', tokenUser));
		const lines = await failing(once('worker-1'), env, 3);
		assert.match(
			lines[0]!,
			/^pleg-top: cannot reach https:\/\/no-such-api-server\.invalid:6443: DNS lookup of no-such-api-server\.invalid failed/,
		);
	});

	test('no answer within --timeout', async () => {
		cluster.fake.setFault({type: 'delay', ms: 5000}, {route: 'metrics'});
		const lines = await failing(once('worker-1', '--timeout', '300ms'), cluster.env, 3);
		assert.deepEqual(lines, [
			`pleg-top: no answer from ${cluster.fake.url} within 300ms`,
			'  request: GET /api/v1/nodes/worker-1/proxy/metrics',
		]);
	});
});

describe('TLS faults: exit 3, not trusted and which setting decides it', {concurrency: true}, () => {
	test('certificate signed by another CA than the configured one', async () => {
		const env = cluster.envFor('other-ca.yaml', singleContext(cluster.fake.url, tokenUser, {caData: testTls.otherCaCert}));
		const lines = await failing(once('worker-1'), env, 3);
		assert.deepEqual(lines, [
			`pleg-top: the certificate of ${cluster.fake.url} is not trusted: it is not signed by the configured CA`,
			`  trust comes from certificate-authority-data of cluster "fake" in ${env.KUBECONFIG}`,
			'  TLS: SELF_SIGNED_CERT_IN_CHAIN',
			"  pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig",
		]);
	});

	test('certificate for another host name', async () => {
		const wrongHost = await startFakeApiServer({
			nodes: [{name: 'worker-1'}],
			tokens: {[testToken]: 'alice'},
			cert: testTls.wrongHostCert,
			key: testTls.wrongHostKey,
		});
		try {
			const env = cluster.envFor('wrong-host.yaml', singleContext(wrongHost.url, tokenUser));
			const lines = await failing(once('worker-1'), env, 3);
			assert.equal(lines[0], `pleg-top: the certificate of ${wrongHost.url} is not valid for host 127.0.0.1`);
			assert.ok(
				lines.some((line) => line.includes('clusters[].cluster.server') && line.includes('tls-server-name')),
				lines.join('\n'),
			);
			assert.equal(lines.at(-1), "  pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig");
		} finally {
			await wrongHost.close();
		}
	});
});

describe('answers from the API server: exit 3', () => {
	test('401: the credentials of the context were rejected', async () => {
		const env = cluster.envFor('revoked.yaml', singleContext(cluster.fake.url, {name: 'token-user', token: 'revoked-token-0f9e8d7c6b5a'}));
		const lines = await failing(once('worker-1'), env, 3);
		assert.deepEqual(lines, [
			`pleg-top: ${cluster.fake.url} rejected the credentials of context "fake-ctx" (user "token-user")`,
			'  API server: Unauthorized',
			`  the token (users[].user.token of user "token-user" in ${env.KUBECONFIG}) was rejected: expired or revoked?`,
			'  check: kubectl --context fake-ctx auth whoami',
		]);
	});

	test('401 from an exec plugin that fails: its own stderr as it wrote it', async () => {
		const stderr = 'error: the refresh token has expired\nrun `sso login --profile dev` and try again\n';
		const plugin = writeFailingPlugin(cluster.temp, 'sso-plugin', stderr);
		const env = cluster.envFor('exec-fails.yaml', singleContext(cluster.fake.url, {name: 'sso-user', exec: {command: plugin}}));
		const lines = await failing(once('worker-1'), env, 3);
		assert.deepEqual(lines, [
			'pleg-top: the credential plugin of user "sso-user" (context "fake-ctx") failed',
			`  command: ${plugin}`,
			'  its stderr:',
			'  error: the refresh token has expired',
			'  run `sso login --profile dev` and try again',
		]);
	});

	test("401 for an exec plugin's token: the plugin is named, its token is not shown", async () => {
		const plugin = writeExecPlugin(cluster.temp, 'stale-plugin', {token: pluginToken});
		const env = cluster.envFor('exec-rejected.yaml', singleContext(cluster.fake.url, {name: 'exec-user', exec: {command: plugin}}));
		const lines = await failing(once('worker-1'), env, 3);
		assert.equal(lines[0], `pleg-top: ${cluster.fake.url} rejected the credentials of context "fake-ctx" (user "exec-user")`);
		assert.equal(
			lines[2],
			`  the token from the credential plugin (users[].user.exec of user "exec-user" in ${env.KUBECONFIG}) was rejected`,
		);
	});

	test("403: the API server's message, get on nodes/proxy, the can-i check and the nodes/proxy caution", async () => {
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		const lines = await failing(once('worker-1'), cluster.env, 3);
		assert.deepEqual(lines, [
			'pleg-top: context "fake-ctx" (user "token-user") is not allowed to get nodes/proxy on node "worker-1"',
			'  API server: nodes "worker-1" is forbidden: User "alice" cannot get resource "nodes/proxy" in API group "" at the cluster scope',
			'  needed: get on nodes/proxy (ClusterRole rule: apiGroups [""], resources ["nodes/proxy"], verbs ["get"])',
			'  check: kubectl --context fake-ctx auth can-i get nodes/proxy',
			'  note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server',
		]);
	});

	test('404: the node does not exist, and the names that do', async () => {
		const lines = await failing(once('worker-9'), cluster.env, 3);
		assert.deepEqual(lines, [
			`pleg-top: node "worker-9" does not exist in cluster "fake"`,
			'  API server: nodes "worker-9" not found',
			'  nodes that exist: worker-1, worker-2, old-110, old-114, new-128',
		]);
	});

	test('404 when listing nodes is not allowed: says so instead of the names', async () => {
		cluster.fake.forbidListing(true);
		const lines = await failing(once('worker-9'), cluster.env, 3);
		assert.equal(
			lines[2],
			'  listing nodes is not allowed (list on nodes), so the names that exist cannot be shown; try kubectl get nodes',
		);
	});

	for (const code of [502, 503] as const) {
		test(`${code} from the node proxy: the API server cannot reach the kubelet on the node`, async () => {
			cluster.fake.setFault({type: 'status', code}, {route: 'metrics'});
			const lines = await failing(once('worker-1'), cluster.env, 3);
			assert.equal(lines[0], 'pleg-top: the API server cannot reach the kubelet on node "worker-1"');
			assert.match(lines[1]!, new RegExp(`^  API server \\(${code}\\): error trying to reach service: `));
			assert.equal(lines[2], '  that is itself a sign of node trouble: the kubelet is down or the node is cut off from the control plane');
		});
	}

	test('one failed scrape is retried once: a single 503 still gives the report (exit 0); two in a row exit 3', async () => {
		const metricsRequests = () => cluster.fake.requests.filter((request) => request.path.endsWith('/worker-1/proxy/metrics')).length;
		let before = metricsRequests();
		cluster.fake.setFault({type: 'status', code: 503}, {route: 'metrics'}, 1);
		const retried = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(retried.code, 0, retried.stderr);
		assert.match(retried.stdout, /^verdict +PLEG is healthy$/m);
		// The failed one, its retry, and the second read of the window.
		assert.equal(metricsRequests() - before, 3);

		before = metricsRequests();
		cluster.fake.setFault({type: 'status', code: 503}, {route: 'metrics'}, 2);
		const lines = await failing(once('worker-1'), cluster.env, 3);
		assert.equal(lines[0], 'pleg-top: the API server cannot reach the kubelet on node "worker-1"');
		assert.equal(metricsRequests() - before, 2);
	});
});

describe('bodies that are not kubelet metrics: exit 3, "metrics could not be parsed" and the first bad line', () => {
	const cases: Array<{name: string; fault?: 'html' | 'truncated' | 'empty' | 'binary'; metrics?: () => string; first: RegExp}> = [
		{
			name: 'an HTML page',
			fault: 'html',
			first:
				/^pleg-top: metrics could not be parsed \(line 1\): https:\/\/127\.0\.0\.1:\d+ answered with an HTML page, not kubelet metrics$/,
		},
		// The fake server cuts the body at half its bytes: inside line 1188 of the v1.21.2 dump.
		{name: 'a truncated body', fault: 'truncated', first: /^pleg-top: metrics could not be parsed \(line 1188\): sample has no value: /},
		{name: 'an empty body', fault: 'empty', first: /^pleg-top: metrics could not be parsed: empty response$/},
		{
			name: 'binary bytes',
			fault: 'binary',
			first: /^pleg-top: metrics could not be parsed \(line 1\): binary response \(NUL byte\), not Prometheus text$/,
		},
		{
			name: 'a line the parser rejects',
			// Line 661 of the v1.21.2 dump is `kubelet_pleg_discard_events 0`.
			metrics: () => setSamples(readDump('1.21.2'), {kubelet_pleg_discard_events: 'zero'}),
			first: /^pleg-top: metrics could not be parsed \(line 661\): value is not a number: kubelet_pleg_discard_events zero$/,
		},
	];
	for (const {name, fault, metrics, first} of cases) {
		test(name, async () => {
			if (fault) cluster.fake.setFault({type: fault}, {route: 'metrics'});
			if (metrics) cluster.fake.setMetrics('worker-1', metrics);
			const lines = await failing(once('worker-1'), cluster.env, 3);
			assert.match(lines[0]!, first);
		});
	}
});
