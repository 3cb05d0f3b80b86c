// `pleg-top lab NODE` end to end through the built CLI against the fake API server and its lab cluster
// (test/helpers/fake-lab-cluster.ts): the phases with the write-down's named stretches, a sweep, a stop in every
// phase (namespace deleted), an unlabelled namespace refused, missing rights all named, Pending pods with their own
// reason, the API server failing mid-run, --dry-run. Short holds and windows; every wait is for a condition.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, describe, test} from 'node:test';
import {startFakeApiServer, type FakeApiServer} from '../helpers/fake-api-server.js';
import {createFakeLabCluster, type FakeLabCluster, type FakeLabOptions} from '../helpers/fake-lab-cluster.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../helpers/kubeconfig-files.js';
import {spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {until} from '../helpers/until.js';

const token = 'pleg-top-lab-token-0a1b2c3d4e5f';
const fast = ['--interval', '200ms', '--window', '1s', '--hold', '1s'];
const temps: TempDir[] = [];
const stops: Array<() => Promise<void>> = [];

after(async () => {
	for (const stop of stops) await stop();
	for (const temp of temps) temp.remove();
});

type Lab = {fake: FakeApiServer; lab: FakeLabCluster; kubeconfig: string; env: Record<string, string>; temp: TempDir};

async function startLab(
	options: Partial<FakeLabOptions> = {},
	node: {allocatablePods?: number; taints?: FakeLabOptions['taints']} = {},
): Promise<Lab> {
	const lab = createFakeLabCluster({node: 'worker-1', ...options, taints: node.taints});
	const fake = await startFakeApiServer({
		nodes: [
			{
				name: 'worker-1',
				kubeletVersion: 'v1.28.4',
				metrics: () => lab.metrics(),
				pods: 3,
				allocatablePods: node.allocatablePods ?? 110,
				taints: node.taints,
			},
		],
		tokens: {[token]: 'alice'},
		extra: lab.extra,
	});
	const temp = makeTempDir('pleg-top-lab-');
	temps.push(temp);
	const kubeconfig = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext(fake.url, {name: 'lab-user', token})));
	stops.push(async () => {
		lab.close();
		await fake.close();
	});
	return {fake, lab, kubeconfig, env: {HOME: temp.dir}, temp};
}

function run(lab: Lab, args: string[]): CliProcess {
	return spawnCli(['lab', 'worker-1', '--kubeconfig', lab.kubeconfig, ...fast, ...args], {env: lab.env, timeoutMs: 90_000});
}

/** Resolves once stderr matches (polled: the lab says its phases on stderr). */
async function waitForStderr(cli: CliProcess, pattern: RegExp, timeoutMs = 45_000): Promise<void> {
	await until(
		() => pattern.test(cli.stderr),
		() => `stderr to match ${String(pattern)}; stderr:\n${cli.stderr}`,
		timeoutMs,
	);
}

