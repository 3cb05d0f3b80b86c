// The overview's loops, outside React so the JSON-lines output, --once and the benchmark use them too:
// - through the API server: re-list the nodes every 30 s and poll each node's /proxy/metrics through the
//   scheduler (bounded in-flight requests and request rate), one FeedState per node;
// - from Prometheus: one fetch of every node's figures per interval.
// Each engine owns its timers and holds the state; listeners hear of every change.
import type {Prehistory} from '../domain/prometheus-history.js';
import type {FeedAction, FeedState} from '../domain/feed.js';
import {parsePlegSample} from '../domain/exposition/parse.js';
import type {FiguresSource} from '../sources/prometheus.js';
import type {MetricsSource, NodeInfo} from '../domain/types.js';
import {retryDelay} from '../domain/backoff.js';
import {toFailure} from '../sources/to-failure.js';
import {fleetHistoryLimit, prometheusFeedKind, type PrometheusFeed, type PrometheusFeedAction} from '../domain/prometheus-feed.js';
import {proxyFeedKind} from '../domain/proxy-feed.js';
import {startScheduler} from './scheduler.js';
import {listedNames} from '../domain/overview-state.js';
import {
	createStore,
	globalTimers,
	never,
	scopedEngine,
	seconds,
	systemNow,
	type Engine,
	type EngineCore,
	type FleetEngine,
	type Timers,
} from './engine.js';
import {startNodeReads, type NodeReads} from './node-reads.js';
import {defaultNodeRefreshMs} from './poller.js';

/** The overview's engines are engines (engine.ts) of every node. */
export type OverviewEngine<F> = Engine<F>;

/** What the proxy overview needs of the API server source. */
export type NodeFleet = {
	readonly label: string;
	listNodes(signal: AbortSignal): Promise<NodeInfo[]>;
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
	/** Re-list nodes this often, ms. @default 30000 */
	relistMs?: number;
	/** Re-read the opened node's Node object and Events this often, ms. @default the poller's 10 s */
	nodeRefreshMs?: number;
};

