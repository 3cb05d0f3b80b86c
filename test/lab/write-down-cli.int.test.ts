// The write-down tells one story, through the built CLI (--replay --once of a recording): a stall that began before
// the first scrape counts whole wherever it is quoted, ages in the gauge's whole seconds, and the --summary file's
// times carry their zone offset.
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';
import {bounds, recordingText, recordsOf, t0} from './exposition.js';

const home = mkdtempSync(join(tmpdir(), 'pleg-top-write-down-'));
after(() => rmSync(home, {recursive: true, force: true}));

test('a stall from before the first scrape: one length, whole-second ages, zoned times in --summary', async () => {
	// Gauge t0 − 200 s (past the threshold since t0 − 20 s), scrapes at t0 + 0.361 s … t0 + 7.361 s, healthy at t0 + 9 s.
	const stalled = {count: 100, sum: 0.5, buckets: bounds.map(() => 100), lastSeen: t0 / 1000 - 200};
	const scrapes = [
		...Array.from({length: 8}, (_, i) => ({at: t0 + i * 1000 + 361, totals: stalled})),
		{at: t0 + 9000, totals: {count: 101, sum: 0.6, buckets: bounds.map(() => 101), lastSeen: t0 / 1000 + 8}},
	];
	// Each answer's Date on the recording machine's clock, as --record writes it.
	const records = recordsOf(scrapes).map((record) => ({...record, date: Math.floor(record.at / 1000)}));
	const file = join(home, 'stall.jsonl');
	writeFileSync(file, recordingText(records));
	const summary = join(home, 'stall.md');
	// t0 is 14:00:00 UTC: 15:00:00 in Berlin in January.
	const result = await runCli(['--replay', file, '--once', '--summary', summary], {
		env: {HOME: home, TZ: 'Europe/Berlin'},
		timeoutMs: 60_000,
	});
	assert.equal(result.code, 1, result.stderr);
	const text = result.stdout.replaceAll(/\n(?!\n)/g, ' ');
	assert.match(
		text,
		/the last-seen age was at most 3m28s at every scrape, past the threshold for at least 28s \(from 14:59:40, before the first scrape\)/,
	);
	assert.match(text, /from 14:59:40 for 28s to 29s, healthy again by 15:00:09, the age reaching at least 3m27s/);
	assert.doesNotMatch(text, /\d+\.\d{3}s/);
	const markdown = readFileSync(summary, 'utf8');
	assert.match(markdown, /^# PLEG write-down: worker-1, 2024-01-15 15:00 \+01:00$/m);
	assert.match(markdown, /from 14:59:40\+01:00 for 28s to 29s, healthy again by 15:00:09\+01:00/);
	assert.match(markdown, /^\| from – to \| 15:00:00\+01:00 – 15:00:09\+01:00 \|$/m);
});
