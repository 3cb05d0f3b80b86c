// Polls many nodes through one API server without loading it: at most `maxInflight` requests at once and at
// most `maxRps` request starts in any second. A request unanswered after `slotMs` gives its slot to the next node
// (a hung kubelet waits for its own timeout without holding up the fleet); it is never polled again while in
// flight. A cluster too large to poll every node each `intervalMs` within that rate gets a longer per-node interval
// instead (nodes × 1000 / maxRps ms), and says so (effectiveIntervalMs). Of the nodes due, the neediest goes first
// (`need`), then the longest unread. One node may be focused (the one opened from the table): it keeps its own
// interval and the rest slow down to stay within the rate. The server's 429 holds every node, and an API server
// that does not answer at all is retried by one request at a time, backing off as the one-node poller does.
// The clock and the timers are injected, so tests drive it with fake timers.
import {backoffDelay, retryDelay} from '../domain/backoff.js';
import {globalTimers, type Timers} from './engine.js';

/**
 * A poll's answer: true on success, false on a failure of that node, the wait the server asked for after one
 * (Retry-After; `fleet` when it holds every node: a 429 of the API server), or 'server-down' when the API server
 * itself did not answer (nothing reached any node).
 */
export type PollOutcome = boolean | {retryAfterSeconds: number; fleet?: boolean} | 'server-down';

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
	/** One request for one node (see PollOutcome). */
	poll(node: string, signal: AbortSignal): Promise<PollOutcome>;
	/** How urgent a node's read is, lower first (e.g. NotReady 0, critical 1, the rest 2). @default all equal */
	need?: (node: string) => number;
	/** Back-off cap after failures, ms (as the one-node poller's). */
	maxBackoffMs?: number;
	/**
	 * A request still unanswered after this long gives up its slot (it runs on to its own timeout): a few hung
	 * kubelets must not hold every slot while the rest of the fleet waits. At most maxInflight requests are overdue
	 * at once, so the API server never has more than 2 × maxInflight from pleg-top. @default 2000
	 */
	slotMs?: number;
};

/** Why no node is read for now: the server asked every client to wait (429), or it does not answer. */
type FleetHold = {why: 'throttled' | 'server-down'; until: number; failures: number};

