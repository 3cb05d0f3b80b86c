// The Prometheus overview keeps fewer history points per node the bigger the fleet, so its memory stays bounded:
// 1,000,000 points for the whole fleet, an hour at one refresh a second for small fleets, never under a minute.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
	fleetHistoryLimit,
	initialPrometheusFeed,
	prometheusFeedKind,
	prometheusFeedReducer,
	type PrometheusFigures,
} from '../../source/domain/prometheus-feed.js';

test('points per node: 3600 up to 277 nodes, 1,000,000 / N above, at least 60', () => {
	assert.deepEqual([1, 277, 278, 1000, 10_000, 16_666, 16_667, 100_000].map(fleetHistoryLimit), [3600, 3600, 3597, 1000, 100, 60, 60, 60]);
});

test('a feed given historyLimit 3 keeps its last 3 points', () => {
	let feed = initialPrometheusFeed('n', 60);
	for (let i = 0; i < 5; i++) {
		const figures = {node: 'n', at: i * 1000, windowSeconds: 60, lastSeenAgeSeconds: 1, meanSeconds: i} as unknown as PrometheusFigures;
		feed = prometheusFeedReducer(feed, {type: 'figures', figures, latencyMs: 1, historyLimit: 3});
	}

	const history = prometheusFeedKind.history(feed);
	assert.deepEqual(
		Array.from({length: history.length}, (_, i) => history.at(i)!.windowMeanSeconds),
		[2, 3, 4],
	);
});
