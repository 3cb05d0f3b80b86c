// The overview through the API server: the node list (listed, then watched) is the fleet's spine, and each node's
// /proxy/metrics is polled through the scheduler (bounded in-flight requests and request rate), one FeedState per
// node. Of the nodes due, the neediest is read first: NotReady, then critical or unhealthy at the last read, then
// the longest unread. The node opened from the table is polled at its own interval while it is open.
import type {FeedAction, FeedState} from '../domain/feed.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import type {Failure, MetricsSource} from '../domain/types.js';
import {ageBand} from '../domain/health/health.js';
import {genericThresholdSeconds} from '../domain/health/kubelet-constants.js';
import {timeOfDay} from '../domain/text/format.js';
import {listedNames, readView, scrapeAges} from '../domain/fleet/overview-state.js';
import {proxyFeedKind} from '../domain/fleet/proxy-feed.js';
import {toFailure} from '../sources/to-failure.js';
import {focusIntervalMs, startScheduler, type PollOutcome, type Scheduler} from './scheduler.js';
import {createStore, globalTimers, never, seconds, systemNow, type FleetEngine, type Timers} from './engine.js';
import {startNodeReads, type NodeReads} from './node-reads.js';
import {startNodeWatch, type NodeLister} from './node-watch.js';
import {defaultNodeRefreshMs} from './poller.js';

/** What the proxy overview needs of the API server source. */
export type NodeFleet = NodeLister & {
	forNode(node: string): MetricsSource;
};

export type ProxyOverviewOptions = {
	fleet: NodeFleet;
	intervalMs: number;
	windowSeconds: number;
	maxInflight: number;
	maxRps: number;
	now?: () => number;
	timers?: Timers;
	/** Re-list nodes this often when they cannot be watched, ms. @default 30000 */
	relistMs?: number;
	/** Re-read the opened node's Node object and Events this often, ms. @default the poller's 10 s */
	nodeRefreshMs?: number;
};

type Store = ReturnType<typeof createStore<FeedState, FeedAction>>;

/** Read order: NotReady first, then PLEG critical or unhealthy at the last read, then the rest. */
const need = {notReady: 0, critical: 1, rest: 2} as const;

export function startProxyOverview(options: ProxyOverviewOptions): FleetEngine<FeedState> {
	const now = options.now ?? systemNow;
	const timers = options.timers ?? globalTimers;
	const store = createStore<FeedState, FeedAction>(proxyFeedKind, options.windowSeconds);
	const sources = sourcesOf(options.fleet);
	// Each node's need from its last read (the Ready part is read from the node list at each turn).
	const readNeeds = new Map<string, number>();
	const needOf = (name: string): number => {
		const ready = store.state.nodes.get(name)?.info?.ready?.status;
		return ready === 'False' || ready === 'Unknown' ? need.notReady : (readNeeds.get(name) ?? need.rest);
	};

	const scheduler = startScheduler({
		intervalMs: options.intervalMs,
		maxInflight: options.maxInflight,
		maxRps: options.maxRps,
		now,
		timers,
		need: needOf,
		poll: pollOf(store, sources.of, now, (name) => readNeeds.set(name, needAfterRead(store, name, now()))),
	});
	const watch = watchNodes(options, store, scheduler, {now, timers, needOf, sources, readNeeds});
	const opened = openedNode(options, store, scheduler, sources.of, now);
	return {
		scope: 'fleet',
		kind: proxyFeedKind,
		get state() {
			return store.state;
		},
		label: options.fleet.label,
		cadence: () => cadenceOf(options, scheduler, listedNames(store.state).length),
		notes: () => notesOf(scheduler, now()),
		effectiveIntervalMs: () => scheduler.effectiveIntervalMs,
		openedIntervalMs: () => focusIntervalMs(options.intervalMs, options.maxRps),
		subscribe: store.subscribe,
		now,
		// The overview has no pause key: its one-node screens show the figures as they stream in.
		paused: false,
		setPaused: () => undefined,
		open: opened.open,
		mark: () => undefined,
		get requestCount() {
			return scheduler.requestCount;
		},
		ended: never,
		stop() {
			opened.stop();
			watch.stop();
			scheduler.stop();
		},
	};
}

/** Each node's source, made once and dropped with the node. */
function sourcesOf(fleet: NodeFleet) {
	const sources = new Map<string, MetricsSource>();
	return {
		of: (node: string): MetricsSource => {
			let source = sources.get(node);
			if (source === undefined) {
				source = fleet.forNode(node);
				sources.set(node, source);
			}

			return source;
		},
		keep: (names: readonly string[]): void => {
			const kept = new Set(names);
			for (const name of sources.keys()) if (!kept.has(name)) sources.delete(name);
		},
	};
}

/** One read of one node's metrics, into the store; its outcome as the scheduler weighs it. */
function pollOf(store: Store, sourceOf: (node: string) => MetricsSource, now: () => number, afterRead: (node: string) => void) {
	return async (node: string, signal: AbortSignal): Promise<PollOutcome> => {
		const source = sourceOf(node);
		const started = now();
		try {
			// Dated, so the node's clock offset is learnt as `pleg-top NODE` learns it.
			const {text, dateSeconds} = source.fetchMetricsDated
				? await source.fetchMetricsDated(signal)
				: {text: await source.fetchMetrics(signal), dateSeconds: null};
			const sample = parsePlegSample(text);
			const at = now();
			if (!signal.aborted) {
				store.dispatch({type: 'feed', node, action: {type: 'scrape', scrape: {at, sample, latencyMs: at - started, dateSeconds}}}, at);
				afterRead(node);
			}

			return true;
		} catch (error) {
			const at = now();
			const failure = toFailure(error, source);
			if (!signal.aborted) store.dispatch({type: 'feed', node, action: {type: 'failure', failure, at}}, at);
			return outcomeOf(failure);
		}
	};
}

