// The overview's rows read true, through the real CLI against the fake API server: managed-cloud node names (GKE,
// AKS) keep the end that tells them apart at 80, 100 and 120 columns, and a 253-character name still names the
// opened node in its header; a countdown that runs out between two reads says "due now" and ranks with the
// unhealthy, and last seen + read + NotReady in add up to the threshold at every width (or none of them shows);
// --once -o json has its ages to the millisecond and `stale` on every line.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {cliPath, runCli} from '../../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../../helpers/tmux.js';
import {startFakeApiServer, type FakeApiServer, type FakeNode} from '../../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../../helpers/kubeconfig-files.js';

const skip = hasTmux ? false : 'tmux not installed';
const token = 'fleet-rows-token-0123456789abcdef';
const widths = [80, 100, 120] as const;

/**
 * A kubelet relisting every second, 100 relists of 5 ms each per read (0), or one whose relist hung `ageAtFirstRead`
 * seconds before its first read: its gauge and count stand still from then on.
 */
function kubelet(ageAtFirstRead = 0): (request: number) => string {
	let stalledAt: number | null = null;
	return (request) => {
		stalledAt ??= Math.floor(Date.now() / 1000) - ageAtFirstRead;
		const gauge = ageAtFirstRead === 0 ? Math.floor(Date.now() / 1000) - 1 : stalledAt;
		const count = ageAtFirstRead === 0 ? 100 * request : 100;
		return [
			'# TYPE kubelet_pleg_last_seen_seconds gauge',
			`kubelet_pleg_last_seen_seconds ${gauge}`,
			'# TYPE kubelet_pleg_relist_duration_seconds histogram',
			`kubelet_pleg_relist_duration_seconds_bucket{le="0.01"} ${count}`,
			`kubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} ${count}`,
			`kubelet_pleg_relist_duration_seconds_sum ${count * 0.005}`,
			`kubelet_pleg_relist_duration_seconds_count ${count}`,
		].join('\n');
	};
}

const notReady = {status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg was last seen active 3m20s ago'} as const;

type Cluster = {fake: FakeApiServer; temp: TempDir; env: Record<string, string>};

async function startCluster(nodes: FakeNode[]): Promise<Cluster> {
	const fake = await startFakeApiServer({nodes, tokens: {[token]: 'viewer'}});
	const temp = makeTempDir('pleg-top-fleet-rows-');
	const kubeconfig = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext(fake.url, {name: 'viewer', token})));
	return {fake, temp, env: {HOME: temp.dir, KUBECONFIG: kubeconfig, TZ: 'UTC', PATH: process.env['PATH'] ?? '/usr/bin:/bin'}};
}

/** The table's rows (title and node rows), as the screen shows them: from the title row to the keys' row. */
function tableRows(screen: string): string[] {
	const lines = screen.split('\n');
	const title = lines.findIndex((line) => /^ {2}status/.test(line));
	const keys = lines.findIndex((line) => line.startsWith('↑↓ select'));
	return title < 0 || keys < 0 ? [] : lines.slice(title, keys);
}