describe('pleg-top lab NODE', () => {
	test('runs idle, up, hold, down, hold, up, hold, deletes the namespace, and writes down each phase by name', async () => {
		// Pods that take a few scrapes to come and go, so the up and down phases have figures of their own.
		const lab = await startLab({podStepMs: 300});
		const summary = `${lab.temp.dir}/lab.md`;
		const result = await run(lab, ['--pods', '3', '--yes', '--summary', summary]).exited;
		assert.equal(result.code, 0, result.stderr);
		for (const phase of [
			'[1/7] idle',
			'[2/7] up 0→3',
			'[3/7] hold 3',
			'[4/7] down 3→0',
			'[5/7] hold 0',
			'[6/7] up 0→3 #2',
			'[7/7] hold 3 #2',
		]) {
			assert.ok(result.stderr.includes(phase), phase);
		}

		assert.match(result.stderr, /namespace pleg-lab deleted/);
		assert.equal(lab.lab.namespaces.size, 0);
		assert.equal(lab.lab.maxRunning, 3);
		assert.deepEqual(
			lab.lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[
				'POST /api/v1/namespaces',
				'POST /apis/apps/v1/namespaces/pleg-lab/deployments',
				'PATCH /apis/apps/v1/namespaces/pleg-lab/deployments/churn/scale 3',
				'PATCH /apis/apps/v1/namespaces/pleg-lab/deployments/churn/scale 0',
				'PATCH /apis/apps/v1/namespaces/pleg-lab/deployments/churn/scale 3',
				'DELETE /api/v1/namespaces/pleg-lab',
			],
		);
		// The loop with its three places in the kubelet's source (v1.28: kubelet.go:178/179, generic.go:165).
		const text = result.stderr.replace(/\s+/g, ' ');
		assert.match(text, /relists every 1s \(genericPlegRelistPeriod, pkg\/kubelet\/kubelet\.go:178\)/);
		assert.match(text, /Healthy\(\) \(pkg\/kubelet\/pleg\/generic\.go:165\)/);
		// Idle: 5 containers, 4 ms + 0.5 ms each = 6.5 ms; held at 3 pods: 8 containers, 8 ms = ×1.2 the idle mean. (Off a
		// terminal the table is cut for 80 columns: the threshold ratio may end its piece.)
		const row = (name: string) => result.stderr.split('\n').find((line) => line.startsWith(`${name} `)) ?? '';
		assert.match(row('idle'), /^idle\s+0\s+5\s+\d+\s+6\.5ms\s/);
		assert.match(row('hold 3'), /^hold 3\s+3\s+8\s+\d+\s+8ms\s.*×1\.2\s+×22,500(?:\s|$)/);
		assert.match(row('up 0→3'), /^up 0→3\s+3\s/);
		assert.match(row('down 3→0'), /^down 3→0\s+0\s/);
		const markdown = readFileSync(summary, 'utf8');
		assert.match(markdown, /\| up 0→3 \|/);
		assert.match(markdown, /\| down 3→0 \|/);
	});

	test('a sweep holds each level and fits the relist cost per pod, table and SVG plot', async () => {
		const lab = await startLab();
		const plot = `${lab.temp.dir}/sweep.svg`;
		const result = await run(lab, ['--pods', '0,2,4', '--yes', '--plot', plot]).exited;
		assert.equal(result.code, 0, result.stderr);
		assert.match(result.stderr, /\[3\/5\] hold 2/);
		assert.match(result.stderr, /\[5\/5\] hold 4/);
		// 0.5 ms per container, one container a pod.
		assert.match(result.stderr.replace(/\s+/g, ' '), /each running pod adds 500µs to the mean relist \(6\.5ms with none\)/);
		const svg = readFileSync(plot, 'utf8');
		assert.match(svg, /<svg/);
		assert.match(svg, /500µs per pod/);
		assert.equal(lab.lab.namespaces.size, 0);
	});

	test("levels beyond the node's room are refused before anything is created", async () => {
		const lab = await startLab({}, {allocatablePods: 10});
		const result = await run(lab, ['--pods', '0,5,50', '--yes']).exited;
		assert.equal(result.code, 2);
		assert.match(result.stderr, /room for 7 more pods \(allocatable 10, 3 bound\): the level 50 cannot be reached/);
		assert.deepEqual(
			lab.lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[],
		);
	});

	for (const [signal, phase] of [
		['SIGINT', /\[1\/7\] idle/],
		['SIGTERM', /\[2\/7\] up 0→3/],
		['SIGHUP', /\[3\/7\] hold 3/],
		['SIGINT', /\[4\/7\] down 3→0/],
	] as const) {
		test(`${signal} during ${String(phase)} deletes the namespace before exiting`, async () => {
			const lab = await startLab();
			const cli = run(lab, ['--pods', '3', '--yes']);
			await waitForStderr(cli, phase);
			cli.child.kill(signal);
			const result = await cli.exited;
			assert.equal(result.code, signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 0, result.stderr);
			assert.match(result.stderr, new RegExp(`stopped \\(${signal}\\)`));
			assert.match(result.stderr, /deleting namespace pleg-lab and waiting for it to go…\npleg-top lab: namespace pleg-lab deleted/);
			assert.equal(lab.lab.namespaces.size, 0);
		});
	}

	test('stopped during hold 3, the write-down counts the 3 pods that were held, not the 0 left after the teardown', async () => {
		const lab = await startLab();
		const cli = run(lab, ['--pods', '3', '--yes', '--hold', '5s']);
		await waitForStderr(cli, /\[3\/7\] hold 3/);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.match(result.stderr, /stopped \(SIGTERM\) during hold 3/);
		const row = result.stderr.split('\n').find((line) => line.startsWith('hold 3 ')) ?? '';
		assert.match(row, /^hold 3\s+3\s/, result.stderr);
		assert.doesNotMatch(result.stderr.replace(/\s+/g, ' '), /Held at 0 pods/);
	});

	test("an existing namespace without the lab's label is refused and left alone", async () => {
		const lab = await startLab({namespaces: {'pleg-lab': {team: 'payments'}}});
		const result = await run(lab, ['--yes']).exited;
		assert.equal(result.code, 2);
		assert.match(result.stderr, /namespace pleg-lab already exists and was not made by pleg-top/);
		assert.deepEqual(
			lab.lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[],
		);
		assert.deepEqual(lab.lab.namespaces.get('pleg-lab')?.labels, {team: 'payments'});
	});

	test('a namespace an earlier run left is deleted first with --yes, then the lab runs', async () => {
		const lab = await startLab({namespaces: {'pleg-lab': {'app.kubernetes.io/managed-by': 'pleg-top', 'pleg-top.dev/run-id': 'old'}}});
		const result = await run(lab, ['--pods', '1', '--yes']).exited;
		assert.equal(result.code, 0, result.stderr);
		assert.match(result.stderr, /namespace pleg-lab was left by an earlier lab run/);
		assert.equal(lab.lab.writes.filter((write) => write === 'DELETE /api/v1/namespaces/pleg-lab').length, 2);
	});

	test('missing rights are all named with their kubectl auth can-i lines, and nothing is created', async () => {
		const lab = await startLab({deny: ['create namespaces', 'patch deployments/scale', 'watch pods']});
		const result = await run(lab, ['--yes', '--context', 'fake-ctx']).exited;
		assert.equal(result.code, 3);
		const flags = `--kubeconfig ${lab.kubeconfig} --context fake-ctx`;
		assert.match(result.stderr, /missing rights \(3 of 12\)/);
		assert.ok(result.stderr.includes(`kubectl ${flags} auth can-i create namespaces\n`), result.stderr);
		assert.ok(
			result.stderr.includes(`kubectl ${flags} auth can-i patch deployments.apps --subresource=scale -n pleg-lab\n`),
			result.stderr,
		);
		assert.ok(result.stderr.includes(`kubectl ${flags} auth can-i watch pods -n pleg-lab\n`), result.stderr);
		assert.deepEqual(
			lab.lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[],
		);
	});

	test("pods stuck Pending on a taint: the pod's own reason after the timeout, then the teardown", async () => {
		const lab = await startLab({}, {taints: [{key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'}]});
		const result = await run(lab, ['--pods', '2', '--yes', '--pending-timeout', '1s']).exited;
		assert.equal(result.code, 1, result.stderr);
		assert.match(result.stderr, /the pods would stay Pending; add --tolerate-taints/);
		assert.match(
			result.stderr,
			/2 of 2 pods not Running after 1s: churn-\w+ and 1 more: Unschedulable: 0\/1 nodes are available: 1 node\(s\) had untolerated taint \{node-role\.kubernetes\.io\/control-plane: \}/,
		);
		assert.match(result.stderr, /namespace pleg-lab deleted/);
		assert.equal(lab.lab.namespaces.size, 0);
	});

	test('--tolerate-taints adds tolerations for exactly those taints, and the pods run', async () => {
		const lab = await startLab({}, {taints: [{key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'}]});
		const result = await run(lab, ['--pods', '1', '--yes', '--tolerate-taints', '--pending-timeout', '20s']).exited;
		assert.equal(result.code, 0, result.stderr);
		assert.equal(lab.lab.maxRunning, 1);
	});

	test('an image that cannot be pulled: ErrImagePull named, teardown', async () => {
		const lab = await startLab({
			imagePull: {reason: 'ErrImagePull', message: 'failed to pull image "registry.k8s.io/pause:nope": not found'},
		});
		const result = await run(lab, ['--pods', '2', '--yes', '--pending-timeout', '1s', '--image', 'registry.k8s.io/pause:nope']).exited;
		assert.equal(result.code, 1, result.stderr);
		assert.match(result.stderr, /2 of 2 pods not Running after 1s: churn-\w+ and 1 more: ErrImagePull: failed to pull image/);
		assert.equal(lab.lab.namespaces.size, 0);
	});

	test("a quota that refuses the pods: the Deployment's own reason after the timeout, then the teardown", async () => {
		const quota = 'pods "churn-7d9f-abcde" is forbidden: exceeded quota: lab-quota, requested: pods=1, used: pods=0, limited: pods=0';
		const lab = await startLab({quota});
		const result = await run(lab, ['--pods', '2', '--yes', '--pending-timeout', '1s']).exited;
		assert.equal(result.code, 1, result.stderr);
		assert.ok(result.stderr.includes(`2 of 2 pods not made after 1s: FailedCreate: ${quota}`), result.stderr);
		assert.equal(lab.lab.namespaces.size, 0);
	});

	test('the API server failing mid-run: retries, then says what may be left with the kubectl delete line', async () => {
		const lab = await startLab();
		const cli = run(lab, ['--pods', '3', '--yes', '--context', 'fake-ctx']);
		await waitForStderr(cli, /\[3\/7\] hold 3/);
		lab.lab.failAll(true);
		const result = await cli.exited;
		assert.equal(result.code, 1, result.stderr);
		assert.match(result.stderr, /trying again/);
		assert.match(result.stderr, /the API server failed after retries: .*503/);
		assert.ok(
			result.stderr.includes(`Delete it with: kubectl --kubeconfig ${lab.kubeconfig} --context fake-ctx delete ns pleg-lab\n`),
			result.stderr,
		);
	});

	test('a node that does not exist: said, nothing created', async () => {
		const lab = await startLab();
		const result = await spawnCli(['lab', 'worker-9', '--kubeconfig', lab.kubeconfig, ...fast, '--yes'], {env: lab.env}).exited;
		assert.equal(result.code, 3);
		assert.match(result.stderr, /node "worker-9" not found/);
		assert.deepEqual(lab.lab.writes, []);
	});

	test('--dry-run prints the manifests as YAML and the kubectl lines, creates nothing, exits 0', async () => {
		const lab = await startLab();
		const result = await run(lab, ['--dry-run', '--pods', '12']).exited;
		assert.equal(result.code, 0, result.stderr);
		assert.match(
			result.stdout,
			/^apiVersion: v1\nkind: Namespace\nmetadata:\n {2}name: pleg-lab\n {2}labels:\n {4}app\.kubernetes\.io\/managed-by: pleg-top\n/,
		);
		assert.match(result.stdout, /kind: Deployment/);
		assert.match(result.stdout, /nodeSelector:\n\s+kubernetes\.io\/hostname: worker-1/);
		assert.match(result.stdout, /runAsNonRoot: true/);
		assert.match(result.stdout, /seccompProfile:\n\s+type: RuntimeDefault/);
		assert.ok(
			result.stdout.includes(
				`# kubectl --kubeconfig ${lab.kubeconfig} --context fake-ctx -n pleg-lab scale deployment churn --replicas=12`,
			),
			result.stdout,
		);
		assert.ok(result.stdout.includes('delete ns pleg-lab'));
		assert.deepEqual(lab.lab.writes, []);
	});

	test('lab --demo runs the same lab on the simulated kubelet, whose relists grow with the pods', async () => {
		const temp = makeTempDir('pleg-top-lab-demo-');
		temps.push(temp);
		const args = ['lab', '--demo', '--yes', '--pods', '0,20', '--interval', '200ms', '--window', '2s', '--hold', '2s'];
		const result = await spawnCli(args, {env: {HOME: temp.dir}, timeoutMs: 90_000}).exited;
		assert.equal(result.code, 0, result.stderr);
		const cellsOf = (name: string) => (result.stderr.split('\n').find((line) => line.startsWith(`${name} `)) ?? '').split(/\s{2,}/);
		const ms = (text: string | undefined) => (text?.endsWith('ms') ? Number(text.slice(0, -2)) : Number.NaN);
		// 20 more pods, each adding 0.27 ms to the two list calls: the held mean is well above the idle one.
		assert.ok(ms(cellsOf('hold 20')[4]) > ms(cellsOf('idle')[4]) + 2, result.stderr);
		assert.match(result.stderr.replace(/\s+/g, ' '), /each running pod adds \d+(\.\d+)?µs to the mean relist/);
	});

	test('without a terminal and without --yes nothing is created', async () => {
		const lab = await startLab();
		const result = await run(lab, []).exited;
		assert.equal(result.code, 2);
		assert.match(result.stderr, /not on a terminal.*add --yes/);
		assert.deepEqual(
			lab.lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[],
		);
	});
});
