// The demo at --demo-speed 60 through the built CLI: every figure is in the simulated kubelet's own time. A window
// of 10 s holds about 10 relists (one a simulated second), never 60 × that; a stalled loop shows none; the node's
// Ready "since" stays put while the simulated time races on.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

type Line = Record<string, any>;
const home = mkdtempSync(join(tmpdir(), 'pleg-top-demo-clock-'));
const env = {HOME: home};
const sessions: TmuxSession[] = [];
const running: CliProcess[] = [];

after(() => {
	for (const session of sessions) session.kill();
	for (const cli of running) cli.child.kill('SIGKILL');
	rmSync(home, {recursive: true, force: true});
});

/** One relist per (1 s + its duration): the relists a span of simulated time holds, give or take the one at each end. */
function assertRelistsFitTheSpan(relist: Line): void {
	const expected = relist['windowSeconds'] / relist['intervalMeanSeconds'];
	assert.ok(
		Math.abs(relist['windowCount'] - expected) <= 1.5,
		`${relist['windowCount']} relists in ${relist['windowSeconds']} s (expected ≈ ${expected.toFixed(1)})`,
	);
	assert.ok(relist['ratePerSecond'] > 0.8 && relist['ratePerSecond'] < 1.2, `rate ${relist['ratePerSecond']}/s`);
}

describe("demo at --demo-speed 60: figures in the simulated kubelet's time", () => {
	test('--once: the window is 10 simulated seconds, holding about 10 relists', async () => {
		const result = await runCli(['--demo', '--demo-speed', '60', '--once', '-o', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as Line;
		// The second scrape is taken 10 simulated seconds after the first, and more while the process works: at ×60
		// each 100 ms of a busy machine's delay adds 6 s. A real second taken for a simulated one would give 60.
		assert.ok(
			report['relist']['windowSeconds'] >= 10 && report['relist']['windowSeconds'] < 45,
			`window ${report['relist']['windowSeconds']} s`,
		);
		assertRelistsFitTheSpan(report['relist']);
	});

	test('JSON lines: every window holds one relist per simulated second, and Ready "since" never moves', async () => {
		const cli = spawnCli(['--demo', '--demo-speed', '60'], {env, timeoutMs: 30_000});
		running.push(cli);
		await cli.waitForStdout((stdout) => stdout.split('\n').length > 10, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0, result.stderr);
		const lines = result.stdout
			.split('\n')
			.slice(0, -1)
			.map((text) => JSON.parse(text) as Line);
		const windows = lines.filter((line) => line['relist']?.['windowCount'] !== null && line['relist']?.['windowCount'] !== undefined);
		assert.ok(windows.length >= 8, `${windows.length} lines with a window`);
		for (const line of windows) assertRelistsFitTheSpan(line['relist']);
		const since = new Set(lines.map((line) => line['readyCondition']?.['since']).filter((value) => value !== undefined && value !== null));
		assert.equal(since.size, 1, `Ready since values: ${[...since].join(', ')}`);
		// Consecutive lines are about 15 simulated seconds apart (a scrape every 250 ms of real time): none closer, and
		// the middle gap under 30 s, since one slow cycle on a busy machine stretches a single gap by 6 s per 100 ms.
		const times = lines.map((line) => Date.parse(line['time']));
		const gaps = times.slice(1).map((time, index) => time - times[index]!);
		assert.ok(
			gaps.every((gap) => gap >= 15_000),
			`gaps ${gaps.join(', ')} ms`,
		);
		const middle = gaps.toSorted((a, b) => a - b)[Math.floor(gaps.length / 2)]!;
		assert.ok(middle < 30_000, `gaps ${gaps.join(', ')} ms`);
	});

	test(
		'tmux: s stalls the loop; no frame shows more than one relist a second, then "no relist completed"; Ready since stays put',
		{skip: hasTmux ? false : 'tmux not installed'},
		async () => {
			const session = startTmux(`${process.execPath} ${cliPath} --demo --demo-speed 60`, {
				columns: 120,
				rows: 40,
				env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home},
			});
			sessions.push(session);
			const frames: string[] = [await session.waitFor(/relists \d+ in .* · rate/, 20_000)];
			// Every frame polled is kept: the rates and the "since" are checked on all of them, not only the last.
			const capture = async (pattern: RegExp, timeoutMs: number) => {
				return until(
					() => {
						const screen = session.screen();
						frames.push(screen);
						return pattern.test(screen) && screen;
					},
					() => `the screen to show ${String(pattern)}; last screen:\n${frames.at(-1)}`,
					timeoutMs,
					100,
				);
			};

			await capture(/Ready=True KubeletReady since/, 10_000);
			session.keys('s');
			await capture(/no relist completed in the last/, 10_000);
			await capture(/Ready=False KubeletNotReady since/, 20_000);
			// A few more frames past the crossing: its "since" must not move.
			const crossed = frames.length;
			await new Promise((resolve) => setTimeout(resolve, 1500));
			await capture(/Ready=False/, 2000);
			session.keys('q');

			const rates = frames.flatMap((frame) =>
				[...frame.matchAll(/relists [\d,]+ in .*? · rate ([\d.]+)\/s/g)].map((match) => Number(match[1])),
			);
			assert.ok(rates.length > 0);
			for (const rate of rates) assert.ok(rate < 1.2, `a frame showed rate ${rate}/s`);
			const sinceOf = (status: string) =>
				new Set(
					frames.flatMap((frame) =>
						[...frame.matchAll(new RegExp(`Ready=${status} \\w+ since (\\d\\d:\\d\\d:\\d\\d)`, 'g'))].map((match) => match[1]),
					),
				);
			assert.equal(sinceOf('True').size, 1, `Ready=True since: ${[...sinceOf('True')].join(', ')}`);
			assert.equal(sinceOf('False').size, 1, `Ready=False since: ${[...sinceOf('False')].join(', ')}`);
			assert.ok(frames.length > crossed);
		},
	);
});
