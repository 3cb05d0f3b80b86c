// What the transport promises, kept by the built CLI: a 429's Retry-After paces the next request (counted and
// spaced at the fake API server, not timed in the test), a token sent to a plain http:// kubelet or Prometheus is
// said on stderr and on the screen, and a 403 on everything names every right the node screen needs.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, beforeEach, describe, test} from 'node:test';
import {startFakeKubelet, type FakeKubelet} from '../helpers/fake-kubelet.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, cliPath, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';
import {readDump} from '../domain/dump.js';
import {startCluster, testToken, withLastSeen, type Cluster} from '../integration/cluster.js';

const kubeletToken = 'pleg-top-plain-http-token-8d2f61c4a9';
let cluster: Cluster;
let kubelet: FakeKubelet;
let prometheus: http.Server;
let prometheusUrl: string;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster();
	kubelet = await startFakeKubelet({
		metrics: () => withLastSeen(readDump('1.21.2'), 1),
		tokens: {[kubeletToken]: 'system:serviceaccount:monitoring:pleg-top'},
		allowed: ['system:serviceaccount:monitoring:pleg-top'],
		plain: true,
	});
	// A stand-in Prometheus on plain http: every query answers an empty vector.
	prometheus = http.createServer((_request, response) => {
		response
			.writeHead(200, {'Content-Type': 'application/json'})
			.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result: []}}));
	});
	await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
	prometheusUrl = `http://127.0.0.1:${(prometheus.address() as net.AddressInfo).port}`;
});

beforeEach(() => cluster.fake.clearFaults());

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	await kubelet.close();
	prometheus.closeAllConnections();
	await new Promise((resolve) => prometheus.close(resolve));
	assertNoSecretsIn(capturedOutput, integrationSecrets({'API server token': testToken, 'kubelet token': kubeletToken}));
});

const metricsPath = '/api/v1/nodes/worker-1/proxy/metrics';
const metricsRequests = () => cluster.fake.requests.filter((request) => request.path === metricsPath);

/** Waits for `condition` while `cli` runs; an early exit or the deadline fails with what pleg-top printed. */
async function untilWhileRunning(cli: CliProcess, condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	try {
		await until(
			() => {
				if (condition()) return true;
				if (cli.child.exitCode !== null) assert.fail(`pleg-top exited (${cli.child.exitCode}) before ${what}`);
				return false;
			},
			what,
			timeoutMs,
		);
	} catch (error) {
		assert.fail(`${(error as Error).message}\nstdout:\n${cli.stdout}\nstderr:\n${cli.stderr}`);
	}
}

describe('429 with Retry-After', () => {
	test(
		'the next request waits what the API server asked (3 s), not the 1 s then 2 s back-off, and the line says so',
		{timeout: 40_000},
		async () => {
			cluster.fake.setFault(
				{type: 'status', code: 429, message: 'Too many requests, please try again later.', headers: {'Retry-After': '3'}},
				{route: 'metrics'},
				2,
			);
			const before = metricsRequests().length;
			const cli = spawnCli(['--node', 'worker-1', '--interval', '1s', '--window', '2s'], {env: cluster.env, timeoutMs: 35_000});
			running.push(cli);
			// Two answers of 429, then the third request is served normally.
			await untilWhileRunning(cli, () => metricsRequests().length >= before + 3, 'three metrics requests');
			const [first, second, third] = metricsRequests().slice(before);
			assert.deepEqual([first!.status, second!.status, third!.status], [429, 429, 200]);
			// Each wait is at least the 3 s asked for, measured between arrivals at the server (10 ms spared for timer rounding).
			assert.ok(
				second!.receivedAt - first!.receivedAt >= 2990,
				`second request ${second!.receivedAt - first!.receivedAt} ms after the first`,
			);
			assert.ok(
				third!.receivedAt - second!.receivedAt >= 2990,
				`third request ${third!.receivedAt - second!.receivedAt} ms after the second`,
			);
			await cli.waitForStdout(/"stale":true/);
			cli.child.kill('SIGTERM');
			const result = await cli.exited;
			const stale = result.stdout
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as {error?: {summary: string; details: string[]}})
				.find((line) => line.error);
			assert.equal(stale?.error?.summary, `the API server asked to wait 3s (429 Too Many Requests to GET ${metricsPath})`);
			assert.equal(
				stale?.error?.details[1],
				'the next request goes out in 3s, as its Retry-After header asked, instead of the usual back-off',
			);
		},
	);

	test('more than a minute asked: --once says how long was asked and that pleg-top waits at most 1m0s', async () => {
		cluster.fake.setFault({type: 'status', code: 429, headers: {'Retry-After': '120'}}, {route: 'metrics'});
		const result = await runCli(['--node', 'worker-1', '--once', '--window', '1s'], {env: cluster.env});
		assert.equal(result.code, 3);
		assert.equal(
			result.stderr.split('\n')[0],
			`pleg-top: the API server asked to wait 2m0s; pleg-top waits at most 1m0s (429 Too Many Requests to GET ${metricsPath})`,
		);
	});
});

