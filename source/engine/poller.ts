// The one loop that talks to a source. It owns every timer and the clock, so the rest of
// pleg-top stays pure. Like the kubelet's own wait.Until, the next request is scheduled one
// interval after the previous one ENDED: a slow API server stretches the cadence instead of
// piling up overlapping requests.
import {retryDelay} from '../domain/backoff.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import {toFailure} from '../sources/to-failure.js';
import type {Failure, MetricsAnswer, MetricsSource, Scrape} from '../domain/types.js';
import {startNodeReads, type NodeReadsListener} from './node-reads.js';

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

/** The /metrics text with the answer's Date header (for the node's clock offset) where the source has it. */
async function fetchDated(source: MetricsSource, signal: AbortSignal): Promise<MetricsAnswer> {
	return source.fetchMetricsDated ? source.fetchMetricsDated(signal) : {text: await source.fetchMetrics(signal), dateSeconds: null};
}

/** The kubelet posts its node status every 10 s: the Node object is re-read as often. */
export const defaultNodeRefreshMs = 10_000;

export function startPoller(options: PollerOptions, listener: PollerListener): Poller {
	const {source, intervalMs} = options;
	const now = options.now ?? Date.now;
	const nodeRefreshMs = options.nodeRefreshMs ?? defaultNodeRefreshMs;
	let stopped = false;
	let paused = false;
	let failures = 0;
	// What the server asked to wait after the last failure (Retry-After), s.
	let retryAfterSeconds: number | undefined;
	let requestCount = 0;
	let metricsTimer: NodeJS.Timeout | undefined;
	let inFlight: AbortController | undefined;
	// One controller serves scrape after scrape until a pause or stop aborts it: an AbortSignal is an EventTarget,
	// and making one per scrape cost ~0.05 ms a tick. Every source removes its abort listener when a request ends.
	let metricsController = new AbortController();

	const scheduleMetrics = (delayMs: number) => {
		if (!stopped && !paused) {
			metricsTimer = setTimeout(pollMetrics, delayMs);
		}
	};

	async function pollMetrics() {
		metricsTimer = undefined;
		if (metricsController.signal.aborted) metricsController = new AbortController();
		const controller = metricsController;
		inFlight = controller;
		const started = now();
		requestCount++;
		try {
			const {text, dateSeconds} = await fetchDated(source, controller.signal);
			if (controller.signal.aborted) return;
			const sample = parsePlegSample(text);
			const at = now();
			failures = 0;
			listener.onScrape({at, sample, latencyMs: at - started, dateSeconds, ...(source.sameClock ? {sameClock: true} : {})}, text);
		} catch (error) {
			if (controller.signal.aborted) return;
			failures++;
			const failure = toFailure(error, source);
			retryAfterSeconds = failure.retryAfterSeconds;
			listener.onFailure(failure, now());
		} finally {
			if (inFlight === controller) inFlight = undefined;
		}

		scheduleMetrics(
			failures === 0 ? intervalMs : retryDelay(retryAfterSeconds, failures, intervalMs, options.maxBackoffMs, options.minBackoffMs),
		);
	}

	scheduleMetrics(0);
	const context = startNodeReads(source, {refreshMs: nodeRefreshMs, firstNodeReadMs: options.firstNodeReadMs, now}, listener);

	return {
		stop() {
			stopped = true;
			clearTimeout(metricsTimer);
			inFlight?.abort();
			context.stop();
		},
		setPaused(next: boolean) {
			if (next === paused || stopped) return;
			paused = next;
			if (paused) {
				// Nothing is read while paused, the Node object and the Events included: what is shown stays as it was.
				clearTimeout(metricsTimer);
				metricsTimer = undefined;
				// Forget the aborted request now, so resuming does not wait for its rejection.
				inFlight?.abort();
				inFlight = undefined;
			} else if (!inFlight) {
				scheduleMetrics(0);
			}

			context.setPaused(next);
		},
		get requestCount() {
			return requestCount;
		},
	};
}
