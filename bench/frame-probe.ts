// The entry of the frame-cost probe (frame-cost.ts bundles it with the CLI's own build options, so ink runs with
// the same substitutions as in dist/cli.js): the Dashboard rendered by ink to a 120×40 fake terminal from
// successive scrapes of a simulated kubelet. Prints one JSON line. argv[2]: the number of frames.
import {Writable} from 'node:stream';
import {setTimeout as sleep} from 'node:timers/promises';
import {feedReducer, figuresAt, initialFeedState} from '../source/domain/feed.js';
import {logView} from '../source/domain/bounded-log.js';
import {parsePlegSample} from '../source/domain/exposition/parse.js';
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';

import type {FrameCostResult} from './frame-cost.js';

class FakeTerminal extends Writable {
	columns = 120;
	rows = 40;
	isTTY = true;
	bytes = 0;

	override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
		this.bytes += chunk.length;
		done();
	}
}

async function measureFrameCost(frames: number): Promise<FrameCostResult> {
	const [{render}, React, {Dashboard}] = await Promise.all([import('ink'), import('react'), import('../source/screen/dashboard.js')]);
	let clock = Date.UTC(2024, 0, 15, 14, 0, 0);
	const kubelet = new SimulatedKubelet({now: () => clock, startedAt: clock - 20 * 60_000, nodeName: 'bench-node'});
	let state = initialFeedState({node: 'bench-node', windowSeconds: 10});
	const terminal = new FakeTerminal();
	const element = () => {
		clock += 1000;
		const sample = parsePlegSample(kubelet.paddedMetricsText(250_000));
		state = feedReducer(state, {type: 'scrape', scrape: {at: clock, sample, latencyMs: 12}});
		return React.createElement(Dashboard, {
			figures: figuresAt(state, clock),
			status: state.status,
			history: logView(state.history),
			node: state.node,
			sourceLabel: 'bench-node via https://127.0.0.1:6443',
			intervalSeconds: 1,
			now: clock,
			width: 120,
			height: 39,
			showHelp: false,
		});
	};

	const stdout = terminal as unknown as NodeJS.WriteStream;
	const instance = render(element(), {stdout, stdin: process.stdin, patchConsole: false, exitOnCtrlC: false});
	// Warm-up, and a window's worth of scrapes so every pane has figures.
	for (let index = 0; index < 30; index++) {
		instance.rerender(element());
		await sleep(40);
	}

	// Props are built outside the measured CPU; each frame is given 40 ms so ink's 30 fps throttle never merges two.
	let cpu = 0;
	const bytesBefore = terminal.bytes;
	for (let index = 0; index < frames; index++) {
		const next = element();
		const before = process.cpuUsage();
		instance.rerender(next);
		await sleep(40);
		const used = process.cpuUsage(before);
		cpu += used.user + used.system;
	}

	instance.unmount();
	return {frames, cpuPerFrameMs: cpu / 1000 / frames, bytesPerFrame: (terminal.bytes - bytesBefore) / frames};
}

process.stdout.write(`${JSON.stringify(await measureFrameCost(Number(process.argv[2] ?? 60)))}\n`);
process.exit(0);
