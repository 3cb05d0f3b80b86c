// The live screen in a real terminal that changes size under it: a tmux split-window shrinks the pane and tmux
// re-wraps the old frame's lines, so an erase of "the lines drawn last time" leaves rows of the old frame on screen,
// looking like live figures. After every resize the whole screen must be cleared and redrawn, and Ctrl-L must
// redraw a screen something else has scribbled on.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-resize-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

const header = /^pleg-top · demo-node · /;

function start(columns: number, rows: number): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} --demo`, {
		columns,
		rows,
		env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home},
	});
	sessions.push(session);
	return session;
}

/** The rows of the screen, trailing blank rows dropped. */
function rowsOf(screen: string): string[] {
	return screen.replace(/\n+$/, '').split('\n');
}

function count(screen: string, pattern: RegExp): number {
	return rowsOf(screen).filter((row) => pattern.test(row)).length;
}

describe('the live screen when the terminal changes', {skip}, () => {
	test('tmux split-window -h on a 160×40 pane: nothing of the old frame above the header or anywhere else', async () => {
		const session = start(160, 40);
		// The wide frame: the header carries the source label, the kubelet-source pane sits beside the figures.
		const wide = await session.waitFor(/relists \d+ in .* · rate/, 20_000);
		assert.match(rowsOf(wide)[0]!, header);
		// -d: the new pane (a shell doing nothing) does not take the focus, so the session's screen stays pleg-top's.
		tmux(['split-window', '-d', '-h', '-t', session.name, 'sleep 600']);
		assert.equal(tmux(['display-message', '-p', '-t', `${session.name}.0`, '#{pane_width}']).trim(), '80');
		const narrow = await session.waitFor({
			what: 'the header on the first row again after the split',
			test: (screen) => {
				const rows = rowsOf(screen);
				// The 80-column layout puts the kubelet-source pane under the figures, at the left edge: the old frame
				// cut to 80 columns alone does not pass for the new one.
				return (
					header.test(rows[0]!) &&
					rows.every((row) => [...row].length <= 80) &&
					rows.some((row) => row.startsWith('kubelet source')) &&
					/relists \d+ in .* · rate/.test(screen)
				);
			},
		});
		// Each part of the frame once: no re-wrapped copy of the 160-column frame left above or below it.
		assert.equal(count(narrow, /pleg-top · demo-node/), 1, narrow);
		assert.equal(count(narrow, /^relist duration · window/), 1, narrow);
		assert.equal(count(narrow, /kubelet source/), 1, narrow);
		assert.equal(count(narrow, /PLEG is healthy/), 1, narrow);
		assert.equal(count(narrow, /q quit/), 1, narrow);

		// And back: the split closes, the pane is 160 wide again, the frame is whole once more.
		tmux(['kill-pane', '-t', `${session.name}.1`]);
		const again = await session.waitFor({
			what: 'the frame whole again at 160 columns',
			test: (screen) => {
				const rows = rowsOf(screen);
				return header.test(rows[0]!) && rows.some((row) => [...row].length > 80) && /relists \d+ in .* · rate/.test(screen);
			},
		});
		assert.equal(count(again, /pleg-top · demo-node/), 1, again);
		assert.equal(count(again, /^relist duration · window/), 1, again);
		session.keys('q');
	});

	test('Ctrl-L redraws a screen something else wrote over (paused, so no new frame would mend it)', async () => {
		const session = start(100, 30);
		await session.waitFor(/relists \d+ in .* · rate/, 20_000);
		session.keys('p');
		const paused = await session.waitFor(/PAUSED|paused/);
		// Another program writes over the top row and a row in the middle, as a stray `wall` or a background job would.
		const tty = tmux(['display-message', '-p', '-t', session.name, '#{pane_tty}']).trim();
		writeFileSync(tty, '\u001B[1;1HSCRIBBLED-OVER-THE-HEADER\u001B[12;1HSCRIBBLED-IN-THE-MIDDLE');
		const scribbled = await session.waitFor('SCRIBBLED-IN-THE-MIDDLE');
		assert.doesNotMatch(rowsOf(scribbled)[0]!, header);
		session.keys('C-l');
		// The redraw clears the screen and writes the frame top to bottom; tmux may be captured between the two, so
		// the frame counts as redrawn once its last row, the status row, is back too.
		const redrawn = await session.waitFor({
			what: 'Ctrl-L to redraw the screen',
			test: (screen) => !screen.includes('SCRIBBLED') && header.test(rowsOf(screen)[0]!) && screen.includes('PAUSED (p resumes)'),
		});
		// The same paused frame as before the scribble, whole.
		assert.equal(redrawn, paused);
		session.keys('q');
	});
});
