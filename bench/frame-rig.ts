// What the frame probes share (frame-probe.ts draws with ink, row-writer-probe.ts without): a 120×40 fake terminal,
// the Dashboard's props from successive scrapes, a second apart, of a simulated kubelet whose /metrics is padded to
// 250 KB (the bench's payload), and the measuring loop. Props are built outside the measured CPU.
import {readFileSync} from 'node:fs';
import {Writable} from 'node:stream';
import {setTimeout as sleep} from 'node:timers/promises';
import {feedReducer, figuresAt, initialFeedState} from '../source/domain/feed.js';
import {logView} from '../source/domain/history/bounded-log.js';
import {parsePlegSample} from '../source/domain/exposition/parse.js';
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';
import type {DashboardProps} from '../source/screen/dashboard.js';
import type {FrameCostResult} from './frame-cost.js';

export const columns = 120;
export const rows = 40;

/** Each call: one more scrape, and the Dashboard's props after it. */
export function nextScrapeProps(): () => DashboardProps {
	let clock = Date.UTC(2024, 0, 15, 14, 0, 0);
	const kubelet = new SimulatedKubelet({now: () => clock, startedAt: clock - 20 * 60_000, nodeName: 'bench-node'});
	let state = initialFeedState({node: 'bench-node', windowSeconds: 10});
	return () => {
		clock += 1000;
		const sample = parsePlegSample(kubelet.paddedMetricsText(250_000));
		state = feedReducer(state, {type: 'scrape', scrape: {at: clock, sample, latencyMs: 12}});
		return {
			figures: figuresAt(state, clock),
			status: state.status,
			history: logView(state.history),
			node: state.node,
			sourceLabel: 'bench-node via https://127.0.0.1:6443',
			intervalSeconds: 1,
			now: clock,
			width: columns,
			height: rows - 1,
			showHelp: false,
		};
	};
}

export class FakeTerminal extends Writable {
	columns = columns;
	rows = rows;
	isTTY = true;
	bytes = 0;

	override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
		this.bytes += chunk.length;
		done();
	}
}

/** CPU time of the calling thread so far, in ms (Linux: the first field of schedstat is nanoseconds on the CPU). */
function threadCpuMs(): number {
	return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
}

/**
 * `draw` given each scrape's props: 30 frames of warm-up (a window's worth of scrapes, so every pane has figures),
 * then `frames` measured. The props are all built first, so parsing's garbage is not collected inside a frame. Each
 * frame is given 40 ms, so ink's 30 fps throttle never merges two and the timers a frame leaves behind are counted
 * with it.
 */
export async function measureFrames(
	frames: number,
	terminal: FakeTerminal,
	draw: (props: DashboardProps) => void,
): Promise<FrameCostResult> {
	const next = nextScrapeProps();
	const props = Array.from({length: 30 + frames}, () => next());
	for (const warmUp of props.slice(0, 30)) {
		draw(warmUp);
		await sleep(40);
	}

	let cpu = 0;
	let main = 0;
	const bytesBefore = terminal.bytes;
	for (const measured of props.slice(30)) {
		const before = process.cpuUsage();
		const mainBefore = threadCpuMs();
		draw(measured);
		await sleep(40);
		main += threadCpuMs() - mainBefore;
		const used = process.cpuUsage(before);
		cpu += used.user + used.system;
	}

	return {
		frames,
		cpuPerFrameMs: cpu / 1000 / frames,
		mainThreadPerFrameMs: main / frames,
		bytesPerFrame: (terminal.bytes - bytesBefore) / frames,
	};
}
