// How the overview through the API server reads a fleet, through the real CLI against the fake API server: the
// node list (listed, then watched) ranks a NotReady node first before its metrics answer and its metrics are read
// first; a cycle slower than the NotReady threshold is said; the opened node is read at its own interval; a 429
// holds every node; an API server that went away is retried once for the fleet; a node made again is a reset.
// Small clusters and small --max-rps show the order and the cycle; requests are counted in the fake server.
import assert from 'node:assert/strict';
import net from 'node:net';
import {after, describe, test} from 'node:test';
import {cliPath, spawnCli, type CliProcess} from '../../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../../helpers/tmux.js';
import {startCluster, v121After, withLastSeen, type Cluster} from '../cluster.js';
import {readDump, setSamples} from '../../domain/dump.js';
import type {RecordedRequest} from '../../helpers/fake-api-server.js';
import {until} from '../../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const dump = readDump('1.21.2');
const healthy = () => withLastSeen(dump, 1);
const plegMessage = 'PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s';
const notReady = {status: 'False' as const, reason: 'KubeletNotReady', message: plegMessage};

const clusters: Cluster[] = [];
const sessions: TmuxSession[] = [];
const clis: CliProcess[] = [];
after(async () => {
	for (const session of sessions) session.kill();
	for (const cli of clis) cli.child.kill('SIGKILL');
	for (const cluster of clusters) await cluster.close();
});

async function cluster(nodes: Parameters<typeof startCluster>[0]): Promise<Cluster> {
	const started = await startCluster(nodes);
	clusters.push(started);
	return started;
}

