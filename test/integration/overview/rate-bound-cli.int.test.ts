// The overview at its rate bound through the real CLI: six healthy kubelets (last relist 3 s before each answer)
// read through the fake API server at --max-rps 1, so each node is read only every 6 s. By the time --once
// reports, the first nodes' reads are seconds old: now − gauge is past the 5 s warn band, but the kubelet said 3 s.
// The report judges the age at the read and says how old the read is, so the fleet is ok and --fail-on warn exits 0.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {runCli} from '../../helpers/run-cli.js';
import {startCluster, withLastSeen, type Cluster} from '../cluster.js';
import {readDump} from '../../domain/dump.js';

type NodeJson = {
	node: string;
	status: string;
	band: string;
	lastSeenAgeSeconds: number;
	lastSeenAtReadSeconds: number;
	readAgeSeconds: number;
	notReadyInSeconds: number | null;
};

describe('the overview at --max-rps 1: ages judged at the read, not on the polling gap', () => {
	let cluster: Cluster;

	before(async () => {
		const dump = readDump('1.21.2');
		const names = ['n-1', 'n-2', 'n-3', 'n-4', 'n-5', 'n-6'];
		cluster = await startCluster(names.map((name) => ({name, kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(dump, 3)})));
	});

	after(async () => {
		await cluster.close();
	});

	test('--once --fail-on warn -o json: every node ok, last seen 3-4 s at the read, the oldest read seconds old; exit 0', async () => {
		const result = await runCli(['--once', '--max-rps', '1', '--window', '1s', '--fail-on', 'warn', '-o', 'json'], {env: cluster.env});
		assert.equal(result.code, 0, result.stdout + result.stderr);
		const {nodes} = JSON.parse(result.stdout) as {nodes: NodeJson[]};
		assert.equal(nodes.length, 6);
		for (const node of nodes) {
			assert.deepEqual([node.status, node.band, node.notReadyInSeconds], ['ok', 'ok', null], node.node);
			// The gauge is whole seconds 3 s back: 3 s to just under 4 s at the read (plus the request's own time).
			assert.ok(node.lastSeenAtReadSeconds >= 3 && node.lastSeenAtReadSeconds < 5, `${node.node} ${node.lastSeenAtReadSeconds}`);
			// now − gauge = the age at the read + how old the read is.
			assert.ok(Math.abs(node.lastSeenAgeSeconds - node.lastSeenAtReadSeconds - node.readAgeSeconds) < 0.01, node.node);
		}

		// Six nodes at one request a second: the oldest second read is about 5 s old, so now − gauge is past the
		// 5 s warn band for it: what used to read "lagging".
		const oldest = Math.max(...nodes.map((node) => node.readAgeSeconds));
		assert.ok(oldest >= 3, `oldest read ${oldest}s`);
		assert.ok(Math.max(...nodes.map((node) => node.lastSeenAgeSeconds)) > 6);
		// Rows of one rank stay in name order.
		assert.deepEqual(
			nodes.map((node) => node.node),
			['n-1', 'n-2', 'n-3', 'n-4', 'n-5', 'n-6'],
		);
	});
});
