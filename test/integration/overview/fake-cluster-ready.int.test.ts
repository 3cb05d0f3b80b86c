// The fake cluster the screenshots and the CLI tests run against behaves as a real one: a node whose kubelet's
// relist hangs past the threshold turns NotReady, with the kubelet's own message, through the real CLI.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {runCli} from '../../helpers/run-cli.js';
import {until} from '../../helpers/until.js';
import {startFakeCluster, type FakeCluster} from '../../package/fake-cluster.js';

describe('the fake cluster: Ready follows the kubelet', () => {
	let cluster: FakeCluster;

	before(async () => {
		// 60 simulated seconds a second: the 3-minute threshold passes 3 s after the stall.
		cluster = await startFakeCluster(['worker-1', {name: 'gpu-node-a', speed: 60}]);
		cluster.kubelets.get('gpu-node-a')!.stall();
	});

	after(async () => {
		await cluster.close();
	});

	test('a stalled node turns Ready=False "PLEG is not healthy"; the other stays Ready', async () => {
		const env = {HOME: cluster.temp.dir, KUBECONFIG: cluster.kubeconfig};
		type Line = {node: string; status: string; readyCondition: {status: string; reason: string; message: string} | null};
		let nodes: Line[] = [];
		// Read until the stalled node is past the threshold at its read (exit 1), then its Ready condition is the kubelet's.
		await until(
			async () => {
				const result = await runCli(['--once', '--window', '1s', '-o', 'json'], {env});
				nodes = (JSON.parse(result.stdout) as {nodes: Line[]}).nodes;
				return nodes.find((node) => node.node === 'gpu-node-a')?.readyCondition?.status === 'False';
			},
			() => `gpu-node-a to turn Ready=False; last read: ${JSON.stringify(nodes)}`,
			90_000,
		);

		const byName = new Map(nodes.map((node) => [node.node, node]));
		const gpu = byName.get('gpu-node-a')!;
		assert.equal(gpu.status, 'unhealthy');
		assert.deepEqual([gpu.readyCondition?.status, gpu.readyCondition?.reason], ['False', 'KubeletNotReady']);
		assert.match(gpu.readyCondition!.message, /^PLEG is not healthy: pleg was last seen active [\d.hms]+ ago; threshold is 3m0s$/);
		assert.equal(byName.get('worker-1')!.readyCondition?.status, 'True');
	});
});
