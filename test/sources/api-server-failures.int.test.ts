// Every failure kind of the API-server source, with the exact text the user sees.
import assert from 'node:assert/strict';
import net from 'node:net';
import {after, before, beforeEach, describe, test} from 'node:test';
import {exitCodeFor} from '../../source/sources/failure.js';
import {startFakeApiServer, type FakeApiServer} from '../helpers/fake-api-server.js';
import {makeTempDir, singleContext} from '../helpers/kubeconfig-files.js';
import {assertNoSecrets, makeHarness} from './api-server-helpers.js';

const token = 'pleg-top-failure-token-a81f3e2d';
const temp = makeTempDir();
const harness = makeHarness(temp);
let fake: FakeApiServer;

before(async () => {
	fake = await startFakeApiServer({nodes: [{name: 'worker-1'}, {name: 'worker-2'}, {name: 'control-plane'}], tokens: {[token]: 'alice'}});
});

beforeEach(() => fake.clearFaults());

after(async () => {
	harness.closeAll();
	await fake.close();
	temp.remove();
});

const signal = () => new AbortController().signal;
const tokenUser = {name: 'token-user', token};
const metricsPath = '/api/v1/nodes/worker-1/proxy/metrics';

describe('answers from the API server', () => {
	test('401: the credentials of the context were rejected', async () => {
		const {source, file} = harness.source(singleContext(fake.url, {name: 'token-user', token: 'revoked-token-9f8e7d6c'}));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'unauthorized',
			summary: `${fake.url} rejected the credentials of context "fake-ctx" (user "token-user")`,
			details: [
				'API server: Unauthorized',
				`the token (users[].user.token of user "token-user" in ${file}) was rejected: expired or revoked?`,
				'check: kubectl --context fake-ctx auth whoami',
			],
		});
		assert.equal(exitCodeFor(failure.kind), 3);
	});

	test('403 on nodes/proxy: message, rule, can-i check, and what nodes/proxy really grants', async () => {
		fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'forbidden',
			summary: 'context "fake-ctx" (user "token-user") is not allowed to get nodes/proxy on node "worker-1"',
			details: [
				'API server: nodes "worker-1" is forbidden: User "alice" cannot get resource "nodes/proxy" in API group "" at the cluster scope',
				'needed: get on nodes/proxy (ClusterRole rule: apiGroups [""], resources ["nodes/proxy"], verbs ["get"])',
				'check: kubectl --context fake-ctx auth can-i get nodes/proxy',
				'note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server',
			],
		});
	});

	test('403 on the node object: get on nodes', async () => {
		fake.setFault({type: 'status', code: 403}, {route: 'node'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchNode(signal()));
		assert.deepEqual(failure, {
			kind: 'forbidden',
			summary: 'context "fake-ctx" (user "token-user") is not allowed to get nodes on node "worker-1"',
			details: [
				'API server: nodes "worker-1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope',
				'needed: get on nodes (ClusterRole rule: apiGroups [""], resources ["nodes"], verbs ["get"])',
				'check: kubectl --context fake-ctx auth can-i get nodes',
			],
		});
	});

	test('403 on everything: every right the node screen needs is named, not only the first refused', async () => {
		fake.setFault({type: 'status', code: 403});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const first = fake.requests.length;
		const both = {
			kind: 'forbidden',
			summary: 'context "fake-ctx" (user "token-user") is not allowed to get nodes and nodes/proxy on node "worker-1"',
			details: [
				'API server: nodes "worker-1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope',
				'API server: nodes "worker-1" is forbidden: User "alice" cannot get resource "nodes/proxy" in API group "" at the cluster scope',
				'needed: get on nodes and get on nodes/proxy (ClusterRole rule: apiGroups [""], resources ["nodes", "nodes/proxy"], verbs ["get"])',
				'check: kubectl --context fake-ctx auth can-i get nodes',
				'check: kubectl --context fake-ctx auth can-i get nodes/proxy',
				'note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server',
			],
		};
		assert.deepEqual(await harness.failure(source.fetchMetrics(signal())), both);
		// The metrics request, then one request for the Node object to learn whether it is refused too.
		assert.deepEqual(
			fake.requests.slice(first).map((request) => request.path),
			[metricsPath, '/api/v1/nodes/worker-1'],
		);
		// The Node object's own refusal says the same, without asking again.
		assert.deepEqual(await harness.failure(source.fetchNode(signal())), both);
		assert.equal(fake.requests.length, first + 3);
	});

	test('the other call answering is not refused: a 403 on the Node object alone names get on nodes alone', async () => {
		fake.setFault({type: 'status', code: 403}, {route: 'node'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchNode(signal()));
		assert.equal(failure.summary, 'context "fake-ctx" (user "token-user") is not allowed to get nodes on node "worker-1"');
		// Asked once after the refusal: the metrics proxy answered, so it is not named.
		assert.equal(fake.requests.at(-1)?.path, metricsPath);
		assert.equal(failure.details.filter((line) => line.startsWith('check:')).length, 1);
	});

	test('429 with Retry-After: the wait the API server asked for, carried on the failure and said', async () => {
		fake.setFault(
			{type: 'status', code: 429, message: 'Too many requests, please try again later.', headers: {'Retry-After': '30'}},
			{route: 'metrics'},
		);
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		assert.deepEqual(await harness.failure(source.fetchMetrics(signal())), {
			kind: 'http',
			summary: `the API server asked to wait 30s (429 Too Many Requests to GET ${metricsPath})`,
			details: [
				'API server: Too many requests, please try again later.',
				'the next request goes out in 30s, as its Retry-After header asked, instead of the usual back-off',
			],
			retryAfterSeconds: 30,
		});
	});

	test('429 asking for more than a minute: waits at most 1m0s, and says both', async () => {
		fake.setFault({type: 'status', code: 429, headers: {'Retry-After': '120'}}, {route: 'metrics'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.equal(
			failure.summary,
			`the API server asked to wait 2m0s; pleg-top waits at most 1m0s (429 Too Many Requests to GET ${metricsPath})`,
		);
		assert.equal(failure.retryAfterSeconds, 60);
	});

	test("Retry-After as an HTTP date is read against the server's own Date header", async () => {
		const headers = {Date: 'Wed, 01 May 2024 10:00:00 GMT', 'Retry-After': 'Wed, 01 May 2024 10:00:45 GMT'};
		fake.setFault({type: 'status', code: 429, headers}, {route: 'metrics'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		assert.equal((await harness.failure(source.fetchMetrics(signal()))).retryAfterSeconds, 45);
	});

	test('429 without Retry-After: an http failure and the usual back-off', async () => {
		fake.setFault({type: 'status', code: 429}, {route: 'metrics'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.equal(failure.summary, `${fake.url} answered 429 Too Many Requests to GET ${metricsPath}`);
		assert.equal(failure.retryAfterSeconds, undefined);
	});

	test('404: the node does not exist, and the names that do', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser), {node: 'worker-9'});
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'not-found',
			summary: 'node "worker-9" does not exist in cluster "fake"',
			details: ['API server: nodes "worker-9" not found', 'nodes that exist: worker-1, worker-2, control-plane'],
		});
		assert.equal(fake.requests.at(-1)?.path, '/api/v1/nodes?limit=500');
	});

	test('404 when listing nodes is forbidden: says so instead of the names', async () => {
		fake.forbidListing(true);
		const {source} = harness.source(singleContext(fake.url, tokenUser), {node: 'worker-9'});
		const failure = await harness.failure(source.fetchNode(signal()));
		assert.deepEqual(failure.details, [
			'API server: nodes "worker-9" not found',
			'listing nodes is not allowed (list on nodes), so the names that exist cannot be shown; try kubectl get nodes',
		]);
	});

	test('listNodeNames: names, or forbidden with list on nodes', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		assert.deepEqual(await source.listNodeNames(signal()), ['worker-1', 'worker-2', 'control-plane']);
		fake.forbidListing(true);
		const failure = await harness.failure(source.listNodeNames(signal()));
		assert.equal(failure.kind, 'forbidden');
		assert.equal(failure.summary, 'context "fake-ctx" (user "token-user") is not allowed to list nodes');
		assert.equal(failure.details[2], 'check: kubectl --context fake-ctx auth can-i list nodes');
	});

	test('listNodes (the overview) refused: list on nodes, and the proxy right the overview needs next', async () => {
		fake.forbidListing(true);
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		assert.deepEqual(await harness.failure(source.listNodes(signal())), {
			kind: 'forbidden',
			summary: 'context "fake-ctx" (user "token-user") is not allowed to list nodes',
			details: [
				'API server: nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope',
				'needed: list on nodes (ClusterRole rule: apiGroups [""], resources ["nodes"], verbs ["list"])',
				'check: kubectl --context fake-ctx auth can-i list nodes',
				'the overview then reads each node through get on nodes/proxy: check: kubectl --context fake-ctx auth can-i get nodes/proxy',
			],
		});
	});

	test('503 from the proxy: the API server cannot reach the kubelet', async () => {
		fake.setFault({type: 'status', code: 503}, {route: 'metrics', node: 'worker-1'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'kubelet-unreachable',
			summary: 'the API server cannot reach the kubelet on node "worker-1"',
			details: [
				'API server (503): error trying to reach service: dial tcp 10.0.0.5:10250: connect: connection refused',
				'that is itself a sign of node trouble: the kubelet is down or the node is cut off from the control plane',
				'check: kubectl --context fake-ctx get node worker-1 -o wide',
			],
		});
	});

	test('502 from the proxy is kubelet-unreachable too; the fault is per node', async () => {
		fake.setFault({type: 'status', code: 502}, {node: 'worker-1'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.equal(failure.kind, 'kubelet-unreachable');
		assert.equal(
			failure.details[0],
			'API server (502): error trying to reach service: proxy error from 127.0.0.1:6443 while dialing 10.0.0.5:10250, code 502: 502 Bad Gateway',
		);
		const other = harness.source(singleContext(fake.url, tokenUser), {node: 'worker-2'}).source;
		assert.match(await other.fetchMetrics(signal()), /kubelet_pleg_last_seen_seconds/);
	});

	test('503 on the node object is an http failure, not kubelet-unreachable', async () => {
		fake.setFault({type: 'status', code: 503, message: 'the server is currently unable to handle the request'}, {route: 'node'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchNode(signal()));
		assert.deepEqual(failure, {
			kind: 'http',
			summary: `${fake.url} answered 503 Service Unavailable to GET /api/v1/nodes/worker-1`,
			details: ['API server: the server is currently unable to handle the request'],
		});
	});

	test('any other status: http with status and message', async () => {
		fake.setFault({type: 'status', code: 500, message: 'Internal error occurred: etcdserver: request timed out'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'http',
			summary: `${fake.url} answered 500 Internal Server Error to GET ${metricsPath}`,
			details: ['API server: Internal error occurred: etcdserver: request timed out'],
		});
	});

	test('an HTML page instead of metrics (a login portal in the way)', async () => {
		fake.setFault({type: 'html'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'parse',
			summary: `metrics could not be parsed (line 1): ${fake.url} answered with an HTML page, not kubelet metrics`,
			details: [
				'content-type: text/html; charset=utf-8; the page: an HTML page titled "Sign in to Example Corp"',
				'is a proxy or a login portal between pleg-top and the API server?',
			],
		});
	});

	test('a server message that echoes a bearer token is redacted', async () => {
		fake.setFault({type: 'status', code: 400, message: `bad header Authorization: Bearer ${token}`});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure.details, ['API server: bad header Authorization: Bearer [redacted]']);
	});

	test('the node object: version, Ready condition and container runtime', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		assert.deepEqual(await source.fetchNode(signal()), {
			name: 'worker-1',
			uid: 'uid-worker-1',
			kubeletVersion: 'v1.28.4',
			// lastTransitionTime 2024-05-01T10:00:00Z
			// No lastHeartbeatTime in the fake's condition: no heartbeat.
			ready: {
				status: 'True',
				reason: 'KubeletReady',
				message: 'kubelet is posting ready status',
				since: Date.UTC(2024, 4, 1, 10, 0, 0),
				heartbeatSeconds: null,
			},
			// status.nodeInfo.containerRuntimeVersion of the fake's Node object
			containerRuntimeVersion: 'containerd://1.7.2',
		});
	});
});

describe('bodies the parser must cope with are passed through', () => {
	test('empty, binary and truncated 200 bodies are returned as text', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		fake.setFault({type: 'empty'});
		assert.equal(await source.fetchMetrics(signal()), '');
		fake.setFault({type: 'truncated'});
		// The default fake body is 83 characters; truncated sends the first floor(83 / 2) = 41.
		assert.equal(await source.fetchMetrics(signal()), '# TYPE kubelet_pleg_last_seen_seconds gau');
		fake.setFault({type: 'binary'});
		// Bytes 00 ff fe 1f 8b 08 00 80 81 decoded as UTF-8: each byte that cannot start or continue a
		// sequence (ff, fe, 8b, 80, 81) becomes U+FFFD; the others are control characters.
		assert.equal(await source.fetchMetrics(signal()), '\u0000\uFFFD\uFFFD\u001F\uFFFD\u0008\u0000\uFFFD\uFFFD');
	});
});