export type Scheduler = {
	/** The nodes to poll: new ones are due at once, missing ones stop (their request is aborted). */
	setNodes(names: readonly string[]): void;
	/** Read this node as soon as a slot allows (its need rose: it turned NotReady). */
	readSoon(name: string): void;
	/** Poll this node every `intervalMs` (at most half the rate), the rest within what is left; null: none. */
	focus(name: string | null, intervalMs?: number): void;
	stop(): void;
	/** The per-node interval actually kept for the fleet (the focused node aside), ms. */
	readonly effectiveIntervalMs: number;
	/** The fleet's hold, while there is one. */
	readonly hold: FleetHold | null;
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

/** The focused node's interval: its own, at most half the rate, so the fleet is never starved, ms. */
export function focusIntervalMs(focusMs: number, maxRps: number): number {
	return Math.max(focusMs, 2000 / maxRps);
}

/** The focused node's interval and the rest's: the others share what the focused one leaves of the rate. */
function focusedIntervals(nodes: number, intervalMs: number, maxRps: number, focusMs: number): {focusMs: number; restMs: number} {
	const focus = focusIntervalMs(focusMs, maxRps);
	const left = maxRps - 1000 / focus;
	return {focusMs: focus, restMs: effectiveIntervalMs(Math.max(0, nodes - 1), intervalMs, left)};
}

type Entry = {dueAt: number; controller: AbortController | null; failures: number};

/** The default slotMs: a kubelet answers /metrics through the API server in well under a second when it answers. */
const defaultSlotMs = 2000;

/** Of the nodes due by `at`, the neediest (then the longest unread); else the one due soonest. */
function neediestDue(entries: ReadonlyMap<string, Entry>, at: number, rank: (name: string) => number): [string, Entry] | undefined {
	let best: [string, Entry] | undefined;
	let bestDue = false;
	let bestRank = 0;
	for (const pair of entries) {
		const entry = pair[1];
		if (entry.controller !== null) continue;
		const due = entry.dueAt <= at;
		const own = due ? rank(pair[0]) : 0;
		const better = best === undefined || (due === bestDue ? (own === bestRank ? entry.dueAt < best[1].dueAt : own < bestRank) : due);
		if (better) [best, bestDue, bestRank] = [pair, due, own];
	}

	return best;
}

/** The nodes and their turns: which node is read next, and when each is due after a read. */
function createQueue(options: SchedulerOptions) {
	const entries = new Map<string, Entry>();
	const need = options.need ?? (() => 0);
	let intervalMs = options.intervalMs;
	let focused: {name: string; intervalMs: number} | null = null;

	function retune(): void {
		if (focused !== null && entries.has(focused.name)) {
			const both = focusedIntervals(entries.size, options.intervalMs, options.maxRps, focused.intervalMs);
			focused = {name: focused.name, intervalMs: both.focusMs};
			intervalMs = both.restMs;
		} else {
			intervalMs = effectiveIntervalMs(entries.size, options.intervalMs, options.maxRps);
		}
	}

	const intervalOf = (name: string) => (focused?.name === name ? focused.intervalMs : intervalMs);
	/** The focused node first, then the neediest. */
	const rank = (name: string) => (focused?.name === name ? -1 : need(name));

	/** New nodes are due at once; missing ones are dropped and their request aborted. */
	function setNodes(names: readonly string[], at: number): void {
		const wanted = new Set(names);
		for (const [name, entry] of entries) {
			if (!wanted.has(name)) {
				entry.controller?.abort();
				entries.delete(name);
			}
		}

		for (const name of wanted) {
			if (!entries.has(name)) entries.set(name, {dueAt: at, controller: null, failures: 0});
		}

		retune();
	}

	return {
		entries,
		next: (at: number) => neediestDue(entries, at, rank),
		setNodes,
		intervalOf,
		get intervalMs() {
			return intervalMs;
		},
		focus(name: string | null, focusMs: number, at: number): void {
			focused = name === null ? null : {name, intervalMs: focusMs};
			retune();
			const entry = name === null ? undefined : entries.get(name);
			if (entry !== undefined) entry.dueAt = Math.min(entry.dueAt, at);
		},
		readSoon(name: string, at: number): void {
			const entry = entries.get(name);
			if (entry !== undefined && entry.failures === 0) entry.dueAt = Math.min(entry.dueAt, at);
		},
		/** The node's failures and next due time after a read that started at `startedAt` ended at `at`. */
		settle(name: string, entry: Entry, outcome: PollOutcome, startedAt: number, at: number): void {
			if (outcome === 'server-down') {
				// Not the node's fault: it is read again as soon as the server answers.
				entry.dueAt = startedAt;
				return;
			}

			const ok = outcome === true;
			entry.failures = ok ? 0 : entry.failures + 1;
			// Start to start on success; after a failure, back off from when it ended (as the one-node poller does).
			const asked = typeof outcome === 'object' ? outcome.retryAfterSeconds : undefined;
			const every = intervalOf(name);
			entry.dueAt = ok ? startedAt + every : at + retryDelay(asked, entry.failures, every, options.maxBackoffMs);
		},
	};
}

/** The fleet's hold: after a 429 every node waits as asked; while the server does not answer, one request at a time. */
function createHold(options: SchedulerOptions) {
	let hold: FleetHold | null = null;
	return {
		get current() {
			return hold;
		},
		/** Requests allowed at once now: none while held, one while probing a server that was down. */
		allowed(at: number): number {
			if (hold === null) return options.maxInflight;
			if (at < hold.until) return 0;
			return hold.why === 'server-down' ? 1 : options.maxInflight;
		},
		after(outcome: PollOutcome, at: number): void {
			if (outcome === 'server-down') {
				const failures = hold?.why === 'server-down' ? hold.failures + 1 : 1;
				hold = {why: 'server-down', failures, until: at + backoffDelay(failures, options.intervalMs, options.maxBackoffMs)};
			} else if (typeof outcome === 'object' && outcome.fleet === true) {
				const until = Math.max(hold?.until ?? 0, at + outcome.retryAfterSeconds * 1000);
				hold = {why: 'throttled', failures: (hold?.failures ?? 0) + 1, until};
			} else if (hold !== null && at >= hold.until) {
				// An answer after the wait: the server is back.
				hold = null;
			}
		},
	};
}

export function startScheduler(options: SchedulerOptions): Scheduler {
	const {now} = options;
	const queue = createQueue(options);
	const hold = createHold(options);
	const runner = createRunner(options, queue, hold);
	return {
		setNodes(names) {
			queue.setNodes(names, now());
			runner.pump();
		},
		readSoon(name) {
			queue.readSoon(name, now());
			runner.pump();
		},
		focus(name, intervalMs = options.intervalMs) {
			queue.focus(name, intervalMs, now());
			runner.pump();
		},
		stop: runner.stop,
		get effectiveIntervalMs() {
			return queue.intervalMs;
		},
		get hold() {
			return hold.current;
		},
		get requestCount() {
			return runner.requestCount;
		},
		get inflight() {
			return runner.slots.inflight;
		},
		get overdue() {
			return runner.slots.overdue;
		},
	};
}

/** Starts the next read whenever a slot, the rate and the hold allow, and settles each read into the queue. */
function createRunner(options: SchedulerOptions, queue: ReturnType<typeof createQueue>, hold: ReturnType<typeof createHold>) {
	const {maxInflight, now} = options;
	const timers = options.timers ?? globalTimers;
	// Starts are spaced at least this far apart, so no window of one second holds more than maxRps of them.
	const gapMs = 1000 / options.maxRps;
	const slots = createSlots(options, timers, () => pump());
	const alarm = createAlarm(timers, now, () => pump());
	let nextSlotAt = -Infinity;
	let requestCount = 0;
	let stopped = false;

	function pump(): void {
		while (!stopped) {
			const at = now();
			const allowed = hold.allowed(at);
			if (slots.inflight >= Math.min(maxInflight, allowed)) {
				if (allowed === 0) alarm.arm(hold.current!.until); // none allowed: held
				return;
			}

			const next = queue.next(Math.max(at, nextSlotAt));
			if (next === undefined) return;
			const startAt = Math.max(next[1].dueAt, nextSlotAt);
			if (startAt > at) {
				alarm.arm(startAt);
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
		const freeSlot = slots.take(() => stopped);
		const settle = (outcome: PollOutcome) => {
			freeSlot();
			if (!controller.signal.aborted) {
				entry.controller = null;
				const ended = now();
				hold.after(outcome, ended);
				queue.settle(name, entry, outcome, at, ended);
			}

			pump();
		};

		options.poll(name, controller.signal).then(settle, () => settle(false));
	}

	return {
		pump,
		slots,
		get requestCount() {
			return requestCount;
		},
		stop: (): void => {
			stopped = true;
			alarm.clear();
			for (const entry of queue.entries.values()) entry.controller?.abort();
		},
	};
}

/** The request slots: at most maxInflight held, and as many overdue ones (past slotMs) that gave theirs up. */
function createSlots(options: SchedulerOptions, timers: Timers, freed: () => void) {
	const slotMs = options.slotMs ?? defaultSlotMs;
	let inflight = 0;
	let overdue = 0;
	return {
		get inflight() {
			return inflight;
		},
		get overdue() {
			return overdue;
		},
		/** A slot for one request; given up after slotMs to the overdue count. Returns its release. */
		take(stopped: () => boolean): () => void {
			inflight++;
			let holdsSlot = true;
			const giveUp = timers.setTimeout(() => {
				if (holdsSlot && overdue < options.maxInflight && !stopped()) {
					holdsSlot = false;
					inflight--;
					overdue++;
					freed();
				}
			}, slotMs);
			return () => {
				timers.clearTimeout(giveUp);
				if (holdsSlot) inflight--;
				else overdue--;
			};
		},
	};
}

/** One timer for the next moment anything can start: set earlier, never later, than one already set. */
function createAlarm(timers: Timers, now: () => number, ring: () => void) {
	let timer: unknown;
	let timerAt = Infinity;
	return {
		arm(at: number): void {
			if (at >= timerAt) return;
			if (timer !== undefined) timers.clearTimeout(timer);
			timerAt = at;
			timer = timers.setTimeout(
				() => {
					timer = undefined;
					timerAt = Infinity;
					ring();
				},
				Math.max(0, at - now()),
			);
		},
		clear(): void {
			if (timer !== undefined) timers.clearTimeout(timer);
		},
	};
}
