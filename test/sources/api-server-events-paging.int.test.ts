// The node's Events across `continue` pages: kube-apiserver lists them by name, not by time, so the newest Event
// can be on the last page; every page is read, as `kubectl describe node` reads them, and the count is exact.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {eventFlood} from '../helpers/event-flood.js';
import {continueToken, startFakeApiServer, type FakeApiServer} from '../helpers/fake-api-server.js';
import {makeTempDir, singleContext} from '../helpers/kubeconfig-files.js';
import {makeHarness} from './api-server-helpers.js';

const token = 'pleg-top-paging-token-9b17c2d4';
const temp = makeTempDir();
const harness = makeHarness(temp);
let fake: FakeApiServer;

// 2024-05-01T10:00:00Z is 1714557600 s after the epoch.
const tenAm = 1_714_557_600;

/**
 * `count` Events in name order; Event i happened (i * 7919) mod count seconds after ten o'clock (7919 is prime,
 * so every second from 0 to count − 1 is taken once), except `newestAt`, which happened an hour later.
 */
const events = (count: number, newestAt: number) => eventFlood(count, newestAt, (index) => tenAm + ((index * 7919) % count), tenAm + 3600);

before(async () => {
	fake = await startFakeApiServer({
		nodes: [
			// 3 pages; the newest Event on the last one.
			{name: 'three-pages', events: events(1200, 1100)},
			// Five pages, the newest on the 4th.
			{name: 'five-pages', events: events(2300, 1999)},
			// Exactly one full page: no continue token.
			{name: 'one-page', events: events(500, 0)},
		],
		tokens: {[token]: 'alice'},
	});
});

after(async () => {
	harness.closeAll();
	await fake.close();
	temp.remove();
});

const signal = () => new AbortController().signal;
const source = (node: string) => harness.source(singleContext(fake.url, {name: 'token-user', token})).source.forNode(node);
const eventPaths = (node: string) =>
	fake.requests.filter((request) => request.path.includes(`involvedObject.name%3D${node}&`)).map((request) => request.path);
const base = (node: string) =>
	`/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DNode%2CinvolvedObject.name%3D${node}&limit=500`;

describe('Events across pages', () => {
	test('every continue page is read; the newest, from the last page, first; the total is every Event', async () => {
		const answer = await source('three-pages').fetchEvents(signal());
		assert.equal(answer.error, null);
		assert.deepEqual(eventPaths('three-pages'), [
			base('three-pages'),
			`${base('three-pages')}&continue=${continueToken('flood.00499')}`,
			`${base('three-pages')}&continue=${continueToken('flood.00999')}`,
		]);
		assert.deepEqual(answer.total, {count: 1200, atLeast: false});
		assert.equal(answer.events.length, 50);
		// The Newest (an hour after ten), then the other 1199 took the seconds 0…1199 once each (1100's second, 1100 × 7919
		// mod 1200 = 100, is free): the next newest are 1199 s, 1198 s, … after ten.
		assert.equal(answer.events[0]!.reason, 'Newest');
		assert.equal(answer.events[0]!.lastTimestamp, tenAm + 3600);
		assert.deepEqual(
			answer.events.slice(1, 4).map((event) => event.lastTimestamp! - tenAm),
			[1199, 1198, 1197],
		);
		assert.equal(answer.events.at(-1)!.lastTimestamp! - tenAm, 1199 - 48);
	});

	test('five pages: all read (no bound), the count exact; the newest, from the 4th, first', async () => {
		const answer = await source('five-pages').fetchEvents(signal());
		assert.equal(eventPaths('five-pages').length, 5);
		assert.equal(eventPaths('five-pages').at(-1), `${base('five-pages')}&continue=${continueToken('flood.01999')}`);
		assert.deepEqual(answer.total, {count: 2300, atLeast: false});
		assert.equal(answer.events[0]!.reason, 'Newest');
		assert.equal(answer.events.length, 50);
	});

	test('one page without a continue token is one request, its total exact', async () => {
		const answer = await source('one-page').fetchEvents(signal());
		assert.deepEqual(eventPaths('one-page'), [base('one-page')]);
		assert.deepEqual(answer.total, {count: 500, atLeast: false});
		assert.equal(answer.events[0]!.reason, 'Newest');
	});

	test('a refused later page is a failure of the Events, not a part read as the whole', async () => {
		// The first page answers (the fault is set once it has arrived); the second is refused.
		const first = fake.nextRequest();
		const pending = source('three-pages').fetchEvents(signal());
		await first;
		fake.setFault({type: 'status', code: 500, message: 'etcdserver: request timed out'}, {route: 'events', node: 'three-pages'});
		const answer = await pending;
		assert.equal(eventPaths('three-pages').at(-1), `${base('three-pages')}&continue=${continueToken('flood.00499')}`);
		assert.deepEqual(answer.events, []);
		assert.equal(answer.error?.kind, 'http');
		assert.equal(answer.total, undefined);
		fake.clearFaults();
	});
});
