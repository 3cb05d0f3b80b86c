// The churn exercise on the live screen in a real terminal (tmux): b while idle, churn, q. The write-down must be
// on the normal screen afterwards (in the scrollback), and the recording, summary and plot on disk.
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';

const skip = hasTmux ? false : 'tmux not installed';
const sessions: TmuxSession[] = [];

const homes: string[] = [];
after(() => {
	for (const session of sessions) session.kill();
	for (const home of homes) rmSync(home, {recursive: true, force: true});
});

describe('the write-down on quit', {skip}, () => {
	test('--demo --record --summary --plot: b, churn, q leaves the write-down on the normal screen and three files', async () => {
		const home = mkdtempSync(join(tmpdir(), 'pleg-top-live-lab-'));
		homes.push(home);
		const record = join(home, 'lab.jsonl');
		const summary = join(home, 'lab.md');
		const plot = join(home, 'lab.svg');
		const args = ['--demo', '--demo-speed', '10', '--record', record, '--summary', summary, '--plot', plot];
		const command = `sh -c 'echo BEFORE-PLEG-TOP; ${process.execPath} ${cliPath} ${args.join(' ')}; echo "AFTER-PLEG-TOP exit=$?"; sleep 120'`;
		const session = startTmux(command, {columns: 100, rows: 40, env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home}});
		sessions.push(session);
		// Two scrapes make a window: the mark then has a baseline to compare with.
		await session.waitFor(/relists \d+ in [\d.]+ ?s · rate/, 45_000);
		session.keys('b');
		await session.waitFor(/baseline · /);
		session.keys('c');
		// The since-mark mean exists once a scrape after the mark completed relists: the pane shows the multiple.
		await session.waitFor(/×[\d.,]+ since mark/);
		session.keys('q');
		const screen = await session.waitFor('AFTER-PLEG-TOP exit=0');
		const alternate = tmux(['display-message', '-p', '-t', session.name, '#{alternate_on}']).trim();
		assert.equal(alternate, '0');
		assert.match(screen, /^BEFORE-PLEG-TOP$/m);
		const text = screen.replaceAll('\n', ' ');
		assert.match(text, /The kubelet's PLEG relists every 1s \(genericPlegRelistPeriod, pkg\/kubelet\/kubelet\.go:178\)/);
		// Each side of the mark with its mean and p99, named by the mark: pleg-top does not know the node was idle.
		assert.match(text, /Measured on demo-node \(kubelet v1\.28\.4\) from \d\d:\d\d:\d\d to \d\d:\d\d:\d\d/);
		assert.match(text, /Before the mark at (\d\d:\d\d:\d\d) \([\d,]+ relists in [\dms.]+\): mean relist [\d.]+ms, p99 [\d.]+ms;/);
		assert.match(
			text,
			/Since the mark at \d\d:\d\d:\d\d \([\d,]+ relists? in [\dms.]+\): mean relist [\d.]+m?s, p99 [^;]+ \(×[\d.,]+ the mean before the mark at/,
		);
		assert.match(text, /PLEG was healthy at every scrape/);
		assert.match(
			text,
			/threshold \/ mean: 3m0s \/ [\d.]+ms = ×[\d,]+ before the mark at \d\d:\d\d:\d\d, 3m0s \/ [\d.]+m?s = ×[\d,.]+ since the mark/,
		);
		assert.doesNotMatch(text, /\bidle\b|during churn/);
		// Laid out for the 100-column terminal, not a fixed 80.
		const downRows = screen.slice(screen.indexOf("The kubelet's PLEG")).split('\n');
		assert.ok(
			downRows.some((row) => row.length > 80),
			'the write-down uses the terminal width',
		);
		assert.match(screen, /write-down written to .*lab\.md/);

		const records = readFileSync(record, 'utf8')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as {mark?: true; markAt?: number; at: number});
		const marked = records.filter((line) => line.mark);
		assert.equal(marked.length, 1);
		assert.ok(marked[0]!.markAt! <= marked[0]!.at);
		assert.match(readFileSync(summary, 'utf8'), /^# PLEG write-down: demo-node, /);
		assert.equal(readFileSync(plot, 'utf8').match(/class="mark"/g)?.length, 1);
	});
});