/**
 * A Retry-After on a proxied metrics call is the API server's 429 (its 503s there are the kubelet's): every node
 * waits. A request that reached no server at all (refused, reset, no route) is the API server's absence, not the
 * node's.
 */
function outcomeOf(failure: Failure): PollOutcome {
	if (failure.retryAfterSeconds !== undefined) return {retryAfterSeconds: failure.retryAfterSeconds, fleet: true};
	if ((failure.kind === 'network' && !/cut off/.test(failure.summary)) || failure.kind === 'tls') return 'server-down';
	return false;
}

/** The node's need after a read: critical or unhealthy by the age the kubelet gave at that read. */
function needAfterRead(store: Store, name: string, at: number): number {
	const entry = store.state.nodes.get(name);
	if (entry === undefined) return need.rest;
	const view = readView(proxyFeedKind, entry);
	const age = scrapeAges(view, at).atScrapeSeconds;
	if (view.figures === null || age === null) return need.rest;
	const band = ageBand(age, view.figures.constants);
	return band === 'critical' || band === 'unhealthy' ? need.critical : need.rest;
}

type WatchContext = {
	now: () => number;
	timers: Timers;
	needOf: (name: string) => number;
	sources: ReturnType<typeof sourcesOf>;
	/** The needs from the last reads: a node no longer listed is forgotten. */
	readNeeds: Map<string, number>;
};

/** The node list, listed then watched, into the store; the scheduler told of the nodes, and of a node turned NotReady. */
function watchNodes(options: ProxyOverviewOptions, store: Store, scheduler: Scheduler, context: WatchContext) {
	const {now} = context;
	const listedAgain = () => {
		const names = listedNames(store.state);
		context.sources.keep(names);
		const kept = new Set(names);
		for (const name of context.readNeeds.keys()) if (!kept.has(name)) context.readNeeds.delete(name);
		scheduler.setNodes(names);
	};

	return startNodeWatch(
		options.fleet,
		{relistMs: options.relistMs ?? 30_000, timers: context.timers},
		{
			onList(nodes) {
				const at = now();
				store.dispatch({type: 'nodes', nodes, at}, at);
				listedAgain();
			},
			onChanges(changes) {
				const at = now();
				const before = new Map(changes.map(({node}) => [node.name, context.needOf(node.name)]));
				store.dispatch({type: 'node-changes', changes, at}, at);
				listedAgain();
				// A node that just turned NotReady is read at the next slot, not a cycle later.
				for (const [name, was] of before) if (context.needOf(name) < was) scheduler.readSoon(name);
			},
			onFailure(failure) {
				const at = now();
				store.dispatch({type: 'list-failure', failure, at}, at);
			},
		},
	);
}

/** The node opened from the table: polled at its own interval, its Node object and Events read while it is open. */
function openedNode(
	options: ProxyOverviewOptions,
	store: Store,
	scheduler: Scheduler,
	sourceOf: (node: string) => MetricsSource,
	now: () => number,
) {
	let opened: {name: string; reads: NodeReads} | undefined;
	let stopped = false;
	return {
		open: (node: string | null): void => {
			if (opened?.name === node) return;
			opened?.reads.stop();
			opened = undefined;
			scheduler.focus(node === null || stopped ? null : node, options.intervalMs);
			if (node === null || stopped) return;
			// Not reads of the node's figures (JSON lines write no line for them); the screen redraws.
			const reads = startNodeReads(
				sourceOf(node),
				{refreshMs: options.nodeRefreshMs ?? defaultNodeRefreshMs, now},
				{
					onNode(info) {
						const at = now();
						// The list's spelling of the name keys the entry (as the one-node engine keeps the asked one).
						store.dispatch({type: 'node', node: {...info, name: node}, at}, at, false);
					},
					onEvents(events, at) {
						store.dispatch({type: 'feed', node, action: {type: 'events', events, at}}, at, false);
					},
				},
			);
			opened = {name: node, reads};
		},
		stop(): void {
			stopped = true;
			opened?.reads.stop();
		},
	};
}

/** How often each node is read, within which bounds. */
function cadenceOf(options: ProxyOverviewOptions, scheduler: Scheduler, count: number): string {
	const effective = scheduler.effectiveIntervalMs;
	const stretched =
		effective > options.intervalMs
			? `, stretched from ${seconds(options.intervalMs)}: ${count} nodes at most ${options.maxRps} requests/s`
			: '';
	return `each node every ${seconds(effective)}${stretched} · ≤ ${options.maxInflight} at once`;
}

/**
 * What holds the reads back: a cycle longer than the kubelet's threshold (a stall can then come and go between two
 * reads of a node), a 429 wait, an API server that does not answer.
 */
function notesOf(scheduler: Scheduler, at: number): string[] {
	const notes: string[] = [];
	const threshold = genericThresholdSeconds * 1000;
	if (scheduler.effectiveIntervalMs > threshold) {
		notes.push(
			`a cycle (${seconds(scheduler.effectiveIntervalMs)}) is longer than the ${seconds(threshold)} NotReady threshold: a stall can come and go unseen; --prometheus reads every node at once`,
		);
	}

	const {hold} = scheduler;
	if (hold?.why === 'throttled' && at < hold.until) {
		notes.push(`throttled: the API server asked to wait (429); no node is read until ${timeOfDay(hold.until)}`);
	}

	if (hold?.why === 'server-down') {
		notes.push(
			`the API server does not answer (${hold.failures} ${hold.failures === 1 ? 'try' : 'tries'}): one request at a time, the next at ${timeOfDay(hold.until)}`,
		);
	}

	return notes;
}
