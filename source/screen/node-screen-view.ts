// What the one-node dashboard shows of one node of an engine at `now`: the same for `pleg-top NODE` and for a node
// opened from the overview. A node not (or no longer) in the state shows as waiting for its first scrape.
import type {Engine} from '../engine/engine.js';
import {noReadYet} from '../domain/feed.js';
import {nodeView, type OverviewState} from '../domain/fleet/overview-state.js';
import type {LogView} from '../domain/history/bounded-log.js';
import type {EventsFigures, FeedStatus, Figures, HistoryPoint, NodeInfo} from '../domain/types.js';

export type NodeScreenView = {
	figures: Figures | null;
	status: FeedStatus;
	history: LogView<HistoryPoint>;
	node: NodeInfo | null;
	/** The node's Events, also before its kubelet was ever read (then there are no figures to carry them). */
	events: EventsFigures | null;
};

export function nodeScreenView<F>(
	engine: Pick<Engine<F>, 'kind' | 'paused'>,
	state: OverviewState<F>,
	name: string,
	now: number,
): NodeScreenView {
	const entry = state.nodes.get(name);
	const view = entry ? nodeView(engine.kind, entry, now) : null;
	return {
		figures: view?.figures ?? null,
		// The engine holds the pause, whatever kind of feed it keeps.
		status: {...(view?.status ?? noReadYet), paused: engine.paused},
		history: entry ? engine.kind.history(entry.feed) : [],
		node: view?.node ?? null,
		events: entry && engine.kind.events ? engine.kind.events(entry.feed, now) : null,
	};
}
