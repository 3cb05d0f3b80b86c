// The raw view through the built CLI against the fake API server serving the v1.21.2 dump of
// test/fixtures: `w` shows its kubelet_pleg_* lines as written and hides them again (tmux, 80×24), --raw starts on
// them (60×20, a line too wide broken before its value), --once --raw prints them with the usual exit code, JSON
// (--once and JSON lines) adds `raw`; with --prometheus the pane says there is no text, and --raw --prometheus is a
// usage error.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, beforeEach, describe, test} from 'node:test';
import {readDump} from '../domain/dump.js';
import {capturedOutput, cliPath, runCli, spawnCli} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {dumpThenMinuteLater, fast, startCluster, withLastSeen, type Cluster} from './cluster.js';

const skip = hasTmux ? false : 'tmux not installed';
let cluster: Cluster;
const sessions: TmuxSession[] = [];

/** `grep ^kubelet_pleg` of the dump: the 30 lines the kubelet wrote (its own last-seen gauge is from 2022). */
const dumpLines = readDump('1.21.2')
	.split('\n')
	.filter((line) => line.startsWith('kubelet_pleg'));
const lastSeenLine = /^kubelet_pleg_last_seen_seconds \d{10}$/;

before(async () => {
	cluster = await startCluster();
});

beforeEach(() => {
	cluster.fake.setMetrics('worker-1', () => withLastSeen(readDump('1.21.2'), 1));
});

after(async () => {
	for (const session of sessions) session.kill();
	await cluster.close();
});

function screenOf(args: string, columns: number, rows: number): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} worker-1 --interval 200ms --window 1s ${args}`, {
		columns,
		rows,
		env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...cluster.env},
	});
	sessions.push(session);
	return session;
}

describe('the raw view on the live screen', () => {
	test('80×24: w shows the lines of the dump as written, End pages to the last, w hides them again', {skip}, async () => {
		const session = screenOf('', 80, 24);
		await session.waitFor('PLEG is healthy', 20_000);
		await session.waitFor('relist duration');
		session.keys('w');
		const shown = await session.waitFor(/^raw kubelet_pleg_\* lines · scraped \ds ago · \d\d:\d\d:\d\d · w hides$/m);
		capturedOutput.push(shown);
		const rows = shown.split('\n');
		const heading = rows.findIndex((row) => row.startsWith('raw kubelet_pleg_* lines'));
		// The verdict and the gauge stay above; the pane's rows are the dump's first lines, in its order.
		assert.ok(rows.slice(0, heading).some((row) => row.startsWith('✓ PLEG is healthy')));
		assert.equal(rows[heading + 1], dumpLines[0]);
		assert.match(rows[heading + 2]!, lastSeenLine);
		const position = rows.find((row) => row.startsWith('lines 1–'))!;
		const [, last] = /^lines 1–(\d+) of 30 · ↓ PgDn for more$/.exec(position)!;
		assert.deepEqual(rows.slice(heading + 3, heading + 1 + Number(last)), dumpLines.slice(2, Number(last)));
		assert.doesNotMatch(shown, /relist duration/);

		session.keys('End');
		const end = await session.waitFor(/· ↑ PgUp back$/m);
		assert.match(end, /^kubelet_pleg_relist_interval_seconds_count 1\.671949e\+06\nlines \d+–30 of 30 · ↑ PgUp back$/m);

		session.keys('w');
		const hidden = await session.waitFor('relist duration');
		assert.doesNotMatch(hidden, /raw kubelet_pleg_|kubelet_pleg_discard_events 0/);
		session.keys('q');
	});

	test('--prometheus: w says there is no /metrics text to show', {skip}, async () => {
		// A stand-in query API: every query answers 1 for worker-1 (a last-seen age of 1 s, a healthy node).
		const prometheus = http.createServer((_request, response) => {
			const result = [{metric: {node: 'worker-1'}, value: [Date.now() / 1000, '1']}];
			response
				.writeHead(200, {'Content-Type': 'application/json'})
				.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result}}));
		});
		await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(prometheus.address() as net.AddressInfo).port}`;
			const session = screenOf(`--prometheus ${url}`, 80, 24);
			await session.waitFor('PLEG is healthy', 20_000);
			session.keys('w');
			const shown = await session.waitFor(/^raw kubelet_pleg_\* lines$/m);
			assert.match(
				shown,
				/^none with --prometheus: Prometheus answers with figures, not the kubelet\n\/metrics text \(pleg-top NODE reads it\)$/m,
			);
			session.keys('q');
		} finally {
			prometheus.closeAllConnections();
			await new Promise((resolve) => prometheus.close(resolve));
		}
	});

	test('60×20 with --raw: shown from the start; a bucket line too wide goes on below, broken before its value', {skip}, async () => {
		const session = screenOf('--raw', 60, 20);
		const shown = await session.waitFor(/^raw kubelet_pleg_\* lines · scraped \ds ago · \d\d:\d\d:\d\d$/m, 20_000);
		capturedOutput.push(shown);
		assert.match(shown, /^kubelet_pleg_relist_duration_seconds_bucket\{le="0\.005"\}\n {2}88778$/m);
		assert.match(shown, /^lines 1–\d+ of 30 · ↓ PgDn for more$/m);
		session.keys('q');
	});
});

