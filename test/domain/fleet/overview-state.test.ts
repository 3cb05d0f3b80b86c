// The overview reducer: nodes that come and go, and per-node feeds kept across re-lists.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {NodeInfo} from '../../../source/domain/types.js';
import {proxyFeedKind} from '../../../source/domain/fleet/proxy-feed.js';
import {
	initialOverviewState,
	listedNames,
	nodeView,
	overviewReducer,
	readView,
	rowViews,
	scrapeAges,
} from '../../../source/domain/fleet/overview-state.js';
import type {FeedState} from '../../../source/domain/feed.js';
import {nodeScreenView} from '../../../source/screen/node-screen-view.js';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';

const info = (name: string, kubeletVersion = 'v1.28.4'): NodeInfo => ({
	name,
	kubeletVersion,
	ready: {status: 'True', reason: 'KubeletReady', message: null, since: null},
});
const reduce = overviewReducer(proxyFeedKind, 60_000);
const sample = parsePlegSample('# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1000\n');

describe('overview state', () => {
	test("a watch's changes: a changed node's Ready is taken, a new one added, a deleted one gone and dropped 60 s on", () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('b')], at: 0});
		const notReady: NodeInfo = {
			...info('a'),
			ready: {status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy', since: 5000},
		};
		state = reduce(state, {
			type: 'node-changes',
			changes: [
				{node: notReady, deleted: false},
				{node: info('c'), deleted: false},
				{node: info('b'), deleted: true},
			],
			at: 5000,
		});
		assert.deepEqual(listedNames(state), ['a', 'c']);
		assert.equal(state.nodes.get('a')?.info?.ready?.status, 'False');
		assert.equal(state.nodes.get('a')?.feed.node?.ready?.message, 'PLEG is not healthy');
		assert.equal(state.nodes.get('b')?.goneSince, 5000);
		state = reduce(state, {type: 'node-changes', changes: [{node: info('c'), deleted: false}], at: 65_000});
		assert.equal(state.nodes.has('b'), false);
	});

	test('the same name with another uid (deleted and made again) starts the window again, counted as a restart', () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [{...info('a'), uid: 'one'}], at: 0});
		state = reduce(state, {type: 'feed', node: 'a', action: {type: 'scrape', scrape: {at: 1000, sample, latencyMs: 5}}});
		state = reduce(state, {type: 'nodes', nodes: [{...info('a'), uid: 'one'}], at: 2000});
		assert.equal(state.nodes.get('a')?.feed.latest?.at, 1000);
		state = reduce(state, {type: 'node-changes', changes: [{node: {...info('a'), uid: 'two'}, deleted: false}], at: 3000});
		const feed = state.nodes.get('a')!.feed;
		assert.deepEqual([feed.latest, feed.scrapes.end - feed.scrapes.start, feed.restarts, feed.lastRestartAt], [null, 0, 1, 3000]);
	});

	test('a node missing from the list is marked gone, kept for 60 s, then dropped; a new one is added', () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('b')], at: 0});
		state = reduce(state, {type: 'feed', node: 'b', action: {type: 'scrape', scrape: {at: 1000, sample, latencyMs: 5}}});
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('c')], at: 30_000});
		assert.deepEqual(listedNames(state), ['a', 'c']);
		assert.equal(state.nodes.get('b')?.goneSince, 30_000);
		// The gone node keeps its last figures while it is shown.
		assert.equal(state.nodes.get('b')?.feed.latest?.at, 1000);
		// 30 s later it has been gone 30 s < 60 s: still shown.
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('c')], at: 60_000});
		assert.ok(state.nodes.has('b'));
		// 60 s after it went: dropped.
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('c')], at: 90_000});
		assert.deepEqual([...state.nodes.keys()], ['a', 'c']);
	});

	test('a node that comes back is listed again with the feed it had', () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a')], at: 0});
		state = reduce(state, {type: 'feed', node: 'a', action: {type: 'scrape', scrape: {at: 1000, sample, latencyMs: 5}}});
		state = reduce(state, {type: 'nodes', nodes: [], at: 30_000});
		state = reduce(state, {type: 'nodes', nodes: [info('a', 'v1.29.0')], at: 40_000});
		const entry = state.nodes.get('a');
		assert.equal(entry?.goneSince, null);
		assert.equal(entry?.feed.latest?.at, 1000);
		// The new Node object reaches the feed: the version shown is the Node's.
		assert.equal(entry?.feed.node?.kubeletVersion, 'v1.29.0');
	});

	test("node: one node's own Node object read (the opened one) replaces its list entry; a re-list keeps its pod count", () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('b')], at: 0});
		const lost: NodeInfo = {
			name: 'a',
			kubeletVersion: 'v1.28.4',
			ready: {status: 'Unknown', reason: 'NodeStatusUnknown', message: null, since: 5000},
			pods: {count: 7, error: null},
		};
		state = reduce(state, {type: 'node', node: lost, at: 6000});
		assert.deepEqual(state.nodes.get('a')?.info, lost);
		// The feed has it too: the figures' Ready and pods come from there.
		assert.deepEqual(state.nodes.get('a')?.feed.node, lost);
		assert.deepEqual(state.nodes.get('b')?.info, info('b'));
		// The list carries no pod count: the one read stays until the node's next read.
		state = reduce(state, {type: 'nodes', nodes: [{...lost, pods: undefined}, info('b')], at: 30_000});
		assert.deepEqual(state.nodes.get('a')?.info?.pods, {count: 7, error: null});
		assert.deepEqual(state.nodes.get('a')?.feed.node?.pods, {count: 7, error: null});
		// A node not listed is not added by its own read.
		const before = state;
		state = reduce(state, {type: 'node', node: info('z'), at: 31_000});
		assert.equal(state, before);
	});

	test("the one-node screen's Events come from the feed also while it has no figures (a kubelet never read)", () => {
		let state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a')], at: 0});
		const event = {type: 'Warning', reason: 'NodeNotReady', message: 'gone', count: 2, lastTimestamp: 40, source: 'node-controller'};
		state = reduce(state, {type: 'feed', node: 'a', action: {type: 'events', events: {events: [event], error: null}, at: 50_000}});
		const view = nodeScreenView({kind: proxyFeedKind, paused: false}, state, 'a', 100_000);
		assert.equal(view.figures, null);
		// Last seen at 40 s, read at 100 s: 60 s ago.
		assert.deepEqual(view.events, {items: [{...event, ageSeconds: 60}], error: null});
	});

	test('a feed action for a node that is not listed changes nothing', () => {
		const state = initialOverviewState<ReturnType<typeof proxyFeedKind.initial>>(10);
		assert.equal(reduce(state, {type: 'feed', node: 'x', action: {type: 'pause', paused: true}}), state);
	});

	test("the overview's views read no node's history; the one-node screen reads its own node's, once", () => {
		const reads: string[] = [];
		const kind = {
			...proxyFeedKind,
			history(feed: FeedState) {
				reads.push(feed.nodeName);
				return proxyFeedKind.history(feed);
			},
		};
		const reduceCounted = overviewReducer(kind, 60_000);
		let state = initialOverviewState<FeedState>(10);
		state = reduceCounted(state, {type: 'nodes', nodes: [info('a'), info('b'), info('c')], at: 0});
		for (const node of ['a', 'b', 'c']) {
			for (const at of [1000, 2000]) {
				state = reduceCounted(state, {type: 'feed', node, action: {type: 'scrape', scrape: {at, sample, latencyMs: 5}}});
			}
		}

		const views = [...state.nodes.values()].map((entry) => nodeView(kind, entry, 3000));
		assert.deepEqual(
			views.map((view) => view.name),
			['a', 'b', 'c'],
		);
		assert.deepEqual(reads, []);
		const screen = nodeScreenView({kind, paused: false}, state, 'b', 3000);
		assert.deepEqual(reads, ['b']);
		assert.deepEqual(
			Array.from({length: screen.history.length}, (_, index) => screen.history.at(index)?.at),
			[1000, 2000],
		);
		assert.deepEqual(nodeScreenView({kind, paused: false}, state, 'gone', 3000).history, []);
	});

	test('feeds: many nodes in one action, the earlier state untouched; a name not listed is skipped', () => {
		let state = initialOverviewState<FeedState>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('b')], at: 0});
		const before = state;
		const scrape = {type: 'scrape' as const, scrape: {at: 1000, sample, latencyMs: 5}};
		state = reduce(state, {
			type: 'feeds',
			actions: [
				{node: 'a', action: scrape},
				{node: 'b', action: scrape},
				{node: 'zz', action: scrape},
			],
		});
		assert.deepEqual(
			[...state.nodes.values()].map((entry) => entry.feed.latest?.at),
			[1000, 1000],
		);
		assert.ok(!state.nodes.has('zz'));
		assert.equal(before.nodes.get('a')!.feed.latest, null);
	});

	test('rowViews: the figures at the last read, the same view until its entry changes, one state remembered; scrapeAges from it', () => {
		let state = initialOverviewState<FeedState>(10);
		state = reduce(state, {type: 'nodes', nodes: [info('a'), info('b')], at: 0});
		// The gauge says 1000 s (Unix); read at 1,003 s: the kubelet's age at the read was 3 s.
		state = reduce(state, {type: 'feed', node: 'a', action: {type: 'scrape', scrape: {at: 1_003_000, sample, latencyMs: 5}}});
		const views = rowViews(proxyFeedKind, state);
		const [first, b] = views;
		assert.deepEqual(
			views.map((view) => view.name),
			['a', 'b'],
		);
		assert.equal(first!.figures!.now, 1_003_000);
		assert.deepEqual(readView(proxyFeedKind, state.nodes.get('a')!), first);
		assert.equal(rowViews(proxyFeedKind, state), views);
		// 10 s later: 3 s at the read, read 10 s ago, whether from the view at the read or at now.
		assert.deepEqual(scrapeAges(first!, 1_013_000), {atScrapeSeconds: 3, sinceScrapeSeconds: 10});
		assert.deepEqual(scrapeAges(nodeView(proxyFeedKind, state.nodes.get('a')!, 1_013_000), 1_013_000), {
			atScrapeSeconds: 3,
			sinceScrapeSeconds: 10,
		});
		const earlier = state;
		state = reduce(state, {type: 'feed', node: 'a', action: {type: 'scrape', scrape: {at: 1_004_000, sample, latencyMs: 5}}});
		const later = rowViews(proxyFeedKind, state);
		// b's entry did not change: its view is the one derived before; a's is new.
		assert.equal(later[1], b);
		assert.notEqual(later[0], first);
		assert.equal(later[0]!.figures!.now, 1_004_000);
		// Only the last state's views are remembered: the earlier state's are derived again (equal, not the same).
		const again = rowViews(proxyFeedKind, earlier);
		assert.notEqual(again[0], first);
		assert.deepEqual(again[0], first);
	});
});
