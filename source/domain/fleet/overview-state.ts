// The overview as a pure reducer: one feed per node, nodes that come and go. Generic over the per-node feed,
// because a node polled through the API server keeps the one-node FeedState (feed.ts) while a node read from
// Prometheus keeps the figures Prometheus answered (prometheus-feed.ts). No clock reads: times come in actions.
import type {LogView} from '../history/bounded-log.js';
import type {EventsFigures, Failure, FeedStatus, Figures, HistoryPoint, LastSeen, NodeInfo} from '../types.js';

/**
 * What a table row, a JSON line and the one-node screen need of one node at `now`. Not the history chart's points:
 * only the one-node screen draws them and reads them itself (kind.history), so the overview does not copy every
 * node's history, up to 3,600 points each, on every frame.
 */
export type NodeView = {
	name: string;
	figures: Figures | null;
	status: FeedStatus;
	node: NodeInfo | null;
	/** When the node stopped appearing in the node list (ms); null while listed. */
	goneSince: number | null;
	/** When the figures were read from the node (ms), when not the last good read (Prometheus: its scrape). */
	readAt?: number | null;
	/** How often the node is read, ms, when not pleg-top's own cycle (Prometheus: its scrape interval). */
	readEveryMs?: number;
};

/**
 * What an overview row reads of a node's figures (overview-rows.ts), as of its last good read: a part of Figures,
 * so a fleet of 10,000 nodes does not derive (and keep) a whole Figures for every node on every refresh.
 */
export type RowFigures = Pick<Figures, 'now' | 'kubeletVersion' | 'constants' | 'ready' | 'window'> & {
	lastSeen: Pick<LastSeen, 'ageSeconds' | 'countUnchangedSeconds' | 'neverSucceeded'>;
};

/** A NodeView whose figures are only what a row reads (readView); a NodeView is one. */
export type RowView = Omit<NodeView, 'figures'> & {figures: RowFigures | null};

/** How one kind of per-node feed is made, advanced and read. */
export type FeedKind<F, A> = {
	initial(name: string, windowSeconds: number): F;
	reduce(feed: F, action: A): F;
	/** Hands the Node object, read at `at` (ms), to the feed (the kubelet version and Ready condition show through it). */
	withNode(feed: F, node: NodeInfo, at: number): F;
	figures(feed: F, now: number): Figures | null;
	/** What a row reads of the figures at the last good read, where cheaper than figures(feed, lastGoodAt). */
	rowFigures?(feed: F): RowFigures | null;
	status(feed: F): FeedStatus;
	history(feed: F): LogView<HistoryPoint>;
	/** Kubelet restarts (counter resets) seen, where the feed counts them (a feed of /metrics text). */
	restarts?(feed: F): number;
	/**
	 * The node's Events at `now`, read or not from its metrics: a kubelet never read still has them. Absent: the feed
	 * keeps none (Prometheus).
	 */
	events?(feed: F, now: number): EventsFigures | null;
	/** When the figures were read from the node, ms, when that is not status.lastGoodAt (Prometheus' scrape). */
	readAt?(feed: F): number | null;
	/** How often the node is read, ms, when not the engine's cycle (Prometheus' scrape interval). */
	readEveryMs?(feed: F): number;
};

/** What a reader of the state needs of a feed kind: its figures, status and history, never its reducer. */
export type FeedReader<F> = Pick<
	FeedKind<F, never>,
	'figures' | 'rowFigures' | 'status' | 'history' | 'restarts' | 'events' | 'readAt' | 'readEveryMs'
>;

export type OverviewEntry<F> = {
	name: string;
	info: NodeInfo | null;
	feed: F;
	goneSince: number | null;
};

export type OverviewState<F> = {
	windowSeconds: number;
	nodes: ReadonlyMap<string, OverviewEntry<F>>;
	/** Why the last node listing failed; null after a good one. */
	listFailure: Failure | null;
	/** When the node list was last read (ms). */
	listedAt: number | null;
};

export type OverviewAction<A> =
	/** A fresh node list: new nodes are added, missing ones marked gone, and dropped once gone for goneKeepMs. */
	| {type: 'nodes'; nodes: NodeInfo[]; at: number}
	/** Changes a watch of the nodes brought: nodes added or changed (listed again), or deleted (gone from now). */
	| {type: 'node-changes'; changes: ReadonlyArray<{node: NodeInfo; deleted: boolean}>; at: number}
	/** Names only (Prometheus answers carry no Node objects): as 'nodes' without NodeInfo. */
	| {type: 'names'; names: string[]; at: number}
	| {type: 'list-failure'; failure: Failure; at: number}
	/** One listed node's Node object, read on its own at `at` (the node opened from the table): fresher than the list's. */
	| {type: 'node'; node: NodeInfo; at: number}
	| {type: 'feed'; node: string; action: A}
	/** Many nodes' actions at once (one Prometheus refresh): the node map is copied once, not once per node. */
	| {type: 'feeds'; actions: ReadonlyArray<{node: string; action: A}>};

