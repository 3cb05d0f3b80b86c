// Phases 1 and 4: pleg-top --node NODE drawing its live screen to a pty, CPU per tick from /proc over a steady
// stretch, and resident memory after warm-up and after many more ticks. A tick is one /metrics request answered.
import type {BenchServer} from './bench-server.js';
import {benchNode} from './bench-server.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {processCpuMs, residentBytes, threadSplitCpuMs} from './proc.js';
import {pipePane, quitLiveCli, startLiveCli, tmuxServerPid, until} from './tmux-cli.js';

export type LiveOptions = {
	intervalMs: number;
	warmupTicks: number;
	/** Ticks the CPU per tick is measured over, from the end of warm-up. */
	cpuTicks: number;
	/** Ticks after warm-up before the second memory reading (0: no memory phase). */
	memoryTicks: number;
	/** The pane's size; 120×40 unless given. */
	columns?: number;
	rows?: number;
};

export type LiveResult = {
	intervalMs: number;
	payloadBytes: number;
	ticks: number;
	cpuMs: number;
	wallMs: number;
	cpuPerTickMs: number;
	/** Over the whole memory phase (warm-up end to the last reading), when there is one. */
	longCpuPerTickMs: number | null;
	rssAfterWarmupBytes: number;
	rssAfterMemoryTicksBytes: number | null;
	memoryTicks: number | null;
	/**
	 * VmRSS read about once a second through the memory phase, with the tick it was read at. RSS rises and falls
	 * with V8's collections (a full one drops it by 20-30 MiB), so single readings compare two random points of that
	 * cycle; the highest reading of a stretch of ticks compares like with like.
	 */
	rssSamples: Array<{tick: number; rss: number}>;
	/** TLS connections the fake server accepted during the run: 1-2 means keep-alive works. */
	connections: number;
	/** The screen still showed the window mean at the end. */
	screenOk: boolean;
	columns: number;
	rows: number;
	/** Bytes pleg-top wrote to its terminal per tick over the measured stretch (tmux pipe-pane). */
	bytesPerTick: number;
	/** CPU of the tmux server per tick over the same stretch: what drawing those bytes costs the terminal. */
	tmuxCpuPerTickMs: number;
	/** Of cpuPerTickMs, the main thread's (event loop) and the other threads' (mostly V8's optimising compiler). */
	mainThreadPerTickMs: number;
	otherThreadsPerTickMs: number;
};

export async function measureLive(bench: BenchServer, payloadBytes: number, options: LiveOptions): Promise<LiveResult> {
	const base = bench.metricsRequests();
	const connectionsBefore = bench.server.connections;
	const ticks = () => bench.metricsRequests() - base;
	const columns = options.columns ?? 120;
	const rows = options.rows ?? 40;
	const {session, pid} = startLiveCli(['--node', benchNode, '--interval', `${options.intervalMs}ms`], bench.env, {columns, rows});
	const tmuxPid = tmuxServerPid(session);
	const outputFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-bench-')), 'pane.out');
	const outputBytes = () => (fs.existsSync(outputFile) ? fs.statSync(outputFile).size : 0);
	const patience = (count: number) => count * options.intervalMs * 5 + 20_000;
	try {
		await until(() => ticks() >= options.warmupTicks, patience(options.warmupTicks), 'the warm-up ticks');
		pipePane(session, outputFile);
		const start = {
			cpu: processCpuMs(pid),
			tick: ticks(),
			at: Date.now(),
			rss: residentBytes(pid),
			tmuxCpu: processCpuMs(tmuxPid),
			bytes: outputBytes(),
			threads: threadSplitCpuMs(pid),
		};
		await until(() => ticks() >= start.tick + options.cpuTicks, patience(options.cpuTicks), 'the measured ticks', 5);
		const end = {
			cpu: processCpuMs(pid),
			tick: ticks(),
			at: Date.now(),
			tmuxCpu: processCpuMs(tmuxPid),
			bytes: outputBytes(),
			threads: threadSplitCpuMs(pid),
		};
		pipePane(session, null);
		let memory: {cpu: number; tick: number; rss: number} | null = null;
		const rssSamples: Array<{tick: number; rss: number}> = [];
		if (options.memoryTicks > 0) {
			let nextSampleAt = 0;
			await until(
				() => {
					if (Date.now() >= nextSampleAt) {
						rssSamples.push({tick: ticks() - start.tick, rss: residentBytes(pid)});
						nextSampleAt = Date.now() + 1000;
					}

					return ticks() >= start.tick + options.memoryTicks;
				},
				patience(options.memoryTicks),
				'the memory ticks',
				50,
			);
			memory = {cpu: processCpuMs(pid), tick: ticks(), rss: residentBytes(pid)};
		}

		const screenOk = /\bmean \d/.test(session.screen());
		return {
			intervalMs: options.intervalMs,
			payloadBytes,
			ticks: end.tick - start.tick,
			cpuMs: end.cpu - start.cpu,
			wallMs: end.at - start.at,
			cpuPerTickMs: (end.cpu - start.cpu) / (end.tick - start.tick),
			longCpuPerTickMs: memory && (memory.cpu - start.cpu) / (memory.tick - start.tick),
			rssAfterWarmupBytes: start.rss,
			rssAfterMemoryTicksBytes: memory?.rss ?? null,
			memoryTicks: memory && memory.tick - start.tick,
			rssSamples,
			connections: bench.server.connections - connectionsBefore,
			screenOk,
			columns,
			rows,
			bytesPerTick: (end.bytes - start.bytes) / (end.tick - start.tick),
			tmuxCpuPerTickMs: (end.tmuxCpu - start.tmuxCpu) / (end.tick - start.tick),
			mainThreadPerTickMs: (end.threads.main - start.threads.main) / (end.tick - start.tick),
			otherThreadsPerTickMs: (end.threads.others - start.threads.others) / (end.tick - start.tick),
		};
	} finally {
		await quitLiveCli(session);
		fs.rmSync(path.dirname(outputFile), {recursive: true, force: true});
	}
}
