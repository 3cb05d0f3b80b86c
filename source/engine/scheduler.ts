// Polls many nodes through one API server without loading it: at most `maxInflight` requests at once and at
// most `maxRps` request starts in any second. A request unanswered after `slotMs` gives its slot to the next node
// (a hung kubelet waits for its own timeout without holding up the fleet); it is never polled again while in flight. A cluster too large to poll every node each `intervalMs` within
// that rate gets a longer per-node interval instead (nodes × 1000 / maxRps ms), and says so (effectiveIntervalMs).
// The clock and the timers are injected, so tests drive it with fake timers.
import {retryDelay} from '../domain/backoff.js';
import {globalTimers, type Timers} from './engine.js';

export type {Timers} from './engine.js';

/** A poll's answer: true on success, false on a failure, or the wait the server asked for after one (Retry-After). */
export type PollOutcome = boolean | {retryAfterSeconds: number};

export type SchedulerOptions = {
	/** Wanted time between two requests to the same node (start to start), ms. */
	intervalMs: number;
	maxInflight: number;
	/** Request starts per second, for all nodes together. */
	maxRps: number;
	/** Local clock, ms. */
	now: () => number;
	/** Default: the global setTimeout/clearTimeout, looked up at each call (so mocked timers apply). */
	timers?: Timers;
	/**
	 * One request for one node: resolves true on success, false on a failure (which backs that node off), or the
	 * wait the server asked for after a failure (Retry-After), which is kept instead of the back-off.
	 */
	poll(node: string, signal: AbortSignal): Promise<PollOutcome>;
	/** Back-off cap after failures, ms (as the one-node poller's). */
	maxBackoffMs?: number;
	/**
	 * A request still unanswered after this long gives up its slot (it runs on to its own timeout): a few hung
	 * kubelets must not hold every slot while the rest of the fleet waits. At most maxInflight requests are overdue
	 * at once, so the API server never has more than 2 × maxInflight from pleg-top. @default 2000
	 */
	slotMs?: number;
};

export type Scheduler = {
	/** The nodes to poll: new ones are due at once, missing ones stop (their request is aborted). */
	setNodes(names: readonly string[]): void;
	stop(): void;
	/** The per-node interval actually kept, ms: max(intervalMs, nodes × 1000 / maxRps). */
	readonly effectiveIntervalMs: number;
	readonly requestCount: number;
	/** Requests holding a slot (at most maxInflight). */
	readonly inflight: number;
	/** Requests past slotMs that gave their slot up (at most maxInflight). */
	readonly overdue: number;
};

/** max(wanted, nodes × 1000 / maxRps): the interval at which every node can be polled within the rate bound, ms. */
export function effectiveIntervalMs(nodes: number, intervalMs: number, maxRps: number): number {
	return Math.max(intervalMs, (nodes * 1000) / maxRps);
}

type Entry = {dueAt: number; controller: AbortController | null; failures: number};

/** The default slotMs: a kubelet answers /metrics through the API server in well under a second when it answers. */
export const defaultSlotMs = 2000;

export function startScheduler(options: SchedulerOptions): Scheduler {
	const {maxInflight, maxRps, now} = options;
	const timers = options.timers ?? globalTimers;
	// Starts are spaced at least this far apart, so no window of one second holds more than maxRps of them.
	const gapMs = 1000 / maxRps;
	const entries = new Map<string, Entry>();
	let intervalMs = options.intervalMs;
	let nextSlotAt = -Infinity;
	const slotMs = options.slotMs ?? defaultSlotMs;
	let inflight = 0;
	let overdue = 0;
	let requestCount = 0;
	let timer: unknown;
	let timerAt = Infinity;
	let stopped = false;

	function earliestDue(): [string, Entry] | undefined {
		let best: [string, Entry] | undefined;
		for (const pair of entries) {
			if (pair[1].controller === null && (best === undefined || pair[1].dueAt < best[1].dueAt)) {
				best = pair;
			}
		}

		return best;
	}

	function arm(at: number): void {
		if (at >= timerAt) {
			return;
		}

		if (timer !== undefined) {
			timers.clearTimeout(timer);
		}

		timerAt = at;
		timer = timers.setTimeout(
			() => {
				timer = undefined;
				timerAt = Infinity;
				pump();
			},
			Math.max(0, at - now()),
		);
	}

	function pump(): void {
		while (!stopped && inflight < maxInflight) {
			const next = earliestDue();
			if (next === undefined) {
				return;
			}

			const at = now();
			const startAt = Math.max(next[1].dueAt, nextSlotAt);
			if (startAt > at) {
				arm(startAt);
				return;
			}

			start(next[0], next[1], at);
		}
	}

	function start(name: string, entry: Entry, at: number): void {
		const controller = new AbortController();
		entry.controller = controller;
		nextSlotAt = at + gapMs;
		requestCount++;
		const freeSlot = takeSlot();
		const settle = (outcome: PollOutcome) => {
			freeSlot();
			if (!controller.signal.aborted) {
				entry.controller = null;
				settleEntry(entry, outcome, at);
			}

			pump();
		};

		options.poll(name, controller.signal).then(settle, () => settle(false));
	}

	/** A slot for one request; given up after slotMs to the overdue count (at most maxInflight). Returns its release. */
	function takeSlot(): () => void {
		inflight++;
		let holdsSlot = true;
		const giveUp = timers.setTimeout(() => {
			if (holdsSlot && overdue < maxInflight && !stopped) {
				holdsSlot = false;
				inflight--;
				overdue++;
				pump();
			}
		}, slotMs);
		return () => {
			timers.clearTimeout(giveUp);
			if (holdsSlot) inflight--;
			else overdue--;
		};
	}

	/** The node's failures and next due time after a request that started at `startedAt` ended now with `outcome`. */
	function settleEntry(entry: Entry, outcome: PollOutcome, startedAt: number): void {
		const ok = outcome === true;
		entry.failures = ok ? 0 : entry.failures + 1;
		// Start to start on success; after a failure, back off from when it ended (as the one-node poller does).
		const asked = typeof outcome === 'object' ? outcome.retryAfterSeconds : undefined;
		entry.dueAt = ok ? startedAt + intervalMs : now() + retryDelay(asked, entry.failures, intervalMs, options.maxBackoffMs);
	}

	/** New nodes are due at once; missing ones are dropped and their request aborted. */
	function setNodes(names: readonly string[]): void {
		const wanted = new Set(names);
		for (const [name, entry] of entries) {
			if (!wanted.has(name)) {
				entry.controller?.abort();
				entries.delete(name);
			}
		}

		const at = now();
		for (const name of wanted) {
			if (!entries.has(name)) {
				entries.set(name, {dueAt: at, controller: null, failures: 0});
			}
		}

		intervalMs = effectiveIntervalMs(entries.size, options.intervalMs, maxRps);
		pump();
	}

	function stop(): void {
		stopped = true;
		if (timer !== undefined) {
			timers.clearTimeout(timer);
		}

		for (const entry of entries.values()) {
			entry.controller?.abort();
		}
	}

	return {
		setNodes,
		stop,
		get effectiveIntervalMs() {
			return intervalMs;
		},
		get requestCount() {
			return requestCount;
		},
		get inflight() {
			return inflight;
		},
		get overdue() {
			return overdue;
		},
	};
}