function screenOf(running: Cluster, args: string, size = {columns: 110, rows: 30}): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} ${args}`, {
		...size,
		env: {...running.env, TZ: 'UTC', PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	return session;
}

const metricsOf = (requests: readonly RecordedRequest[]) => requests.filter((request) => request.path.endsWith('/proxy/metrics'));
const nodeOf = (request: RecordedRequest) => /\/nodes\/([^/]+)\/proxy/.exec(request.path)?.[1];
const lists = (running: Cluster) => running.fake.requests.filter((request) => /^\/api\/v1\/nodes\?limit=/.test(request.path));
const watches = (running: Cluster) => running.fake.requests.filter((request) => request.path.includes('watch=true'));
/** The table's rows (below the titles), as shown. */
const tableRows = (screen: string) => screen.split('\n').slice(screen.split('\n').findIndex((line) => /^ {2}status/.test(line)) + 1);

describe('the fleet through the API server: the worst node first, at once', () => {
	test('a node the list says is NotReady is read first (JSON lines, --max-rps 1)', async () => {
		const running = await cluster([
			...['a-1', 'a-2', 'a-3', 'a-4', 'a-5'].map((name) => ({name, metrics: healthy})),
			{name: 'z-sick', ready: notReady, metrics: healthy},
		]);
		const cli = spawnCli(['--max-rps', '1', '--interval', '1s'], {env: running.env, timeoutMs: 60_000});
		clis.push(cli);
		await until(() => metricsOf(running.fake.requests).length >= 2, 'two metrics reads');
		assert.deepEqual(metricsOf(running.fake.requests).map(nodeOf).slice(0, 1), ['z-sick']);
		cli.child.kill('SIGTERM');
		await cli.exited;
	});

	test(
		'NotReady ranks first from the first frame in the kubelet words; a Ready change comes by the watch, not the 30 s re-list; 410 lists again',
		{skip},
		async () => {
			const running = await cluster([
				...['a-1', 'a-2', 'a-3', 'a-4', 'a-5'].map((name) => ({name, metrics: healthy})),
				{name: 'z-sick', ready: notReady, metrics: healthy},
			]);
			// No metrics answer during the test: every row is what the node list says.
			running.fake.setFault({type: 'delay', ms: 60_000}, {route: 'metrics'});
			const session = screenOf(running, '--max-rps 1 --timeout 60s');
			const first = await session.waitFor(/^. . \S.* {2}a-5 /m, 20_000);
			assert.match(tableRows(first)[0]!, /✗ PLEG is not health… +z-sick +False/, first);
			assert.match(tableRows(first)[1]!, /\? waiting +a-1 /, first);

			const listsBefore = lists(running).length;
			await until(() => running.fake.watches === 1, 'the watch of the nodes');
			running.fake.setReady('a-3', {...notReady, message: 'PLEG is not healthy: pleg was last seen active 3m1s ago'});
			// Within a few seconds, not at the re-list 30 s on: no list was read again.
			const changed = await session.waitFor(/✗ PLEG is not health… +a-3 +False/, 20_000);
			assert.match(changed, /✗ 2 unhealthy/);
			assert.equal(lists(running).length, listsBefore);

			// A watch the server ends is watched again from the last version seen (the change above: 2).
			running.fake.endWatches();
			await until(() => watches(running).some((request) => request.path.endsWith('resourceVersion=2')), 'a watch from version 2');
			assert.equal(lists(running).length, listsBefore);
			// Versions compacted away: the watch gets 410 Gone, and the nodes are listed again.
			running.fake.compact();
			running.fake.endWatches();
			await until(() => lists(running).length > listsBefore, 'a list after 410 Gone');
		},
	);

	test('a cycle longer than the 3-minute threshold is said in the header, with --prometheus', {skip}, async () => {
		const running = await cluster(['n-1', 'n-2', 'n-3'].map((name) => ({name, metrics: healthy})));
		// 3 nodes at one request in 100 s: each node every 5m0s.
		const session = screenOf(running, '--max-rps 0.01');
		// The note may wrap: read as one text.
		const screen = (await session.waitFor('NotReady threshold', 20_000)).replaceAll(/\n +/g, ' ');
		assert.match(screen, /each node every 5m0s/);
		assert.match(screen, /a cycle \(5m0s\) is longer than the 3m0s NotReady threshold: a stall can come and go unseen;/);
		assert.match(screen, /--prometheus reads every node at once/);
	});

	test('the opened node is read every --interval and the rest slow down; its header shows the node clock', {skip}, async () => {
		// a-0's clock is a minute ahead: its gauge and the Date through the proxy are on that clock.
		const ahead = () => setSamples(dump, {kubelet_pleg_last_seen_seconds: String(Math.floor(Date.now() / 1000) + 60 - 1)});
		const running = await cluster([
			{name: 'a-0', metrics: ahead, clockOffsetSeconds: 60},
			...['b-1', 'b-2', 'b-3', 'b-4', 'b-5'].map((name) => ({name, metrics: healthy})),
		]);
		// 6 nodes at 2 requests/s: each node every 3s in the table.
		const session = screenOf(running, '--max-rps 2 --interval 1s');
		await session.waitFor('each node every 3s', 20_000);
		session.keys('/', 'a-0', 'Enter');
		await session.waitFor('matching "a-0"');
		session.keys('Enter');
		const opened = await session.waitFor(/^pleg-top · a-0 /m, 10_000);
		// Its status line says its own interval, not the fleet's 3 s, from the first frame.
		assert.match(opened, /^every 1s {2}/m);
		const from = running.fake.requests.length;
		const since = () => metricsOf(running.fake.requests.slice(from));
		await until(() => since().filter((request) => nodeOf(request) === 'a-0').length >= 6, 'six reads of the opened node', 30_000);
		const own = since().filter((request) => nodeOf(request) === 'a-0').length;
		const others = since().length - own;
		// At 1 s for a-0 the other five share the 1 request/s left (each every 5 s): about as many reads as a-0's, a
		// few more on a loaded machine, where a-0's next read waits for its answer. At the fleet's pace a-0 would be
		// read every 3 s and the others five times as often as it.
		assert.ok(others < 3 * own, `${own} reads of a-0, ${others} of the others`);
		const screen = await session.waitFor('node clock 1m0s ahead', 10_000);
		assert.match(screen.split('\n')[0]!, /node clock 1m0s ahead/, opened);
	});

	test('429 with Retry-After: every node waits, rows read throttled, the header says so', {skip}, async () => {
		const names = Array.from({length: 30}, (_, index) => `n-${String(index).padStart(2, '0')}`);
		const running = await cluster(names.map((name) => ({name, metrics: healthy})));
		running.fake.setFault({type: 'status', code: 429, headers: {'Retry-After': '4'}}, {route: 'metrics'});
		const session = screenOf(running, '--max-rps 20');
		const screen = await session.waitFor('throttled: the API server asked to wait (429)', 20_000);
		assert.match(screen, /\? throttled +n-\d\d /);
		assert.doesNotMatch(screen, /HTTP error/);
		const first = metricsOf(running.fake.requests)[0]!.receivedAt;
		await until(() => metricsOf(running.fake.requests).some((request) => request.receivedAt >= first + 4000), 'a read after the wait');
		// Only what was in flight when the first 429 came (at most --max-inflight 8) goes out during the wait.
		const during = metricsOf(running.fake.requests).filter((request) => request.receivedAt < first + 3500).length;
		assert.ok(during <= 9, `${during} metrics requests during the 4 s the server asked to wait`);
	});

	test('the API server gone: one request at a time for the whole fleet, backing off, said in the header', {skip}, async () => {
		const names = Array.from({length: 20}, (_, index) => `n-${String(index).padStart(2, '0')}`);
		const running = await cluster(names.map((name) => ({name, metrics: healthy})));
		const session = screenOf(running, '--interval 1s');
		await session.waitFor('✓ 20 ok', 20_000);
		const {port} = running.fake;
		await running.fake.close();
		// Something on the port that takes every connection and drops it at once: each try counted.
		let connections = 0;
		const dropper = net.createServer((socket) => {
			connections++;
			socket.destroy();
		});
		await new Promise<void>((resolve) => dropper.listen(port, '127.0.0.1', resolve));
		try {
			const screen = await session.waitFor(/the API server does not answer \((?:[3-9]|\d\d+) tries\)/, 30_000);
			const tries = Number(/does not answer \((\d+) tries\)/.exec(screen)![1]);
			// Each try one connection (the reads in flight when it went count as tries too), and the node list's own
			// backed-off tries beside them: never one per node per interval.
			assert.ok(connections <= 2 * tries + 10, `${connections} connections for ${tries} tries`);
		} finally {
			await new Promise<void>((resolve) => dropper.close(() => resolve()));
		}
	});

	test('a node deleted and made again (another uid) starts its window again: no rate across the two kubelets', async () => {
		const started = Date.now();
		// 1 relist a second; the new node's kubelet has run a week longer (its counters 604,800 relists higher).
		const kubelet = (extraMinutes: number) => () => v121After((Date.now() - started) / 60_000 + extraMinutes);
		const running = await cluster([{name: 'n-1', metrics: kubelet(0)}]);
		const cli = spawnCli(['--interval', '300ms', '--window', '2s'], {env: running.env, timeoutMs: 60_000});
		clis.push(cli);
		type Line = {relist?: {ratePerSecond: number | null; count?: number}; node: string};
		const lines = () =>
			cli.stdout
				.split('\n')
				.slice(0, -1)
				.map((text) => JSON.parse(text) as Line);
		await until(() => lines().filter((line) => line.relist?.ratePerSecond != null).length >= 3, 'rates of the first node');
		const before = lines().length;
		running.fake.deleteNode('n-1');
		running.fake.addNode({name: 'n-1', uid: 'uid-n-1-again', metrics: kubelet(7 * 24 * 60)});
		await until(
			() =>
				lines()
					.slice(before)
					.filter((line) => line.relist?.ratePerSecond != null).length >= 3,
			'rates of the new node',
		);
		const rates = lines()
			.slice(before)
			.map((line) => line.relist?.ratePerSecond ?? null)
			.filter((rate): rate is number => rate !== null);
		// The truth is 1 relist a second on both; a window across the two would read thousands a second. The early
		// windows span a few hundred ms, timed where the answers arrive, so a loaded machine's latency moves them.
		for (const rate of rates) assert.ok(rate > 0.2 && rate < 5, `rate ${rate}/s after the node was made again: ${rates.join(', ')}`);
		cli.child.kill('SIGTERM');
		await cli.exited;
	});
});
