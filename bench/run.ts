// `npm run bench`: pleg-top's cost beside `watch -n1 kubectl get --raw … | grep`, against the test fake API
// server serving a simulated kubelet's live PLEG series in a real-size payload. Not part of `npm test`.
// Flags: --memory-ticks N (default 3000; 0 skips the memory phase), --quick (fewer runs, for trying changes),
// --cli PATH (another build of cli.js, e.g. a copy of dist from before a change, to compare), --label TEXT.
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {startBenchServer} from './bench-server.js';
import {measureFirstFrame} from './first-frame.js';
import {measureFloor} from './floor.js';
import {measureFrameCost} from './frame-cost.js';
import {ensureKubectl, measureKubectl} from './kubectl-grep.js';
import {measureLive} from './live-cpu.js';
import {runOverviewTicks} from './overview.js';
import {measureParseDerive} from './parse-derive.js';
import {formatResults, judge, writeResults, type BenchResults} from './report.js';
import {keepTmuxServer, useCli} from './tmux-cli.js';

const {values} = parseArgs({
	options: {
		'memory-ticks': {type: 'string', default: '3000'},
		quick: {type: 'boolean', default: false},
		cli: {type: 'string'},
		label: {type: 'string'},
	},
});
const quick = values.quick;
const memoryTicks = Number(values['memory-ticks']);
const intervalMs = 100;
const realBytes = 250_000;
const bigBytes = 5_000_000;
const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

const log = (text: string) => process.stderr.write(`bench: ${text}\n`);

async function main(): Promise<void> {
	if (values.cli) {
		useCli(path.resolve(values.cli));
	}

	const kubectl = ensureKubectl();
	const stopKeeper = keepTmuxServer();
	// About one new relist per 100 ms tick, as a real kubelet gives a 1 s scrape.
	const bench = await startBenchServer({bytes: realBytes, speed: 1000 / intervalMs});
	const big = await startBenchServer({bytes: bigBytes, speed: 1000 / intervalMs});
	// For the row at the default interval: a real kubelet's pace, one relist per 1 s scrape.
	const atDefault = await startBenchServer({bytes: realBytes, speed: 1});
	try {
		log('parse + derive');
		const parse = [measureParseDerive(realBytes, quick ? 300 : 2000), measureParseDerive(bigBytes, quick ? 20 : 100)];
		log('one frame in-process');
		const frame = await measureFrameCost(quick ? 60 : 200);
		log(`kubectl get --raw | grep (${kubectl})`);
		const kubectlResult = await measureKubectl(bench, kubectl, quick ? 5 : 20);
		log('bare floor');
		const floor = await measureFloor(bench, {iterations: quick ? 60 : 200, intervalMs});
		log('first frame');
		const firstFrame = await measureFirstFrame(bench, quick ? 3 : 7);
		log(
			`live screen: CPU per tick${memoryTicks > 0 ? `, then memory over ${memoryTicks} ticks (about ${Math.round(((memoryTicks * intervalMs) / 60_000) * 1.1)} min)` : ''}`,
		);
		const live = await measureLive(bench, realBytes, {intervalMs, warmupTicks: 100, cpuTicks: 300, memoryTicks});
		log('live screen at 80×24');
		const liveSmall = await measureLive(bench, realBytes, {
			intervalMs,
			warmupTicks: 50,
			cpuTicks: quick ? 150 : 300,
			memoryTicks: 0,
			columns: 80,
			rows: 24,
		});
		log('live screen with a 5 MB payload');
		const liveBig = quick ? null : await measureLive(big, bigBytes, {intervalMs, warmupTicks: 30, cpuTicks: 100, memoryTicks: 0});
		// The 100 ms ticks above keep V8's compiler and the CPU caches warm; a user's tick comes once a second.
		log('live screen at the default --interval 1s (about 3.5 min)');
		const liveDefault = quick
			? null
			: await measureLive(atDefault, realBytes, {intervalMs: 1000, warmupTicks: 60, cpuTicks: 150, memoryTicks: 0});
		log('overview of 200 nodes, through the API server proxy and through Prometheus');
		const overviewTicks = quick ? 3 : 10;
		const overview = [
			await runOverviewTicks({nodes: 200, ticks: overviewTicks, via: 'proxy'}),
			await runOverviewTicks({nodes: 200, ticks: overviewTicks, via: 'prometheus'}),
		];
		const results: BenchResults = {
			live,
			liveSmall,
			liveBig,
			liveDefault,
			kubectl: kubectlResult,
			floor,
			parse,
			frame,
			firstFrame,
			overview,
		};
		const targets = judge(results);
		process.stdout.write(formatResults(results, targets));
		for (const file of writeResults(resultsDir, results, targets, values.label ?? null)) {
			log(`wrote ${path.relative(process.cwd(), file)}`);
		}
	} finally {
		await bench.close();
		await big.close();
		await atDefault.close();
		stopKeeper();
	}
}

await main();
// A kept-alive socket of the fake servers may still be open; the results are written.
process.exit(0);
