// The overview's loops, outside React so the JSON-lines output, --once and the benchmark use them too:
// - through the API server (proxy-overview.ts): the node list, listed then watched, and each node's /proxy/metrics
//   polled through the scheduler (bounded in-flight requests and request rate), one FeedState per node;
// - from Prometheus: one fetch of every node's figures per interval.
// Each engine owns its timers and holds the state; listeners hear of every change.
import type {Prehistory} from '../domain/history/prehistory.js';
import type {FiguresAnswer, FiguresSource} from '../sources/prometheus/source.js';
import type {Failure} from '../domain/types.js';
import {retryDelay} from '../domain/backoff.js';
import {toFailure} from '../sources/to-failure.js';
import {
	fleetHistoryLimit,
	prometheusFeedKind,
	type PrometheusFeed,
	type PrometheusFeedAction,
	type ScrapeJobs,
} from '../domain/fleet/prometheus-feed.js';
import {listedNames} from '../domain/fleet/overview-state.js';
import {createStore, globalTimers, never, scopedEngine, seconds, systemNow, type Engine, type EngineCore, type Timers} from './engine.js';

/** The overview's engines are engines (engine.ts) of every node. */
export type OverviewEngine<F> = Engine<F>;

export {startProxyOverview, type NodeFleet} from './proxy-overview.js';

export type PrometheusOverviewOptions = {
	source: FiguresSource;
	intervalMs: number;
	now?: () => number;
	timers?: Timers;
	maxBackoffMs?: number;
	/** --prometheus NODE: the node's last 15 minutes, on their way; put on its chart when they come. */
	prehistory?: Promise<Prehistory>;
};

type PrometheusStore = ReturnType<typeof createStore<PrometheusFeed, PrometheusFeedAction>>;

/**
 * One answer into the state. Every node it names is listed: those with figures, and those Prometheus knows without
 * any (a kubelet that stopped answering), which stay listed as unknown with why. With --node the one node stays
 * listed when Prometheus has nothing for it, so the screen can say so.
 */
function applyAnswer(store: PrometheusStore, source: FiguresSource, answer: FiguresAnswer, latencyMs: number, at: number) {
	const {figures, absent} = answer;
	const names = source.node === null ? [...figures.keys(), ...absent.keys()] : [source.node];
	store.dispatch({type: 'names', names, at}, at);
	// One action for the whole answer: the node map is copied once per refresh, not once per node.
	const historyLimit = fleetHistoryLimit(names.length);
	const actions = names.map((name) => {
		const each = figures.get(name);
		const action: PrometheusFeedAction = each
			? {type: 'figures', figures: each, latencyMs, historyLimit}
			: {type: 'absent', at, absence: absent.get(name)};
		return {node: name, action};
	});
	store.dispatch({type: 'feeds', actions}, at);
}

/** A failed fetch: the failure is every listed node's (and the one asked for, before any answer). */
function applyFailure(store: PrometheusStore, source: FiguresSource, failure: Failure, at: number) {
	store.dispatch({type: 'list-failure', failure, at}, at);
	if (source.node !== null && store.state.nodes.size === 0) store.dispatch({type: 'names', names: [source.node], at}, at);
	const actions = listedNames(store.state).map((node) => ({node, action: {type: 'failure' as const, failure, at}}));
	store.dispatch({type: 'feeds', actions}, at);
}

/** --prometheus NODE: the node's past, put on its chart when it comes (not a read: JSON lines wait for an answer). */
function applyPrehistory(store: PrometheusStore, node: string, prehistory: Promise<Prehistory>, now: () => number, stopped: () => boolean) {
	void prehistory.then((past) => {
		if (stopped()) return;
		const at = now();
		if (!store.state.nodes.has(node)) store.dispatch({type: 'names', names: [node], at}, at, false);
		store.dispatch({type: 'feed', node, action: {type: 'prehistory', prehistory: past}}, at, false);
	});
}

