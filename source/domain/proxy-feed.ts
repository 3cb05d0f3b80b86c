// The per-node feed of the overview when nodes are polled through the API server: the one-node FeedState and its
// reducer, unchanged, so a row and the one-node screen show exactly what `pleg-top --node NAME` would.
import {feedReducer, figuresAt, historyPoints, initialFeedState, type FeedAction, type FeedState} from './feed.js';
import type {FeedKind} from './overview-state.js';

export const proxyFeedKind: FeedKind<FeedState, FeedAction> = {
	initial: (name, windowSeconds) => initialFeedState({node: name, windowSeconds}),
	reduce: feedReducer,
	withNode: (feed, node) => feedReducer(feed, {type: 'node', node}),
	figures: figuresAt,
	status: (feed) => feed.status,
	history: historyPoints,
};
