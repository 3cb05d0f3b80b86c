// Peak memory of `pleg-top --replay FILE --once` on a long recording: a day at one scrape a second is
// 86,400 lines (about 230 MB), written by the --record recorder itself (test/lab/exposition.ts), then summarised by
// the built CLI under GNU time, whose %M is the child's peak RSS. Target: under 200 MiB. Not part of `npm test`.
//
//   npm run build && node --import tsx bench/replay-memory.ts [--lines 86400] [--file PATH] [--keep] [--cli dist/cli.js]
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {cliPath} from '../test/helpers/run-cli.js';
import {writeSteadyRecording} from '../test/lab/exposition.js';

const targetMiB = 200;

const {values} = parseArgs({
	options: {
		lines: {type: 'string', default: '86400'},
		file: {type: 'string'},
		keep: {type: 'boolean', default: false},
		cli: {type: 'string', default: cliPath},
	},
});

const lines = Number(values.lines);
const file = values.file ?? path.join(os.tmpdir(), `pleg-top-replay-${lines}.jsonl`);
// A file of the same line count from an earlier run is reused (writing a day takes about two minutes).
if (!fs.existsSync(file)) {
	const started = performance.now();
	writeSteadyRecording(file, lines);
	console.log(`wrote ${lines} lines in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const bytes = fs.statSync(file).size;
const started = performance.now();
// GNU time writes its line last on stderr; pleg-top's report goes to stdout (JSON, read for the line count).
const run = spawnSync('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, values.cli, '--replay', file, '--once', '-o', 'json'], {
	encoding: 'utf8',
	maxBuffer: 64 * 1024 * 1024,
});
const seconds = (performance.now() - started) / 1000;
if (!values.keep && values.file === undefined) fs.rmSync(file);
const peakKiB = Number(/peak-rss-kib (\d+)/.exec(run.stderr)?.[1]);
// 0: healthy at every scrape (this recording); anything else is a failed run.
if (run.status !== 0 || !Number.isFinite(peakKiB)) throw new Error(`the replay failed (exit ${run.status}):\n${run.stderr}`);
const report = JSON.parse(run.stdout) as {recording: {lines: number}};
if (report.recording.lines !== lines) throw new Error(`the replay read ${report.recording.lines} lines of ${lines}`);
const peakMiB = peakKiB / 1024;
console.log(
	JSON.stringify({
		lines,
		fileMiB: Number((bytes / 2 ** 20).toFixed(1)),
		seconds: Number(seconds.toFixed(1)),
		peakRssMiB: Number(peakMiB.toFixed(1)),
		targetMiB,
	}),
);
console.log(
	`peak RSS ${peakMiB.toFixed(1)} MiB for ${lines} lines (${(bytes / 2 ** 20).toFixed(0)} MiB): ${peakMiB < targetMiB ? 'under' : 'OVER'} the ${targetMiB} MiB target`,
);
process.exitCode = peakMiB < targetMiB ? 0 : 1;
