// The bench's results: targets judged PASS/MISS, a table for the terminal, JSON for comparing runs over time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {FirstFrameResult} from './first-frame.js';
import type {FloorResult} from './floor.js';
import type {FrameCostResult} from './frame-cost.js';
import type {KubectlResult} from './kubectl-grep.js';
import type {LiveResult} from './live-cpu.js';
import type {OverviewBenchResult} from './overview.js';
import type {ParseDeriveResult} from './parse-derive.js';

export type BenchResults = {
	live: LiveResult;
	/** The same live run in an 80×24 pane, for bytes and terminal CPU per frame. */
	liveSmall: LiveResult;
	/** The same live run on a 5 MB payload, for information (no target). */
	liveBig: LiveResult | null;
	/** The live screen at the default --interval 1s against a kubelet at real pace, for information (no target). */
	liveDefault?: LiveResult | null;
	kubectl: KubectlResult;
	floor: FloorResult;
	parse: ParseDeriveResult[];
	/** One frame of the dashboard drawn by ink in a probe bundled as the CLI is, for information (no target). */
	frame: FrameCostResult;
	firstFrame: FirstFrameResult;
	/** The cluster overview, CPU per tick for many nodes, through the proxy and through Prometheus (no target). */
	overview: OverviewBenchResult[];
};

export type Target = {name: string; measured: string; limit: string; pass: boolean};

const mib = (bytes: number) => bytes / 2 ** 20;

/** Ticks at each end of the memory phase whose highest RSS reading is compared. */
export const rssStretchTicks = 1000;

/**
 * The highest RSS reading in the first and in the last `rssStretchTicks` of the memory phase: a leak raises the
 * peaks of V8's collection cycle, while two single readings differ by where in the cycle each fell.
 */