describe('network', () => {
	test('connection refused names the server and the cause', async () => {
		const port = await new Promise<number>((resolve) => {
			const probe = net.createServer().listen(0, '127.0.0.1', () => {
				const {port} = probe.address() as net.AddressInfo;
				probe.close(() => resolve(port));
			});
		});
		const url = `https://127.0.0.1:${port}`;
		const {source, file} = harness.source(singleContext(url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'network',
			summary: `cannot reach ${url}: connection refused`,
			details: [`the API server of cluster "fake" in ${file}`, `request: GET ${metricsPath}`],
		});
	});

	test('a host name that does not resolve: DNS lookup failed', async () => {
		const {source} = harness.source(singleContext('https://pleg-top-no-such-host.invalid:6443', tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.equal(failure.kind, 'network');
		// .invalid never resolves (RFC 6761); without a resolver at all the lookup fails as "temporary".
		assert.ok(
			[
				'cannot reach https://pleg-top-no-such-host.invalid:6443: DNS lookup of pleg-top-no-such-host.invalid failed',
				'cannot reach https://pleg-top-no-such-host.invalid:6443: DNS lookup of pleg-top-no-such-host.invalid failed (temporary failure)',
			].includes(failure.summary),
			failure.summary,
		);
	});

	test('the connection closing in the middle of the body', async () => {
		fake.setFault({type: 'close-mid-body'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'network',
			summary: `the answer from ${fake.url} was cut off before its end`,
			details: [`request: GET ${metricsPath}`, 'the connection closed in the middle of the body'],
		});
	});

	test('a whole answer whose gzip body stops halfway: named as damaged, not as a closed connection', async () => {
		fake.setFault({type: 'bad-gzip'});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'network',
			summary: `the answer from ${fake.url} could not be read: its gzip encoding is damaged: unexpected end of file`,
			details: [
				`request: GET ${metricsPath}`,
				'the answer said Content-Encoding: gzip; something between pleg-top and the server may have cut or altered it',
			],
		});
	});

	test('no answer within the timeout', async () => {
		fake.setFault({type: 'delay', ms: 30_000});
		const {source} = harness.source(singleContext(fake.url, tokenUser), {timeoutMs: 300});
		const failure = await harness.failure(source.fetchMetrics(signal()));
		assert.deepEqual(failure, {
			kind: 'timeout',
			summary: `no answer from ${fake.url} within 300ms`,
			details: [`request: GET ${metricsPath}`],
		});
	});

	test("abort: rejects with the signal's reason and the request is dropped", async () => {
		fake.setFault({type: 'delay', ms: 30_000});
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const controller = new AbortController();
		const arrived = fake.nextRequest();
		const pending = source.fetchMetrics(controller.signal);
		assert.equal(await arrived, metricsPath);
		controller.abort();
		await assert.rejects(pending, {name: 'AbortError'});
	});

	test('an already aborted signal sends nothing', async () => {
		const {source} = harness.source(singleContext(fake.url, tokenUser));
		const before = fake.requests.length;
		const controller = new AbortController();
		controller.abort();
		await assert.rejects(source.fetchMetrics(controller.signal), {name: 'AbortError'});
		assert.equal(fake.requests.length, before);
	});
});

test('no token appears in any failure message', () => {
	assertNoSecrets(harness.failures, [token, 'revoked-token-9f8e7d6c']);
});
