// A recording replays as it was recorded, through the built CLI: --record writes the run's --window, --interval and
// each answer's Date; --replay windows with the recorded window unless --window is typed (older recordings, without
// it, keep the default); at a --speed this machine cannot reach, the header says the speed it does reach.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {cliPath, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {startCluster, v121After, type Cluster} from '../integration/cluster.js';
import {bounds, plegText, recordingText, recordsOf, t0, type Totals} from './exposition.js';
import {recordLines, type RecordLine} from '../../source/lab/recording.js';

type Json = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];
const sessions: TmuxSession[] = [];

before(async () => {
	cluster = await startCluster([{name: 'worker-1', kubeletVersion: 'v1.21.2'}]);
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	for (const session of sessions) session.kill();
	await cluster.close();
});

/** 41 scrapes a second apart, one relist of 5 ms each, last seen 1 s before each: a 40 s recording. */
function steady(lines = 41): Array<{at: number; totals: Totals}> {
	return Array.from({length: lines}, (_, i) => {
		const count = 100 + i;
		return {at: t0 + i * 1000, totals: {count, sum: 0.5 + 0.005 * i, buckets: bounds.map(() => count), lastSeen: t0 / 1000 + i - 1}};
	});
}

const lastLine = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').at(-1)!) as Json;

describe('--record keeps the run', () => {
	test('each line carries --window, --interval and the Date of its answer', async () => {
		let calls = 0;
		cluster.fake.setMetrics('worker-1', () => v121After(++calls));
		const file = path.join(cluster.temp.dir, 'window-30.jsonl');
		const cli = spawnCli(['--node', 'worker-1', '--window', '30s', '--interval', '200ms', '--record', file], {env: cluster.env});
		running.push(cli);
		await cli.waitForStdout((stdout) => stdout.split('\n').length > 3, 30_000);
		cli.child.kill('SIGTERM');
		await cli.exited;
		const records = fs
			.readFileSync(file, 'utf8')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as RecordLine);
		assert.ok(records.length >= 3);
		for (const record of records) {
			assert.equal(record.windowSeconds, 30);
			assert.equal(record.intervalMs, 200);
			// The fake API server's Date is this machine's clock, to the second.
			assert.ok(typeof record.date === 'number' && Math.abs(record.date - record.at / 1000) < 2, String(record.date));
		}
	});
});

describe('--replay windows as the recording did', () => {
	const write = (name: string, records: RecordLine[]) => {
		const file = path.join(cluster.temp.dir, name);
		fs.writeFileSync(file, recordingText(records));
		return file;
	};

	const withWindow = recordsOf(steady()).map((record) => ({...record, windowSeconds: 30, intervalMs: 1000}));

	test('a recording made with --window 30s replays with 30 s windows', async () => {
		const result = await runCli(['--replay', write('w30.jsonl', withWindow), '--speed', '200'], {env: cluster.env, timeoutMs: 60_000});
		assert.equal(result.code, 0, result.stderr);
		assert.equal(lastLine(result.stdout)['relist']['windowSeconds'], 30);
	});

	test('--window typed replaces it; a recording that does not say keeps the default 10 s', async () => {
		const typed = await runCli(['--replay', write('w30b.jsonl', withWindow), '--speed', '200', '--window', '5s'], {
			env: cluster.env,
			timeoutMs: 60_000,
		});
		assert.equal(lastLine(typed.stdout)['relist']['windowSeconds'], 5);
		const old = await runCli(['--replay', write('old.jsonl', recordsOf(steady())), '--speed', '200'], {
			env: cluster.env,
			timeoutMs: 60_000,
		});
		assert.equal(lastLine(old.stdout)['relist']['windowSeconds'], 10);
	});
});

describe('--replay at a speed this machine cannot reach', {skip: hasTmux ? false : 'tmux not installed'}, () => {
	test('the header says the speed it reaches', async () => {
		// 20,000 lines 100 ms apart (33 recorded minutes): ×3600 asks for 36,000 lines a second.
		const file = path.join(cluster.temp.dir, 'fast.jsonl');
		const base = plegText({count: 100, sum: 0.5, buckets: bounds.map(() => 100), lastSeen: t0 / 1000});
		const lines = recordLines(base);
		const text = Array.from({length: 20_000}, (_, i) => {
			const at = t0 + i * 100;
			const count = 100 + Math.floor(i / 10);
			const record = {
				v: 1,
				time: new Date(at).toISOString(),
				at,
				node: 'worker-1',
				kubeletVersion: 'v1.28.0',
				figures: {},
				date: Math.floor(at / 1000),
			};
			const body = lines.map((line) =>
				line.startsWith('kubelet_pleg_last_seen_seconds ')
					? `kubelet_pleg_last_seen_seconds ${Math.floor(at / 1000)}`
					: line.replace(/^(kubelet_pleg_relist_duration_seconds_(?:count|bucket\{[^}]*\})) \d+$/, `$1 ${count}`),
			);
			return JSON.stringify({...record, lines: body}) + '\n';
		}).join('');
		fs.writeFileSync(file, text);
		const command = `${process.execPath} ${cliPath} --replay ${file} --speed 3600; sleep 60`;
		const session = startTmux(command, {
			columns: 120,
			rows: 30,
			env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cluster.temp.dir},
		});
		sessions.push(session);
		const screen = await session.waitFor(/×3600 \(reaching ×\d+(?:\.\d)?\)/, 90_000);
		const reached = Number(/reaching ×([\d.]+)/.exec(screen)![1]);
		assert.ok(reached > 0 && reached < 3240, screen.split('\n')[0]);
	});
});