/** The refresh loop: one fetch of every node's figures per interval, backing off after failures; pause and stop. */
function prometheusLoop(options: PrometheusOverviewOptions, store: PrometheusStore, now: () => number, timers: Timers) {
	const {source} = options;
	let timer: unknown;
	let controller: AbortController | undefined;
	let failures = 0;
	// What Prometheus asked to wait after the last failure (Retry-After), s.
	let retryAfterSeconds: number | undefined;
	const loop = {stopped: false, paused: false, requestCount: 0, jobs: null as ScrapeJobs | null, pause, resume, stop}; // widened

	async function fetch() {
		timer = undefined;
		controller = new AbortController();
		const {signal} = controller;
		const started = now();
		loop.requestCount++;
		try {
			const answer = await source.fetchFigures(signal);
			if (signal.aborted) return;
			failures = 0;
			loop.jobs = answer.jobs;
			const at = now();
			applyAnswer(store, source, answer, at - started, at);
		} catch (error) {
			if (signal.aborted) return;
			failures++;
			const failure = toFailure(error, source);
			retryAfterSeconds = failure.retryAfterSeconds;
			applyFailure(store, source, failure, now());
		}

		// Start to start, so a big fleet's slow answer does not stretch the cadence; but always a rest of a quarter
		// interval, so an answer slower than the interval cannot keep pleg-top busy without a break.
		const rest = Math.max(options.intervalMs / 4, started + options.intervalMs - now());
		schedule(failures === 0 ? rest : retryDelay(retryAfterSeconds, failures, options.intervalMs, options.maxBackoffMs));
	}

	function schedule(delayMs: number) {
		// fetch catches its own failures: the timer has nothing to await.
		if (!loop.stopped && !loop.paused) timer = timers.setTimeout(() => void fetch(), delayMs);
	}

	function pause() {
		loop.paused = true;
		if (timer !== undefined) timers.clearTimeout(timer);
		timer = undefined;
		controller?.abort();
	}

	function resume() {
		loop.paused = false;
		schedule(0);
	}

	function stop() {
		loop.stopped = true;
		if (timer !== undefined) timers.clearTimeout(timer);
		controller?.abort();
	}

	timer = timers.setTimeout(() => void fetch(), 0);
	return loop;
}

export function startPrometheusOverview(options: PrometheusOverviewOptions): Engine<PrometheusFeed> {
	const now = options.now ?? systemNow;
	const timers = options.timers ?? globalTimers;
	const {source} = options;
	const store = createStore<PrometheusFeed, PrometheusFeedAction>(prometheusFeedKind, source.windowSeconds);
	const loop = prometheusLoop(options, store, now, timers);
	if (source.node !== null && options.prehistory) applyPrehistory(store, source.node, options.prehistory, now, () => loop.stopped);
	const core: EngineCore<PrometheusFeed> = {
		kind: prometheusFeedKind,
		get state() {
			return store.state;
		},
		// The source's label names the job read, known after the first answer.
		get label() {
			return source.label;
		},
		cadence: () => `every node from one set of queries every ${seconds(options.intervalMs)} · window [${source.windowSeconds}s]`,
		effectiveIntervalMs: () => options.intervalMs,
		subscribe: store.subscribe,
		now,
		get paused() {
			return loop.paused;
		},
		setPaused(next) {
			if (next === loop.paused || loop.stopped) return;
			if (next) loop.pause();
			else loop.resume();
			for (const name of listedNames(store.state)) store.notify(name, false, now());
			if (store.state.nodes.size === 0) store.notify(null, false, now());
		},
		scrapeJobs: () => loop.jobs,
		mark: () => undefined,
		get requestCount() {
			return loop.requestCount;
		},
		ended: never,
		stop: () => loop.stop(),
	};
	// With a node (--prometheus with a node) the engine is that node's; without, every node's.
	return scopedEngine(core, source.node);
}
