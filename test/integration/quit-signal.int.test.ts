// Ctrl-\ (SIGQUIT) ends pleg-top as SIGTERM does, not with a core dump: the live screen gives the terminal back
// (out of the alternate screen), --summary is written, and the exit code is 131 (128 + SIGQUIT), as a shell reports
// a quit. In raw mode the key arrives as a byte, outside it (or from kill -QUIT) as the signal: both are tried.
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath, spawnCli} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-quit-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

const readIfThere = (file: string) => (existsSync(file) && readFileSync(file, 'utf8') !== '' ? readFileSync(file, 'utf8') : undefined);

/** The demo's live screen in tmux with --summary; the shell writes pleg-top's pid before it starts and its exit code after. */
function startDemo(name: string): {session: TmuxSession; summary: string; pid: () => Promise<number>; exit: () => Promise<number>} {
	const [summary, pidFile, exitFile, script] = ['summary.md', 'pid', 'exit', 'run.sh'].map((file) => join(home, `${name}-${file}`));
	// A script file, so that $$ is the inner shell's pid, which exec hands to pleg-top.
	writeFileSync(
		script!,
		`sh -c 'echo $$ > ${pidFile}; exec ${process.execPath} ${cliPath} --demo --summary ${summary}'\necho $? > ${exitFile}\n`,
	);
	const session = startTmux(`sh ${script}`, {
		columns: 100,
		rows: 30,
		env: {HOME: home, TZ: 'UTC', PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	return {
		session,
		summary: summary!,
		pid: async () => Number(await until(() => readIfThere(pidFile!), 'pid', 15_000)),
		exit: async () => Number(await until(() => readIfThere(exitFile!), 'exit code', 20_000)),
	};
}

const alternateOn = (session: TmuxSession) => tmux(['display-message', '-p', '-t', session.name, '#{alternate_on}']).trim() === '1';

async function assertEndedAsOnSigterm(run: ReturnType<typeof startDemo>): Promise<void> {
	const code = await run.exit().catch((error: Error) => {
		throw new Error(`${error.message}; last screen:\n${run.session.screen()}`);
	});
	assert.equal(code, 131);
	assert.equal(alternateOn(run.session), false, 'the terminal is out of the alternate screen');
	assert.match(readFileSync(run.summary, 'utf8'), /^# PLEG write-down: demo-node, /);
	// The write-down on the normal screen too, as after q.
	await run.session.waitFor(`write-down written to ${run.summary}`, 15_000);
}

describe('Ctrl-\\ and SIGQUIT: the terminal given back, --summary written, exit 131', {skip}, () => {
	test('Ctrl-\\ pressed on the live screen', async () => {
		const run = startDemo('key');
		// Two scrapes at least: the write-down has a window to tell.
		await run.session.waitFor(/^mean \d/m, 30_000);
		assert.equal(alternateOn(run.session), true);
		run.session.keys('C-\\');
		await assertEndedAsOnSigterm(run);
	});

	test('kill -QUIT sent to the live screen', async () => {
		const run = startDemo('signal');
		await run.session.waitFor(/^mean \d/m, 30_000);
		process.kill(await run.pid(), 'SIGQUIT');
		await assertEndedAsOnSigterm(run);
	});
});

test('SIGQUIT to the JSON lines (stdout not a terminal): --summary written, exit 131', async () => {
	const summary = join(home, 'json-summary.md');
	const run = spawnCli(['--demo', '--summary', summary], {env: {HOME: home, TZ: 'UTC'}});
	await run.waitForStdout((stdout) => stdout.split('\n').length > 2, 30_000);
	run.child.kill('SIGQUIT');
	const result = await run.exited;
	assert.deepEqual({code: result.code, signal: result.signal}, {code: 131, signal: null});
	assert.match(readFileSync(summary, 'utf8'), /^# PLEG write-down: demo-node, /);
});
