// Picking the fleet as users do, through the real CLI against the fake API server: -l/--selector (the API
// server's labelSelector, e.g. a node pool) and several node names (`pleg-top a b c`); a name not in the node
// list stops it before any read, saying which.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {runCli} from '../../helpers/run-cli.js';
import {startCluster, withLastSeen, type Cluster} from '../cluster.js';
import {readDump} from '../../domain/dump.js';

describe('the overview of some nodes: -l and several names', () => {
	let cluster: Cluster;

	before(async () => {
		const dump = readDump('1.21.2');
		const node = (name: string, pool: string) => ({name, kubeletVersion: 'v1.21.2', labels: {pool}, metrics: () => withLastSeen(dump, 1)});
		cluster = await startCluster([node('cpu-1', 'cpu'), node('gpu-1', 'gpu'), node('cpu-2', 'cpu'), node('gpu-2', 'gpu')]);
	});

	after(async () => {
		await cluster.close();
	});

	const nodesOf = (stdout: string) => (JSON.parse(stdout) as {nodes: Array<{node: string}>}).nodes.map((each) => each.node);

	test('-l pool=gpu: only the gpu pool is listed and read, the selector sent as labelSelector', async () => {
		const result = await runCli(['--once', '--window', '1s', '-o', 'json', '-l', 'pool=gpu'], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assert.deepEqual(nodesOf(result.stdout), ['gpu-1', 'gpu-2']);
		assert.ok(cluster.fake.requests.some((request) => request.path.includes('labelSelector=pool%3Dgpu')));
		assert.ok(!cluster.fake.requests.some((request) => request.path.startsWith('/api/v1/nodes/cpu-')));
	});

	test('pleg-top cpu-2 gpu-1: those two nodes, in the overview', async () => {
		const result = await runCli(['cpu-2', 'gpu-1', '--once', '--window', '1s', '-o', 'json'], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assert.deepEqual(nodesOf(result.stdout), ['cpu-2', 'gpu-1']);
	});

	test('a name not in the node list: exit 3 before any read, naming it', async () => {
		const result = await runCli(['cpu-1', 'nope', '--once', '--window', '1s'], {env: cluster.env});
		assert.equal(result.code, 3);
		assert.match(result.stderr, /^pleg-top: no node named "nope" in the node list of /);
		assert.equal(result.stdout, '');
	});
});
