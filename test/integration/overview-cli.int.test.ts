// The cluster overview through the built CLI (no node named): --once reads every node twice one window apart and
// reports all of them, JSON lines write one line per node read, and a node list that is not allowed ends the run
// before anything else (exit 3) with the way out: watch one node.
import assert from 'node:assert/strict';
import {after, before, beforeEach, describe, test} from 'node:test';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {fast, startCluster, testToken, type Cluster} from './cluster.js';

type Line = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster();
});

beforeEach(() => {
	cluster.fake.clearFaults();
	cluster.fake.forbidListing(false);
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

const names = ['worker-1', 'worker-2', 'old-110', 'old-114', 'new-128'];

describe('the overview through the CLI', () => {
	test("--once -o json: every node, worst first; worker-2's gauge is from 2023, so exit 1", async () => {
		const result = await runCli(['--once', '-o', 'json', ...fast], {env: cluster.env});
		assert.equal(result.code, 1, result.stderr);
		assert.equal(result.stderr, '');
		const report = JSON.parse(result.stdout) as {nodes: Line[]; listError: string | null};
		assert.equal(report.listError, null);
		assert.deepEqual(report.nodes.map((node) => node['node']).sort(), [...names].sort());
		assert.equal(report.nodes[0]!['node'], 'worker-2');
		assert.equal(report.nodes[0]!['healthy'], false);
		const worker1 = report.nodes.find((node) => node['node'] === 'worker-1')!;
		assert.equal(worker1['healthy'], true);
		// Two reads of each node, one window apart: a window of the dump's own counters (unchanged here: 0 relists).
		assert.equal(worker1['relist'].windowCount, 0);
	});

	test('listing nodes not allowed: exit 3 before any node is read, and the way out', async () => {
		cluster.fake.forbidListing(true);
		const before = cluster.fake.requests.length;
		const result = await runCli(['--once', ...fast], {env: cluster.env});
		assert.equal(result.code, 3, result.stderr);
		assert.equal(result.stdout, '');
		assert.match(result.stderr, /^pleg-top: .*list.*nodes/);
		assert.match(
			result.stderr,
			/^ {2}the overview lists nodes first; without that right, watch one node: pleg-top NODE \(kubectl get nodes lists them\)$/m,
		);
		assert.deepEqual(
			cluster.fake.requests.slice(before).map((request) => request.path),
			['/api/v1/nodes?limit=500'],
		);
	});

	test('JSON lines: one line per node read, each with its time; SIGTERM ends it with exit 0', async () => {
		const cli = spawnCli(['--interval', '200ms', '--window', '1s'], {env: cluster.env, timeoutMs: 30_000});
		running.push(cli);
		const seen = () =>
			new Set(
				cli.stdout
					.split('\n')
					.slice(0, -1)
					.map((text) => (JSON.parse(text) as Line)['node'] as string),
			);
		await cli.waitForStdout(() => seen().size === names.length, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0);
		assert.equal(result.stderr, '');
		for (const line of result.stdout
			.split('\n')
			.slice(0, -1)
			.map((text) => JSON.parse(text) as Line)) {
			assert.ok(names.includes(line['node']), line['node']);
			assert.ok(Number.isFinite(Date.parse(line['time'])), line['time']);
			assert.equal(typeof line['kubeletRestarts'], 'number');
		}
	});
});
