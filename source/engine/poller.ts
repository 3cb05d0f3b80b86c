// The one loop that talks to a source. It owns every timer and the clock, so the rest of
// pleg-top stays pure. Like the kubelet's own wait.Until, the next request is scheduled one
// interval after the previous one ENDED: a slow API server stretches the cadence instead of
// piling up overlapping requests.
import {retryDelay} from '../domain/backoff.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import {toFailure} from '../sources/to-failure.js';
import type {Failure, MetricsSource, Scrape} from '../domain/types.js';
import {startNodeReads, type NodeReadsListener} from './node-reads.js';
import {requestLoop} from './request-loop.js';

/** Scrapes and failures, and the Node object and Events read on their own cadence (node-reads.ts). */
export type PollerListener = NodeReadsListener & {
	onScrape(scrape: Scrape, text: string): void;
	onFailure(failure: Failure, at: number): void;
};

export type PollerOptions = {
	source: MetricsSource;
	intervalMs: number;
	/** How often the Node object (kubelet version, Ready condition) and the node's Events are re-read. */
	nodeRefreshMs?: number;
	/** When the Node object is first read, ms: 0 (at once), or later when the caller has just read it. */
	firstNodeReadMs?: number;
	/** Local clock, ms; injected by tests. */
	now?: () => number;
	/** Back-off after a failure starts at max(interval, 1 s) and doubles up to this, ms. */
	maxBackoffMs?: number;
	/** The 1 s floor of the first back-off, ms; only the soak test lowers it, to run thousands of faults quickly. */
	minBackoffMs?: number;
};

export type Poller = {
	stop(): void;
	setPaused(paused: boolean): void;
	/** Requests made so far, for tests and the bench. */
	readonly requestCount: number;
};

/** The kubelet posts its node status every 10 s: the Node object is re-read as often. */
export const defaultNodeRefreshMs = 10_000;

export function startPoller(options: PollerOptions, listener: PollerListener): Poller {
	const {source} = options;
	const now = options.now ?? Date.now;
	const nodeRefreshMs = options.nodeRefreshMs ?? defaultNodeRefreshMs;
	let stopped = false;
	let paused = false;
	const running = () => !stopped && !paused;
	const scrapes = scrapeStep(options, listener, now);
	const metrics = requestLoop(scrapes.step, running);
	// The Node object and the Events are context read beside the scrapes, on the Node object's cadence.
	const context = startNodeReads(source, {refreshMs: nodeRefreshMs, firstNodeReadMs: options.firstNodeReadMs, now}, listener);
	metrics.schedule(0);

	return {
		stop() {
			stopped = true;
			metrics.halt();
			context.stop();
		},
		setPaused(next: boolean) {
			if (next === paused || stopped) return;
			paused = next;
			// Nothing is read while paused, the Node object and the Events included: what is shown stays as it was.
			if (paused) metrics.halt();
			else if (!metrics.busy) metrics.schedule(0);
			context.setPaused(next);
		},
		get requestCount() {
			return scrapes.count;
		},
	};
}

/**
 * One scrape: the text parsed and handed on, or the failure; the wait before the next is the interval, or after a
 * failure the back-off (the server's Retry-After when it sent one). Counts the requests made.
 */
function scrapeStep(options: PollerOptions, listener: PollerListener, now: () => number) {
	const {source, intervalMs} = options;
	let failures = 0;
	// What the server asked to wait after the last failure (Retry-After), s.
	let retryAfterSeconds: number | undefined;
	const counter = {
		count: 0,
		step: async (signal: AbortSignal): Promise<number> => {
			const started = now();
			counter.count++;
			try {
				const {text, dateSeconds} = source.fetchMetricsDated
					? await source.fetchMetricsDated(signal)
					: {text: await source.fetchMetrics(signal), dateSeconds: null};
				if (signal.aborted) return intervalMs;
				const sample = parsePlegSample(text);
				const at = now();
				failures = 0;
				listener.onScrape({at, sample, latencyMs: at - started, dateSeconds, ...(source.sameClock ? {sameClock: true} : {})}, text);
			} catch (error) {
				if (signal.aborted) return intervalMs;
				failures++;
				const failure = toFailure(error, source);
				retryAfterSeconds = failure.retryAfterSeconds;
				listener.onFailure(failure, now());
			}

			return failures === 0 ? intervalMs : retryDelay(retryAfterSeconds, failures, intervalMs, options.maxBackoffMs, options.minBackoffMs);
		},
	};
	return counter;
}