export function startProxyOverview(options: ProxyOverviewOptions): FleetEngine<FeedState> {
	const now = options.now ?? systemNow;
	const timers = options.timers ?? globalTimers;
	const relistMs = options.relistMs ?? 30_000;
	const store = createStore<FeedState, FeedAction>(proxyFeedKind, options.windowSeconds);
	const sources = new Map<string, MetricsSource>();
	const lister = new AbortController();
	let relistTimer: unknown;
	let stopped = false;
	// The node opened from the table: its Node object and Events, read only while it is open.
	let opened: {name: string; reads: NodeReads} | undefined;
	const sourceOf = (node: string) => {
		let source = sources.get(node);
		if (source === undefined) {
			source = options.fleet.forNode(node);
			sources.set(node, source);
		}

		return source;
	};

	const scheduler = startScheduler({
		intervalMs: options.intervalMs,
		maxInflight: options.maxInflight,
		maxRps: options.maxRps,
		now,
		timers,
		async poll(node, signal) {
			const source = sourceOf(node);
			const started = now();
			try {
				// The answer's Date is the node's clock: a row is judged on it from its first read.
				const {text, dateSeconds} = source.fetchMetricsDated
					? await source.fetchMetricsDated(signal)
					: {text: await source.fetchMetrics(signal), dateSeconds: null};
				const sample = parsePlegSample(text);
				const at = now();
				const scrape = {at, sample, latencyMs: at - started, dateSeconds};
				if (!signal.aborted) store.dispatch({type: 'feed', node, action: {type: 'scrape', scrape}}, at);
				return true;
			} catch (error) {
				const at = now();
				const failure = toFailure(error, source);
				if (!signal.aborted) store.dispatch({type: 'feed', node, action: {type: 'failure', failure, at}}, at);
				// The server's Retry-After, when it sent one, replaces this node's back-off.
				return failure.retryAfterSeconds === undefined ? false : {retryAfterSeconds: failure.retryAfterSeconds};
			}
		},
	});

	async function relist() {
		relistTimer = undefined;
		try {
			const nodes = await options.fleet.listNodes(lister.signal);
			if (stopped) return;
			const at = now();
			store.dispatch({type: 'nodes', nodes, at}, at);
			const names = listedNames(store.state);
			for (const name of sources.keys()) {
				if (!names.includes(name)) sources.delete(name);
			}

			scheduler.setNodes(names);
		} catch (error) {
			if (stopped) return;
			const at = now();
			store.dispatch({type: 'list-failure', failure: toFailure(error, options.fleet), at}, at);
		}

		// relist catches its own failures: the timer has nothing to await.
		if (!stopped) relistTimer = timers.setTimeout(() => void relist(), relistMs);
	}

	void relist();
	return {
		scope: 'fleet',
		kind: proxyFeedKind,
		get state() {
			return store.state;
		},
		label: options.fleet.label,
		cadence() {
			const effective = scheduler.effectiveIntervalMs;
			const count = listedNames(store.state).length;
			const stretched =
				effective > options.intervalMs
					? `, stretched from ${seconds(options.intervalMs)}: ${count} nodes at most ${options.maxRps} requests/s`
					: '';
			return `each node every ${seconds(effective)}${stretched} · ≤ ${options.maxInflight} at once`;
		},
		effectiveIntervalMs: () => scheduler.effectiveIntervalMs,
		subscribe: store.subscribe,
		now,
		// The overview has no pause key: its one-node screens show the figures as they stream in.
		paused: false,
		setPaused: () => undefined,
		open(node) {
			if (opened?.name === node) return;
			opened?.reads.stop();
			opened = undefined;
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
		mark: () => undefined,
		get requestCount() {
			return scheduler.requestCount;
		},
		ended: never,
		stop() {
			stopped = true;
			opened?.reads.stop();
			lister.abort();
			if (relistTimer !== undefined) timers.clearTimeout(relistTimer);
			scheduler.stop();
		},
	};
}

export type PrometheusOverviewOptions = {
	source: FiguresSource;
	intervalMs: number;
	now?: () => number;
	timers?: Timers;
	maxBackoffMs?: number;
	/** --prometheus NODE: the node's last 15 minutes, on their way; put on its chart when they come. */
	prehistory?: Promise<Prehistory>;
};

export function startPrometheusOverview(options: PrometheusOverviewOptions): Engine<PrometheusFeed> {
	const now = options.now ?? systemNow;
	const timers = options.timers ?? globalTimers;
	const {source} = options;
	const store = createStore<PrometheusFeed, PrometheusFeedAction>(prometheusFeedKind, source.windowSeconds);
	let timer: unknown;
	let controller: AbortController | undefined;
	let stopped = false;
	let paused = false;
	let failures = 0;
	// What Prometheus asked to wait after the last failure (Retry-After), s.
	let retryAfterSeconds: number | undefined;
	let requestCount = 0;

	async function fetch() {
		timer = undefined;
		controller = new AbortController();
		const {signal} = controller;
		const started = now();
		requestCount++;
		try {
			const answer = await source.fetchFigures(signal);
			if (signal.aborted) return;
			failures = 0;
			const at = now();
			// With --node the one node stays listed when Prometheus has nothing for it, so the screen can say so.
			const names = source.node === null ? [...answer.keys()] : [source.node];
			store.dispatch({type: 'names', names, at}, at);
			// One action for the whole answer: the node map is copied once per refresh, not once per node.
			const historyLimit = fleetHistoryLimit(names.length);
			const actions = names.map((name) => {
				const figures = answer.get(name);
				const action: PrometheusFeedAction = figures
					? {type: 'figures', figures, latencyMs: at - started, historyLimit}
					: {type: 'absent', at};
				return {node: name, action};
			});
			store.dispatch({type: 'feeds', actions}, at);
		} catch (error) {
			if (signal.aborted) return;
			failures++;
			const failure = toFailure(error, source);
			retryAfterSeconds = failure.retryAfterSeconds;
			const at = now();
			store.dispatch({type: 'list-failure', failure, at}, at);
			if (source.node !== null && store.state.nodes.size === 0) store.dispatch({type: 'names', names: [source.node], at}, at);
			const actions = listedNames(store.state).map((node) => ({node, action: {type: 'failure' as const, failure, at}}));
			store.dispatch({type: 'feeds', actions}, at);
		}

		// Start to start, so a big fleet's slow answer does not stretch the cadence; but always a rest of a quarter
		// interval, so an answer slower than the interval cannot keep pleg-top busy without a break.
		const rest = Math.max(options.intervalMs / 4, started + options.intervalMs - now());
		schedule(failures === 0 ? rest : retryDelay(retryAfterSeconds, failures, options.intervalMs, options.maxBackoffMs));
	}

	function schedule(delayMs: number) {
		// fetch catches its own failures: the timer has nothing to await.
		if (!stopped && !paused) timer = timers.setTimeout(() => void fetch(), delayMs);
	}

	timer = timers.setTimeout(() => void fetch(), 0);
	const {node} = source;
	if (node !== null) {
		void options.prehistory?.then((prehistory) => {
			if (stopped) return;
			const at = now();
			if (!store.state.nodes.has(node)) store.dispatch({type: 'names', names: [node], at}, at, false);
			// Not a read: JSON lines wait for an answer; the screen redraws with the chart filled.
			store.dispatch({type: 'feed', node, action: {type: 'prehistory', prehistory}}, at, false);
		});
	}

	const core: EngineCore<PrometheusFeed> = {
		kind: prometheusFeedKind,
		get state() {
			return store.state;
		},
		label: source.label,
		cadence: () => `every node from one set of queries every ${seconds(options.intervalMs)} · window [${source.windowSeconds}s]`,
		effectiveIntervalMs: () => options.intervalMs,
		subscribe: store.subscribe,
		now,
		get paused() {
			return paused;
		},
		setPaused(next) {
			if (next === paused || stopped) return;
			paused = next;
			if (paused) {
				if (timer !== undefined) timers.clearTimeout(timer);
				timer = undefined;
				controller?.abort();
			} else {
				schedule(0);
			}

			for (const name of listedNames(store.state)) store.notify(name, false, now());
			if (store.state.nodes.size === 0) store.notify(null, false, now());
		},
		mark: () => undefined,
		get requestCount() {
			return requestCount;
		},
		ended: never,
		stop() {
			stopped = true;
			if (timer !== undefined) timers.clearTimeout(timer);
			controller?.abort();
		},
	};
	// With a node (--prometheus with a node) the engine is that node's; without, every node's.
	return scopedEngine(core, source.node);
}