/** "2m50s" → 170, "due now" → 0 (nothing left). */
function seconds(text: string): number {
	if (text === 'due now') return 0;
	const match = /^(?:(\d+)m)?(\d+)s$/.exec(text);
	assert.ok(match, `not an age: ${text}`);
	return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

describe('GKE names at 80, 100 and 120 columns; a countdown that runs out', () => {
	// One pool, one zone: every name shares "gke-prod-default-pool-3f6a0b2c-", only the last 4 characters differ.
	const pool = 'gke-prod-default-pool-3f6a0b2c-';
	// One cluster per terminal: each stall starts at its own reader's first read.
	const clusters: Cluster[] = [];
	const sessions: TmuxSession[] = [];

	before(async () => {
		for (const _ of widths) {
			clusters.push(
				await startCluster([
					// Critical with 80 s left at the first read, still critical at the second, 30 s later.
					{name: `${pool}a1b2`, metrics: kubelet(100)},
					// NotReady due 10 s after the first read, 20 s before the second.
					{name: `${pool}m2n4`, metrics: kubelet(170)},
					{name: `${pool}p9rt`, metrics: kubelet(200), ready: notReady},
					{name: `${pool}x7kq`, metrics: kubelet()},
				]),
			);
		}
	});

	after(async () => {
		for (const session of sessions) session.kill();
		for (const cluster of clusters) {
			await cluster.fake.close();
			cluster.temp.remove();
		}
	});

	// The names as cut, by hand: the width left for names, less one for "…", the cut in the middle (one more kept at
	// the end) and inside the shared "gke-prod-default-pool-3f6a0b2c-" (31): 35 characters in 29 at 80 columns
	// (14 + … + 14), 20 at 100 (9 + … + 10), 28 at 120 (13 + … + 14).
	const cut: Record<(typeof widths)[number], (end: string) => string> = {
		80: (end) => `gke-prod-defau…-3f6a0b2c-${end}`,
		100: (end) => `gke-prod-…a0b2c-${end}`,
		120: (end) => `gke-prod-defa…-3f6a0b2c-${end}`,
	};

	test('every row keeps the end that tells it apart', {skip}, async () => {
		// Each node read every 30 s: the countdown of m2n4 runs out 10 s after its first read, 20 s before its second.
		const command = `${process.execPath} ${cliPath} --interval 30s --window 60s`;
		for (const [index, columns] of widths.entries()) sessions.push(startTmux(command, {columns, rows: 14, env: clusters[index]!.env}));
		const screens = await Promise.all(
			sessions.map(async (session) => session.waitFor(/✗ unhealthy[\s\S]*!! critical[\s\S]*!! critical[\s\S]*✓ ok/, 30_000)),
		);
		for (const [index, columns] of widths.entries()) {
			const [, ...rows] = tableRows(screens[index]!);
			const names = ['a1b2', 'm2n4', 'p9rt', 'x7kq'].map(cut[columns]);
			// The name column starts after the marker, the status (11) and the gap: column 15.
			assert.deepEqual(rows.map((row) => row.slice(15, 15 + names[0]!.length)).sort(), names, `${columns} columns:\n${screens[index]}`);
		}
	});

	test('past zero the countdown says "due now" and ranks with the unhealthy; last seen + read + NotReady in = 3m0s', {skip}, async () => {
		const due = await Promise.all(sessions.map(async (session) => session.waitFor(/ due now/, 40_000)));
		for (const [index, columns] of widths.entries()) {
			const [title, ...rows] = tableRows(due[index]!);
			const name = cut[columns];
			// Worst first: the unhealthy and the one due now together (by name), then the critical one, then ok.
			const expected = [
				`› !! critical  ${name('m2n4')}  `,
				`  ✗ unhealthy  ${name('p9rt')}  `,
				`  !! critical  ${name('a1b2')}  `,
				`  ✓ ok         ${name('x7kq')}  `,
			];
			assert.deepEqual(
				rows.map((row, at) => row.slice(0, expected[at]!.length)),
				expected,
				`${columns} columns:\n${due[index]}`,
			);
			// Last seen, read and NotReady in, all three or none: where they show, they add up to the threshold. Past
			// zero ("due now", counted 0) last seen + read keep growing from 3m0s until the next read.
			const timing = ['last seen', 'read', 'NotReady in'].filter((word) => title!.includes(word));
			assert.deepEqual(timing, ['last seen', 'read', 'NotReady in'], `${columns} columns: ${title}`);
			const sum = (row: string): number => {
				const match = / ((?:\d+m)?\d+s) +((?:\d+m)?\d+s) ago +(due now|(?:\d+m)?\d+s)(?: |$)/.exec(row);
				assert.ok(match, `${columns} columns: ${row}`);
				return seconds(match[1]!) + seconds(match[2]!) + seconds(match[3]!);
			};

			assert.match(rows[0]!, / due now/);
			assert.ok(sum(rows[0]!) >= 180, `${columns} columns: ${rows[0]}`);
			assert.equal(sum(rows[2]!), 180, `${columns} columns: ${rows[2]}`);
		}
	});
});

describe('AKS names at 80, 100 and 120 columns', () => {
	let cluster: Cluster;
	const sessions: TmuxSession[] = [];

	before(async () => {
		cluster = await startCluster(
			['000000', '000001', '00000a'].map((end, index) => ({
				name: `aks-nodepool1-12345678-vmss${end}`,
				metrics: kubelet(index === 1 ? 120 : 0),
			})),
		);
	});

	after(async () => {
		for (const session of sessions) session.kill();
		await cluster.fake.close();
		cluster.temp.remove();
	});

	test('the critical row is told from the others by its end', {skip}, async () => {
		const command = `${process.execPath} ${cliPath} --interval 2s --window 4s`;
		for (const columns of widths) sessions.push(startTmux(command, {columns, rows: 12, env: cluster.env}));
		const screens = await Promise.all(sessions.map(async (session) => session.waitFor(/!! critical[\s\S]*✓ ok[\s\S]*✓ ok/, 30_000)));
		// 33 characters, the first 32 shared: in 29 at 80 columns (14 + … + 14), 20 at 100 (9 + … + 10), 28 at 120
		// (13 + … + 14), the cut each time in the middle and inside the shared part.
		const shown: Record<(typeof widths)[number], (end: string) => string> = {
			80: (end) => `aks-nodepool1-…678-vmss${end}`,
			100: (end) => `aks-nodep…vmss${end}`,
			120: (end) => `aks-nodepool1…678-vmss${end}`,
		};
		for (const [index, columns] of widths.entries()) {
			const [, ...rows] = tableRows(screens[index]!);
			const name = shown[columns];
			const expected = [`› !! critical  ${name('000001')}  `, `  ✓ ok         ${name('000000')}  `, `  ✓ ok         ${name('00000a')}  `];
			assert.deepEqual(
				rows.map((row, at) => row.slice(0, expected[at]!.length)),
				expected,
				`${columns} columns:\n${screens[index]}`,
			);
		}
	});
});

describe('a 253-character node name', () => {
	// DNS labels of at most 63 characters, 253 in all: the longest name a Node can have.
	const name = `${'worker-start-'.padEnd(63, 'a')}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'-the-end-253'.padStart(61, 'd')}`;
	let cluster: Cluster;
	let session: TmuxSession | undefined;

	before(async () => {
		assert.equal(name.length, 253);
		cluster = await startCluster([
			{name, metrics: kubelet()},
			{name: 'worker-2', metrics: kubelet()},
		]);
	});

	after(async () => {
		session?.kill();
		await cluster.fake.close();
		cluster.temp.remove();
	});

	test('its row and the opened node header show both ends of it', {skip}, async () => {
		session = startTmux(`${process.execPath} ${cliPath} --interval 1s`, {columns: 100, rows: 24, env: cluster.env});
		// The name column holds 20 characters here: 9 + … + 10. Below worker-2 ("2" before "s").
		await session.waitFor(/^ {2}✓ ok {9}worker-st…he-end-253 /m, 30_000);
		session.keys('Down');
		await session.waitFor(/^› ✓ ok {9}worker-st…he-end-253 /m);
		session.keys('Enter');
		// The node's own screen: its status row's keys say q goes back to the table.
		const screen = await session.waitFor(/ q back /, 20_000);
		const header = screen.split('\n')[0]!;
		// The row less "pleg-top · " and the clock is 100 − 9 − 11 = 80 characters; cut, the name takes 40 of them (19 + … +
		// 20), the rest stays for what follows.
		assert.ok(header.startsWith(`pleg-top · ${name.slice(0, 19)}…${name.slice(-20)} · fake-ctx (cluster fake)`), header);
	});
});

describe('--once -o json: the overview ages to the millisecond; stale on every line', () => {
	let cluster: Cluster;

	before(async () => {
		cluster = await startCluster([
			{name: 'critical-1', metrics: kubelet(150)},
			{name: 'ok-1', metrics: kubelet()},
			{name: 'denied-1', metrics: kubelet()},
		]);
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics', node: 'denied-1'});
	});

	after(async () => {
		await cluster.fake.close();
		cluster.temp.remove();
	});

	test('lastSeenAtReadSeconds, readAgeSeconds and notReadyInSeconds have at most 3 decimals; stale false unless a read failed', async () => {
		const result = await runCli(['--once', '--window', '1s', '-o', 'json'], {env: cluster.env});
		assert.equal(result.code, 3, result.stderr);
		type Node = {node: string; status: string; stale: boolean; lastSeenAtReadSeconds: number | null; readAgeSeconds: number | null};
		const report = JSON.parse(result.stdout) as {nodes: Array<Node & {notReadyInSeconds: number | null}>};
		const byName = new Map(report.nodes.map((node) => [node.node, node]));
		assert.deepEqual(
			report.nodes.map((node) => [node.node, node.status, node.stale]),
			[
				['critical-1', 'critical', false],
				['denied-1', 'error', true],
				['ok-1', 'ok', false],
			],
		);
		for (const node of report.nodes) {
			for (const key of ['lastSeenAtReadSeconds', 'readAgeSeconds', 'notReadyInSeconds'] as const) {
				const value = node[key];
				if (value !== null) assert.equal(value, Number(value.toFixed(3)), `${node.node} ${key}: ${value}`);
			}
		}

		// threshold − (last seen at the read + the time since): each rounded on its own, so within 1.5 ms.
		const critical = byName.get('critical-1')!;
		const sum = critical.lastSeenAtReadSeconds! + critical.readAgeSeconds! + critical.notReadyInSeconds!;
		assert.ok(Math.abs(sum - 180) < 0.0015, String(sum));
	});
});
