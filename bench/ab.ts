// `npm run bench:ab -- --a OLD.js --b NEW.js`: two builds of cli.js drawing the live screen side by side, each
// against its own bench server, so both see the same machine at the same moment. Alternating runs of one build
// after the other differed by ±0.4 ms a tick from run to run on the 2-core VM, more than most single changes
// buy; run together, the difference between the two builds is steadier than either figure.
// Flags: --a PATH, --b PATH (builds to compare; B defaults to dist/cli.js), --rounds N (default 3),
// --seconds N (measured per round, default 60), --warmup N (seconds before measuring, default 35), --interval MS
// (pleg-top's --interval, default 100; the simulated kubelet makes about one relist per tick at any interval),
// --uncompressed (the server sends /metrics without gzip), --count-gc (node --trace-gc: V8's full collections over
// the measured stretch, read from what the pane's program writes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {benchNode, startBenchServer, type BenchServer} from './bench-server.js';
import {processCpuMs, residentBytes, threadSplitCpuMs} from './proc.js';
import {median} from './stats.js';
import {keepTmuxServer, pipePane, quitLiveCli, startLiveCli, useCli, type LiveCli} from './tmux-cli.js';
import {cliPath} from '../test/helpers/run-cli.js';

const {values} = parseArgs({
	options: {
		a: {type: 'string'},
		b: {type: 'string'},
		rounds: {type: 'string', default: '3'},
		seconds: {type: 'string', default: '60'},
		warmup: {type: 'string', default: '35'},
		interval: {type: 'string', default: '100'},
		uncompressed: {type: 'boolean', default: false},
		'count-gc': {type: 'boolean', default: false},
	},
});
if (!values.a) {
	throw new Error('--a PATH is required: the build to compare against (e.g. a copy of dist/cli.js from before a change)');
}

const builds = {A: path.resolve(values.a), B: path.resolve(values.b ?? cliPath)};
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);
const intervalMs = Number(values.interval);
const payloadBytes = 250_000;
const gzip = !values.uncompressed;
const countGc = values['count-gc'];
const gcDir = countGc ? fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-ab-gc-')) : '';

type Side = {label: 'A' | 'B'; bench: BenchServer; cli: LiveCli};
type Reading = {ticks: number; cpu: number; main: number; others: number};

const sleep = async (ms: number) =>
	new Promise((resolve) => {
		setTimeout(resolve, ms);
	});

function read(side: Side): Reading {
	const threads = threadSplitCpuMs(side.cli.pid);
	return {ticks: side.bench.metricsRequests(), cpu: processCpuMs(side.cli.pid), main: threads.main, others: threads.others};
}

function perTick(start: Reading, end: Reading): Omit<Reading, 'ticks'> {
	const ticks = end.ticks - start.ticks;
	return {cpu: (end.cpu - start.cpu) / ticks, main: (end.main - start.main) / ticks, others: (end.others - start.others) / ticks};
}

const log = (text: string) => process.stdout.write(`${text}\n`);
const stopKeeper = keepTmuxServer();
const benches = {
	A: await startBenchServer({bytes: payloadBytes, speed: 1000 / intervalMs, gzip}),
	B: await startBenchServer({bytes: payloadBytes, speed: 1000 / intervalMs, gzip}),
};
const differences: number[] = [];
try {
	log(
		`A ${builds.A}\nB ${builds.B}\n${rounds} rounds: ${warmupSeconds} s warm-up, ${seconds} s measured, ${intervalMs} ms ticks, 120×40, ${gzip ? 'gzip' : 'uncompressed'}`,
	);
	for (let round = 1; round <= rounds; round++) {
		// Which one starts first alternates, so neither always gets the idle core while the other starts.
		const order: Array<'A' | 'B'> = round % 2 === 1 ? ['A', 'B'] : ['B', 'A'];
		const sides: Side[] = order.map((label) => {
			useCli(builds[label]);
			const bench = benches[label];
			const cli = startLiveCli(['--node', benchNode, '--interval', `${intervalMs}ms`], bench.env, undefined, countGc ? ['--trace-gc'] : []);
			return {label, bench, cli};
		});
		try {
			await sleep(warmupSeconds * 1000);
			const gcFile = (side: Side) => path.join(gcDir, `round-${round}-${side.label}.txt`);
			if (countGc) for (const side of sides) pipePane(side.cli.session, gcFile(side));
			const start = sides.map((side) => read(side));
			await sleep(seconds * 1000);
			if (countGc) for (const side of sides) pipePane(side.cli.session, null);
			// --trace-gc writes one line per collection; a full one is a Mark-Compact (a scavenge is not).
			const fullGcs = (side: Side) =>
				countGc ? `, ${(fs.readFileSync(gcFile(side), 'latin1').match(/Mark-Compact/g) ?? []).length} full GCs` : '';
			const rss = sides.map((side) => ({
				label: side.label,
				text: `, RSS ${(residentBytes(side.cli.pid) / 2 ** 20).toFixed(0)} MiB${fullGcs(side)}`,
			}));
			const figures = sides.map((side, index) => ({
				label: side.label,
				ticks: side.bench.metricsRequests() - start[index]!.ticks,
				...perTick(start[index]!, read(side)),
			}));
			figures.sort((x, y) => x.label.localeCompare(y.label));
			const [a, b] = figures as [(typeof figures)[0], (typeof figures)[0]];
			differences.push(b.cpu - a.cpu);
			for (const figure of figures) {
				log(
					`round ${round} ${figure.label}: ${figure.cpu.toFixed(2)} ms a tick (main thread ${figure.main.toFixed(2)}, other threads ${figure.others.toFixed(2)}) over ${figure.ticks} ticks${rss.find(({label}) => label === figure.label)!.text}`,
				);
			}
		} finally {
			for (const side of sides) await quitLiveCli(side.cli.session);
		}
	}

	log(`B - A, ms a tick: ${differences.map((difference) => difference.toFixed(2)).join(', ')} (median ${median(differences).toFixed(2)})`);
} finally {
	await benches.A.close();
	await benches.B.close();
	stopKeeper();
	if (countGc) fs.rmSync(gcDir, {recursive: true, force: true});
}