/** A node missing from the list is shown as gone for this long, then dropped, ms. Two re-lists at 30 s. */
const defaultGoneKeepMs = 60_000;

export function initialOverviewState<F>(windowSeconds: number): OverviewState<F> {
	return {windowSeconds, nodes: new Map(), listFailure: null, listedAt: null};
}

/** The node list's changes to the state, for one feed kind. */
function listings<F, A>(kind: FeedKind<F, A>, goneKeepMs: number) {
	/** A node listed (anew) with `info`: its feed kept, told of the Node object; the opened node's pod count kept. */
	function entryWith(state: OverviewState<F>, name: string, info: NodeInfo | null, at: number): OverviewEntry<F> {
		const old = state.nodes.get(name);
		const base = old?.feed ?? kind.initial(name, state.windowSeconds);
		// The list counts no pods: a count read with the opened node's own Node object stays until its next read.
		const pods = old?.info?.pods;
		const withPods = info && pods !== undefined && info.pods === undefined ? {...info, pods} : info;
		return {name, info: withPods ?? old?.info ?? null, feed: withPods ? kind.withNode(base, withPods, at) : base, goneSince: null};
	}

	return {
		/** A watch's changes: added or changed nodes listed anew, deleted ones gone from `at`, long gone ones dropped. */
		changed: (state: OverviewState<F>, changes: ReadonlyArray<{node: NodeInfo; deleted: boolean}>, at: number): OverviewState<F> => {
			const nodes = new Map(state.nodes);
			for (const {node, deleted} of changes) {
				const old = nodes.get(node.name);
				if (!deleted) nodes.set(node.name, entryWith(state, node.name, node, at));
				else if (old !== undefined && old.goneSince === null) nodes.set(node.name, {...old, goneSince: at});
			}

			for (const [name, entry] of nodes) {
				if (entry.goneSince !== null && at - entry.goneSince >= goneKeepMs) nodes.delete(name);
			}

			return {...state, nodes};
		},
		/** A whole list: the nodes in it listed, the others gone (and dropped once gone for goneKeepMs). */
		listed: (state: OverviewState<F>, present: Array<{name: string; info: NodeInfo | null}>, at: number): OverviewState<F> => {
			const nodes = new Map<string, OverviewEntry<F>>();
			const seen = new Set(present.map((item) => item.name));
			for (const item of present) nodes.set(item.name, entryWith(state, item.name, item.info, at));
			for (const [name, old] of state.nodes) {
				if (seen.has(name)) continue;
				const goneSince = old.goneSince ?? at;
				if (at - goneSince < goneKeepMs) nodes.set(name, {...old, goneSince});
			}

			return {...state, nodes, listFailure: null, listedAt: at};
		},
	};
}

export function overviewReducer<F, A>(kind: FeedKind<F, A>, goneKeepMs = defaultGoneKeepMs) {
	const {changed, listed} = listings(kind, goneKeepMs);
	return function reduce(state: OverviewState<F>, action: OverviewAction<A>): OverviewState<F> {
		switch (action.type) {
			case 'nodes': {
				return listed(
					state,
					action.nodes.map((info) => ({name: info.name, info})),
					action.at,
				);
			}

			case 'node-changes': {
				return changed(state, action.changes, action.at);
			}

			case 'names': {
				return listed(
					state,
					action.names.map((name) => ({name, info: null})),
					action.at,
				);
			}

			case 'list-failure': {
				return {...state, listFailure: action.failure};
			}

			case 'node': {
				const entry = state.nodes.get(action.node.name);
				if (entry === undefined) {
					return state;
				}

				const nodes = new Map(state.nodes);
				nodes.set(entry.name, {...entry, info: action.node, feed: kind.withNode(entry.feed, action.node, action.at)});
				return {...state, nodes};
			}

			case 'feed': {
				const entry = state.nodes.get(action.node);
				if (entry === undefined) {
					return state;
				}

				const nodes = new Map(state.nodes);
				nodes.set(action.node, {...entry, feed: kind.reduce(entry.feed, action.action)});
				return {...state, nodes};
			}

			case 'feeds': {
				const nodes = new Map(state.nodes);
				for (const {node, action: each} of action.actions) {
					const entry = nodes.get(node);
					if (entry !== undefined) nodes.set(node, {...entry, feed: kind.reduce(entry.feed, each)});
				}

				return {...state, nodes};
			}
		}
	};
}

