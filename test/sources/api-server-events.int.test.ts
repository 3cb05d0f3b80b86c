// The node's Events through the API server, as `kubectl describe node` lists them: the request, the Events newest
// first with their count and time in seconds, and a 403 that comes back as its own named failure instead of failing
// the source.
import assert from 'node:assert/strict';
import {after, before, beforeEach, describe, test} from 'node:test';
import {eventPageFromJson, newestEvents} from '../../source/sources/node-events.js';
import {startFakeApiServer, type FakeApiServer} from '../helpers/fake-api-server.js';
import {makeTempDir, singleContext} from '../helpers/kubeconfig-files.js';
import {assertNoSecrets, makeHarness} from './api-server-helpers.js';

const token = 'pleg-top-events-token-3e8a61f0';
const temp = makeTempDir();
const harness = makeHarness(temp);
let fake: FakeApiServer;

// 2024-05-01T10:00:00Z is 1714557600 s after the epoch.
const tenAm = 1_714_557_600;

before(async () => {
	fake = await startFakeApiServer({
		nodes: [
			{
				name: 'worker-1',
				events: [
					{
						type: 'Normal',
						reason: 'NodeNotReady',
						message: 'Node worker-1 status is now: NodeNotReady',
						count: 1,
						lastTimestamp: '2024-05-01T10:00:00Z',
						source: {component: 'node-controller'},
					},
					{
						type: 'Warning',
						reason: 'ContainerGCFailed',
						message: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded\n',
						count: 7,
						firstTimestamp: '2024-05-01T09:00:00Z',
						lastTimestamp: '2024-05-01T10:05:00Z',
						source: {component: 'kubelet', host: 'worker-1'},
					},
					// An events.k8s.io Event read through core/v1: no count or lastTimestamp, a series instead.
					{
						type: 'Normal',
						reason: 'Rebooted',
						message: 'Node worker-1 has been rebooted, boot id: 4f2c',
						eventTime: '2024-05-01T09:30:00.123456Z',
						series: {count: 3, lastObservedTime: '2024-05-01T09:58:20.500000Z'},
						reportingController: 'kubelet',
					},
					// Not in "default": not read (every recorder files a Node's Events in default).
					{
						namespace: 'kube-system',
						type: 'Warning',
						reason: 'Elsewhere',
						message: 'not read',
						count: 1,
						lastTimestamp: '2024-05-01T11:00:00Z',
					},
				],
			},
			{
				name: 'worker-2',
				events: [{type: 'Normal', reason: 'Starting', message: 'Starting kubelet.', count: 1, lastTimestamp: '2024-05-01T10:10:00Z'}],
			},
		],
		tokens: {[token]: 'alice'},
	});
});

beforeEach(() => fake.clearFaults());

after(async () => {
	harness.closeAll();
	await fake.close();
	temp.remove();
});

const signal = () => new AbortController().signal;
const tokenUser = {name: 'token-user', token};

describe("the node's Events", () => {
	test('read from namespace default with a field selector on the node, newest first, times in seconds', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const answer = await source.fetchEvents(signal());
		assert.equal(
			fake.requests.at(-1)?.path,
			'/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DNode%2CinvolvedObject.name%3Dworker-1&limit=500',
		);
		assert.equal(answer.error, null);
		assert.deepEqual(answer.events, [
			// 10:05:00 = tenAm + 300; the trailing newline of the message is trimmed.
			{
				type: 'Warning',
				reason: 'ContainerGCFailed',
				message: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded',
				count: 7,
				lastTimestamp: tenAm + 300,
				source: 'kubelet',
			},
			{
				type: 'Normal',
				reason: 'NodeNotReady',
				message: 'Node worker-1 status is now: NodeNotReady',
				count: 1,
				lastTimestamp: tenAm,
				source: 'node-controller',
			},
			// 09:58:20.5 = tenAm - 99.5; the count is the series' count.
			{
				type: 'Normal',
				reason: 'Rebooted',
				message: 'Node worker-1 has been rebooted, boot id: 4f2c',
				count: 3,
				lastTimestamp: tenAm - 99.5,
				source: 'kubelet',
			},
		]);
	});

	test("another node's Events are its own", async () => {
		const other = harness.source(singleContext(fake.url, tokenUser)).source.forNode('worker-2');
		assert.deepEqual(
			(await other.fetchEvents(signal())).events.map((event) => event.reason),
			['Starting'],
		);
	});

	test('a 403 is a named failure of the Events alone: the rule to ask for and the can-i check; metrics still come', async () => {
		fake.setFault({type: 'status', code: 403}, {route: 'events'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const answer = await source.fetchEvents(signal());
		assert.deepEqual(answer, {
			events: [],
			error: {
				kind: 'forbidden',
				summary: 'context "fake-ctx" (user "token-user") is not allowed to list events in namespace "default"',
				details: [
					'API server: events is forbidden: User "alice" cannot list resource "events" in API group "" in the namespace "default"',
					'needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
					'check: kubectl --context fake-ctx auth can-i list events -n default',
					"only the node's Events are missing: the PLEG figures do not need this right",
				],
			},
		});
		harness.failures.push(answer.error);
		assert.match(await source.fetchMetrics(signal()), /kubelet_pleg_last_seen_seconds/);
	});

	test('other failures come back the same way, never as a rejection', async () => {
		fake.setFault({type: 'status', code: 500, message: 'etcdserver: request timed out'}, {route: 'events'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const {events, error} = await source.fetchEvents(signal());
		assert.deepEqual(events, []);
		assert.equal(error?.kind, 'http');
		assert.deepEqual(error?.details, ['API server: etcdserver: request timed out']);
	});

	test('abort still rejects', async () => {
		fake.setFault({type: 'delay', ms: 30_000}, {route: 'events'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const controller = new AbortController();
		const arrived = fake.nextRequest();
		const pending = source.fetchEvents(controller.signal);
		await arrived;
		controller.abort();
		await assert.rejects(pending, {name: 'AbortError'});
	});
});

/** The newest of a one-page EventList, as the source keeps them. */
const nodeEventsFromJson = (body: string) => newestEvents(eventPageFromJson(body).events);

describe('reading an EventList', () => {
	test('an Event without any time sorts last; a missing count is 1; a body that is not an EventList throws', () => {
		const body = JSON.stringify({
			kind: 'EventList',
			items: [
				{reason: 'NoTime', message: 'm'},
				{reason: 'Timed', message: 'm', count: 0, firstTimestamp: '1970-01-01T00:00:10Z'},
			],
		});
		assert.deepEqual(nodeEventsFromJson(body), [
			{type: 'Normal', reason: 'Timed', message: 'm', count: 1, lastTimestamp: 10, source: null},
			{type: 'Normal', reason: 'NoTime', message: 'm', count: 1, lastTimestamp: null, source: null},
		]);
		assert.throws(() => nodeEventsFromJson('{"kind":"Status"}'), {name: 'MalformedJsonError', message: 'items: missing'});
	});

	test('at most the 50 newest are kept', () => {
		const items = Array.from({length: 60}, (_, index) => ({
			reason: `E${index}`,
			message: '',
			lastTimestamp: new Date(index * 1000).toISOString(),
		}));
		const events = nodeEventsFromJson(JSON.stringify({items}));
		assert.equal(events.length, 50);
		assert.equal(events[0]!.reason, 'E59');
		assert.equal(events.at(-1)!.reason, 'E10');
	});
});

test('no token appears in any Events failure', () => {
	assertNoSecrets(harness.failures, [token]);
});
