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
	const {source} = options;
	const now = options.now ?? Date.now;
	const nodeRefreshMs = options.nodeRefreshMs ?? defaultNodeRefreshMs;
	let stopped = false;
	let paused = false;
	const running = () => !stopped && !paused;
	const scrapes = scrapeStep(options, listener, now);
	const metrics = requestLoop(scrapes.step, running);
	// The Node object and the Events are context read beside the scrapes, on the Node object's cadence.
	const node = refreshLoop(source.fetchNode?.bind(source), (info) => listener.onNode?.(info), nodeRefreshMs, running);
	const events = refreshLoop(source.fetchEvents?.bind(source), (answer) => listener.onEvents?.(answer, now()), nodeRefreshMs, running);
	const loops = [metrics, node, events].filter((loop) => loop !== null);

	metrics.schedule(0);
	node?.schedule(options.firstNodeReadMs ?? 0);
	// No caller reads the Events before the engine starts: the first read goes out at once.
	events?.schedule(0);

	return {
		stop() {
			stopped = true;
			for (const loop of loops) loop.halt();
		},
		setPaused(next: boolean) {
			if (next === paused || stopped) return;
			paused = next;
			// Nothing is read while paused, the Node object and the Events included: what is shown stays as it was.
			for (const loop of loops) {
				if (paused) loop.halt();
				else if (!loop.busy) loop.schedule(0);
			}
		},
		get requestCount() {
			return scrapes.count;
		},
	};
}

/** One request after another, each `delayMs` after the last ended, as long as `running` says so. */
type RequestLoop = {
	schedule(delayMs: number): void;
	/** A request is in flight. */
	readonly busy: boolean;
	/** Clears the timer and aborts the request in flight, forgotten at once so a resume does not wait for its rejection. */
	halt(): void;
};

/**
 * The loop of one kind of request: `step` makes one (it never rejects) and answers the wait before the next; an
 * aborted one schedules none. One controller serves request after request until `halt` aborts it: an AbortSignal
 * is an EventTarget, and making one per scrape cost ~0.05 ms a tick.
 */
function requestLoop(step: (signal: AbortSignal) => Promise<number>, running: () => boolean): RequestLoop {
	let timer: NodeJS.Timeout | undefined;
	let inFlight: AbortController | undefined;
	let controller = new AbortController();

	async function run() {
		timer = undefined;
		if (controller.signal.aborted) controller = new AbortController();
		const mine = controller;
		inFlight = mine;
		let nextMs: number;
		try {
			nextMs = await step(mine.signal);
		} finally {
			if (inFlight === mine) inFlight = undefined;
		}

		if (!mine.signal.aborted) schedule(nextMs);
	}

	function schedule(delayMs: number) {
		if (running()) timer = setTimeout(run, delayMs);
	}

	return {
		schedule,
		get busy() {
			return inFlight !== undefined;
		},
		halt() {
			clearTimeout(timer);
			timer = undefined;
			inFlight?.abort();
			inFlight = undefined;
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
		async step(signal: AbortSignal): Promise<number> {
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

/**
 * The Node object or the node's Events, re-read every `refreshMs` when the source has them (null when it has not).
 * A failure keeps the last answer shown: the scrape reports reachability and RBAC problems, and fetchEvents answers
 * a refusal in its `error` (it rejects only when aborted).
 */
function refreshLoop<T>(
	fetch: ((signal: AbortSignal) => Promise<T>) | undefined,
	deliver: (answer: T) => void,
	refreshMs: number,
	running: () => boolean,
): RequestLoop | null {
	if (fetch === undefined) return null;
	return requestLoop(async (signal) => {
		try {
			const answer = await fetch(signal);
			if (!signal.aborted) deliver(answer);
		} catch {
			// The last answer stays shown (see above).
		}

		return refreshMs;
	}, running);
}
