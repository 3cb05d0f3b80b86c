// The replay's Node Ready condition on the screen of the built CLI, in a real terminal (tmux): `since` is read from
// the recording's Unix seconds as the wall time it was recorded at, not as milliseconds near 1970.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';
import {labRecords} from './exposition.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-ready-'));
after(() => rmSync(home, {recursive: true, force: true}));

test('--replay shows Ready since the recorded wall time', {skip}, async () => {
	const file = join(home, 'ready.jsonl');
	// 1705323600 s = 2024-01-15 13:00:00 UTC, an hour before the recording's first scrape (14:00:00).
	const ready = {status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', since: 1_705_323_600};
	writeFileSync(
		file,
		labRecords()
			.map((record) => JSON.stringify({...record, figures: {...record.figures, readyCondition: ready}}) + '\n')
			.join(''),
	);
	const session = startTmux(`${process.execPath} ${cliPath} --replay ${file}`, {columns: 100, rows: 30, env: {HOME: home, TZ: 'UTC'}});
	try {
		const screen = await session.waitFor('node Ready=True', 30_000);
		assert.match(screen, /^✓ node Ready=True KubeletReady since 13:00:00: kubelet is posting ready status$/m);
		assert.doesNotMatch(screen, /1970/);
	} finally {
		session.kill();
	}
});
