// How the API-server source talks: headers, gzip, one keep-alive connection, the label.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, describe, test} from 'node:test';
import {createTransport, type RequestAuth} from '../../../source/sources/http/transport.js';
import {startFakeApiServer, testTls, type FakeApiServer} from '../../helpers/fake-api-server.js';
import {makeTempDir, singleContext} from '../../helpers/kubeconfig-files.js';
import {makeHarness} from '../api-server-helpers.js';

const token = 'pleg-top-transport-token-4c2b19';
const temp = makeTempDir();
const harness = makeHarness(temp);
let fake: FakeApiServer;
let plain: FakeApiServer;

// A payload that changes per request, as a live kubelet's does: the request number is in the value.
const changing = (n: number) => `kubelet_pleg_relist_duration_seconds_count ${n * 10}\n`;

before(async () => {
	fake = await startFakeApiServer({nodes: [{name: 'worker-1', metrics: changing}], tokens: {[token]: 'alice'}});
	plain = await startFakeApiServer({nodes: [{name: 'worker-1', metrics: changing}], tokens: {[token]: 'alice'}, gzip: false});
});

after(async () => {
	harness.closeAll();
	await fake.close();
	await plain.close();
	temp.remove();
});

const signal = () => new AbortController().signal;
const user = {name: 'token-user', token};

describe('requests', () => {
	test('label and node', () => {
		const {source} = harness.source(singleContext(fake.url, user), {node: 'worker-1'});
		assert.equal(source.label, `worker-1 via ${fake.url}`);
		assert.equal(source.node, 'worker-1');
	});

	test('metrics: the proxy path, Prometheus text accept header, gzip accepted and decompressed', async () => {
		const {source} = harness.source(singleContext(fake.url, user));
		const first = fake.requests.length;
		assert.equal(await source.fetchMetrics(signal()), changing(1));
		assert.equal(await source.fetchMetrics(signal()), changing(2));
		const request = fake.requests[first]!;
		assert.equal(request.path, '/api/v1/nodes/worker-1/proxy/metrics');
		assert.equal(request.headers.accept, 'text/plain;version=0.0.4');
		assert.equal(request.headers['accept-encoding'], 'gzip');
		assert.equal(request.gzipped, true);
	});

	test('an uncompressed answer is read as it is', async () => {
		const {source} = harness.source(singleContext(plain.url, user));
		assert.equal(await source.fetchMetrics(signal()), changing(1));
		assert.equal(plain.requests.at(-1)?.gzipped, false);
	});

	test('keep-alive: five polls and a node refresh use one TLS connection', async () => {
		const server = await startFakeApiServer({nodes: [{name: 'worker-1'}], tokens: {[token]: 'alice'}});
		try {
			const {source} = harness.source(singleContext(server.url, user));
			for (let i = 0; i < 5; i++) {
				await source.fetchMetrics(signal());
			}

			await source.fetchNode(signal());
			assert.equal(server.requests.length, 6);
			assert.equal(server.connections, 1);
			// Sequential polls never overlap.
			assert.equal(server.maxInFlight, 1);
			source.close();
		} finally {
			await server.close();
		}
	});

	test('the same TLS material in a new object keeps the connection; other material (a new client certificate) opens a new one', async () => {
		const server = await startFakeApiServer({nodes: [{name: 'worker-1'}], tokens: {[token]: 'alice'}});
		const handedOut: RequestAuth[] = [];
		const withCert = (cert?: string): RequestAuth => ({
			headers: {Authorization: `Bearer ${token}`},
			tls: {ca: testTls.caCert, cert, key: cert ? testTls.clientKey : undefined},
		});
		// As an exec plugin's credentials: a new object each time; the material changes from the fourth request on.
		const auth = {
			get: async () => handedOut[handedOut.push(handedOut.length < 3 ? withCert() : withCert(testTls.clientCert)) - 1]!,
			secrets: () => [token],
		};
		const transport = createTransport({peer: {kind: 'kubelet', url: server.url, flag: '--kubelet-url'}, auth, timeoutMs: 10_000});
		try {
			for (let request = 0; request < 5; request++) {
				const answer = await transport.get('/api/v1/nodes/worker-1/proxy/metrics', {}, signal());
				assert.equal(answer.status, 200);
			}

			assert.equal(handedOut.length, 5);
			assert.notEqual(handedOut[0]!.tls, handedOut[1]!.tls);
			assert.equal(server.connections, 2, 'one connection for each TLS material');
		} finally {
			transport.close();
			await server.close();
		}
	});

	test('a kept-alive connection the server closed is retried once on a new one', async () => {
		const server = await startFakeApiServer({nodes: [{name: 'worker-1', metrics: changing}], tokens: {[token]: 'alice'}});
		try {
			const {source} = harness.source(singleContext(server.url, user));
			assert.equal(await source.fetchMetrics(signal()), changing(1));
			server.setFault({type: 'destroy-socket'}, {}, 1);
			assert.equal(await source.fetchMetrics(signal()), changing(2));
			// Connection 1 was dropped under the second request; the retry opened connection 2.
			assert.equal(server.connections, 2);
			source.close();
		} finally {
			await server.close();
		}
	});

	test('a fresh connection closed without an answer is not retried: connection reset', async () => {
		const server = await startFakeApiServer({nodes: [{name: 'worker-1'}], tokens: {[token]: 'alice'}});
		try {
			const {source} = harness.source(singleContext(server.url, user));
			server.setFault({type: 'destroy-socket'}, {}, 1);
			const failure = await harness.failure(source.fetchMetrics(signal()));
			assert.equal(failure.summary, `cannot reach ${server.url}: connection reset`);
			assert.equal(server.connections, 1);
			source.close();
		} finally {
			await server.close();
		}
	});

	test('a path prefix in the server URL is kept (API behind a proxy path)', async () => {
		const {source} = harness.source(singleContext(`${fake.url}/k8s/clusters/c-1`, user));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		// The fake serves no prefix, so it answers its plain 404: the request did go to the prefixed path.
		assert.equal(failure.summary, `${fake.url}/k8s/clusters/c-1 answered 404 Not Found to GET /api/v1/nodes/worker-1/proxy/metrics`);
		assert.deepEqual(failure.details, ['API server: 404 page not found']);
	});
});

test('a plain http:// server (kubectl proxy) works without insecure-skip-tls-verify', async () => {
	const seen: string[] = [];
	const server = http.createServer((request, response) => {
		seen.push(`${request.url} ${request.headers.authorization ?? 'no-auth'}`);
		response.end('kubelet_pleg_last_seen_seconds 1\n');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
	try {
		const {source} = harness.source(singleContext(url, {name: 'proxy-user'}, {caData: undefined}));
		assert.equal(await source.fetchMetrics(signal()), 'kubelet_pleg_last_seen_seconds 1\n');
		assert.deepEqual(seen, ['/api/v1/nodes/worker-1/proxy/metrics no-auth']);
		source.close();
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});