/** The names still listed (gone ones excluded), in list order: what the scheduler polls. */
export function listedNames<F>(state: OverviewState<F>): string[] {
	return [...state.nodes.values()].filter((entry) => entry.goneSince === null).map((entry) => entry.name);
}

export function nodeView<F>(kind: FeedReader<F>, entry: OverviewEntry<F>, now: number): NodeView {
	return viewWith(kind, entry, kind.figures(entry.feed, now));
}

function viewWith<F, V extends RowFigures>(kind: FeedReader<F>, entry: OverviewEntry<F>, figures: V | null) {
	// Every field in the literal, none added after: an added one moves the object's fields to a separate array.
	const view: RowView & {figures: V | null} = {
		name: entry.name,
		figures,
		status: kind.status(entry.feed),
		node: entry.info,
		goneSince: entry.goneSince,
		readAt: kind.readAt ? kind.readAt(entry.feed) : undefined,
		readEveryMs: kind.readEveryMs ? kind.readEveryMs(entry.feed) : undefined,
	};
	return view;
}

/** A node's last-seen age split at its last good read (overview-rows.ts judges the first, shows both). */
export type ScrapeAges = {
	/** The age the kubelet's figures gave at that read: the gauge's (else count unchanged), s; null without one. */
	atScrapeSeconds: number | null;
	/** How long ago that read was, s: pleg-top's own polling gap (or Prometheus' scrape), never the kubelet's. */
	sinceScrapeSeconds: number | null;
};

/**
 * The one place the overview turns clocks into ages. The figures carry the age at their own `now` (gauge time to
 * our clock); moved back to the read, that is what the kubelet reported then. A node-clock offset estimate, once
 * there is one, belongs here.
 */
export function scrapeAges(view: Pick<RowView, 'figures' | 'status' | 'readAt'>, now: number): ScrapeAges {
	const readAt = view.readAt === undefined ? view.status.lastGoodAt : view.readAt;
	const since = readAt === null ? null : Math.max(0, (now - readAt) / 1000);
	const {figures} = view;
	const ageThen = figures ? (figures.lastSeen.ageSeconds ?? figures.lastSeen.countUnchangedSeconds) : null;
	const figuresAfterRead = figures === null || readAt === null ? 0 : (figures.now - readAt) / 1000;
	return {atScrapeSeconds: ageThen === null ? null : Math.max(0, ageThen - figuresAfterRead), sinceScrapeSeconds: since};
}

/**
 * The node's view as of its last good read (what a row reads of the figures at that read's time), what the
 * overview's rows are built from. Derived each call: rowViews() remembers them.
 */
export function readView<F>(kind: FeedReader<F>, entry: OverviewEntry<F>): RowView {
	const figures = kind.rowFigures ? kind.rowFigures(entry.feed) : kind.figures(entry.feed, kind.status(entry.feed).lastGoodAt ?? 0);
	return viewWith(kind, entry, figures);
}

type ViewsOfState = {state: OverviewState<unknown>; views: RowView[]; byEntry: Map<unknown, RowView>};

/** Per feed kind, the views of the last state asked for (one generation: see rowViews). */
const lastViews = new WeakMap<object, ViewsOfState>();

/**
 * Every node's readView, in list order. A view changes only when its entry does (entries are replaced on every
 * action for their node), so a frame of N nodes derives views only for the nodes read since the last state asked
 * for. Only that last state's views are remembered, one generation per feed kind: remembering a view as long as its
 * entry lived kept three refreshes of every node's views at 10,000 nodes (the engine's state and React's two frames).
 */
export function rowViews<F>(kind: FeedReader<F>, state: OverviewState<F>): RowView[] {
	const last = lastViews.get(kind);
	if (last?.state === state) return last.views;
	const byEntry = new Map<unknown, RowView>();
	const views: RowView[] = [];
	for (const entry of state.nodes.values()) {
		const view = last?.byEntry.get(entry) ?? readView(kind, entry);
		byEntry.set(entry, view);
		views.push(view);
	}

	lastViews.set(kind, {state, views, byEntry});
	return views;
}
