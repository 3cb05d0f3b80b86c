// Phase 5: wall time from starting pleg-top --node NODE (default interval) to the first frame with figures
// (the lifetime mean, drawn from the first scrape), and to the window mean (needs a second scrape, 1 s later).
import {benchNode, type BenchServer} from './bench-server.js';
import {median} from './stats.js';
import {startLiveCli, until} from './tmux-cli.js';

export type FirstFrameResult = {runs: number; medianFiguresMs: number; medianWindowMeanMs: number; allFiguresMs: number[]};

async function once(bench: BenchServer): Promise<{figuresMs: number; windowMeanMs: number}> {
	const started = performance.now();
	const {session} = startLiveCli(['--node', benchNode], bench.env);
	try {
		let figuresMs = Number.NaN;
		await until(
			() => {
				const screen = session.screen();
				if (Number.isNaN(figuresMs) && /lifetime mean \d/.test(screen)) {
					figuresMs = performance.now() - started;
				}

				return /^mean \d/m.test(screen);
			},
			10_000,
			'the first frame with figures',
			10,
		);
		return {figuresMs, windowMeanMs: performance.now() - started};
	} finally {
		session.kill();
	}
}

export async function measureFirstFrame(bench: BenchServer, runs: number): Promise<FirstFrameResult> {
	const results = [];
	for (let run = 0; run < runs; run++) {
		results.push(await once(bench));
	}

	return {
		runs,
		medianFiguresMs: median(results.map((result) => result.figuresMs)),
		medianWindowMeanMs: median(results.map((result) => result.windowMeanMs)),
		allFiguresMs: results.map((result) => Math.round(result.figuresMs)),
	};
}
