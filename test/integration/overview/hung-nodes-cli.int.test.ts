// Hung kubelets through the real CLI: 8 nodes whose /proxy/metrics answers only after 20 s, listed first so they
// take all 8 request slots, and 24 healthy ones. JSON lines (stdout not a terminal): every healthy node must have
// its line within a few seconds, because a request unanswered after 2 s gives its slot up; before, the hung ones
// held every slot until their --timeout and the rest of the fleet waited.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {spawnCli} from '../../helpers/run-cli.js';
import {startCluster, withLastSeen, type Cluster} from '../cluster.js';
import {readDump} from '../../domain/dump.js';

const hung = Array.from({length: 8}, (_, i) => `a-hung-${i}`);
const healthy = Array.from({length: 24}, (_, i) => `b-ok-${String(i).padStart(2, '0')}`);

describe('hung nodes do not hold the request slots', () => {
	let cluster: Cluster;

	before(async () => {
		const dump = readDump('1.21.2');
		cluster = await startCluster(
			[...hung, ...healthy].map((name) => ({name, kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(dump, 1)})),
		);
		for (const node of hung) cluster.fake.setFault({type: 'delay', ms: 20_000}, {route: 'metrics', node});
	});

	after(async () => {
		await cluster.close();
	});

	test('JSON lines: all 24 healthy nodes read while 8 hung ones are in flight (--timeout 30s), none waiting for them', async () => {
		const cli = spawnCli(['--timeout', '30s', '--max-inflight', '8'], {env: cluster.env});
		try {
			const nodesSeen = (stdout: string) =>
				new Set(
					stdout
						.split('\n')
						.filter((line) => line.startsWith('{'))
						.map((line) => (JSON.parse(line) as {node: string}).node),
				);
			// 15 s leaves a loaded machine its start, TLS and the node list; waiting on the hung ones would take 20 s.
			const stdout = await cli.waitForStdout((text) => healthy.every((name) => nodesSeen(text).has(name)), 15_000);
			// None of the hung ones has answered yet: their lines come after 20 s.
			assert.ok(hung.every((name) => !nodesSeen(stdout).has(name)));
			// The hung 8 stayed in flight beside the 8 slots: more than 8 at once, never more than 16.
			const most = cluster.fake.maxInFlightOn('metrics');
			assert.ok(most > 8 && most <= 16, `${most} metrics requests at once`);
		} finally {
			cli.child.kill('SIGTERM');
			await cli.exited.catch(() => undefined);
		}
	});
});
