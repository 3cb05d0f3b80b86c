// The context around a node's metrics, re-read on the Node object's cadence: the Node object (kubelet version, Ready
// condition, the pods while NotReady) and the node's Events. One loop each, the next read one refresh after the last
// ended; a pause or a stop aborts what is in flight. The one-node poller runs it beside its scrapes; the overview
// runs it only for the node opened from the table (not for every node of a big fleet).
import type {MetricsSource, NodeEvents, NodeInfo} from '../domain/types.js';
import {requestLoop} from './request-loop.js';

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

export function startNodeReads(
	source: Pick<MetricsSource, 'fetchNode' | 'fetchEvents'>,
	options: NodeReadsOptions,
	listener: NodeReadsListener,
): NodeReads {
	const {fetchNode, fetchEvents} = source;
	let stopped = false;
	let paused = false;
	const running = () => !stopped && !paused;
	// Context only: the metrics request reports reachability and RBAC problems, so a failure here keeps the last
	// answer shown rather than adding a second error (fetchEvents says a refusal in its answer).
	const every = (read: (signal: AbortSignal) => Promise<void>) =>
		requestLoop(async (signal) => {
			try {
				await read(signal);
			} catch {
				// The last answer stays shown (see above).
			}

			return options.refreshMs;
		}, running);
	const node =
		fetchNode &&
		every(async (signal) => {
			const info = await fetchNode.call(source, signal);
			if (!signal.aborted) listener.onNode?.(info);
		});
	const events =
		fetchEvents &&
		every(async (signal) => {
			const answer = await fetchEvents.call(source, signal);
			if (!signal.aborted) listener.onEvents?.(answer, options.now());
		});
	const loops = [node, events].filter((loop) => loop !== undefined);
	node?.schedule(options.firstNodeReadMs ?? 0);
	// No caller reads the Events before: the first read goes out at once.
	events?.schedule(0);
	return {
		stop() {
			stopped = true;
			for (const loop of loops) loop.halt();
		},
		setPaused(next) {
			if (next === paused || stopped) return;
			paused = next;
			for (const loop of loops) {
				if (paused) loop.halt();
				else if (!loop.busy) loop.schedule(0);
			}
		},
	};
}
