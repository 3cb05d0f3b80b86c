// JSON from the cluster that is not the object asked for: a clear error naming the field, never a silent gap or
// an `undefined` in a pane. The built CLI against the fake API server answering another shape.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';
import {fast, startCluster, type Cluster} from './cluster.js';

let cluster: Cluster;

before(async () => {
	cluster = await startCluster();
});

after(async () => {
	await cluster.close();
});

const once = (...extra: string[]) => ['--node', 'worker-1', '--once', ...fast, ...extra];

test('a Node whose conditions are an object: the run ends naming status.conditions; exit 3', async () => {
	const node = {kind: 'Node', metadata: {name: 'worker-1'}, status: {conditions: {type: 'Ready', status: 'False'}}};
	cluster.fake.setFault({type: 'body', body: JSON.stringify(node)}, {route: 'node', node: 'worker-1'});
	try {
		const result = await runCli(once(), {env: cluster.env});
		assert.equal(result.code, 3, result.stdout);
		assert.match(
			result.stderr,
			/^pleg-top: the Node object for "worker-1" from https:\/\/127\.0\.0\.1:\d+ could not be read: status\.conditions: expected an array, got an object$/m,
		);
	} finally {
		cluster.fake.clearFaults();
	}
});

test('an Event whose reason is a number: the Events read fails naming items[1].reason; the figures stay', async () => {
	const list = {
		kind: 'EventList',
		metadata: {},
		items: [
			{reason: 'Fine', message: 'm'},
			{reason: 7, message: 'm'},
		],
	};
	cluster.fake.setFault({type: 'body', body: JSON.stringify(list)}, {route: 'events', node: 'worker-1'});
	try {
		const result = await runCli(once('-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as {events: unknown[]; eventsError: string; verdict: string};
		assert.deepEqual(report.events, []);
		assert.match(report.eventsError, /could not be read: items\[1\]\.reason: expected a string, got a number$/);
		assert.equal(report.verdict, 'PLEG is healthy');
	} finally {
		cluster.fake.clearFaults();
	}
});

test('a body that is not JSON at all: "not JSON", and none of the body quoted', async () => {
	cluster.fake.setFault({type: 'body', body: '{"kind":"Node","metadata":{"name":"secret-looking-text'}, {route: 'node', node: 'worker-1'});
	try {
		const result = await runCli(once(), {env: cluster.env});
		assert.equal(result.code, 3);
		assert.match(result.stderr, /could not be read: not JSON$/m);
		assert.ok(!result.stderr.includes('secret-looking-text'), result.stderr);
	} finally {
		cluster.fake.clearFaults();
	}
});
