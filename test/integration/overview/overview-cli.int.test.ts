// The overview through the real CLI against the fake API server with five nodes: one whose proxy answers 403, one
// whose relists take 25 times the others' (slow), three ordinary ones. --once in text and JSON; then the live
// screen in a real terminal (tmux), keys sent as tmux sends them: s and S sort, / filters by name (typed, Enter
// keeps it, Esc clears it), "ss" in one go; Enter opens a node and q comes back from it; the terminal title.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {cliPath, runCli} from '../../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../../helpers/tmux.js';
import {startFakeApiServer, type FakeApiServer} from '../../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../../helpers/kubeconfig-files.js';

const skip = hasTmux ? false : 'tmux not installed';
const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A kubelet whose relists all fall in the bucket ending at `le`: 100 more per request, so every window's p99 is
 * interpolated in that bucket, lower + 0.99 × its width. The last relist was a second ago.
 */
function kubelet(le: number): (request: number) => string {
	return (request) => {
		const count = 100 * request;
		const lines = [
			'# TYPE kubelet_pleg_last_seen_seconds gauge',
			`kubelet_pleg_last_seen_seconds ${Math.floor(Date.now() / 1000) - 1}`,
			'# TYPE kubelet_pleg_relist_duration_seconds histogram',
		];
		for (const bound of buckets) lines.push(`kubelet_pleg_relist_duration_seconds_bucket{le="${bound}"} ${bound >= le ? count : 0}`);
		lines.push(
			`kubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} ${count}`,
			`kubelet_pleg_relist_duration_seconds_sum ${count * le * 0.9}`,
			`kubelet_pleg_relist_duration_seconds_count ${count}`,
		);
		return lines.join('\n') + '\n';
	};
}

describe('the overview through the CLI: five nodes, one forbidden, one slow', () => {
	let fake: FakeApiServer;
	let temp: TempDir;
	let env: Record<string, string>;
	let session: TmuxSession | undefined;

	before(async () => {
		// p99s: alpha-1 and beta-1 9.95 ms (0.005 + 0.99 × 0.005), alpha-2 24.85 ms, beta-2 248.5 ms. beta-2 against the
		// median of the others (9.95, 9.95, 24.85 → 9.95 ms): 25 ×, slow. alpha-2 against 9.95, 9.95, 248.5: 2.5 ×, ok.
		const token = 'overview-cli-token-0123456789abcdef';
		fake = await startFakeApiServer({
			nodes: [
				{name: 'alpha-1', metrics: kubelet(0.01)},
				{name: 'alpha-2', metrics: kubelet(0.025)},
				{name: 'beta-1', metrics: kubelet(0.01)},
				{name: 'beta-2', metrics: kubelet(0.25)},
				{name: 'denied-1', metrics: kubelet(0.01)},
			],
			tokens: {[token]: 'viewer'},
		});
		fake.setFault({type: 'status', code: 403}, {route: 'metrics', node: 'denied-1'});
		temp = makeTempDir('pleg-top-overview-cli-');
		const kubeconfig = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext(fake.url, {name: 'viewer', token})));
		env = {HOME: temp.dir, KUBECONFIG: kubeconfig};
	});

	after(async () => {
		session?.kill();
		await fake.close();
		temp.remove();
	});

	/** The node names of the table's rows, top to bottom. */
	function order(screen: string): string[] {
		return screen
			.split('\n')
			.map((line) => /^[› ] [✗?!✓] .+? {2}((?:alpha|beta|denied)-\d)\b/.exec(line)?.[1])
			.filter((name): name is string => name !== undefined);
	}

	test('--once -o json: each node\'s status, "slow" for beta-2 and "error" for the forbidden one; exit 3 (a node unread)', async () => {
		const result = await runCli(['--once', '--window', '1s', '-o', 'json'], {env});
		assert.equal(result.code, 3, result.stderr);
		const report = JSON.parse(result.stdout) as {nodes: Array<{node: string; status: string; error?: {kind: string}}>};
		assert.deepEqual(
			report.nodes.slice(0, 2).map((node) => [node.node, node.status]),
			[
				['denied-1', 'error'],
				['beta-2', 'slow'],
			],
		);
		assert.equal(report.nodes[0]!.error?.kind, 'forbidden');
		assert.deepEqual(
			report.nodes.slice(2).map((node) => node.status),
			['ok', 'ok', 'ok'],
		);
	});

	test('--once text: the table worst first, the error row saying why', async () => {
		const result = await runCli(['--once', '--window', '1s'], {env});
		assert.equal(result.code, 3, result.stderr);
		const lines = result.stdout.split('\n');
		assert.match(lines[0]!, /^ {2}status {13}node {6}Ready/);
		assert.match(lines[1]!, /^ {2}\? 403 nodes\/proxy {2}denied-1 /);
		assert.match(lines[2]!, /^ {2}! slow {13}beta-2 .* 248ms /);
		assert.match(result.stdout, /denied-1: context "fake-ctx" \(user "viewer"\) is not allowed to get nodes\/proxy on node "denied-1"/);
	});

	test(
		'in tmux, worst first: the 403 row says why, the slow node next; s sorts by name, S reverses, / filters, Esc clears',
		{skip},
		async () => {
			session = startTmux(`${process.execPath} ${cliPath} --interval 250ms --window 1s`, {
				columns: 120,
				rows: 20,
				env: {...env, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
			});
			// Every node has a window (two reads) once the ordinary ones show a p99 in ms.
			let screen = await session.waitFor(/! slow +beta-2 .*248ms/, 20_000);
			assert.match(screen, /› \? 403 nodes\/proxy {2}denied-1 /);
			assert.deepEqual(order(screen).slice(0, 2), ['denied-1', 'beta-2']);
			assert.match(screen, /✗ 0 unhealthy · \? 1 error · ! 0 warn · ! 1 slow · ✓ 3 ok/);
			assert.match(screen, /status↓/);
			// The terminal title (tmux's #{pane_title}) says the fleet's trouble: the one unreadable node.
			await session.waitForTitle('pleg-top: 1 error');

			session.keys('s');
			screen = await session.waitFor('node↑');
			assert.match(screen, /sorted by node, A → Z/);
			assert.deepEqual(order(screen), ['alpha-1', 'alpha-2', 'beta-1', 'beta-2', 'denied-1']);

			session.keys('S');
			screen = await session.waitFor('node↓');
			assert.deepEqual(order(screen), ['denied-1', 'beta-2', 'beta-1', 'alpha-2', 'alpha-1']);

			session.keys('/', 'beta');
			screen = await session.waitFor('/beta▌');
			session.keys('Enter');
			screen = await session.waitFor(/2 of 5 nodes matching "beta"[\s\S]*Esc unfilter/);
			assert.deepEqual(order(screen), ['beta-2', 'beta-1']);

			// Two keys in one write: node → Ready → kubelet.
			session.keys('ss');
			screen = await session.waitFor('sorted by kubelet, oldest first');
			assert.deepEqual(order(screen).sort(), ['beta-1', 'beta-2']);

			session.keys('Escape');
			screen = await session.waitFor('pleg-top · 5 nodes');
			assert.equal(order(screen).length, 5);

			// Enter opens the selected node; q there goes back to the table (not out of the program), q then quits.
			session.keys('Enter');
			screen = await session.waitFor(/^pleg-top · denied-1 · fake-ctx \(cluster fake\) · kubelet .* · q\/Esc: all nodes/m);
			session.keys('q');
			screen = await session.waitFor('↑↓ select');
			assert.ok(session.alive());
			session.keys('q');
			assert.equal(await session.waitForExit(), 0);
		},
	);
});