describe('--once --raw', () => {
	test('prints the 30 lines of the second scrape as written, exit 0 while healthy', async () => {
		const result = await runCli(['worker-1', '--once', '--raw', ...fast], {env: cluster.env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const lines = result.stdout.split('\n');
		assert.equal(lines.pop(), '');
		assert.match(lines[1]!, lastSeenLine);
		assert.deepEqual(lines.toSpliced(1, 1), dumpLines.toSpliced(1, 1));
	});

	test('exit 1 when the rule fails (last seen 200 s ago), the lines printed all the same', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(200));
		const result = await runCli(['worker-1', '--once', '--raw', ...fast], {env: cluster.env});
		assert.equal(result.code, 1);
		const lines = result.stdout.trimEnd().split('\n');
		assert.equal(lines.length, 30);
		// The second scrape: the kubelet a minute after the dump (60 more relists).
		assert.equal(lines.at(-1), 'kubelet_pleg_relist_interval_seconds_count 1.672009e+06');
	});

	test('-o json: the usual report with raw (the lines) and rawOmitted', async () => {
		const result = await runCli(['worker-1', '--once', '--raw', '-o', 'json', ...fast], {env: cluster.env});
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as {verdict: string; raw: string[]; rawOmitted: number};
		assert.equal(report.verdict, 'PLEG is healthy');
		assert.equal(report.raw.length, 30);
		assert.equal(report.raw[0], 'kubelet_pleg_discard_events 0');
		assert.equal(report.rawOmitted, 0);
	});

	test('JSON lines (stdout not a terminal) with --raw: each line carries the lines of its scrape', async () => {
		const cli = spawnCli(['worker-1', '--raw', ...fast], {env: cluster.env});
		const stdout = await cli.waitForStdout(/\n/, 20_000);
		cli.child.kill('SIGTERM');
		assert.equal((await cli.exited).code, 0);
		const line = JSON.parse(stdout.split('\n')[0]!) as {node: string; raw: string[]; rawOmitted: number};
		assert.equal(line.node, 'worker-1');
		assert.deepEqual(line.raw.toSpliced(1, 1), dumpLines.toSpliced(1, 1));
		assert.match(line.raw[1]!, lastSeenLine);
		assert.equal(line.rawOmitted, 0);
	});

	test('a control sequence in a label is printed in its visible form, never raw', async () => {
		const hostile = 'kubelet_pleg_pod_relist_duration_seconds_count{x="\u001b]0;pwn\u0007\u009b31m"} 7';
		cluster.fake.setMetrics('worker-1', () => `${withLastSeen(readDump('1.21.2'), 1).trimEnd()}\n${hostile}\n`);
		const result = await runCli(['worker-1', '--once', '--raw', ...fast], {env: cluster.env});
		assert.equal(result.code, 0);
		assert.equal(result.stdout.trimEnd().split('\n').at(-1), 'kubelet_pleg_pod_relist_duration_seconds_count{x="^[]0;pwn^G\\u009b31m"} 7');
		assert.doesNotMatch(result.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
	});

	test('--raw --prometheus: exit 2 at parse time, before any request', async () => {
		const result = await runCli(['worker-1', '--raw', '--prometheus', 'http://127.0.0.1:1'], {env: cluster.env});
		assert.equal(result.code, 2);
		assert.match(result.stderr, /--raw works on the kubelet's \/metrics text; --prometheus answers with figures: drop it/);
	});
});
