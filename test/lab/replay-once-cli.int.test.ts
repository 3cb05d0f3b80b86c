// --replay --once through the built CLI: a multi-MB recording streamed to the figures computed by hand; a recording
// out of time order rejected, naming the line; its JSON rounded as live --once -o json rounds (one set of rounding
// functions, report.ts); the reason PLEG was not healthy said as the kubelet said it.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';
import {labRecords, recordingText, recordsOf, restartTotals, t0, writeSteadyRecording} from './exposition.js';

const home = mkdtempSync(join(tmpdir(), 'pleg-top-replay-json-'));
after(() => rmSync(home, {recursive: true, force: true}));

type Json = Record<string, any>;

/** Every number in a JSON value, with its path. */
function numbers(value: unknown, path = ''): Array<[string, number]> {
	if (typeof value === 'number') return [[path, value]];
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([key, inner]) => numbers(inner, `${path}.${key}`));
}

test('--replay --once -o json: the figures rounded as the JSON lines (live) rounds them, no floating noise', async () => {
	// One relist in 3 s: Δsum 0.5033 − 0.5 = 0.0032999999999999696 in floating point, rate 1/3.
	const file = join(home, 'noise.jsonl');
	const records = recordsOf([
		{at: t0, totals: {count: 100, sum: 0.5, buckets: [100, 100, 100, 100, 100], lastSeen: t0 / 1000 - 1}},
		{at: t0 + 3000, totals: {count: 101, sum: 0.5033, buckets: [101, 101, 101, 101, 101], lastSeen: t0 / 1000 + 2}},
	]);
	writeFileSync(file, recordingText(records));
	const env = {HOME: home};
	const once = await runCli(['--replay', file, '--once', '-o', 'json'], {env, timeoutMs: 60_000});
	assert.equal(once.code, 0, once.stderr);
	const session = (JSON.parse(once.stdout) as Json)['session'] as Json;
	// Piped, the replay writes the live JSON object per scrape; its 10 s window holds both scrapes, as the session does.
	const lines = await runCli(['--replay', file, '--speed', '100'], {env, timeoutMs: 60_000});
	assert.equal(lines.code, 0, lines.stderr);
	const relist = (JSON.parse(lines.stdout.trimEnd().split('\n').at(-1)!) as Json)['relist'] as Json;
	// 0.0033 s to the nanosecond; 1 / 3 s to nine significant digits; p99: rank 0.99 of 1 in [0, 5 ms] = 4.95 ms.
	assert.deepEqual(
		{mean: session['meanSeconds'], rate: session['ratePerSecond'], p99: session['p99Seconds'], span: session['spanSeconds']},
		{mean: 0.0033, rate: 0.333333333, p99: 0.00495, span: 3},
	);
	assert.deepEqual(
		{mean: relist['windowMeanSeconds'], rate: relist['ratePerSecond'], p99: relist['windowP99Seconds'], span: relist['windowSeconds']},
		{mean: session['meanSeconds'], rate: session['ratePerSecond'], p99: session['p99Seconds'], span: session['spanSeconds']},
	);
	// Nowhere in the report a number with more digits than nine decimals or nine significant digits carry.
	for (const [path, value] of numbers(JSON.parse(once.stdout))) {
		assert.ok(value === Number(value.toFixed(9)) || value === Number(value.toPrecision(9)), `${path} = ${value}`);
	}
});

test('--replay --once after a kubelet restart: the write-down says "pleg has yet to be successful", not past the threshold', async () => {
	const file = join(home, 'restart.jsonl');
	writeFileSync(file, recordingText(recordsOf(restartTotals)));
	const result = await runCli(['--replay', file, '--once'], {env: {HOME: home, TZ: 'UTC'}, timeoutMs: 60_000});
	// Not healthy at 4 scrapes: exit 1, as --once on a node that is not healthy.
	assert.equal(result.code, 1, result.stderr);
	const text = result.stdout.replaceAll('\n', ' ');
	// From the first scrape that saw it (14:00:02) to the last (14:00:05): at least 3 s; at most 4 s, to the healthy one.
	assert.match(
		text,
		/not healthy for at least 3s \("pleg has yet to be successful": no relist had succeeded since the kubelet started\)\./,
	);
	assert.match(
		text,
		/PLEG was not healthy \("pleg has yet to be successful": no relist had succeeded since the kubelet started\) once: seen from 14:00:02 for 3s to 4s, healthy again by 14:00:06\./,
	);
	assert.doesNotMatch(text, /past the threshold for|last-seen age past the threshold/);
});

