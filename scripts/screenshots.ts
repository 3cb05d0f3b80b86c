// `npm run screenshots`: runs the real CLI (dist/cli.js) in tmux at 100×30, drives it with keys, and writes
// each captured frame (colours included) to screenshots/NAME.svg. Nothing is drawn by hand: re-run it
// whenever the screen changes. Scenes wait for text on screen, not for fixed times.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../test/helpers/tmux.js';
import {startFakeCluster, type FakeCluster, type FakeClusterNode} from '../test/package/fake-cluster.js';
import {ansiToSvg} from './ansi-svg.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.js');
const outDir = path.join(root, 'screenshots');
const columns = 100;
const rows = 30;
/** Full once the window spans 10s (15s at --demo-speed 60, whose scrapes come every 15 simulated seconds). */
const windowFull = /relists \d+ in 1[05]s/;

type Context = {
	/** A fake API server with simulated kubelets, closed when the script ends. */
	cluster(nodes: FakeClusterNode[]): Promise<FakeCluster>;
};

export type Scene = {
	name: string;
	/** What the picture shows, for the SVG's title (screen readers, hover). */
	title: string;
	run(context: Context): Promise<TmuxSession>;
};

function start(args: string[], env: Record<string, string> = {}): TmuxSession {
	const command = [process.execPath, cli, ...args].map((word) => `'${word}'`).join(' ');
	return startTmux(command, {columns, rows, env: {HOME: '/nonexistent', ...env}});
}

/** Starts the CLI and waits until the 10 s window is full, where most scenes begin. */
async function startWithWindow(args: string[], env: Record<string, string> = {}): Promise<TmuxSession> {
	const session = start(args, env);
	await session.waitFor(windowFull, 20_000);
	return session;
}