export function rssPeaks(live: LiveResult): {early: number; late: number} | null {
	const last = live.memoryTicks;
	if (last === null || last < 2 * rssStretchTicks) return null;
	const peak = (from: number, to: number) =>
		Math.max(0, ...live.rssSamples.filter((sample) => sample.tick >= from && sample.tick <= to).map((sample) => sample.rss));
	const early = peak(0, rssStretchTicks);
	const late = peak(last - rssStretchTicks, last);
	return early > 0 && late > 0 ? {early, late} : null;
}
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 2)} ms`;

export function judge(results: BenchResults): Target[] {
	const {live, kubectl, floor, firstFrame} = results;
	const parse250 = results.parse.find((entry) => entry.payloadBytes < 1_000_000);
	const peaks = rssPeaks(live);
	const growth = peaks === null ? null : peaks.late / peaks.early - 1;
	// The highest reading of the last stretch (or the single readings without a memory phase): stricter than the
	// reading at the end, which may fall just after a full collection.
	const peakRss = peaks?.late ?? Math.max(live.rssAfterWarmupBytes, live.rssAfterMemoryTicksBytes ?? 0);
	return [
		{
			name: 'CPU per tick ≤ 1/12 of one kubectl+grep run',
			measured: `${ms(live.cpuPerTickMs)} (1/${(kubectl.medianCpuMs / live.cpuPerTickMs).toFixed(0)})`,
			limit: `≤ ${ms(kubectl.medianCpuMs / 12)}`,
			pass: live.cpuPerTickMs <= kubectl.medianCpuMs / 12,
		},
		{
			name: 'bytes written per frame at 120×40 ≤ 1.8 KB',
			measured: `${(live.bytesPerTick / 1000).toFixed(2)} KB`,
			limit: '≤ 1.80 KB',
			pass: live.bytesPerTick <= 1800,
		},
		{
			name: 'CPU per tick within 2.5× of the bare floor',
			measured: `${ms(live.cpuPerTickMs)} (${(live.cpuPerTickMs / floor.cpuPerGetMs).toFixed(2)}×)`,
			limit: `≤ ${ms(floor.cpuPerGetMs * 2.5)}`,
			pass: live.cpuPerTickMs <= floor.cpuPerGetMs * 2.5,
		},
		{
			name: 'parse+derive of 250 KB under 0.5 ms',
			measured: parse250 ? ms(parse250.medianMs) : 'not run',
			limit: '< 0.5 ms',
			pass: parse250 !== undefined && parse250.medianMs < 0.5,
		},
		{
			name: `RSS under 130 MiB (highest reading of the last ${rssStretchTicks.toLocaleString('en-US')} ticks)`,
			measured: `${mib(peakRss).toFixed(1)} MiB`,
			limit: '< 130 MiB',
			pass: mib(peakRss) < 130,
		},
		{
			name: `RSS growth under 5% over ${live.memoryTicks ?? 0} ticks (highest readings, first vs last ${rssStretchTicks.toLocaleString('en-US')} ticks)`,
			measured: growth === null ? 'not run' : `${(growth * 100).toFixed(1)}%`,
			limit: '< 5% over 3,000 ticks',
			pass: growth !== null && growth < 0.05 && (live.memoryTicks ?? 0) >= 3000,
		},
		{
			name: 'first frame with figures within 1.5 s',
			measured: ms(firstFrame.medianFiguresMs),
			limit: '≤ 1500 ms',
			pass: firstFrame.medianFiguresMs <= 1500,
		},
	];
}

function table(rows: string[][]): string {
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length)));
	return rows
		.map((row) =>
			row
				.map((cell, column) => cell.padEnd(widths[column]!))
				.join('  ')
				.trimEnd(),
		)
		.join('\n');
}

export function formatResults(results: BenchResults, targets: Target[]): string {
	const {live, liveBig, kubectl, floor, firstFrame} = results;
	const rows: string[][] = [
		['measurement', 'value', 'how'],
		[
			'pleg-top --node, CPU per tick',
			ms(live.cpuPerTickMs),
			`live screen in a tmux pty, --interval ${live.intervalMs}ms, ${live.ticks} ticks, /proc utime+stime, ${(live.payloadBytes / 1000).toFixed(0)} KB payload`,
		],
		[
			'  main thread / other threads',
			`${ms(live.mainThreadPerTickMs)} / ${ms(live.otherThreadsPerTickMs)}`,
			"/proc/PID/task: the event loop / V8's optimising compiler and GC helpers",
		],
		...[live, results.liveSmall].flatMap((run) => [
			[
				`  ${run.columns}×${run.rows}: bytes to the terminal per frame`,
				`${run.bytesPerTick.toFixed(0)} B`,
				`tmux pipe-pane over ${run.ticks} ticks`,
			],
			[
				`  ${run.columns}×${run.rows}: tmux server CPU per frame`,
				ms(run.tmuxCpuPerTickMs),
				'the terminal drawing those bytes (/proc of the tmux server)',
			],
		]),
		...(live.longCpuPerTickMs === null
			? []
			: [['  the same over the memory phase', ms(live.longCpuPerTickMs), `${live.memoryTicks} ticks`]]),
		...(liveBig ? [['  with a 5 MB payload', ms(liveBig.cpuPerTickMs), `${liveBig.ticks} ticks (information, no target)`]] : []),
		...(results.liveDefault
			? [
					[
						'  at the default --interval 1s',
						ms(results.liveDefault.cpuPerTickMs),
						`${results.liveDefault.ticks} ticks after a minute, ${results.liveDefault.bytesPerTick.toFixed(0)} B a tick to the terminal (information, no target)`,
					],
				]
			: []),
		[
			'kubectl get --raw | grep, CPU per run',
			ms(kubectl.medianCpuMs),
			`median of ${kubectl.runs} runs (${Math.min(...kubectl.cpuMs).toFixed(0)}-${Math.max(...kubectl.cpuMs).toFixed(0)} ms), bash's times (sh+kubectl+grep), ${kubectl.version}`,
		],
		['  ratio kubectl+grep / pleg-top tick', `${(kubectl.medianCpuMs / live.cpuPerTickMs).toFixed(1)}×`, ''],
		[
			'bare floor: keep-alive GET + line filter',
			ms(floor.cpuPerGetMs),
			`process.cpuUsage over ${floor.iterations} GETs paced ${floor.intervalMs} ms, gzip, ${floor.connectionsReused ? 'one connection' : 'connections NOT reused'}`,
		],
		['  ratio pleg-top tick / floor', `${(live.cpuPerTickMs / floor.cpuPerGetMs).toFixed(2)}×`, ''],
		...results.parse.map((entry) => [
			`parse+derive ${(entry.payloadBytes / 1e6).toFixed(2)} MB`,
			ms(entry.medianMs),
			`CPU, median of ${entry.runs} (p90 ${ms(entry.p90Ms)}; wall median ${ms(entry.medianWallMs)}): parsePlegSample + feedReducer + figuresAt`,
		]),
		[
			'  one frame drawn by ink (bundled probe)',
			ms(results.frame.cpuPerFrameMs),
			`${results.frame.frames} frames, 120×40, built like dist/cli.js, ${results.frame.bytesPerFrame.toFixed(0)} bytes written per frame (information)`,
		],
		['RSS after warm-up', `${mib(live.rssAfterWarmupBytes).toFixed(1)} MiB`, 'VmRSS of the CLI in the tmux run'],
		...(live.rssAfterMemoryTicksBytes === null
			? []
			: [
					[
						`RSS after ${live.memoryTicks} more ticks`,
						`${mib(live.rssAfterMemoryTicksBytes).toFixed(1)} MiB`,
						`same live tmux run at ${live.intervalMs}ms`,
					],
					[
						'  growth',
						`${((live.rssAfterMemoryTicksBytes / live.rssAfterWarmupBytes - 1) * 100).toFixed(1)}%`,
						'of these two single readings',
					],
				]),
		...rssRangeRows(live),
		[
			'first frame with figures',
			ms(firstFrame.medianFiguresMs),
			`median of ${firstFrame.runs} starts (${firstFrame.allFiguresMs.join(', ')} ms), default --interval 1s`,
		],
		['  first window mean (2nd scrape)', ms(firstFrame.medianWindowMeanMs), ''],
		...results.overview.map((entry) => [
			`overview of ${entry.nodes} nodes via ${entry.via}, CPU per tick`,
			ms(entry.cpuMsPerTick),
			`${entry.ticks} ticks, ${entry.requests} requests, wall ${ms(entry.wallMsPerTick)} per tick; in-process fake servers included (information)`,
		]),
		[
			'keep-alive: TLS connections in the live run',
			String(live.connections),
			live.screenOk ? 'screen showed figures at the end' : 'SCREEN LOST ITS FIGURES',
		],
	];
	const verdicts = targets.map((target) => [target.pass ? 'PASS' : 'MISS', target.name, target.measured, target.limit]);
	return `${table(rows)}\n\n${table([['', 'target', 'measured', 'limit'], ...verdicts])}\n`;
}