describe('a 403 on everything', () => {
	test('--once names get on nodes and on nodes/proxy, each with its can-i check', async () => {
		cluster.fake.setFault({type: 'status', code: 403});
		const result = await runCli(['--node', 'worker-1', '--once', '--window', '1s'], {env: cluster.env});
		assert.equal(result.code, 3);
		const lines = result.stderr.trimEnd().split('\n');
		assert.equal(
			lines[0],
			'pleg-top: context "fake-ctx" (user "token-user") is not allowed to get nodes and nodes/proxy on node "worker-1"',
		);
		assert.ok(
			lines.includes(
				'  needed: get on nodes and get on nodes/proxy (ClusterRole rule: apiGroups [""], resources ["nodes", "nodes/proxy"], verbs ["get"])',
			),
			result.stderr,
		);
		assert.ok(lines.includes('  check: kubectl --context fake-ctx auth can-i get nodes'), result.stderr);
		assert.ok(lines.includes('  check: kubectl --context fake-ctx auth can-i get nodes/proxy'), result.stderr);
	});
});

describe('a token to a plain http:// URL', () => {
	const noteFor = (url: string) =>
		`pleg-top: token sent without TLS: ${url} is plain http://, so the bearer token travels in clear text; use an https:// URL`;

	test('--kubelet-url http://… --token-file: said on stderr at start, and the token still goes', async () => {
		const tokenFile = cluster.temp.write('kubelet-token', `${kubeletToken}\n`);
		const result = await runCli(['--kubelet-url', kubelet.url, '--token-file', tokenFile, '--once', '--window', '1s'], {
			env: {HOME: cluster.temp.dir},
		});
		assert.equal(result.code, 0, result.stderr);
		assert.equal(result.stderr.split('\n')[0], noteFor(kubelet.url));
		assert.equal(kubelet.requests.at(-1)?.authorization, `Bearer ${kubeletToken}`);
	});

	test('--prometheus http://… --token-file: said on stderr at start', async () => {
		const tokenFile = cluster.temp.write('prometheus-token', 'prometheus-reader-token-0123456789');
		const result = await runCli(['--prometheus', prometheusUrl, '--token-file', tokenFile, '--once'], {env: {HOME: cluster.temp.dir}});
		assert.equal(result.stderr.split('\n')[0], noteFor(prometheusUrl));
	});

	test(
		'the live screen says it beside the source, as it says TLS NOT VERIFIED',
		{skip: !hasTmux && 'tmux is not installed', timeout: 30_000},
		async () => {
			const tokenFile = cluster.temp.write('kubelet-token-live', kubeletToken);
			const session = startTmux(`${process.execPath} ${cliPath} --kubelet-url ${kubelet.url} --token-file ${tokenFile} --interval 1s`, {
				columns: 160,
				rows: 40,
				env: {HOME: cluster.temp.dir},
			});
			try {
				const screen = await session.waitFor('(token sent without TLS)', 15_000);
				// Beside the source, in the header: "127.0.0.1 via kubelet URL (…)" while connecting, then
				// "127.0.0.1 · kubelet v1.21.2 · via kubelet URL (…)" once the first scrape names the version.
				const source = `via kubelet ${kubelet.url.replaceAll('.', '\\.')} \\(token sent without TLS\\)`;
				assert.match(
					screen.split('\n').find((row) => row.includes('(token sent without TLS)'))!,
					new RegExp(`127\\.0\\.0\\.1.* ${source}`),
				);
				capturedOutput.push(screen);
			} finally {
				session.kill();
			}
		},
	);
});
