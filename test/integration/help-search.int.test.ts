// `/` searches the help, through the built CLI in tmux at 80×24 where the help is many pages: type a word, Enter
// brings the first row holding it to the top, n the next one, and the last row says what was found; Esc while
// typing drops the search, Esc after it closes the help.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-help-search-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

/** The help's first body row: below the screen's header row and the help's title. */
const firstBodyRow = (screen: string) => screen.split('\n')[2]!;

test('/ in the help at 80×24: Enter finds, n goes on, Esc cancels the typing and then closes the help', {skip}, async () => {
	const session = startTmux(`${process.execPath} ${cliPath} --demo`, {
		columns: 80,
		rows: 24,
		env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	await session.waitFor('✓ PLEG is healthy', 15_000);
	session.keys('?');
	await session.waitFor(/^line 1–\d+ of \d+ · ↓ PgDn for more · \/ search$/m);

	session.keys('/');
	session.keys('-l', 'cordon');
	await session.waitFor(/^\/cordon▌ {2}Enter find · Esc cancel$/m);
	session.keys('Enter');
	const found = await session.waitFor(/^\/cordon: \d+ rows? · n next · N back · \/ search again$/m);
	assert.match(firstBodyRow(found), /cordon/i, found);
	const count = Number(/^\/cordon: (\d+) rows?/m.exec(found)![1]);

	if (count > 1) {
		session.keys('n');
		const next = await until(
			() => {
				const screen = session.screen();
				return firstBodyRow(screen) === firstBodyRow(found) ? undefined : screen;
			},
			'the next row found',
			10_000,
		);
		assert.match(firstBodyRow(next), /cordon/i, next);
	}

	// A word no row holds: said, and the page stays.
	session.keys('/');
	session.keys('-l', 'zzqx');
	session.keys('Enter');
	await session.waitFor(/^\/zzqx: no row holds it · \/ search again$/m);

	// Esc while typing drops the search; the help stays with its position row.
	session.keys('/');
	session.keys('-l', 'q');
	await session.waitFor(/^\/q▌/m);
	session.keys('Escape');
	await session.waitFor(/^line \d+–\d+ of \d+ · /m);
	session.keys('Escape');
	await session.waitFor('✓ PLEG is healthy');
	session.keys('q');
});
