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
} from '../../../source/domain/fleet/prometheus-feed.js';

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

test("once a node's history is full its buffer is never replaced: a fleet refreshed in step makes no new buffers", () => {
	const names = Array.from({length: 1000}, (_, i) => `node-${String(i).padStart(5, '0')}`);
	let feeds = names.map((name) => initialPrometheusFeed(name, 60));
	const moved: number[] = [];
	for (let refresh = 0; refresh < 400; refresh++) {
		const before = feeds.map((feed) => feed.history.buffer);
		feeds = feeds.map((feed) => {
			const figures = {
				node: feed.name,
				at: refresh * 1000,
				windowSeconds: 60,
				lastSeenAgeSeconds: 1,
				meanSeconds: 0.01,
			} as unknown as PrometheusFigures;
			return prometheusFeedReducer(feed, {type: 'figures', figures, latencyMs: 1, historyLimit: 100});
		});
		moved.push(feeds.filter((feed, i) => feed.history.buffer !== before[i]).length);
	}

	// Growing (room for 16, 34, 70 points, then the limit and its room) every node moves at once, as all started together.
	assert.deepEqual(
		moved.flatMap((count, refresh) => (count > 0 ? [`${refresh}: ${count}`] : [])),
		['0: 1000', '16: 1000', '34: 1000', '70: 1000'],
	);
	// Full (100 points and 12 of room), no node moves again. Buffers that moved their points whenever they filled
	// moved every node every 25 refreshes or so: 120 KB of new buffers a refresh per 1,000 nodes.
	const history = prometheusFeedKind.history(feeds[123]!);
	assert.deepEqual([history.length, history.at(0)!.at, history.at(99)!.at], [100, 300_000, 399_000]);
});
