// JSON lines end to end: stdout is a pipe and there is no --once, so the built CLI writes one JSON object per
// scrape. Faults in the middle give a stale line with the error and the last good figures; the stream goes on.
import assert from 'node:assert/strict';
import {after, before, beforeEach, describe, test} from 'node:test';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {readDump, setSamples} from '../domain/dump.js';
import {fast, startCluster, testToken, v121After, type Cluster} from './cluster.js';
import {contractKeys, extraKeys} from '../helpers/json-contract.js';

type Line = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster();
});

beforeEach(() => {
	cluster.fake.clearFaults();
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

function start(node: string, extra: string[] = []): CliProcess {
	const cli = spawnCli(['--node', node, ...fast, ...extra], {env: cluster.env, timeoutMs: 30_000});
	running.push(cli);
	return cli;
}

/** The complete lines written so far, parsed. */
function linesOf(cli: CliProcess): Line[] {
	return cli.stdout
		.split('\n')
		.slice(0, -1)
		.map((text) => JSON.parse(text) as Line);
}

async function waitForLine(cli: CliProcess, predicate: (line: Line, index: number) => boolean, timeoutMs = 20_000): Promise<Line[]> {
	await cli.waitForStdout(
		(stdout) =>
			stdout
				.split('\n')
				.slice(0, -1)
				.some((text, index) => predicate(JSON.parse(text) as Line, index)),
		timeoutMs,
	);
	return linesOf(cli);
}

/** SIGTERM, then the exit code must be 0 and stderr empty (no stack trace, no noise). */
async function stop(cli: CliProcess): Promise<void> {
	cli.child.kill('SIGTERM');
	const result = await cli.exited;
	assert.equal(result.stderr, '');
	assert.equal(result.code, 0);
}

/** A /metrics provider for `node` returning make(n) for the n-th request of this provider. */
function serve(node: string, make: (request: number) => string): void {
	let calls = 0;
	cluster.fake.setMetrics(node, () => make(++calls));
}

// The --once JSON contract, then what pleg-top adds, then the JSON-lines extra.
/**
 * worker-1's JSON lines: line `goodIndex` comes from a good scrape, the next /metrics answers `status`, and the
 * lines end at the first good line after the stale one.
 */
async function linesThroughOneFault(status: number, goodIndex: number): Promise<Line[]> {
	serve('worker-1', (n) => v121After(n));
	const cli = start('worker-1');
	await waitForLine(cli, (_, index) => index === goodIndex);
	cluster.fake.setFault({type: 'status', code: status}, {route: 'metrics'}, 1);
	const lines = await waitForLine(
		cli,
		(line, index) =>
			index > 0 &&
			line['stale'] !== true &&
			linesOf(cli)
				.slice(0, index)
				.some((earlier) => earlier['stale'] === true),
	);
	await stop(cli);
	return lines;
}

const lineKeys = [...contractKeys, ...extraKeys, 'kubeletRestarts'];

describe('one JSON line per scrape', () => {
	test('the contract keys on every line; a 503 in the middle gives a stale line with the error; the next good scrape continues', async () => {
		const lines = await linesThroughOneFault(503, 2);

		const staleAt = lines.findIndex((line) => line['stale'] === true);
		const [lastGood, staleLine, nextGood] = [lines[staleAt - 1]!, lines[staleAt]!, lines[staleAt + 1]!];
		// `stale` on every line: false on a good one, so a script can test it without a default.
		for (const line of [lastGood, nextGood]) {
			assert.deepEqual(Object.keys(line), [...lineKeys, 'stale']);
			assert.equal(line['stale'], false);
			assert.equal(line['verdict'], 'PLEG is healthy');
		}

		// The stale line: the last good figures, marked, with the failure in the user's terms.
		assert.deepEqual(Object.keys(staleLine), [...lineKeys, 'stale', 'error']);
		assert.equal(staleLine['relist'].count, lastGood['relist'].count);
		// The same verdict as the screen's: unknown while stale, with the last good scrape's age and verdict.
		assert.equal(staleLine['healthy'], null);
		assert.match(staleLine['verdict'], /^verdict unknown: the last good scrape is \ds old \(then: PLEG is healthy\)$/);
		assert.deepEqual(staleLine['error'].kind, 'kubelet-unreachable');
		assert.equal(staleLine['error'].summary, 'the API server cannot reach the kubelet on node "worker-1"');
		// The next good scrape is one more request: 60 more relists than the last good one.
		assert.equal(nextGood['relist'].count, lastGood['relist'].count + 60);
		// After one failure the retry waits max(100 ms, 1 s) = 1 s, then the cadence is back to 100 ms.
		const gap = Date.parse(nextGood['time']) - Date.parse(staleLine['time']);
		assert.ok(gap >= 950 && gap < 5000, `retry after ${gap} ms`);
		// Every good line after the second scrape: 60 relists per 100 ms-ish span, 0.01 s mean.
		for (const line of lines.filter((line) => line['stale'] !== true && line['relist'].windowCount !== null)) {
			assert.ok(Math.abs(line['relist'].windowMeanSeconds - 0.01) < 1e-9);
		}
	});

	test('a reader that closes the pipe (| head -n 2): exit 0 at once, nothing on stderr', async () => {
		serve('worker-1', (n) => v121After(n));
		const cli = start('worker-1');
		await waitForLine(cli, (_, index) => index === 1);
		const closedAt = Date.now();
		cli.child.stdout!.destroy();
		const result = await cli.exited;
		assert.equal(result.code, 0);
		assert.equal(result.signal, null);
		assert.equal(result.stderr, '');
		// The next write (100 ms later) meets the closed pipe; a loaded machine is given seconds, where a process that
		// ignored the closed pipe would run on to its 30 s kill.
		assert.ok(Date.now() - closedAt < 10_000, `exited ${Date.now() - closedAt} ms after the pipe closed`);
	});
});

describe('faults before the first good scrape that retrying will not mend: no line, the message on stderr, exit 3', () => {
	test('an unknown node (404)', async () => {
		const cli = spawnCli(['worker-9', ...fast], {env: cluster.env, timeoutMs: 30_000});
		running.push(cli);
		const result = await cli.exited;
		assert.equal(result.code, 3);
		assert.equal(result.stdout, '');
		assert.match(result.stderr, /^pleg-top: node "worker-9" does not exist in cluster "fake"\n/);
	});

	test('RBAC 403 on nodes/proxy', async () => {
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		const cli = start('worker-1');
		const result = await cli.exited;
		assert.equal(result.code, 3);
		assert.equal(result.stdout, '');
		assert.match(
			result.stderr,
			/^pleg-top: context "fake-ctx" \(user "token-user"\) is not allowed to get nodes\/proxy on node "worker-1"\n/,
		);
	});

	test('after a good scrape the same 403 is a stale line, and the stream goes on', async () => {
		const lines = await linesThroughOneFault(403, 1);
		const stale = lines.find((line) => line['stale'] === true)!;
		assert.equal(stale['error'].kind, 'forbidden');
		assert.equal(stale['relist'].count, lines[lines.indexOf(stale) - 1]!['relist'].count);
	});
});

describe('kubelet states through the JSON lines', () => {
	test('counter reset (kubelet restarted): counted, the window spans it as increase() does, never a negative rate', async () => {
		// Requests 1-3: the long-running kubelet; from 4: a kubelet restarted (counts from 0, +60 a request).
		serve('worker-1', (n) => (n <= 3 ? v121After(n) : v121After(n - 3, {restarted: true})));
		const cli = start('worker-1');
		const lines = await waitForLine(cli, (line) => line['kubeletRestarts'] === 1 && line['relist'].count === 180);
		await stop(cli);

		const restart = lines.findIndex((line) => line['kubeletRestarts'] === 1);
		assert.equal(lines[restart - 1]!['relist'].count, 1_671_950 + 180); // request 3: + 3 × 60
		// The first scrape after the restart: 60 relists since the kubelet started (lifetime), and a window that
		// spans the restart: the restarted counter contributes its 60, each earlier request in the window 60 more.
		const first = lines[restart]!['relist'];
		assert.equal(first.count, 60);
		assert.ok(first.windowCount >= 60 && first.windowCount % 60 === 0, String(first.windowCount));
		assert.ok(Math.abs(first.windowMeanSeconds - 0.01) < 1e-9, String(first.windowMeanSeconds)); // 0.6 s per 60
		assert.ok(first.ratePerSecond > 0);
		for (const line of lines.filter((line) => line['relist'].windowCount !== null)) {
			assert.ok(line['relist'].windowCount % 60 === 0 && line['relist'].ratePerSecond >= 0, JSON.stringify(line['relist']));
			assert.ok(Math.abs(line['relist'].windowMeanSeconds - 0.01) < 1e-9, JSON.stringify(line['relist']));
		}
	});

	test('last seen in the future (node clock 30 s ahead): the skew in seconds, age 0', async () => {
		serve('worker-1', (n) => v121After(n, {lastSeenAge: -30}));
		const cli = start('worker-1');
		const [line] = await waitForLine(cli, () => true);
		await stop(cli);
		// Gauge = whole seconds, 30 s ahead of the local clock when written: 29 to 30 s ahead when read, less the
		// answer's own time (up to 2 s given on a loaded machine).
		assert.ok(line!['skewSeconds'] > 27 && line!['skewSeconds'] <= 30, String(line!['skewSeconds']));
		assert.equal(line!['lastSeenAgeSeconds'], 0);
		assert.equal(line!['verdict'], 'PLEG is healthy');
	});

	test('EventedPLEG on (its connection counter rising): 300 s / 10 min with their kubelet.go lines', async () => {
		const connections = (n: number) =>
			`${v121After(n).trimEnd()}\n# TYPE kubelet_evented_pleg_connection_success_count counter\nkubelet_evented_pleg_connection_success_count ${n}\n`;
		serve('new-128', connections);
		const cli = start('new-128');
		const lines = await waitForLine(cli, (_, index) => index === 1);
		await stop(cli);
		// One scrape cannot show a counter rising: the generic constants of v1.28.4 first.
		const row = {row: 'v1.28.0', rowNote: null};
		assert.deepEqual(lines[0]!['constants'], {
			relistPeriodSeconds: 1,
			relistThresholdSeconds: 180,
			periodSource: 'pkg/kubelet/kubelet.go:178',
			thresholdSource: 'pkg/kubelet/kubelet.go:179',
			...row,
			pleg: 'generic',
		});
		// A stream obtained in the window: evented, though the scripted relists run fast.
		assert.deepEqual(lines[1]!['constants'], {
			relistPeriodSeconds: 300,
			relistThresholdSeconds: 600,
			periodSource: 'pkg/kubelet/kubelet.go:182',
			thresholdSource: 'pkg/kubelet/kubelet.go:183',
			...row,
			pleg: 'evented',
		});
	});

	test('no last-seen gauge (v1.14): the fallback "count unchanged for N s", reset when the count moves', async () => {
		const dump = readDump('1.14.10');
		const moved = setSamples(dump, {
			kubelet_pleg_relist_duration_seconds_count: '42894',
			'kubelet_pleg_relist_duration_seconds_bucket{le="+Inf"}': '42894',
		});
		serve('old-114', () => dump);
		const cli = start('old-114');
		await waitForLine(cli, (line) => line['countUnchangedSeconds'] >= 1.2);
		const unchanged = linesOf(cli).at(-1)!;
		serve('old-114', () => moved);
		const lines = await waitForLine(cli, (line) => line['relist'].count === 42_894);
		await stop(cli);

		assert.equal(unchanged['lastSeenSeconds'], null);
		assert.equal(unchanged['verdict'], 'PLEG is healthy');
		assert.match(
			unchanged['unavailable'][0],
			/^last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1\.18; using 'count unchanged for 1s'$/,
		);
		const first = lines.find((line) => line['relist'].count === 42_894)!;
		// The count moved on this scrape: unchanged for 0 s when read right after it.
		assert.ok(first['countUnchangedSeconds'] < 0.5, String(first['countUnchangedSeconds']));
	});
});

describe('the incident keys through the JSON lines', () => {
	test('band, secondsToThreshold, unhealthyForSeconds and transitions follow a stall past the threshold and its recovery', async () => {
		// Requests 1-2: last seen 170 s ago; 3-5: one gauge, 200 s old at request 3 and aging (the stall); 6 on: 1 s ago.
		// While the gauge lags, the relist count stands still, as in a real stall: a count that rose beside a gauge
		// of constant age would be a node clock 170 s behind (clock-offset.ts), not a stall.
		const lastSeen = 'kubelet_pleg_last_seen_seconds';
		let stalled = 0;
		serve('worker-1', (n) => {
			const now = Math.floor(Date.now() / 1000);
			if (n === 3) stalled = now - 200;
			const gauge = n <= 2 ? now - 170 : n <= 5 ? stalled : now - 1;
			return setSamples(v121After(n <= 5 ? 1 : n), {[lastSeen]: String(gauge)});
		});
		const cli = start('worker-1');
		const lines = await waitForLine(cli, (_, index) => index === 5);
		await stop(cli);

		const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 0.0015, `${actual} ≉ ${expected}`);
		for (const line of lines.slice(0, 2)) {
			// 170 s of 180: critical (≥ 90 s), still healthy; 180 − age to the millisecond, about 10 s.
			assert.equal(line['healthy'], true);
			assert.equal(line['band'], 'critical');
			close(line['secondsToThreshold'], 180 - line['lastSeenAgeSeconds']);
			assert.ok(line['secondsToThreshold'] > 8 && line['secondsToThreshold'] <= 10, String(line['secondsToThreshold']));
			assert.equal(line['unhealthyForSeconds'], null);
			assert.equal(line['transitions'], 0);
		}

		for (const line of lines.slice(2, 5)) {
			// Past the threshold: negative, and unhealthy since gauge + 180 s, so for age − 180 s (about 20 s and growing).
			assert.equal(line['healthy'], false);
			assert.equal(line['band'], 'unhealthy');
			close(line['secondsToThreshold'], 180 - line['lastSeenAgeSeconds']);
			close(line['unhealthyForSeconds'], line['lastSeenAgeSeconds'] - 180);
			assert.ok(line['unhealthyForSeconds'] >= 20 && line['unhealthyForSeconds'] < 25, String(line['unhealthyForSeconds']));
			assert.equal(line['transitions'], 1);
		}

		// The same gauge at requests 3-5: the span grows with the time between them.
		const grew = lines[4]!['unhealthyForSeconds'] - lines[2]!['unhealthyForSeconds'];
		const between = (Date.parse(lines[4]!['time']) - Date.parse(lines[2]!['time'])) / 1000;
		assert.ok(Math.abs(grew - between) < 0.0025, `${grew} ≉ ${between}`);
		const recovered = lines[5]!;
		assert.equal(recovered['band'], 'ok');
		assert.equal(recovered['unhealthyForSeconds'], null);
		assert.equal(recovered['transitions'], 2);
		close(recovered['secondsToThreshold'], 180 - recovered['lastSeenAgeSeconds']);
	});
});
