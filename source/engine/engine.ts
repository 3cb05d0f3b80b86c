// The one interface every runner (live screen, JSON lines, --once) reads: an engine polls one node or every node
// of a cluster, owns every timer and the clock, and holds the state as the overview reducer keeps it, one feed per
// node. A one-node run is an engine of one node, so each runner is written once for both, and tells the two apart
// by the engine's `scope` where they differ (the one node's verdict, or the table).
import type {FeedKind, FeedReader, OverviewAction, OverviewState} from '../domain/fleet/overview-state.js';
import {initialOverviewState, overviewReducer} from '../domain/fleet/overview-state.js';
import {formatGoDuration} from '../domain/text/go-duration.js';
import type {ScrapeJobs} from '../domain/fleet/prometheus-feed.js';

/**
 * Called after every change: `node` is the node whose feed changed (null: the node list); `read` says the change
 * is a read of that node (a scrape or a failure), not a pause or a mark; `at` is when, on the engine's clock.
 */
export type EngineListener = (node: string | null, read: boolean, at: number) => void;

/** What every engine has, of one node or of many. */
export type EngineCore<F = unknown> = {
	/** How the engine's per-node feed is read (figures, status, history): the state's entries are read through it. */
	readonly kind: FeedReader<F>;
	readonly state: OverviewState<F>;
	/** The source, e.g. "worker-1 via https://10.0.0.1:6443" or "all nodes via https://10.0.0.1:6443". */
	readonly label: string;
	/** How often each node is read, in words, e.g. "each node every 2.5 s (50 nodes, --max-rps 20)". */
	cadence(): string;
	/** What holds the reads back now, each in a sentence for the header (a 429 wait, an absent server, a slow cycle). */
	notes?(): string[];
	/** The per-node interval kept, ms on the engine's clock (a replay's: the recorded one). */
	effectiveIntervalMs(): number;
	/**
	 * The interval a node opened from the table is read at, where it differs from the fleet's, ms. Known before the
	 * node is opened, so the first frame of its screen says it.
	 */
	openedIntervalMs?(): number;
	subscribe(listener: EngineListener): () => void;
	/** The engine's clock, ms since the epoch: the local one, a replay's recorded time, or the demo kubelet's. */
	now(): number;
	/** Paused: no request at all (not even the Node object), so nothing shown changes. */
	readonly paused: boolean;
	setPaused(paused: boolean): void;
	/**
	 * The node opened from the overview's table, null when back at the table: its Node object and Events are read
	 * while it is open, as `pleg-top NODE` reads them. Absent where there is nothing more to read (one node, Prometheus).
	 */
	open?(node: string | null): void;
	/** A baseline mark at `at` (one-node engines over /metrics text; others ignore it). */
	mark(at: number): void;
	/** The scrape job read and the other jobs seen (Prometheus, after its first answer); absent for other sources. */
	scrapeJobs?(): ScrapeJobs | null;
	/** Requests made so far, for tests and the bench. */
	readonly requestCount: number;
	/** Resolves when the source has nothing more to give (the end of a replay); never otherwise. */
	readonly ended: Promise<void>;
	stop(): void;
};

/** An engine of one node (`pleg-top NODE`, --demo, --replay, --kubelet-url, --prometheus with a node). */
export type NodeEngine<F = unknown> = EngineCore<F> & {
	readonly scope: 'node';
	/** The one node: its entry in the state is the run's. */
	readonly single: string;
	/** A source that reads the node's Events, before their first answer: --once waits for it too. */
	readonly awaitingEvents?: boolean;
};

/** An engine of every node of the cluster, or of those picked (-l, several names). */
export type FleetEngine<F = unknown> = EngineCore<F> & {readonly scope: 'fleet'};

/** The one interface every runner reads; each narrows on `scope` where one node and many differ. */
export type Engine<F = unknown> = NodeEngine<F> | FleetEngine<F>;

/**
 * `core` as the engine of the node `single`, or of every node when null: for an engine whose source decides (a
 * Prometheus source with or without a node). The tag is set on `core` itself, so its getters stay live.
 */
export function scopedEngine<F>(core: EngineCore<F>, single: string | null): Engine<F> {
	if (single === null) {
		const scope: FleetEngine['scope'] = 'fleet';
		return Object.assign(core, {scope});
	}

	const scope: NodeEngine['scope'] = 'node';
	return Object.assign(core, {scope, single});
}

/** Timers as the engines use them, injected by tests that drive time by hand. */
export type Timers = {
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
};

/** The global timers, looked up at each call (so node:test's mock timers apply). */
export const globalTimers: Timers = {
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout), // made by setTimeout above
};

/** The local clock. */
export const systemNow = (): number => Date.now();

export const never: Promise<void> = new Promise(() => undefined);

/** "2.5s": a cadence in Go's duration style, as every duration pleg-top shows. */
export function seconds(ms: number): string {
	return formatGoDuration(ms / 1000);
}

/** The overview state, its reducer and its listeners: what every engine holds. */
export function createStore<F, A>(kind: FeedKind<F, A>, windowSeconds: number) {
	const reduce = overviewReducer(kind);
	const listeners = new Set<EngineListener>();
	let state = initialOverviewState<F>(windowSeconds);
	const notify = (node: string | null, read: boolean, at: number) => {
		for (const listener of listeners) listener(node, read, at);
	};

	return {
		get state() {
			return state;
		},
		/** Applies `action`; `read` and `at` are passed to the listeners. */
		dispatch(action: OverviewAction<A>, at: number, read = action.type === 'feed' || action.type === 'feeds') {
			state = reduce(state, action);
			// A batch is heard as one read per node, as if each had come alone.
			if (action.type === 'feeds') for (const each of action.actions) notify(each.node, read, at);
			else notify(action.type === 'feed' ? action.node : null, read, at);
		},
		/** Tells the listeners of a change outside the state (a pause). */
		notify,
		// A property, not a method: each engine hands it on as its own `subscribe`.
		subscribe: (listener: EngineListener) => {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
	};
}
