// `npm run bench:ratio [-- --rounds 3] [--no-default-interval] [--cli PATH]`: the live screen's CPU per tick against
// its two yardsticks, in one run: the kubectl binary itself (`kubectl get --raw …/metrics | grep ^kubelet_pleg`, a
// new process each time, as `watch` runs it) and the bare Node floor (a keep-alive GET of the same 250 KB body,
// gunzipped and filtered). Rounds take turns on the machine (kubectl, floor, live screen), so a busy moment falls
// on all three; the ratios are per round, and the report gives their median and range. CPU time, not wall time:
// the figure holds on a shared machine. Then, once, the live screen at the default --interval 1s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {startBenchServer, type BenchServer} from './bench-server.js';
import {measureFloor, type FloorResult} from './floor.js';
import {ensureKubectl, measureKubectl, type KubectlResult} from './kubectl-grep.js';
import {measureLive, type LiveResult} from './live-cpu.js';
import {median} from './stats.js';
import {keepTmuxServer, useCli} from './tmux-cli.js';

const realBytes = 250_000;
const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const log = (text: string) => process.stderr.write(`bench:ratio: ${text}\n`);

export type Round = {kubectl: KubectlResult; floor: FloorResult; live: LiveResult; kubectlRatio: number; floorRatio: number};

/** One round at 100 ms ticks: the yardsticks, then the live screen, against one server. */
async function round(bench: BenchServer, kubectl: string): Promise<Round> {
	const kubectlResult = await measureKubectl(bench, kubectl, 10);
	const floor = await measureFloor(bench, {iterations: 200, intervalMs: 100});
	const live = await measureLive(bench, realBytes, {intervalMs: 100, warmupTicks: 100, cpuTicks: 300, memoryTicks: 0});
	return {
		kubectl: kubectlResult,
		floor,
		live,
		kubectlRatio: kubectlResult.medianCpuMs / live.cpuPerTickMs,
		floorRatio: live.cpuPerTickMs / floor.cpuPerGetMs,
	};
}

const spread = (numbers: number[], digits: number) =>
	`${median(numbers).toFixed(digits)} (${Math.min(...numbers).toFixed(digits)}-${Math.max(...numbers).toFixed(digits)})`;

/** The report: a row per round, then median (range) of each column, and the two goals. */
export function formatRatio(rounds: Round[], atDefault: LiveResult | null, kubectlAtDefault: number | null): string {
	const rows = rounds.map(
		(entry, index) =>
			`round ${index + 1}: live ${entry.live.cpuPerTickMs.toFixed(2)} ms a tick (main ${entry.live.mainThreadPerTickMs.toFixed(2)}), ` +
			`kubectl+grep ${entry.kubectl.medianCpuMs.toFixed(0)} ms, floor ${entry.floor.cpuPerGetMs.toFixed(2)} ms: ` +
			`×${entry.kubectlRatio.toFixed(1)} cheaper than kubectl, ${entry.floorRatio.toFixed(2)}× the floor`,
	);
	const kubectlRatios = rounds.map((entry) => entry.kubectlRatio);
	const floorRatios = rounds.map((entry) => entry.floorRatio);
	const lines = [
		`kubectl: ${rounds[0]!.kubectl.binary} (${rounds[0]!.kubectl.version})`,
		...rows,
		`live CPU a tick at --interval 100ms: ${spread(
			rounds.map((entry) => entry.live.cpuPerTickMs),
			2,
		)} ms; kubectl+grep ${spread(
			rounds.map((entry) => entry.kubectl.medianCpuMs),
			0,
		)} ms; floor ${spread(
			rounds.map((entry) => entry.floor.cpuPerGetMs),
			2,
		)} ms`,
		`×${spread(kubectlRatios, 1)} cheaper than kubectl+grep (goal ≥ ×12): ${median(kubectlRatios) >= 12 ? 'PASS' : 'MISS'}`,
		`${spread(floorRatios, 2)}× the Node floor (goal ≤ 2.5×): ${median(floorRatios) <= 2.5 ? 'PASS' : 'MISS'}`,
	];
	if (atDefault && kubectlAtDefault !== null) {
		lines.push(
			`at --interval 1s: ${atDefault.cpuPerTickMs.toFixed(2)} ms a tick (main ${atDefault.mainThreadPerTickMs.toFixed(2)}), ×${(kubectlAtDefault / atDefault.cpuPerTickMs).toFixed(1)} cheaper than kubectl+grep`,
		);
	}
	return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
	const {values} = parseArgs({
		options: {
			rounds: {type: 'string', default: '3'},
			'no-default-interval': {type: 'boolean', default: false},
			cli: {type: 'string'},
			label: {type: 'string'},
		},
	});
	if (values.cli) useCli(path.resolve(values.cli));
	const kubectl = ensureKubectl();
	const stopKeeper = keepTmuxServer();
	// About one new relist per 100 ms tick, as a real kubelet gives a 1 s scrape; and a kubelet at real pace.
	const bench = await startBenchServer({bytes: realBytes, speed: 10});
	const realPace = await startBenchServer({bytes: realBytes, speed: 1});
	try {
		const rounds: Round[] = [];
		for (let index = 1; index <= Number(values.rounds); index++) {
			log(`round ${index} of ${values.rounds}: kubectl, floor, live screen at 100 ms`);
			rounds.push(await round(bench, kubectl));
		}
		let atDefault: LiveResult | null = null;
		if (!values['no-default-interval']) {
			log('live screen at --interval 1s (about 2.5 min)');
			atDefault = await measureLive(realPace, realBytes, {intervalMs: 1000, warmupTicks: 40, cpuTicks: 100, memoryTicks: 0});
		}
		const kubectlAtDefault = median(rounds.map((entry) => entry.kubectl.medianCpuMs));
		process.stdout.write(formatRatio(rounds, atDefault, atDefault ? kubectlAtDefault : null));
		const stamp = new Date()
			.toISOString()
			.replaceAll(':', '-')
			.replace(/\.\d+Z$/, 'Z');
		fs.mkdirSync(resultsDir, {recursive: true});
		const file = path.join(resultsDir, `ratio-${stamp}${values.label ? `-${values.label}` : ''}.json`);
		const machine = {cpus: os.cpus().length, loadavg: os.loadavg(), node: process.version};
		fs.writeFileSync(file, `${JSON.stringify({date: new Date().toISOString(), machine, rounds, atDefault}, null, '\t')}\n`);
		log(`wrote ${path.relative(process.cwd(), file)}`);
	} finally {
		await bench.close();
		await realPace.close();
		stopKeeper();
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	await main();
	// A kept-alive socket of the fake servers may still be open; the results are written.
	process.exit(0);
}
