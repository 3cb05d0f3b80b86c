// A node opened from the overview's table is the screen of `pleg-top NODE`, through the real CLI in a real terminal
// (tmux): a node whose kubelet the API server cannot reach (503) shows its Ready condition from the Node object, its
// Events, the eviction horizon with its pods and the next steps, and titles the pane with the node; a healthy node's
// pasted commands carry the --kubeconfig and the --context the overview was started with (the file's current context
// is another cluster); q goes back to the table and its title, q there quits with 0.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {SimulatedKubelet} from '../../../source/demo/simulated-kubelet.js';
import {cliPath} from '../../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../../helpers/tmux.js';
import {startFakeApiServer, testTls, type FakeApiServer} from '../../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, type TempDir} from '../../helpers/kubeconfig-files.js';
import {until} from '../../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const token = 'drill-in-token-0123456789abcdef';

describe('a node opened from the table, through the CLI', () => {
	let fake: FakeApiServer;
	let temp: TempDir;
	let kubeconfig: string;
	let session: TmuxSession | undefined;
	/** When the sick node's Ready condition changed (ms), and its time of day as the screen writes it (TZ=UTC). */
	const lostAt = Math.floor(Date.now() / 1000) * 1000 - 70_000;
	const lostClock = new Date(lostAt).toISOString().slice(11, 19);

	before(async () => {
		const kubelet = new SimulatedKubelet({now: Date.now, seed: 1, nodeName: 'healthy-1', startedAt: Date.now() - 10 * 60_000});
		const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
		fake = await startFakeApiServer({
			nodes: [
				{name: 'healthy-1', metrics: () => kubelet.metricsText()},
				{
					name: 'sick-1',
					ready: {
						status: 'Unknown',
						reason: 'NodeStatusUnknown',
						message: 'Kubelet stopped posting node status.',
						lastTransitionTime: new Date(lostAt).toISOString(),
					},
					pods: 7,
					events: [
						{
							type: 'Normal',
							reason: 'NodeNotReady',
							message: 'Node sick-1 status is now: NodeNotReady',
							count: 1,
							lastTimestamp: ago(65),
							source: {component: 'node-controller'},
						},
						{
							type: 'Warning',
							reason: 'ContainerGCFailed',
							message: 'rpc error: code = DeadlineExceeded',
							count: 3,
							lastTimestamp: ago(600),
							source: {component: 'kubelet'},
						},
					],
				},
			],
			tokens: {[token]: 'jane'},
		});
		fake.setFault({type: 'status', code: 503}, {route: 'metrics', node: 'sick-1'});
		temp = makeTempDir('pleg-top-drill-in-');
		// The current context is a cluster that is not there: only --context prod reaches the fake API server.
		kubeconfig = temp.write(
			'kube config',
			kubeconfigYaml({
				clusters: [
					{name: 'fake', server: fake.url, caData: testTls.caCert},
					{name: 'elsewhere', server: 'https://127.0.0.1:9', caData: testTls.caCert},
				],
				users: [{name: 'jane', token}],
				contexts: [
					{name: 'prod', cluster: 'fake', user: 'jane'},
					{name: 'other', cluster: 'elsewhere', user: 'jane'},
				],
				currentContext: 'other',
			}),
		);
	});

	after(async () => {
		session?.kill();
		await fake.close();
		temp.remove();
	});

	const eventReads = (node: string) =>
		fake.requests.filter((request) => request.path.includes('/events?') && request.path.includes(`involvedObject.name%3D${node}`)).length;

	test(
		'the unreachable node: Ready, Events, eviction and pods, next steps, its title; the healthy one: commands for the context used; q back, q quits',
		{skip},
		async () => {
			session = startTmux(`${process.execPath} ${cliPath} --kubeconfig '${kubeconfig}' --context prod --interval 500ms`, {
				columns: 120,
				rows: 40,
				env: {HOME: temp.dir, TZ: 'UTC', PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
			});

			// The error row first (it ranks above ok), selected.
			let screen = await session.waitFor(/› \? kubelet unreachable {2}sick-1 /, 20_000);
			await session.waitForTitle('pleg-top: 1 error');
			// The table reads no node's Events.
			assert.equal(eventReads('sick-1') + eventReads('healthy-1'), 0);

			session.keys('Enter');
			// The Events and the pods on the node come with separate reads: wait for both on the screen.
			screen = await session.waitFor(/^(?=[\s\S]*^events · 2 Events, newest first$)(?=[\s\S]*· 7 pods on the node$)/m, 20_000);
			const rows = screen.split('\n');
			assert.match(rows[0]!, /^pleg-top · sick-1 · prod \(cluster fake\) · kubelet v1\.28\.4 · containerd:\/\/1\.7\.2 /);
			assert.ok(rows.includes(`? node Ready=Unknown NodeStatusUnknown since ${lostClock}: Kubelet stopped posting node status.`), screen);
			// 65 s old at the set-up, older by however long a loaded machine took to get here.
			assert.match(screen, /^ {2}NodeNotReady +(?:\d+s|\d+m|\d+m\d+s) ago {2}×1 {2}Node sick-1 status is now: NodeNotReady$/m);
			// 10 minutes old at the set-up: "10m" for a minute, then "11m" and on.
			assert.match(screen, /^ {2}ContainerGCFailed {2}1\dm ago {2}×3 {2}rpc error: code = DeadlineExceeded$/m);
			// Unknown for 70 s and more: the default 300 s toleration leaves 3m50s or less.
			const eviction = /^ {2}pods evicted in ~(?:(\d)m)?(\d+)s \(default tolerationSeconds\) · 7 pods on the node$/m.exec(screen);
			assert.ok(eviction && Number(eviction[1] ?? 0) * 60 + Number(eviction[2]) <= 230, screen);
			assert.match(screen, new RegExp(`^  kubectl --kubeconfig '${kubeconfig}' --context prod describe node sick-1$`, 'm'));
			assert.match(screen, /✗ the API server cannot reach the kubelet on node "sick-1"/);
			assert.match(screen, /q back {2}\? help/);
			await session.waitForTitle('pleg-top sick-1: unknown');
			assert.equal(eventReads('healthy-1'), 0);

			session.keys('q');
			screen = await session.waitFor('↑↓ select');
			await session.waitForTitle('pleg-top: 1 error');

			// The healthy node: its help lists the next steps, each kubectl line carrying the file and the context used.
			session.keys('j', 'Enter');
			screen = await session.waitFor(/^pleg-top · healthy-1 · prod \(cluster fake\) /m);
			await session.waitForTitle('pleg-top healthy-1: healthy');
			session.keys('?');
			screen = await session.waitFor('next steps');
			assert.match(screen, new RegExp(`kubectl --kubeconfig '${kubeconfig}' --context prod describe node healthy-1`));
			session.keys('Escape');
			await session.waitFor('q back');
			// Opening it read its Events (the read may still be on its way on a loaded machine).
			await until(() => eventReads('healthy-1') >= 1, "a read of the opened node's Events");

			session.keys('q');
			await session.waitFor('↑↓ select');
			session.keys('q');
			assert.equal(await session.waitForExit(), 0);
		},
	);
});
