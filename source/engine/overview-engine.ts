// The overview's loops, outside React so the JSON-lines output, --once and the benchmark use them too:
// - through the API server (proxy-overview.ts): the node list, listed then watched, and each node's /proxy/metrics
//   polled through the scheduler (bounded in-flight requests and request rate), one FeedState per node;
// - from Prometheus: one fetch of every node's figures per interval.
// Each engine owns its timers and holds the state; listeners hear of every change.
import type {Prehistory} from '../domain/prometheus-history.js';
import type {FiguresSource} from '../sources/prometheus.js';
import {retryDelay} from '../domain/backoff.js';
import {toFailure} from '../sources/to-failure.js';
import {fleetHistoryLimit, prometheusFeedKind, type PrometheusFeed, type PrometheusFeedAction} from '../domain/prometheus-feed.js';
import {listedNames} from '../domain/overview-state.js';
import {createStore, globalTimers, never, scopedEngine, seconds, systemNow, type Engine, type EngineCore, type Timers} from './engine.js';

/** The overview's engines are engines (engine.ts) of every node. */
export type OverviewEngine<F> = Engine<F>;

export {startProxyOverview, type NodeFleet, type ProxyOverviewOptions} from './proxy-overview.js';

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
