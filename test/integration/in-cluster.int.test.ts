// Run in a pod: no kubeconfig, the service variables set and the service account mounted where the kubelet
// mounts it. The mount is made for the CLI alone, in a mount namespace of its own (unshare -m, as root), so
// the machine's /run is never touched.
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {copyFileSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {promisify} from 'node:util';
import {testTls} from '../helpers/fake-api-server.js';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {cliPath} from '../helpers/run-cli.js';
import {startCluster, testToken, type Cluster} from './cluster.js';

const canUnshare = spawnSync('unshare', ['-m', 'true']).status === 0;

describe('in-cluster config through the CLI', {skip: !canUnshare && 'needs unshare -m (root)'}, () => {
	let cluster: Cluster;
	let pod: TempDir;

	before(async () => {
		cluster = await startCluster();
		pod = makeTempDir('pleg-top-pod-');
		// stands in for /run, where /var/run/secrets/kubernetes.io/serviceaccount lives
		pod.write('run/secrets/kubernetes.io/serviceaccount/token', `${testToken}\n`);
		copyFileSync(path.join(testTls.dir, 'ca.crt'), path.join(pod.dir, 'run/secrets/kubernetes.io/serviceaccount/ca.crt'));
		pod.write('home/.keep', '');
	});

	after(async () => {
		await cluster.close();
		pod.remove();
	});

	async function inPod(args: string[], env: Record<string, string>) {
		const script = `mount --bind "$1" /run && shift && exec "$@"`;
		const run = promisify(execFile)(
			'unshare',
			['-m', 'sh', '-c', script, 'sh', path.join(pod.dir, 'run'), process.execPath, cliPath, ...args],
			{
				env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: path.join(pod.dir, 'home'), ...env},
				timeout: 45_000,
			},
		);
		return run.then(
			({stdout, stderr}) => ({code: 0, stdout, stderr}),
			(error: {code: number; stdout: string; stderr: string}) => ({code: error.code, stdout: error.stdout, stderr: error.stderr}),
		);
	}

	test('--once reads the node through the service address with the mounted token, trusting the mounted CA', async () => {
		const port = new URL(cluster.fake.url).port;
		const before = cluster.fake.requests.length;
		const result = await inPod(['worker-1', '--once', '-o', 'json', '--window', '200ms'], {
			KUBERNETES_SERVICE_HOST: '127.0.0.1',
			KUBERNETES_SERVICE_PORT: port,
		});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as {node: string};
		assert.equal(report.node, 'worker-1');
		const requests = cluster.fake.requests.slice(before);
		assert.ok(requests.some((request) => request.path === '/api/v1/nodes/worker-1/proxy/metrics'));
		assert.ok(requests.every((request) => request.user === 'alice'));
		assert.ok(!result.stdout.includes(testToken) && !result.stderr.includes(testToken), 'the token is never printed');
	});

	test('without the service variables the same pod says no kubeconfig was found (exit 2)', async () => {
		const result = await inPod(['worker-1', '--once'], {});
		assert.equal(result.code, 2);
		assert.match(result.stderr, /^pleg-top: no kubeconfig found\n/);
	});
});
