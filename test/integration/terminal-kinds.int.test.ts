// Terminals that are not a UTF-8 xterm, through the built CLI. A locale that is not UTF-8 (LANG=C, LC_ALL=POSIX)
// gets the screen, the --once report, the help and the write-down in ASCII, decided as a C program's setlocale
// decides (LC_ALL, then LC_CTYPE, then LANG); TERM=dumb, which cannot move its cursor, gets a refusal that says
// what works there instead of a screen drawn with escapes.
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath, runCli} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-terminal-kinds-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

const nonAscii = /[^\u0000-\u007F]/gu;
const nonAsciiIn = (text: string) => [...new Set(text.match(nonAscii) ?? [])].join(' ');

let runs = 0;

/** The CLI in tmux with `env`; the shell writes its exit code to a file (read with exit()). */
function start(args: string, env: Record<string, string>): {session: TmuxSession; exit: () => Promise<number>} {
	const file = join(home, `exit-${++runs}`);
	const session = startTmux(`sh -c '${process.execPath} ${cliPath} ${args} 2>${file}.err; echo $? > ${file}'`, {
		columns: 100,
		rows: 30,
		env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env},
	});
	sessions.push(session);
	return {
		session,
		async exit() {
			return until(
				() => {
					// Empty until the shell's echo has written it.
					const code = existsSync(file) ? readFileSync(file, 'utf8') : '';
					return code !== '' && Number(code);
				},
				() => `pleg-top to end; screen:\n${session.screen()}`,
				20_000,
				100,
			);
		},
	};
}

describe('a locale that is not UTF-8: ASCII glyphs', () => {
	for (const env of [{LANG: 'C'}, {LC_ALL: 'POSIX', LANG: 'en_US.UTF-8'}] as Array<Record<string, string>>) {
		const name = Object.entries(env)
			.map(([key, value]) => `${key}=${value}`)
			.join(' ');
		test(`${name}: the live screen is ASCII, each meaning kept (+ ok, # filled, ' tick, | between items)`, {skip}, async () => {
			const {session} = start('--demo', env);
			// Two scrapes: the window's figures are drawn. Then a frame whose age fills a cell: the demo's gauge has
			// whole seconds, so "last seen 0s ago" (an empty bar) comes and goes with the relist.
			await session.waitFor(/^mean \d/m, 30_000);
			const screen = await session.waitFor(/^#+\.+$/m, 30_000);
			assert.equal(nonAsciiIn(screen), '', screen);
			assert.match(screen, /^\+ PLEG is healthy$/m);
			assert.match(screen, /^pleg-top \| demo-node \| demo: idle \| /m);
			assert.match(screen, /^ +'1s +'3m$/m);
			session.keys('q');
		});
	}

	test('LANG=C: the --once report, --help and a usage error in ASCII; -o json stays UTF-8 data', async () => {
		const env = {HOME: home, LANG: 'C'};
		const report = await runCli(['--demo', '--once', '--window', '1s'], {env});
		assert.equal(report.code, 0, report.stderr);
		assert.equal(nonAsciiIn(report.stdout), '');
		assert.match(report.stdout, /^threshold\/mean +x[\d,]+$/m);
		const help = await runCli(['--help'], {env});
		assert.equal(nonAsciiIn(help.stdout), '');
		assert.match(help.stdout, /^pleg-top \S+ - live view/);
		assert.match(help.stdout, /^Keys \| one-node screen/m);
	});

	test('the order of a C program: LC_ALL over LC_CTYPE over LANG, an empty one skipped', async () => {
		const glyphsWith = async (env: Record<string, string>) => {
			const result = await runCli(['--demo', '--once', '--window', '1s'], {env: {HOME: home, ...env}});
			assert.equal(result.code, 0, result.stderr);
			return nonAsciiIn(result.stdout) === '' ? 'ascii' : 'unicode';
		};

		assert.equal(await glyphsWith({LC_ALL: 'C.UTF-8', LANG: 'C'}), 'unicode');
		assert.equal(await glyphsWith({LC_ALL: '', LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8'}), 'ascii');
		assert.equal(await glyphsWith({LC_CTYPE: 'en_US.utf8', LANG: 'C'}), 'unicode');
		assert.equal(await glyphsWith({LANG: 'de_DE.ISO-8859-1'}), 'ascii');
	});
});

test('TERM=dumb: no alternate screen, no cursor moves; exit 2 with what works there', {skip}, async () => {
	const {session, exit} = start('--demo', {TERM: 'dumb'});
	assert.equal(await exit(), 2);
	const said = readFileSync(join(home, `exit-${runs}.err`), 'utf8');
	assert.equal(
		said,
		'pleg-top: TERM=dumb cannot draw the live screen: add --once for one report (-o json for JSON), or send stdout to a pipe or a file for one JSON line per scrape (pleg-top NODE | cat)\nRun pleg-top --help for the flags.\n',
	);
	assert.equal(tmux(['display-message', '-p', '-t', session.name, '#{alternate_on}']).trim(), '0');
});
