// The soak run itself (not a test file): soak.int.test.ts starts it as `node --expose-gc --import tsx` so it can
// force a GC and measure the heap. The real poller, reducer and figuresAt, the real API-server source, the
// fake API server with faults injected at random (seeded); prints one JSON object with the measurements.
import {feedReducer, figuresAt, initialFeedState} from '../../source/domain/feed.js';
import {logSize} from '../../source/domain/history/bounded-log.js';
import {createApiServerSource} from '../../source/sources/api-server.js';
import {loadKubeconfig} from '../../source/sources/kube/kubeconfig.js';
import {createRandom} from '../../source/demo/simulated-random.js';
import {startPoller} from '../../source/engine/poller.js';
import type {Fault} from '../helpers/fake-api-server.js';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {until} from '../helpers/until.js';
import {startCluster, testToken, tokenUser, v121After} from './cluster.js';

/** Polls in all, the first `warmUp` of them before the first measurement. */
const polls = Number(process.env['SOAK_POLLS'] ?? 2000);
const warmUp = 200;
const gc = (globalThis as {gc?: () => void}).gc;
if (!gc) throw new Error('run with --expose-gc');

function resources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
	return counts;
}

const listeners = () => process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0);

/**
 * The handles once closed sockets and timers are gone: they go on later ticks, so this waits until they match
 * `expected` (a handle left fails the child, naming what is left) and returns them for the test to compare.
 */
async function settled(expected: Record<string, number>): Promise<{resources: Record<string, number>; listeners: number}> {
	const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
	await until(
		() => sorted(resources()) === sorted(expected),
		() => `the handles to be ${sorted(expected)}; left: ${sorted(resources())}`,
	);
	return {resources: resources(), listeners: listeners()};
}
const heapMiB = () => {
	gc();
	gc();
	return process.memoryUsage().heapUsed / 2 ** 20;
};

const initial = {resources: resources(), listeners: listeners()};
// 100 payloads a minute apart, served in turn: every 100th request the counts fall back (a kubelet restart).
const payloads = Array.from({length: 100}, (_, index) => v121After(index + 1));
const cluster = await startCluster([{name: 'worker-1', kubeletVersion: 'v1.21.2', metrics: (n) => payloads[(n - 1) % payloads.length]!}]);
const {fake} = cluster;
const env = cluster.envFor('soak.yaml', singleContext(fake.url, tokenUser));
const loaded = loadKubeconfig({kubeconfig: env.KUBECONFIG, env: {}, homeDir: cluster.temp.dir});
const source = createApiServerSource({loaded, node: 'worker-1', timeoutMs: 300, now: Date.now});

const faults: Fault[] = [
	{type: 'status', code: 503},
	{type: 'status', code: 502},
	{type: 'status', code: 403},
	{type: 'status', code: 500},
	{type: 'status', code: 401},
	{type: 'html'},
	{type: 'truncated'},
	{type: 'empty'},
	{type: 'binary'},
	{type: 'close-mid-body'},
	{type: 'destroy-socket'},
	{type: 'delay', ms: 20},
	// Longer than the 300 ms timeout: the request is abandoned and its socket destroyed.
	{type: 'delay', ms: 350},
];
const random = createRandom(20_240_501);
const injected: Record<string, number> = {};
const baseline = {resources: resources(), listeners: listeners()};
// A limit well under the ~1,700 scrapes of the run, so the soak shows the history stops growing at it.
let state = initialFeedState({node: 'worker-1', windowSeconds: 1, historyLimit: 900});
let done = 0;
let scrapes = 0;
let failures = 0;
let figuresComputed = 0;
let warm: {heapMiB: number; resources: Record<string, number>; listeners: number} | undefined;
const samples: number[] = [];
const started = Date.now();

let stopPoller = () => {};
const finished = new Promise<void>((resolve) => {
	const step = () => {
		figuresComputed += figuresAt(state, Date.now()) === null ? 0 : 1;
		done++;
		if (random.chance(0.15)) {
			const fault = faults[random.integer(0, faults.length - 1)]!;
			const name = fault.type === 'status' ? String(fault.code) : fault.type === 'delay' ? `delay ${fault.ms} ms` : fault.type;
			injected[name] = (injected[name] ?? 0) + 1;
			fake.setFault(fault, {route: 'metrics'}, 1);
		}

		if (done === warmUp) warm = {heapMiB: heapMiB(), resources: resources(), listeners: listeners()};
		if (done % 100 === 0) samples.push(process.getActiveResourcesInfo().length);
		if (done === polls) resolve();
	};

	const poller = startPoller(
		{source, intervalMs: 2, minBackoffMs: 2, maxBackoffMs: 20, nodeRefreshMs: 500},
		{
			onScrape(scrape) {
				scrapes++;
				state = feedReducer(state, {type: 'scrape', scrape});
				step();
			},
			onFailure(failure, at) {
				failures++;
				state = feedReducer(state, {type: 'failure', failure, at});
				step();
			},
			onNode(node) {
				state = feedReducer(state, {type: 'node', node});
			},
		},
	);
	stopPoller = () => {
		poller.stop();
	};
});

await finished;
const end = {heapMiB: heapMiB(), resources: resources(), listeners: listeners()};
const wallMs = Date.now() - started;
stopPoller();
source.close();
const afterStop = await settled(baseline.resources);
const maxInFlightMetrics = fake.maxInFlightOn('metrics');
const requests = fake.requests.length;
await cluster.close();
const afterClose = await settled(initial.resources);

process.stdout.write(
	JSON.stringify({
		polls: done,
		scrapes,
		failures,
		figuresComputed,
		restarts: state.restarts,
		injected,
		wallMs,
		maxInFlightMetrics,
		serverRequests: requests,
		initial,
		baseline,
		warm,
		end,
		afterStop,
		afterClose,
		resourceSamples: samples,
		historyPoints: logSize(state.history),
		tokenSeen: JSON.stringify(state).includes(testToken),
	}) + '\n',
);