export function writeResults(directory: string, results: BenchResults, targets: Target[], label: string | null): string[] {
	fs.mkdirSync(directory, {recursive: true});
	const document = {
		date: new Date().toISOString(),
		label,
		machine: {cpus: os.cpus().length, model: os.cpus()[0]?.model ?? null, node: process.version, platform: `${os.type()} ${os.release()}`},
		results,
		targets,
	};
	const text = JSON.stringify(document, null, '\t') + '\n';
	const stamp = document.date.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
	const dated = path.join(directory, `${stamp}${label ? `-${label.replaceAll(/[^\w.-]+/g, '_')}` : ''}.json`);
	const latest = path.join(directory, 'latest.json');
	fs.writeFileSync(dated, text);
	fs.writeFileSync(latest, text);
	return [latest, dated];
}

/** The lowest and highest RSS reading of the first and the last stretch of the memory phase. */
function rssRangeRows(live: LiveResult): string[][] {
	const last = live.memoryTicks;
	if (last === null || last < 2 * rssStretchTicks) return [];
	const range = (from: number, to: number) => {
		const values = live.rssSamples.filter((sample) => sample.tick >= from && sample.tick <= to).map((sample) => mib(sample.rss));
		return values.length === 0 ? 'no reading' : `${Math.min(...values).toFixed(1)} - ${Math.max(...values).toFixed(1)} MiB`;
	};
	return [
		[`  RSS, ticks 0-${rssStretchTicks}`, range(0, rssStretchTicks), 'lowest - highest reading, about one a second'],
		[`  RSS, ticks ${last - rssStretchTicks}-${last}`, range(last - rssStretchTicks, last), ''],
	];
}
