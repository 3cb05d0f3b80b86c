// The two ways pleg-top runs without a screen: `--once` (two scrapes one window apart, one
// report, an exit code) and JSON lines (stdout is not a terminal: one line per scrape).
import {feedReducer, figuresAt, initialFeedState, type FeedState} from '../domain/feed.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import {jsonReport, textReport} from '../report/report.js';
import {exitCodeFor} from '../sources/failure.js';
import type {Failure, Figures, MetricsSource, Scrape} from '../domain/types.js';
import {startPoller} from '../engine/poller.js';
import {toFailure} from '../sources/to-failure.js';

export type Clock = {now(): number; sleep(ms: number): Promise<void>};

export const realClock: Clock = {
	now: Date.now,
	sleep: async (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

async function scrapeOnce(source: MetricsSource, clock: Clock): Promise<Scrape> {
	const started = clock.now();
	const text = await source.fetchMetrics(new AbortController().signal);
	const sample = parsePlegSample(text);
	const at = clock.now();
	return {at, sample, latencyMs: at - started};
}

export type OnceResult = {figures: Figures; failure: null} | {figures: null; failure: Failure};

/** Scrape, wait one window, scrape again: the figures a script gets from `--once`. */
export async function measureOnce(source: MetricsSource, windowSeconds: number, clock: Clock = realClock): Promise<OnceResult> {
	let state: FeedState = initialFeedState({node: source.node, windowSeconds});
	try {
		if (source.fetchNode) {
			state = feedReducer(state, {type: 'node', node: await source.fetchNode(new AbortController().signal)});
		}

		state = feedReducer(state, {type: 'scrape', scrape: await scrapeOnce(source, clock)});
		await clock.sleep(windowSeconds * 1000);
		state = feedReducer(state, {type: 'scrape', scrape: await scrapeOnce(source, clock)});
	} catch (error) {
		return {figures: null, failure: toFailure(error, source)};
	}

	return {figures: figuresAt(state, clock.now())!, failure: null};
}

/** 0 healthy (or not judgeable), 1 PLEG unhealthy, 2 configuration, 3 metrics could not be read. */
export function exitCodeForOnce(result: OnceResult): number {
	if (result.failure) return exitCodeFor(result.failure.kind);
	return result.figures.verdict.healthy === false ? 1 : 0;
}

export function formatFailure(failure: Failure): string {
	return [`pleg-top: ${failure.summary}`, ...failure.details.map((line) => `  ${line}`)].join('\n');
}

export function formatOnce(result: OnceResult, output: 'text' | 'json'): {stdout: string; stderr: string} {
	if (result.failure) return {stdout: '', stderr: formatFailure(result.failure) + '\n'};
	const body = output === 'json' ? JSON.stringify(jsonReport(result.figures), null, 2) : textReport(result.figures);
	return {stdout: body + '\n', stderr: ''};
}

/**
 * One JSON line per scrape until stopped. A failed scrape writes the last good figures marked
 * `stale` with the `error`, so a script sees both what is known and why it is old.
 */
export function streamJsonLines(
	options: {
		source: MetricsSource;
		intervalMs: number;
		windowSeconds: number;
		write: (line: string) => void;
		now?: () => number;
		/** Each accepted payload and its scrape time (the lab recorder). */
		onPayload?: (text: string, scrape: Scrape) => void;
	},
): {stop(): void} {
	const now = options.now ?? Date.now;
	let state = initialFeedState({node: options.source.node, windowSeconds: options.windowSeconds});
	const emit = (at: number, failure: Failure | null) => {
		const figures = figuresAt(state, at);
		// kubeletRestarts: counter resets seen since pleg-top started (the screen marks them R in the history).
		const report = figures ? {...jsonReport(figures), kubeletRestarts: state.restarts} : {node: options.source.node};
		const line = failure
			? {...report, time: new Date(at).toISOString(), stale: true, error: {kind: failure.kind, summary: failure.summary, details: failure.details}}
			: report;
		options.write(JSON.stringify(line) + '\n');
	};

	return startPoller(
		{source: options.source, intervalMs: options.intervalMs, now},
		{
			onScrape(scrape, text) {
				state = feedReducer(state, {type: 'scrape', scrape});
				// Recorded first: a line a script has read is already in the --record file.
				options.onPayload?.(text, scrape);
				emit(scrape.at, null);
			},
			onFailure(failure, at) {
				state = feedReducer(state, {type: 'failure', failure, at});
				emit(at, failure);
			},
			onNode(node) {
				state = feedReducer(state, {type: 'node', node});
			},
		},
	);
}
