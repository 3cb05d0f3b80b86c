// A node as kubectl prints it: `kubectl get nodes -o name` writes node/NAME, and kubectl itself takes node/NAME,
// nodes/NAME and no/NAME. pleg-top takes each, for one node and for several, through the built CLI against the
// fake API server: the node read is the one named, never one called "node/worker-1".
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';
import {dumpThenMinuteLater, fast, startCluster, type Cluster} from './cluster.js';

let cluster: Cluster;

before(async () => {
	cluster = await startCluster();
	cluster.fake.setMetrics('worker-1', dumpThenMinuteLater());
});

after(async () => {
	await cluster.close();
});

describe('node/NAME, nodes/NAME and no/NAME, as kubectl writes a node', () => {
	for (const word of ['node/worker-1', 'nodes/worker-1', 'no/worker-1']) {
		test(`pleg-top ${word} --once: worker-1's report, exit 0`, async () => {
			const result = await runCli([word, '--once', '-o', 'json', ...fast], {env: cluster.env});
			assert.equal(result.code, 0, result.stderr);
			assert.equal((JSON.parse(result.stdout) as {node: string}).node, 'worker-1');
		});
	}

	test('--node node/worker-1: the same node', async () => {
		const result = await runCli(['--node', 'node/worker-1', '--once', '-o', 'json', ...fast], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assert.equal((JSON.parse(result.stdout) as {node: string}).node, 'worker-1');
	});

	test('several: pleg-top node/worker-1 no/new-128 is the overview of those two', async () => {
		const result = await runCli(['node/worker-1', 'no/new-128', '--once', '-o', 'json', ...fast], {env: cluster.env});
		assert.notEqual(result.code, 2, result.stderr);
		const nodes = (JSON.parse(result.stdout) as {nodes: Array<{node: string}>}).nodes.map((each) => each.node);
		assert.deepEqual(nodes.sort(), ['new-128', 'worker-1']);
	});
});
