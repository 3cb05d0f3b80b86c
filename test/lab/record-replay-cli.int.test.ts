// --record, --replay, --summary and --plot through the built CLI (dist/cli.js), as a user runs them.
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {createDemoSource} from '../../source/demo/demo-source.js';
import {createLabRecorder} from '../../source/lab/recorder.js';
import {runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {labRecords, stallRecords} from './exposition.js';

const home = mkdtempSync(join(tmpdir(), 'pleg-top-lab-'));
const env = {HOME: home};
const running: CliProcess[] = [];

after(() => {
	for (const cli of running) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
	rmSync(home, {recursive: true, force: true});
});

type Json = Record<string, any>;

/** Every line of a recording file, parsed; throws on the first that is not JSON. */
function recordedLines(file: string): Json[] {
	const text = readFileSync(file, 'utf8');
	assert.ok(text.endsWith('\n'), 'the file ends with a whole line');
	return text
		.split('\n')
		.slice(0, -1)
		.map((line, index) => {
			try {
				return JSON.parse(line) as Json;
			} catch (error) {
				throw new Error(`line ${index + 1} of ${file} is not JSON: ${(error as Error).message}`);
			}
		});
}

/**
 * The demo recorded in-process on a fake clock at --demo-speed 10, one scrape a real second (10 simulated
 * seconds): 600 simulated seconds idle, `b`, then 600 of churn (the deployment of 12 pause pods scaled
 * 12 -> 0 -> 12). Scrapes and the mark are stamped on the demo's clock, as the CLI does. Written by the same
 * recorder as the CLI.
 */
async function recordDemoChurn(file: string): Promise<void> {
	let now = Date.UTC(2024, 0, 15, 14, 0, 0);
	const demo = createDemoSource({speed: 10, now: () => now, seed: 3});
	const recorder = createLabRecorder({source: demo, windowSeconds: 10, file});
	const signal = new AbortController().signal;
	await recorder.source.fetchNode!(signal);
	for (let second = 0; second < 120; second++) {
		if (second === 60) {
			recorder.mark(demo.now());
			demo.controls.churn(true);
		}

		now += 1000;
		const text = await demo.fetchMetrics(signal);
		const sample = parsePlegSample(text);
		recorder.payload(text, {at: demo.now(), sample, latencyMs: 0});
	}

	recorder.close();
}

describe('--record', () => {
	test('SIGKILL mid-run leaves a file whose every line is a whole record, with no credential in it', async () => {
		const file = join(home, 'killed.jsonl');
		const cli = spawnCli(['--demo', '--record', file, '--interval', '100ms'], {env, timeoutMs: 60_000});
		running.push(cli);
		// stdout is a pipe: one JSON line per scrape; ten lines is about a second of scraping (after a start-up
		// that takes seconds on a loaded machine).
		await cli.waitForStdout((stdout) => stdout.split('\n').length > 10, 45_000);
		cli.child.kill('SIGKILL');
		const result = await cli.exited;
		assert.equal(result.signal, 'SIGKILL');
		const lines = recordedLines(file);
		// Each record is written before its JSON line, so at least as many as the lines read.
		assert.ok(lines.length >= 10, `${lines.length} records`);
		for (const record of lines) {
			// The demo kubelet is on pleg-top's clock (sameClock), so its answers carry no Date (null).
			assert.deepEqual(Object.keys(record), [
				'v',
				'time',
				'at',
				'node',
				'kubeletVersion',
				'lines',
				'figures',
				'date',
				'sameClock',
				'windowSeconds',
				'intervalMs',
			]);
			assert.deepEqual([record['date'], record['sameClock'], record['windowSeconds'], record['intervalMs']], [null, true, 10, 100]);
			assert.equal(record['node'], 'demo-node');
			// Only exposition lines of the kubelet's own families: TYPE lines and samples.
			for (const line of record['lines'] as string[]) assert.match(line, /^(# TYPE )?kube(let|rnetes)_\w+/);
		}

		assert.doesNotMatch(readFileSync(file, 'utf8'), /Bearer|token|password|https?:\/\/|BEGIN .*KEY/i);
	});

	test('a --record file that cannot be opened stops the run before it starts (exit 2)', async () => {
		const result = await runCli(['--demo', '--record', join(home, 'no-such-dir', 'f.jsonl')], {env, timeoutMs: 60_000});
		assert.equal(result.code, 2, result.stderr);
		assert.match(result.stderr, /^pleg-top: cannot open the --record file .*no-such-dir\/f\.jsonl: ENOENT/);
	});
});

describe('--replay', () => {
	test('the demo with a churn phase: --replay --once -o json shows churn at least ×10 the baseline mean', async () => {
		const file = join(home, 'demo-churn.jsonl');
		await recordDemoChurn(file);
		const plot = join(home, 'demo-churn.svg');
		const summary = join(home, 'demo-churn.md');
		const result = await runCli(['--replay', file, '--once', '-o', 'json', '--plot', plot, '--summary', summary], {env, timeoutMs: 60_000});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as {
			recording: {lines: number; marks: string[]};
			segments: Array<{label: string; meanSeconds: number; meanRatioToBaseline: number; count: number}>;
		};
		assert.equal(report.recording.lines, 120);
		// 60 real seconds at ×10 after 14:00:00, on the demo kubelet's clock.
		assert.deepEqual(report.recording.marks, ['2024-01-15T14:10:00.000Z']);
		assert.deepEqual(
			report.segments.map((segment) => segment.label),
			['baseline', 'mark 1'],
		);
		const [baseline, churn] = report.segments;
		assert.ok(
			churn!.meanRatioToBaseline >= 10,
			`churn mean ${churn!.meanSeconds} s is ×${churn!.meanRatioToBaseline} the baseline ${baseline!.meanSeconds} s`,
		);
		// 600 simulated seconds are ~600 relists idle; during churn each takes longer, so fewer complete.
		assert.ok(baseline!.count > churn!.count && churn!.count > 0);
		assert.match(result.stderr, /write-down written to .*demo-churn\.md\nplot written to .*demo-churn\.svg/);
		assert.match(readFileSync(summary, 'utf8'), /^# PLEG write-down: demo-node/);
		assert.match(readFileSync(plot, 'utf8'), /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
	});

	test('piped, a replay writes one JSON line per recorded scrape with the recorded figures, then ends by itself', async () => {
		const file = join(home, 'lab.jsonl');
		const records = labRecords();
		writeFileSync(file, records.map((record) => JSON.stringify(record) + '\n').join(''));
		const summary = join(home, 'lab.md');
		// 40 recorded seconds at ×400: 0.1 s.
		const result = await runCli(['--replay', file, '--speed', '400', '--summary', summary], {env, timeoutMs: 60_000});
		assert.equal(result.code, 0, result.stderr);
		const lines = result.stdout
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		// Line by line, so a difference names its line and field rather than a whole misaligned list.
		assert.deepEqual(
			lines.map((line) => line['time']),
			records.map((record) => record.figures.time),
		);
		// Each a good read (`stale` is on every JSON line, not in a recording), with the recorded figures.
		lines.forEach(({kubeletRestarts: _restarts, cri: _cri, stale, ...figures}, index) => {
			const {cri: _recorded, ...recorded} = records[index]!.figures;
			assert.equal(stale, false, `line ${index + 1}`);
			assert.deepEqual(figures, recorded, `line ${index + 1}`);
		});
		assert.equal(result.stderr, `write-down written to ${summary}\n`);
		// 100 ms since the mark over 5 ms before it (see exposition.ts)
		assert.match(
			readFileSync(summary, 'utf8'),
			/Since the mark at 14:00:20\+00:00 \(16 relists in 20s\): mean relist 100ms, p99 99\.1ms \(×20 the mean before the mark at 14:00:20\+00:00\)/,
		);
	});

	test('--replay --once: exit 1 when the recording holds a span in which PLEG was not healthy, listed in text and JSON', async () => {
		const file = join(home, 'stall.jsonl');
		writeFileSync(
			file,
			stallRecords()
				.map((record) => JSON.stringify(record) + '\n')
				.join(''),
		);
		const text = await runCli(['--replay', file, '--once'], {env: {...env, TZ: 'UTC'}, timeoutMs: 60_000});
		assert.equal(text.code, 1, text.stderr);
		// Last successful relist start t0+69 s + 180 s = 14:04:09; it lasted until at least t0+415 s (the start of the
		// relist that ended it, 2m46s) and at most until the healthy scrape at t0+420 s (2m51s); highest age read 291 s.
		assert.match(text.stdout, /^PLEG not healthy:\n {2}14:04:09 – 14:07:00 {2}2m46s to 2m51s {2}age reached ≥ 4m51s {2}threshold 3m0s$/m);
		assert.match(
			text.stdout.replaceAll('\n', ' '),
			/PLEG was not healthy \(last-seen age past the threshold\) once: from 14:04:09 for 2m46s to 2m51s, healthy again by 14:07:00/,
		);

		const json = await runCli(['--replay', file, '--once', '-o', 'json'], {env, timeoutMs: 60_000});
		assert.equal(json.code, 1, json.stderr);
		const report = JSON.parse(json.stdout) as {
			unhealthy: Array<{from: string; atLeastSeconds: number; atMostSeconds: number; maxAgeSeconds: number}>;
		};
		assert.deepEqual(
			report.unhealthy.map(({from, atLeastSeconds, atMostSeconds, maxAgeSeconds}) => ({
				from,
				atLeastSeconds,
				atMostSeconds,
				maxAgeSeconds,
			})),
			[{from: '2024-01-15T14:04:09.000Z', atLeastSeconds: 166, atMostSeconds: 171, maxAgeSeconds: 291}],
		);

		// The same node up to t0+240 s: the age reached 171 s, under the threshold: exit 0, and it says so.
		const early = join(home, 'stall-early.jsonl');
		writeFileSync(
			early,
			stallRecords(5)
				.map((record) => JSON.stringify(record) + '\n')
				.join(''),
		);
		const healthy = await runCli(['--replay', early, '--once'], {env, timeoutMs: 60_000});
		assert.equal(healthy.code, 0, healthy.stderr);
		assert.match(healthy.stdout, /^PLEG not healthy: at no scrape$/m);
	});

	test('a recording that is not one: exit 2 naming the line', async () => {
		const file = join(home, 'bad.jsonl');
		writeFileSync(file, `${JSON.stringify(labRecords()[0])}\nnot json\n`);
		const result = await runCli(['--replay', file, '--once'], {env, timeoutMs: 60_000});
		assert.equal(result.code, 2);
		assert.match(result.stderr, /^pleg-top: .*bad\.jsonl: line 2: not JSON/);
		const missing = await runCli(['--replay', join(home, 'missing.jsonl'), '--once'], {env, timeoutMs: 60_000});
		assert.equal(missing.code, 2);
		assert.match(missing.stderr, /cannot read the recording .*missing\.jsonl: ENOENT/);
	});
});
