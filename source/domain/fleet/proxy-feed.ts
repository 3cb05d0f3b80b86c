// The per-node feed of the overview when nodes are polled through the API server: the one-node FeedState and its
// reducer, unchanged, so a row and the one-node screen show exactly what `pleg-top --node NAME` would.
import {logView} from '../history/bounded-log.js';
import {eventsAt, feedReducer, figuresAt, initialFeedState, type FeedAction, type FeedState} from '../feed.js';
import type {FeedKind} from './overview-state.js';
import type {Figures} from '../types.js';

/**
 * figuresAt() remembering its last answer: the same feed object at the same `now` gives the same figures (the state
 * is immutable and figuresAt pure), so the live screen's frame and the terminal title, which both read each scrape
 * at its own time, derive them once. One entry: a call for another feed or time replaces it. The figures are
 * shared, so no reader may change them (none does: they are props and report input).
 */
export function lastFiguresMemo(): (feed: FeedState, now: number) => Figures | null {
	let lastFeed: FeedState | null = null;
	let lastNow = 0;
	let last: Figures | null = null;
	return (feed, now) => {
		if (feed !== lastFeed || !Object.is(now, lastNow)) {
			last = figuresAt(feed, now);
			lastFeed = feed;
			lastNow = now;
		}

		return last;
	};
}

export const proxyFeedKind: FeedKind<FeedState, FeedAction> = {
	initial: (name, windowSeconds) => initialFeedState({node: name, windowSeconds}),
	reduce: feedReducer,
	withNode: (feed, node, at) => feedReducer(feed, {type: 'node', node, at}),
	figures: lastFiguresMemo(),
	status: (feed) => feed.status,
	history: (feed) => logView(feed.history),
	restarts: (feed) => feed.restarts,
	events: eventsAt,
};