test('--replay --once on a multi-MB recording: the figures of the whole recording, as computed by hand', async () => {
	const file = join(home, 'steady.jsonl');
	writeSteadyRecording(file, 2000);
	assert.ok(statSync(file).size > 5_000_000, `${statSync(file).size} bytes`);
	const result = await runCli(['--replay', file, '--once', '-o', 'json'], {env: {HOME: home}, timeoutMs: 120_000});
	assert.equal(result.code, 0, result.stderr);
	const report = JSON.parse(result.stdout) as Json;
	assert.deepEqual(report['recording'], {lines: 2000, from: '2024-01-15T14:00:00.000Z', to: '2024-01-15T14:33:19.000Z', marks: []});
	const session = report['session'] as Json;
	// 1,999 relists of 5 ms in 1,999 s: Δsum 9.995 s / 1,999 = 5 ms, 1 relist/s; all ≤ 5 ms, so p99 = 0.99 × 5 ms;
	// threshold / mean = 180 / 0.005; the age read 1 s at every scrape.
	assert.deepEqual(
		{
			span: session['spanSeconds'],
			count: session['count'],
			mean: session['meanSeconds'],
			p99: session['p99Seconds'],
			rate: session['ratePerSecond'],
			maxAge: session['maxLastSeenAgeSeconds'],
			ratio: session['thresholdToMeanRatio'],
			unhealthy: report['unhealthy'],
		},
		{span: 1999, count: 1999, mean: 0.005, p99: 0.00495, rate: 1, maxAge: 1, ratio: 36_000, unhealthy: []},
	);
});

test('--replay --once on a recording out of time order: rejected (exit 2), naming the line, what was done and why', async () => {
	const [a, b, c, d, e] = labRecords();
	const file = join(home, 'shuffled.jsonl');
	writeFileSync(file, recordingText([a!, c!, b!, d!, e!]));
	for (const format of ['text', 'json']) {
		const result = await runCli(['--replay', file, '--once', '-o', format], {env: {HOME: home}, timeoutMs: 60_000});
		assert.equal(result.code, 2, result.stderr);
		assert.equal(result.stdout, '');
		assert.equal(
			result.stderr,
			`pleg-top: ${file}: line 3: recorded at 2024-01-15T14:00:10.000Z, before line 2 (2024-01-15T14:00:20.000Z): the lines are ` +
				"not in time order, and pleg-top rejects the recording rather than show impossible figures; sort it first: jq -c -s 'sort_by(.at)[]'\n",
		);
	}
});

test('piped, a replay that meets a line out of time order writes the figures so far, then that failure, and exits 2', async () => {
	const [a, b, c, d, e] = labRecords();
	const file = join(home, 'shuffled-piped.jsonl');
	writeFileSync(file, recordingText([a!, b!, d!, c!, e!]));
	const result = await runCli(['--replay', file, '--speed', '100'], {env: {HOME: home}, timeoutMs: 60_000});
	assert.equal(result.code, 2, result.stderr);
	const lines = result.stdout
		.trimEnd()
		.split('\n')
		.map((line) => JSON.parse(line) as Json);
	// Lines 1-3 replayed as recorded; line 4 goes back in time: the last good figures (line 3's), stale, with why.
	assert.deepEqual(
		lines.map((line) => [line['time'], line['stale'] ?? false]),
		[
			['2024-01-15T14:00:00.000Z', false],
			['2024-01-15T14:00:10.000Z', false],
			['2024-01-15T14:00:30.000Z', false],
			['2024-01-15T14:00:30.000Z', true],
		],
	);
	assert.equal(
		(lines.at(-1)!['error'] as Json)['summary'],
		`${file}: line 4: recorded at 2024-01-15T14:00:20.000Z, before line 3 (2024-01-15T14:00:30.000Z): the lines are not in ` +
			"time order, and pleg-top rejects the recording rather than show impossible figures; sort it first: jq -c -s 'sort_by(.at)[]'",
	);
});
