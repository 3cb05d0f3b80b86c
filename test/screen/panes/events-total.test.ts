// How many Events the node has (counted as held, not as the newest kept): the
// total read across pages goes from the read through the feed to the pane's title and the --once text.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../../source/domain/feed.js';
import type {NodeEvent, NodeEvents} from '../../../source/domain/types.js';
import {textReport} from '../../../source/report/report.js';
import {lineText} from '../../../source/screen/layout/line.js';
import {eventsPaneLines} from '../../../source/screen/panes/events-pane.js';
import {readDump, scrapeOf} from '../../domain/dump.js';

const gauge = 1_648_119_277; // kubelet_pleg_last_seen_seconds of the v1.21.2 dump
const t0 = gauge * 1000;

/** `count` Events, one a second, the newest 10 s before t0. */
function events(count: number): NodeEvent[] {
	return Array.from({length: count}, (_, index) => ({
		type: 'Normal',
		reason: `E${index}`,
		message: 'm',
		count: 1,
		lastTimestamp: gauge - 10 - index,
		source: 'kubelet',
	}));
}

function figuresWith(...reads: NodeEvents[]) {
	const actions: FeedAction[] = [
		{type: 'scrape', scrape: scrapeOf(readDump('1.21.2'), t0)},
		...reads.map((read) => ({type: 'events', events: read, at: t0}) as const),
	];
	return figuresAt(actions.reduce(feedReducer, initialFeedState({node: 'worker-1', windowSeconds: 60})), t0)!;
}

const title = (read: NodeEvents, maxEvents = 3) =>
	lineText(eventsPaneLines({events: figuresWith(read).events!, width: 120, maxEvents})[0]!);
const eventsText = (read: NodeEvents) =>
	textReport(figuresWith(read))
		.split('\n')
		.filter((line) => /^events? /.test(line));

describe('the Events total', () => {
	test('the pane counts what the API server holds: 1200 Events, 3 shown, 1197 more', () => {
		assert.equal(
			title({events: events(50), error: null, total: {count: 1200, atLeast: false}}),
			'events · 1200 Events, newest first (1197 more: kubectl describe node)',
		);
	});

	test('a read stopped at its bound says "at least"', () => {
		assert.equal(
			title({events: events(50), error: null, total: {count: 2000, atLeast: true}}),
			'events · at least 2000 Events, newest first (at least 1997 more: kubectl describe node)',
		);
	});

	test('without a total (a source that reads one list) the items are the count', () => {
		assert.equal(title({events: events(5), error: null}), 'events · 5 Events, newest first (2 more: kubectl describe node)');
	});

	test('a failed read keeps the last good read, its total with it', () => {
		const failed: NodeEvents = {events: [], error: {kind: 'http', summary: 'etcdserver: request timed out', details: []}};
		assert.deepEqual(figuresWith({events: events(50), error: null, total: {count: 700, atLeast: false}}, failed).events!.total, {
			count: 700,
			atLeast: false,
		});
	});

	test('the --once text lists the 50 newest and says how many there are in all', () => {
		const lines = eventsText({events: events(50), error: null, total: {count: 2000, atLeast: true}});
		assert.equal(lines.length, 51);
		assert.match(lines[0]!, /^event +E0 ×1, 10s ago \(kubelet\): m$/);
		assert.match(lines[50]!, /^events +at least 2000 in all, the 50 newest listed$/);
		assert.equal(eventsText({events: events(2), error: null, total: {count: 2, atLeast: false}}).length, 2);
	});
});
