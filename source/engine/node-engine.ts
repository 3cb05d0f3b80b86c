// One node read from its /metrics text (through the API server, from the kubelet itself, the demo kubelet or a
// replay): the poller's loop fed into the one-node FeedState, held as an overview of one node, so the live screen,
// JSON lines and --once read it exactly as they read the cluster overview.
import type {FeedAction, FeedState} from '../domain/feed.js';
import {proxyFeedKind} from '../domain/fleet/proxy-feed.js';
import type {MetricsSource, NodeInfo, Scrape} from '../domain/types.js';
import type {Prehistory} from '../domain/history/prehistory.js';
import {createStore, never, seconds, systemNow, type NodeEngine} from './engine.js';
import {defaultNodeRefreshMs, startPoller, type PollerListener, type PollerOptions} from './poller.js';

export type NodeEngineOptions = {
	source: MetricsSource;
	/** Real ms from the end of one request to the start of the next (0 for a replay, which paces itself). */
	pollMs: number;
	/** The same cadence on the engine's clock, as the status line shows it, ms. @default pollMs */
	shownIntervalMs?: number;
	windowSeconds: number;
	/** Real ms between reads of the Node object. @default the poller's 10 s */
	nodeRefreshMs?: number;
	/** The Node object just read by the caller (its first request): shown at once, and not read again at once. */
	node?: NodeInfo | null;
	/** The engine's clock, ms since the epoch. @default the local clock */
	now?: () => number;
	/** Each accepted payload and its scrape (the lab recorder). */
	onPayload?: (text: string, scrape: Scrape) => void;
	/** Each baseline mark (the lab recorder). */
	onMark?: (at: number) => void;
	/** When the source runs out (a replay's end). */
	ended?: Promise<void>;
	/** Marks set from outside (a replayed `b`): subscribe, get the unsubscribe. */
	marks?: (listener: (at: number) => void) => () => void;
	/** The node's past from Prometheus (--history-from), on its way: put before the scrapes when it comes. */
	prehistory?: Promise<Prehistory>;
	/** Back-off bounds of the poller (the soak test lowers them). */
	maxBackoffMs?: number;
	minBackoffMs?: number;
};

export function startNodeEngine(options: NodeEngineOptions): NodeEngine<FeedState> {
	const {source} = options;
	const now = options.now ?? systemNow;
	const name = source.node;
	const store = createStore<FeedState, FeedAction>(proxyFeedKind, options.windowSeconds);
	let paused = false;
	let eventsAnswered = false;
	// The Node object may carry another spelling of the name (a kubelet URL's node): the entry keeps the asked one.
	const listNode = (node: NodeInfo, at: number) => {
		store.dispatch({type: 'nodes', nodes: [{...node, name}], at}, at);
	};

	store.dispatch({type: 'names', names: [name], at: now()}, now());
	if (options.node) listNode(options.node, now());
	const poller = startPoller(
		pollerOptions(options, now),
		feedFromPoller((action, at, read) => store.dispatch({type: 'feed', node: name, action}, at, read), options.onPayload, {
			onNode(node) {
				listNode(node, now());
			},
			onEventsAnswered() {
				eventsAnswered = true;
			},
		}),
	);
	let stopped = false;
	// Not a read of the node's figures: the screen redraws with the chart filled, JSON lines wait for a scrape.
	void options.prehistory?.then((prehistory) => {
		if (!stopped) store.dispatch({type: 'feed', node: name, action: {type: 'prehistory', prehistory}}, now(), false);
	});
	const shownMs = options.shownIntervalMs ?? options.pollMs;
	const engine: NodeEngine<FeedState> = {
		scope: 'node',
		kind: proxyFeedKind,
		get state() {
			return store.state;
		},
		label: source.label,
		single: name,
		cadence: () => `every ${seconds(shownMs)}`,
		effectiveIntervalMs: () => shownMs,
		subscribe: store.subscribe,
		now,
		get paused() {
			return paused;
		},
		setPaused(next) {
			if (next === paused) return;
			paused = next;
			poller.setPaused(next);
			store.dispatch({type: 'feed', node: name, action: {type: 'pause', paused: next}}, now(), false);
		},
		mark(at) {
			store.dispatch({type: 'feed', node: name, action: {type: 'mark', at}}, at, false);
			options.onMark?.(at);
		},
		get requestCount() {
			return poller.requestCount;
		},
		get awaitingEvents() {
			return source.fetchEvents !== undefined && !eventsAnswered;
		},
		ended: options.ended ?? never,
		stop() {
			stopped = true;
			unsubscribeMarks?.();
			poller.stop();
		},
	};
	// A replayed `b` marks the screen and the lab session as the key did when it was recorded.
	const unsubscribeMarks = options.marks?.((at) => {
		engine.mark(at);
	});
	return engine;
}

/** The poller's cadence; a Node object the caller has just read is not read again at once. */
function pollerOptions(options: NodeEngineOptions, now: () => number): PollerOptions {
	return {
		source: options.source,
		intervalMs: options.pollMs,
		now,
		nodeRefreshMs: options.nodeRefreshMs,
		firstNodeReadMs: options.node ? (options.nodeRefreshMs ?? defaultNodeRefreshMs) : 0,
		maxBackoffMs: options.maxBackoffMs,
		minBackoffMs: options.minBackoffMs,
	};
}

/** What the poller reads becomes the node's feed actions; a Node read and an events answer also go to the engine. */
function feedFromPoller(
	feed: (action: FeedAction, at: number, read?: boolean) => void,
	onPayload: NodeEngineOptions['onPayload'],
	engine: {onNode: (node: NodeInfo) => void; onEventsAnswered: () => void},
): PollerListener {
	return {
		onScrape(scrape, text) {
			// Recorded first: a line a script has read is already in the --record file.
			onPayload?.(text, scrape);
			feed({type: 'scrape', scrape}, scrape.at);
		},
		onFailure(failure, at) {
			feed({type: 'failure', failure, at}, at);
		},
		onNode: engine.onNode,
		onEvents(events, at) {
			engine.onEventsAnswered();
			// Not a read of the node's figures: JSON lines write no line for it; the screen redraws.
			feed({type: 'events', events, at}, at, false);
		},
	};
}
