// The context around a node's metrics, re-read on the Node object's cadence: the Node object (kubelet version, Ready
// condition, the pods while NotReady) and the node's Events. One loop each, the next read one refresh after the last
// ended; a pause or a stop aborts what is in flight. The one-node poller runs it beside its scrapes; the overview
// runs it only for the node opened from the table (not for every node of a big fleet).
import type {MetricsSource, NodeEvents, NodeInfo} from '../domain/types.js';

export type NodeReadsListener = {
	onNode?(node: NodeInfo): void;
	/** The node's Events, when the source has them; `at` when the answer came. */
	onEvents?(events: NodeEvents, at: number): void;
};

export type NodeReadsOptions = {
	/** How often both are re-read, ms. */
	refreshMs: number;
	/** When the Node object is first read, ms: 0 (at once), or later when the caller has just read it. @default 0 */
	firstNodeReadMs?: number;
	now: () => number;
};

export type NodeReads = {
	stop(): void;
	/** Paused, nothing is read: what is shown stays as it was. Resuming reads both at once. */
	setPaused(paused: boolean): void;
};

/** One loop: `read` every `refreshMs` after the last ended, until stopped. */
function loop(read: ((signal: AbortSignal) => Promise<void>) | undefined, refreshMs: number) {
	let timer: NodeJS.Timeout | undefined;
	let inFlight: AbortController | undefined;
	let running = false;
	async function run() {
		timer = undefined;
		const controller = new AbortController();
		inFlight = controller;
		try {
			await read!(controller.signal);
		} catch {
			// Context only: the metrics request reports reachability and RBAC problems, so a failure here keeps the last
			// answer shown rather than adding a second error (fetchEvents says a refusal in its answer).
		} finally {
			if (inFlight === controller) inFlight = undefined;
		}

		if (!controller.signal.aborted) schedule(refreshMs);
	}

	function schedule(delayMs: number) {
		if (running && read) timer = setTimeout(run, delayMs);
	}

	return {
		start(delayMs: number) {
			running = true;
			schedule(delayMs);
		},
		stop() {
			running = false;
			clearTimeout(timer);
			timer = undefined;
			inFlight?.abort();
			// Forgotten now, so a resume does not wait for the aborted request's rejection.
			inFlight = undefined;
		},
	};
}

export function startNodeReads(
	source: Pick<MetricsSource, 'fetchNode' | 'fetchEvents'>,
	options: NodeReadsOptions,
	listener: NodeReadsListener,
): NodeReads {
	const {fetchNode, fetchEvents} = source;
	const node = loop(
		fetchNode &&
			(async (signal) => {
				const info = await fetchNode.call(source, signal);
				if (!signal.aborted) listener.onNode?.(info);
			}),
		options.refreshMs,
	);
	const events = loop(
		fetchEvents &&
			(async (signal) => {
				const answer = await fetchEvents.call(source, signal);
				if (!signal.aborted) listener.onEvents?.(answer, options.now());
			}),
		options.refreshMs,
	);
	let stopped = false;
	let paused = false;
	node.start(options.firstNodeReadMs ?? 0);
	// No caller reads the Events before: the first read goes out at once.
	events.start(0);
	return {
		stop() {
			stopped = true;
			node.stop();
			events.stop();
		},
		setPaused(next) {
			if (next === paused || stopped) return;
			paused = next;
			if (paused) {
				node.stop();
				events.stop();
			} else {
				node.start(0);
				events.start(0);
			}
		},
	};
}
