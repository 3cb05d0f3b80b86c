// The node's Events through the engine: read on the Node object's cadence (pause stops it too), kept by the feed's
// 'events' action beside the figures, their ages read at `now`, a refusal kept as the error of the Events alone.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../source/domain/feed.js';
import type {Failure, NodeEvent, NodeEvents} from '../../source/domain/types.js';
import {startNodeEngine} from '../../source/engine/node-engine.js';
import {startPoller} from '../../source/engine/poller.js';
import {flush, ScriptedSource, useMockClock} from '../helpers/fake-source.js';
import {scrapeOf} from '../domain/dump.js';

const dump = readFileSync(new URL('../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url), 'utf8');

/** 1_000_000 ms after the epoch: 1000 s. */
const start = 1_000_000;

function event(reason: string, lastTimestamp: number | null, overrides: Partial<NodeEvent> = {}): NodeEvent {
	return {type: 'Normal', reason, message: `${reason} message`, count: 1, lastTimestamp, source: 'kubelet', ...overrides};
}

const forbidden: Failure = {
	kind: 'forbidden',
	summary: 'context "ctx" (user "u") is not allowed to list events in namespace "default"',
	details: [
		'API server: events is forbidden',
		'needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
	],
};

/** A ScriptedSource that also reads Events: each read answers the next of `answers` (the last one again after). */
class EventsSource extends ScriptedSource {
	eventCalls = 0;
	constructor(private readonly answers: NodeEvents[]) {
		super();
	}

	async fetchEvents(signal: AbortSignal): Promise<NodeEvents> {
		signal.throwIfAborted();
		const answer = this.answers[Math.min(this.eventCalls, this.answers.length - 1)]!;
		this.eventCalls++;
		return answer;
	}
}

describe('the feed keeps the Events', () => {
	const scrape: FeedAction = {type: 'scrape', scrape: scrapeOf(dump, start)};
	const reduce = (...actions: FeedAction[]) => actions.reduce(feedReducer, initialFeedState({node: 'node-a', windowSeconds: 10}));

	test('not read: null, so the reports say they were not read instead of "none"', () => {
		assert.equal(figuresAt(reduce(scrape), start)!.events, null);
	});

	test('ages are read at `now` from their own times; an Event without a time has none', () => {
		const read: NodeEvents = {events: [event('NodeNotReady', 970), event('Odd', null)], error: null};
		const state = reduce(scrape, {type: 'events', events: read, at: start});
		// 1000 s + 90 s later − 970 s = 120 s.
		assert.deepEqual(
			figuresAt(state, start + 90_000)!.events!.items.map((item) => [item.reason, item.ageSeconds]),
			[
				['NodeNotReady', 120],
				['Odd', null],
			],
		);
	});

	test('a refused first read leaves none, with the refusal; a refusal after a good read keeps its Events beside it', () => {
		const refused = reduce(scrape, {type: 'events', events: {events: [], error: forbidden}, at: start});
		assert.deepEqual(figuresAt(refused, start)!.events, {items: [], error: forbidden});

		const good: NodeEvents = {events: [event('Rebooted', 990)], error: null};
		const later = reduce(
			scrape,
			{type: 'events', events: good, at: start},
			{type: 'events', events: {events: [], error: forbidden}, at: start + 10_000},
		);
		const figures = figuresAt(later, start + 10_000)!.events!;
		assert.deepEqual(
			figures.items.map((item) => [item.reason, item.ageSeconds]),
			[['Rebooted', 20]],
		);
		assert.equal(figures.error, forbidden);
		// A good read after that clears the error.
		const cleared = feedReducer(later, {type: 'events', events: {events: [], error: null}, at: start + 20_000});
		assert.deepEqual(figuresAt(cleared, start + 20_000)!.events, {items: [], error: null});
	});
});

describe('the engine reads the Events', () => {
	const {now, advance} = useMockClock(start);

	test('at once and then every 10 s, even when the caller has just read the Node object', async () => {
		const source = new EventsSource([{events: [], error: null}]);
		const answers: number[] = [];
		const poller = startPoller(
			{source, intervalMs: 1000, now, firstNodeReadMs: 10_000},
			{onScrape() {}, onFailure() {}, onEvents: (_events, at) => answers.push(at)},
		);
		await advance(0);
		assert.equal(source.eventCalls, 1);
		assert.equal(source.nodeCalls, 0);
		await advance(9999);
		assert.equal(source.eventCalls, 1);
		await advance(1);
		assert.equal(source.eventCalls, 2);
		assert.deepEqual(answers, [start, start + 10_000]);
		poller.stop();
		await advance(30_000);
		assert.equal(source.eventCalls, 2, 'nothing after stop');
	});

	test('pause stops the Events reads too; resume reads them again at once', async () => {
		const source = new EventsSource([{events: [], error: null}]);
		const poller = startPoller({source, intervalMs: 1000, now}, {onScrape() {}, onFailure() {}});
		await advance(0);
		poller.setPaused(true);
		await advance(35_000);
		assert.equal(source.eventCalls, 1, 'no Events read in 35 s of pause');
		poller.setPaused(false);
		await advance(0);
		assert.equal(source.eventCalls, 2);
		await advance(10_000);
		assert.equal(source.eventCalls, 3, 'then every 10 s again');
		poller.stop();
	});

	test("an answer is a change of the node but not a read of it; the figures carry it; --once's wait ends with it", async () => {
		const source = new EventsSource([{events: [event('NodeNotReady', 995)], error: null}]);
		const engine = startNodeEngine({source, pollMs: 1000, windowSeconds: 10, now});
		const changes: Array<[string | null, boolean, number]> = [];
		engine.subscribe((node, read, at) => changes.push([node, read, at]));
		assert.equal(engine.awaitingEvents, true);
		await advance(0);
		assert.equal(engine.awaitingEvents, false);
		// The Node object's read is a change of the node list (null); the Events are the node's own.
		assert.deepEqual(
			changes.filter(([node]) => node !== null),
			[['node-a', false, start]],
		);
		source.answer(dump);
		await flush();
		const figures = engine.kind.figures(engine.state.nodes.get('node-a')!.feed, start + 5000)!;
		assert.deepEqual(
			figures.events!.items.map((item) => [item.reason, item.ageSeconds]),
			[['NodeNotReady', 10]],
		);
		engine.stop();
	});

	test('a source without Events is never waited for', () => {
		const engine = startNodeEngine({source: new ScriptedSource(), pollMs: 1000, windowSeconds: 10, now});
		assert.equal(engine.awaitingEvents, false);
		engine.stop();
	});
});