/** The pane with its colours (SGR codes), as capture-pane -e gives it. */
function captureColours(session: TmuxSession): string {
	const screen = tmux(['capture-pane', '-p', '-e', '-t', session.name]);
	// tmux's own "Pane is dead (status 0, …)" line (remain-on-exit) is not pleg-top's: a blank row in its place.
	return screen
		.split('\n')
		.map((line) => (/^Pane is dead \(/.test(line.replace(/\u001B\[[\d;]*m/g, '')) ? '' : line))
		.join('\n');
}

const scenes: Scene[] = [
	{
		name: 'idle',
		title: 'pleg-top --demo: an idle node, the 10 s window full',
		async run() {
			const session = await startWithWindow(['--demo']);
			// A few more scrapes so the history shows more than the window.
			await new Promise((resolve) => setTimeout(resolve, 3000));
			return session;
		},
	},
	{
		name: 'churn-baseline',
		title: 'pleg-top --demo: pods churning, compared with a baseline marked while idle',
		async run() {
			const session = await startWithWindow(['--demo']);
			session.keys('b');
			await session.waitFor('baseline ·');
			session.keys('c');
			await session.waitFor(/marked \d\d:\d\d:\d\d, 15s ago/, 25_000);
			return session;
		},
	},
	{
		name: 'anatomy-slow-runtime',
		title: 'pleg-top --demo, a then l: the relist anatomy when the runtime answers the list calls slowly',
		async run() {
			const session = await startWithWindow(['--demo']);
			session.keys('a');
			session.keys('l');
			await session.waitFor('relist ≈ list calls (runtime answers slowly)', 30_000);
			return session;
		},
	},
	{
		name: 'anatomy-churn',
		title: 'pleg-top --demo, a then c: the relist anatomy during pod churn',
		async run() {
			const session = await startWithWindow(['--demo']);
			session.keys('a');
			session.keys('c');
			await session.waitFor('relist ≈ per-pod status inspection', 30_000);
			return session;
		},
	},
	{
		name: 'stalled',
		title: 'pleg-top --demo --demo-speed 60: a relist hung past the 3-minute threshold',
		async run() {
			const session = await startWithWindow(['--demo', '--demo-speed', '60']);
			session.keys('s');
			await session.waitFor('PLEG is not healthy', 15_000);
			return session;
		},
	},
	{
		name: 'countdown',
		title: "pleg-top --demo --demo-speed 20, s pressed: healthy past half the threshold, pleg-top's countdown to NotReady",
		async run() {
			const session = start(['--demo', '--demo-speed', '20']);
			await session.waitFor('PLEG is healthy', 10_000);
			session.keys('s');
			// Between 10 s and 39 s to go: red (critical), well before the kubelet's rule trips.
			await session.waitFor(/!! NotReady in [1-3]\ds \(last seen/, 20_000);
			return session;
		},
	},
	{
		name: 'stall-events',
		title: 'pleg-top --demo --demo-speed 20, s pressed: past the threshold, the CRI calls, the Events and the next steps to paste',
		async run() {
			const session = start(['--demo', '--demo-speed', '20']);
			await session.waitFor('PLEG is healthy', 10_000);
			session.keys('s');
			// The kubelet's NodeNotReady a few seconds past the threshold (the GC failure on the hung runtime before it is
			// counted in the Events title when the next steps leave it no row), then the commands to paste.
			await session.waitFor(/NodeNotReady +[1-5]\ds ago/, 30_000);
			await session.waitFor(/NodeNotReady[\s\S]*kubectl describe node demo-node[\s\S]*crictl pods --state notready/, 5000);
			return session;
		},
	},
	{
		name: 'write-down',
		title: 'pleg-top --demo: q after b and churn leaves the write-down on the normal screen (tmux scrollback)',
		async run() {
			const session = await startWithWindow(['--demo', '--summary', '/tmp/pleg-top-screenshot-lab.md']);
			session.keys('b');
			await session.waitFor('baseline ·');
			session.keys('c');
			await session.waitFor(/marked \d\d:\d\d:\d\d, 15s ago/, 25_000);
			session.keys('q');
			await session.waitFor('write-down written to', 10_000);
			return session;
		},
	},
	{
		name: 'rbac-error',
		title: 'pleg-top --node worker-1: nodes/proxy forbidden after good scrapes; the last figures stay, marked STALE',
		async run(context) {
			const {api, kubeconfig} = await context.cluster(['worker-1']);
			const session = await startWithWindow(['--node', 'worker-1'], {KUBECONFIG: kubeconfig});
			api.setFault({type: 'status', code: 403}, {route: 'metrics', node: 'worker-1'});
			await session.waitFor('STALE', 10_000);
			await session.waitFor(/nodes\/proxy/, 10_000);
			return session;
		},
	},
	{
		name: 'help',
		title: 'pleg-top --demo, ? pressed: what each figure means and the keys',
		async run() {
			const session = start(['--demo']);
			await session.waitFor('PLEG is healthy', 10_000);
			session.keys('?');
			await session.waitFor('what each figure means');
			return session;
		},
	},
	{
		name: 'raw',
		title: 'pleg-top --demo, w pressed: the kubelet_pleg_* lines of the last scrape as the kubelet wrote them',
		async run() {
			const session = await startWithWindow(['--demo']);
			session.keys('w');
			await session.waitFor('raw kubelet_pleg_* lines');
			return session;
		},
	},
	{
		name: 'overview',
		title: 'pleg-top without --node: every node of the cluster, worst first',
		async run(context) {
			// gpu-node-a runs 60× and hangs: past the threshold in 3 s, then NotReady; worker-3 hangs at 1×: "warn" after 5 s;
			// worker-2 churns.
			const cluster = await context.cluster(['worker-1', 'worker-2', 'worker-3', 'worker-4', {name: 'gpu-node-a', speed: 60}, 'infra-0']);
			cluster.kubelets.get('gpu-node-a')!.stall();
			cluster.kubelets.get('worker-3')!.stall();
			cluster.kubelets.get('worker-2')!.churn(true);
			const session = start([], {KUBECONFIG: cluster.kubeconfig});
			await session.waitFor(/✗ 1 unhealthy · .*! 1 warn/, 30_000);
			// As on a real cluster, the node past the threshold is NotReady (its kubelet says so; the table shows it once the
			// node list is read again).
			await session.waitFor(/✗ unhealthy +gpu-node-a +False /, 60_000);
			return session;
		},
	},
	{
		name: 'overview-cloud',
		title:
			'pleg-top without --node on GKE-style node names: the part they share cut, the pool and the node kept; a NotReady node, one counting down',
		async run(context) {
			const gke = (pool: string, end: string) => `gke-prod-europe-west1-${pool}-${end}`;
			// The highmem node runs 20× and hangs: past the threshold in 9 s, then NotReady; one default node hangs at 1×
			// and counts down; another churns.
			const nodes = [
				gke('default-pool-3f2a9c1e', 'x7k2'),
				gke('default-pool-3f2a9c1e', 'm4p9'),
				gke('default-pool-3f2a9c1e', 'b8zt'),
				{name: gke('highmem-pool-8b1d4e77', 'q2w3'), speed: 20},
				gke('highmem-pool-8b1d4e77', 'lk0v'),
				gke('gpu-pool-c04e91aa', '7hrn'),
			];
			const cluster = await context.cluster(nodes);
			cluster.kubelets.get(gke('highmem-pool-8b1d4e77', 'q2w3'))!.stall();
			cluster.kubelets.get(gke('default-pool-3f2a9c1e', 'm4p9'))!.stall();
			cluster.kubelets.get(gke('default-pool-3f2a9c1e', 'b8zt'))!.churn(true);
			const session = start([], {KUBECONFIG: cluster.kubeconfig});
			await session.waitFor(/✗ unhealthy +\S*q2w3 +False /, 60_000);
			await session.waitFor(/! lagging .* ago +[12]m\d+s /, 30_000);
			return session;
		},
	},
	{
		name: 'lab-demo',
		title: 'pleg-top lab --demo mid-run: the phase and the pods Running in the header, each phase a named mark on the chart',
		async run() {
			// The demo creates nothing, so it asks nothing.
			const session = start(['lab', '--demo']);
			// The second up's hold: idle, hold, down and hold behind it on the chart, the baseline the phase's mark.
			await session.waitFor(/lab 7\/7 hold 12 #2 · 12\/12 Running/, 90_000);
			await session.waitFor(/marked \d\d:\d\d:\d\d, [4-8]s ago/, 20_000);
			return session;
		},
	},
];

async function main(only: string[]): Promise<void> {
	if (!hasTmux) throw new Error('npm run screenshots needs tmux (apt-get install tmux)');
	mkdirSync(outDir, {recursive: true});
	const clusters: FakeCluster[] = [];
	const context: Context = {
		async cluster(nodes) {
			const cluster = await startFakeCluster(nodes);
			clusters.push(cluster);
			return cluster;
		},
	};
	try {
		for (const scene of scenes.filter((candidate) => only.length === 0 || only.includes(candidate.name))) {
			const session = await scene.run(context);
			try {
				const svg = ansiToSvg(captureColours(session), {columns, rows, title: scene.title});
				writeFileSync(path.join(outDir, `${scene.name}.svg`), svg);
				process.stdout.write(`screenshots/${scene.name}.svg\n`);
			} finally {
				session.kill();
			}
		}
	} finally {
		await Promise.all(clusters.map(async (cluster) => cluster.close()));
	}
}

// `npm run screenshots -- idle help` renders only those scenes.
await main(process.argv.slice(2));
