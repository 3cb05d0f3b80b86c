// Where cluster text enters: every field pleg-top shows comes out of its source in the visible form
// (untrusted-text.ts), whatever sink it then reaches; a listed node whose name holds controls is still reachable.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import {SourceFailure, sourceFailure} from '../../source/sources/failure.js';
import {eventPageFromJson} from '../../source/sources/node-events.js';
import {nodeInfoFromJson, nodeInfosFromJson, nodeNamesFromJson} from '../../source/sources/node-info.js';
import {readVector} from '../../source/sources/prometheus/envelope.js';
import {toFailure} from '../../source/sources/to-failure.js';
import {startFakeApiServer, type FakeApiServer} from '../helpers/fake-api-server.js';
import {allPayloads as p, allPayloadsVisible as v, firstControl} from '../helpers/escape-payloads.js';
import {makeTempDir, singleContext} from '../helpers/kubeconfig-files.js';
import {makeHarness} from './api-server-helpers.js';

const node = (name: string) => ({
	kind: 'Node',
	metadata: {name},
	status: {
		nodeInfo: {kubeletVersion: `v1.28.4${p}`, containerRuntimeVersion: `containerd://1.7.2${p}`},
		conditions: [{type: 'Ready', status: 'False', reason: `KubeletNotReady${p}`, message: `PLEG is not healthy\n${p}`}],
	},
});

describe('the Node object', () => {
	test('name, versions and the Ready reason and message in the visible form; \\n a space', () => {
		const info = nodeInfoFromJson(JSON.stringify(node(`worker-1${p}`)), 'worker-1');
		assert.deepEqual(info, {
			name: `worker-1${v}`,
			kubeletVersion: `v1.28.4${v}`,
			ready: {status: 'False', reason: `KubeletNotReady${v}`, message: `PLEG is not healthy ${v}`, since: null, heartbeatSeconds: null},
			containerRuntimeVersion: `containerd://1.7.2${v}`,
		});
	});

	test('a NodeList: names shown visible, each that changed mapped back to the name held; the continue token as sent', () => {
		const body = JSON.stringify({metadata: {continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ'}, items: [node('plain-1'), node(`evil${p}`)]});
		const {nodes, addresses, continueToken} = nodeInfosFromJson(body);
		assert.deepEqual(
			nodes.map((info) => info.name),
			['plain-1', `evil${v}`],
		);
		assert.deepEqual([...addresses], [[`evil${v}`, `evil${p}`]]);
		assert.equal(continueToken, 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ');
		assert.deepEqual(nodeNamesFromJson(body), ['plain-1', `evil${v}`]);
	});
});

describe('an EventList page', () => {
	test('type, reason, message and source in the visible form', () => {
		const {events} = eventPageFromJson(
			JSON.stringify({
				items: [{type: `Warning${p}`, reason: `Evil${p}`, message: `one\r\ntwo${p}\n`, source: {component: `kubelet${p}`}, count: 2}],
			}),
		);
		assert.deepEqual(events, [
			{type: `Warning${v}`, reason: `Evil${v}`, message: `one two${v}`, count: 2, lastTimestamp: null, source: `kubelet${v}`},
		]);
	});
});

describe('failures', () => {
	test('a SourceFailure shows every line visible, in its failure and in its message', () => {
		const error = sourceFailure('http', `summary${p}`, [`detail${p}`, 'plain']);
		assert.deepEqual(error.failure, {kind: 'http', summary: `summary${v}`, details: [`detail${v}`, 'plain']});
		assert.equal(error.message, `summary${v}\ndetail${v}\nplain`);
		assert.equal(new SourceFailure({kind: 'parse', summary: p, details: []}).failure.summary, v);
	});

	test('toFailure of an error no layer classified is visible', () => {
		const source = {label: 'worker-1 via https://api', node: 'worker-1'};
		assert.equal(toFailure(new Error(p), source).summary, `request for worker-1 failed: ${v}`);
	});
});

describe('metric labels', () => {
	test("the kubelet's version label (kubernetes_build_info git_version)", () => {
		const text = `# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.7e+09\n# TYPE kubernetes_build_info gauge\nkubernetes_build_info{git_version="v1.28.4\u001B]0;pwn\u0007\u009B31m"} 1\n`;
		assert.equal(parsePlegSample(text).kubeletVersion, 'v1.28.4^[]0;pwn^G\\u009b31m');
	});

	test('Prometheus label values (node names, versions)', () => {
		const body = JSON.stringify({
			status: 'success',
			data: {resultType: 'vector', result: [{metric: {node: `worker${p}`, git_version: `v1${p}`}, value: [1, '1']}]},
		});
		assert.deepEqual(readVector(body, 'http://prometheus')[0]!.metric, {node: `worker${v}`, git_version: `v1${v}`});
	});
});

describe('through the API server', () => {
	const token = 'pleg-top-escape-token-71c0a9e2';
	const temp = makeTempDir();
	const harness = makeHarness(temp);
	let fake: FakeApiServer;
	const evil = `evil${p}`;

	before(async () => {
		fake = await startFakeApiServer({nodes: [{name: 'worker-1'}, {name: evil}], tokens: {[token]: 'alice'}});
	});

	after(async () => {
		harness.closeAll();
		await fake.close();
		temp.remove();
	});

	const source = () => harness.source(singleContext(fake.url, {name: 'token-user', token})).source;
	const signal = () => new AbortController().signal;

	test('a listed node with controls in its name: shown visible, read at the name the API server holds', async () => {
		const api = source();
		const names = (await api.listNodes(signal())).map((info) => info.name);
		assert.deepEqual(names, ['worker-1', `evil${v}`]);
		const shown = api.forNode(`evil${v}`);
		assert.equal(shown.node, `evil${v}`);
		assert.match(await shown.fetchMetrics(signal()), /kubelet_pleg_last_seen_seconds/);
		assert.equal(fake.requests.at(-1)!.path, `/api/v1/nodes/${encodeURIComponent(evil)}/proxy/metrics`);
		assert.equal((await shown.fetchNode(signal())).name, `evil${v}`);
		await shown.fetchEvents(signal());
		assert.ok(fake.requests.at(-1)!.path.includes(encodeURIComponent(`involvedObject.name=${evil}`)));
	});

	test("a Status message quoted from a 500 and a 403 is visible; the action names the node's visible name", async () => {
		fake.setFault({type: 'status', code: 500, message: `etcdserver: ${p}`}, {route: 'metrics'});
		const failure = await harness.failure(source().fetchMetrics(signal()));
		assert.deepEqual(failure.details, [`API server: etcdserver: ${v}`]);
		fake.setFault({type: 'status', code: 403, message: `forbidden ${p}`}, {node: evil});
		const api = source();
		await api.listNodes(signal());
		const refused = await harness.failure(api.forNode(`evil${v}`).fetchMetrics(signal()));
		assert.equal(firstControl(JSON.stringify(refused)), null);
		assert.ok(refused.details.includes(`API server: forbidden ${v}`), refused.details.join('\n'));
		assert.match(refused.summary, /on node "evil\^\[\]0;pwn\^G/);
		fake.clearFaults();
	});
});
