// The demo's keys through the built CLI in tmux: c (churn) and l (slow runtime) toggle on their own, s stalls, r
// ends all of them, and the header names every switch that is on, at 80×24 and 120×35. Ctrl-C ends the screen with
// 130, as a shell reports an interrupt; q with 0.
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-demo-keys-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

/** The header's demo item, e.g. "demo: churn + slow runtime", right after the node (then more items, or the clock). */
const header = (label: string) => new RegExp(`^pleg-top · demo-node · demo: ${label.replaceAll('+', '\\+')}(?: · | +\\d\\d:)`, 'm');

let runs = 0;

/** The demo in tmux, its exit status written to a file by the shell that ran it (tmux's own is not always filled in). */
function startDemo(columns: number, rows: number): {session: TmuxSession; exit: () => Promise<string>} {
	const file = join(home, `exit-${++runs}`);
	const session = startTmux(`sh -c '${process.execPath} ${cliPath} --demo; echo $? > ${file}'`, {
		columns,
		rows,
		env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	return {
		session,
		async exit() {
			return until(
				() => {
					// Empty until the shell's echo has written it.
					const code = existsSync(file) ? readFileSync(file, 'utf8') : '';
					return code !== '' && code.trim();
				},
				() => `pleg-top to end; screen:\n${session.screen()}`,
				20_000,
				100,
			);
		},
	};
}

for (const [columns, rows] of [
	[80, 24],
	[120, 35],
] as const) {
	describe(`the demo keys at ${columns}×${rows}`, () => {
		test('l turns the slow runtime off while churn stays on; r ends the stall and both; the header says each', {skip}, async () => {
			const {session, exit} = startDemo(columns, rows);
			await session.waitFor(header('idle'), 15_000);
			session.keys('c');
			await session.waitFor(header('churn'));
			session.keys('l');
			await session.waitFor(header('churn + slow runtime'));
			session.keys('l');
			await session.waitFor(header('churn'));
			session.keys('l');
			session.keys('s');
			await session.waitFor(header('stalled + churn + slow runtime'));
			session.keys('c');
			await session.waitFor(header('stalled + slow runtime'));
			session.keys('r');
			const idle = await session.waitFor(header('idle'));
			assert.doesNotMatch(idle, /demo: (stalled|churn|slow)/);
			session.keys('q');
			assert.equal(await exit(), '0');
		});

		test('Ctrl-C: the terminal given back, exit 130', {skip}, async () => {
			const {session, exit} = startDemo(columns, rows);
			await session.waitFor(header('idle'), 15_000);
			session.keys('C-c');
			assert.equal(await exit(), '130');
			// Not a key for the demo: the churn was not switched on on the way out.
			assert.doesNotMatch(session.screen(), /demo: churn/);
		});
	});
}

describe('keys typed faster than the screen reads them', () => {
	test('c and l in one write: churn and the slow runtime both on, as when typed apart', {skip}, async () => {
		const {session, exit} = startDemo(80, 24);
		await session.waitFor(header('idle'), 15_000);
		// One send-keys, one write to the terminal: the screen reads "cl" at once, as from a busy machine or ssh link.
		session.keys('c', 'l');
		await session.waitFor(header('churn + slow runtime'));
		session.keys('r', 'q');
		assert.equal(await exit(), '0');
	});
});
