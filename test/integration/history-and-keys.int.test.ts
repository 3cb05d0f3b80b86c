// The built CLI on the demo in a real terminal (tmux): at 80×24 the history chart covers twice the 3-minute
// threshold and the kubelet source pane is one row that `k` opens; `?` lists the keys first and scrolls; a stall
// past the threshold stays on the chart after the recovery, at 120×35 and at 80×24.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-history-keys-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

function startDemo(args: string[], columns: number, rows: number): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} --demo ${args.join(' ')}`, {
		columns,
		rows,
		env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	return session;
}

/** The age row's axis, "max 3m12s", in seconds; 0 before there is one. */
function ageAxis(screen: string): number {
	const match = /^age +\S.* max (?:(\d+)m)?(\d+)s$/m.exec(screen);
	return match ? Number(match[1] ?? 0) * 60 + Number(match[2]) : 0;
}

/** The age row's axis in seconds; the screen must have one. */
function ageAxisSeconds(screen: string): number {
	const seconds = ageAxis(screen);
	assert.ok(seconds > 0, `no age row in:\n${screen}`);
	return seconds;
}

describe('the demo in tmux: history chart, folded pane, keys', () => {
	test('80×24: the chart spans 6m18s, the kubelet source pane is one row; k opens and folds it; ? scrolls', {skip}, async () => {
		const session = startDemo([], 80, 24);
		// 80 − 17 = 63 columns; 2 × 180 s / 63 = 5.7 → 6 s a column (the demo polls once a second).
		const screen = await session.waitFor(/^history · last 6m18s, 6 s\/col/m, 20_000);
		assert.match(screen, /^kubelet source v1\.\d+\.\d+ · threshold 3m0s · relist 1s · evented off · k details$/m);
		assert.doesNotMatch(screen, /kubelet source ·/);

		session.keys('k');
		const open = await session.waitFor(/^kubelet source · as of v1\.\d+\.\d+$/m);
		assert.match(open, /^health threshold 3m0s · pkg\/kubelet\/kubelet\.go:\d+/m);
		session.keys('k');
		await session.waitFor(/· k details$/m);

		session.keys('?');
		const help = await session.waitFor(/^line 1–20 of \d+ · ↓ PgDn for more · \/ search$/m);
		const lines = help.split('\n');
		assert.equal(
			lines.findIndex((line) => line.startsWith('keys · one-node screen')),
			2,
			help,
		);
		assert.ok(
			lines.some((line) => /^ {2}k +kubelet source pane: open \/ fold into one row$/.test(line)),
			help,
		);
		assert.doesNotMatch(help, /more rows/);
		const total = Number(/of (\d+)/.exec(help)![1]);
		session.keys('NPage');
		await session.waitFor(new RegExp(`^line 21–40 of ${total} · ↑↓ PgUp PgDn scroll · / search$`, 'm'));
		session.keys('End');
		const end = await session.waitFor(new RegExp(`^line ${total - 19}–${total} of ${total} · ↑ PgUp back · / search$`, 'm'));
		// The last definition of the help (definitions.ts) ends it.
		assert.match(end, /^Overview order: /m);
		session.keys('Escape');
		await session.waitFor(/^history · last 6m18s/m);
		session.keys('q');
	});

	test('a stall past the threshold stays on the chart after the recovery: 120×35 whole pane, 80×24 folded', {skip}, async () => {
		// Speed 20: a poll every 250 ms is 5 simulated seconds, so columns are at least 10 s; the 3-minute threshold
		// is crossed 9 real seconds into the stall.
		const session = startDemo(['--demo-speed', '20'], 120, 35);
		// 120 − 17 = 103 columns of 10 s.
		await session.waitFor(/^history · last 17m10s, 10 s\/col/m, 20_000);
		session.keys('s');
		// Past the threshold on pleg-top's own chart (the node's Ready message may say so a moment earlier).
		await session.waitFor({what: 'an age axis past 3m5s', test: (screen) => ageAxis(screen) > 185}, 30_000);
		session.keys('r');
		const recovered = await session.waitFor(/✓ PLEG is healthy/, 30_000);
		// The age peaked past the threshold: the chart's highest bucket keeps it though the age is back to seconds.
		assert.ok(ageAxisSeconds(recovered) > 180, recovered);
		assert.match(recovered, /^relist duration .* {2,}kubelet source · as of v1\.\d+\.\d+$/m);
		assert.match(recovered, /^history · last 17m10s, 10 s\/col +log scale · R restart · B mark$/m);

		session.resize(80, 24);
		// 63 columns of 10 s (the 5 s poll, doubled): 10m30s, and the stall still on it. Just after the recovery the
		// incident rows (the CRI calls' timeout, a Ready=False the next Node read clears) may take the row the folded
		// source pane needs: on a loaded machine they can still show when the first 80×24 frame is drawn.
		const folded = /^kubelet source v1\.\d+\.\d+ · threshold 3m0s · .*k details$/m;
		// The chart's age row comes once those rows have gone and left it room: wait for it too.
		const small = await session.waitFor(
			{
				what: 'the 80×24 chart of 10m30s with its age row and the folded source pane',
				test: (screen) => /^history · last 10m30s, 10 s\/col/m.test(screen) && folded.test(screen) && ageAxis(screen) > 0,
			},
			30_000,
		);
		assert.ok(ageAxisSeconds(small) > 180, small);
		session.keys('q');
	});
});
