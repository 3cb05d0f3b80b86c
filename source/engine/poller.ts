// The one loop that talks to a source. It owns every timer and the clock, so the rest of
// pleg-top stays pure. Like the kubelet's own wait.Until, the next request is scheduled one
// interval after the previous one ENDED: a slow API server stretches the cadence instead of
// piling up overlapping requests.
import {retryDelay} from '../domain/backoff.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import {toFailure} from '../sources/to-failure.js';
import type {Failure, MetricsSource, NodeEvents, NodeInfo, Scrape} from '../domain/types.js';

export type PollerListener = {
	onScrape(scrape: Scrape, text: string): void;
	onFailure(failure: Failure, at: number): void;
	onNode?(node: NodeInfo): void;
	/** The node's Events, read on the Node object's cadence when the source has them; `at` when the answer came. */
	onEvents?(events: NodeEvents, at: number): void;
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
	let nodeTimer: NodeJS.Timeout | undefined;
	let inFlight: AbortController | undefined;
	// One controller serves scrape after scrape until a pause or stop aborts it: an AbortSignal is an EventTarget,
	// and making one per scrape cost ~0.05 ms a tick. Every source removes its abort listener when a request ends.
	let metricsController = new AbortController();
	let nodeInFlight: AbortController | undefined;
	let eventsTimer: NodeJS.Timeout | undefined;
	let eventsInFlight: AbortController | undefined;

	const scheduleMetrics = (delayMs: number) => {
		if (!stopped && !paused) {
			// Each poll catches its own failures: the timer has nothing to await.
			metricsTimer = setTimeout(() => void pollMetrics(), delayMs);
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
			const {text, dateSeconds} = source.fetchMetricsDated
				? await source.fetchMetricsDated(controller.signal)
				: {text: await source.fetchMetrics(controller.signal), dateSeconds: null};
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

	const scheduleNode = (delayMs: number) => {
		if (!stopped && !paused && source.fetchNode) {
			nodeTimer = setTimeout(() => void pollNode(), delayMs);
		}
	};

	async function pollNode() {
		nodeTimer = undefined;
		if (!source.fetchNode) return;
		const controller = new AbortController();
		nodeInFlight = controller;
		try {
			const node = await source.fetchNode(controller.signal);
			if (!controller.signal.aborted) listener.onNode?.(node);
		} catch {
			// The metrics request reports reachability and RBAC problems; the Node object is extra
			// context, so a failure here keeps the last one shown rather than adding a second error.
		} finally {
			if (nodeInFlight === controller) nodeInFlight = undefined;
		}

		if (!controller.signal.aborted) scheduleNode(nodeRefreshMs);
	}

	const scheduleEvents = (delayMs: number) => {
		if (!stopped && !paused && source.fetchEvents) {
			eventsTimer = setTimeout(() => void pollEvents(), delayMs);
		}
	};

	async function pollEvents() {
		eventsTimer = undefined;
		if (!source.fetchEvents) return;
		const controller = new AbortController();
		eventsInFlight = controller;
		try {
			const events = await source.fetchEvents(controller.signal);
			if (!controller.signal.aborted) listener.onEvents?.(events, now());
		} catch {
			// fetchEvents answers a refusal or a failure in its `error`; it rejects only when aborted.
		} finally {
			if (eventsInFlight === controller) eventsInFlight = undefined;
		}

		if (!controller.signal.aborted) scheduleEvents(nodeRefreshMs);
	}

	scheduleMetrics(0);
	scheduleNode(options.firstNodeReadMs ?? 0);
	// No caller reads the Events before the engine starts: the first read goes out at once.
	scheduleEvents(0);

	return {
		stop() {
			stopped = true;
			clearTimeout(metricsTimer);
			clearTimeout(nodeTimer);
			clearTimeout(eventsTimer);
			inFlight?.abort();
			nodeInFlight?.abort();
			eventsInFlight?.abort();
		},
		setPaused(next: boolean) {
			if (next === paused || stopped) return;
			paused = next;
			if (paused) {
				// Nothing is read while paused, the Node object and the Events included: what is shown stays as it was.
				clearTimeout(metricsTimer);
				clearTimeout(nodeTimer);
				clearTimeout(eventsTimer);
				metricsTimer = undefined;
				nodeTimer = undefined;
				eventsTimer = undefined;
				// Forget the aborted requests now, so resuming does not wait for their rejection.
				inFlight?.abort();
				nodeInFlight?.abort();
				eventsInFlight?.abort();
				inFlight = undefined;
				nodeInFlight = undefined;
				eventsInFlight = undefined;
			} else {
				if (!inFlight) scheduleMetrics(0);
				if (!nodeInFlight) scheduleNode(0);
				if (!eventsInFlight) scheduleEvents(0);
			}
		},
		get requestCount() {
			return requestCount;
		},
	};
}
