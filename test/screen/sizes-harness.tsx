// Drives the whole App (feed hook, poller, keys, dashboard) in a fake terminal whose size the test
// sets, on the demo source with an injected clock. Timers are node:test's mock timers, so "15 s of
// churn" takes milliseconds and every run shows the same frames.
import {EventEmitter} from 'node:events';
import {mock} from 'node:test';
import {stripVTControlCharacters} from 'node:util';
import {render} from 'ink';
import React from 'react';
import App from '../../source/screen/app.js';
import {startNodeEngine} from '../../source/engine/node-engine.js';
import {createDemoSource} from '../../source/demo/demo-source.js';
import type {MetricsSource} from '../../source/domain/types.js';

/** A terminal's stdout as ink reads it: columns, rows, 'resize' events, and the frames written. */
class FakeStdout extends EventEmitter {
	columns: number;
	rows: number;
	isTTY = true;
	lastFrame = '';

	constructor(columns: number, rows: number) {
		super();
		this.columns = columns;
		this.rows = rows;
	}

	write = (frame: string): boolean => {
		this.lastFrame = frame;
		return true;
	};
}

/** A raw-mode stdin that keys can be typed into (the shape ink-testing-library uses). */
class FakeStdin extends EventEmitter {
	isTTY = true;
	private pending: string | null = null;
	type(data: string): void {
		this.pending = data;
		this.emit('readable');
		this.emit('data', data);
	}

	read = (): string | null => {
		const data = this.pending;
		this.pending = null;
		return data;
	};

	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}

export type Terminal = {
	/** Advance the clock and the timers by `seconds`, one second at a time, letting each scrape land. */
	advance(seconds: number): Promise<void>;
	press(key: string): Promise<void>;
	/** Resize the terminal and return the frame drawn at that size, without ANSI codes. */
	frameAt(columns: number, rows: number): Promise<string>;
	close(): void;
};

/** Lets the poller's awaited fetch and React's scheduled render (setImmediate, not mocked) run. */
async function settle(): Promise<void> {
	for (let index = 0; index < 5; index++) {
		await new Promise((resolve) => {
			setImmediate(resolve);
		});
	}
}

/**
 * Starts the App on the demo node (seed 1, speed `speed`) at `start` ms. `wrap` may replace the
 * source (e.g. to make it fail). Call close() at the end: it also turns the mock timers off.
 */
export async function startTerminal(options: {
	start: number;
	speed?: number;
	wrap?: (source: MetricsSource) => MetricsSource;
}): Promise<Terminal> {
	let clock = options.start;
	const now = () => clock;
	mock.timers.enable({apis: ['setTimeout', 'setInterval']});
	const demo = createDemoSource({speed: options.speed ?? 1, seed: 1, now});
	const source = options.wrap ? options.wrap(demo) : demo;
	const stdout = new FakeStdout(100, 30);
	const stdin = new FakeStdin();
	// Stamped on the demo kubelet's clock, as the CLI does: at speed 60 a real second is a simulated minute.
	const engine = startNodeEngine({source, pollMs: 1000, windowSeconds: 10, now: demo.now});
	const instance = render(<App engine={engine} demo={demo.controls} />, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: new FakeStdout(100, 30) as unknown as NodeJS.WriteStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	await settle();
	return {
		async advance(seconds) {
			for (let second = 0; second < seconds; second++) {
				clock += 1000;
				mock.timers.tick(1000);
				await settle();
			}
		},
		async press(key) {
			stdin.type(key);
			await settle();
		},
		async frameAt(columns, rows) {
			stdout.columns = columns;
			stdout.rows = rows;
			stdout.emit('resize');
			await settle();
			return stripVTControlCharacters(stdout.lastFrame);
		},
		close() {
			instance.unmount();
			engine.stop();
			instance.cleanup();
			mock.timers.reset();
		},
	};
}
