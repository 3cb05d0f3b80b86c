// Benchmark hook (not a test): N overview ticks against in-process fake nodes, for `npm run bench` to report the
// CPU one overview tick costs for many nodes, through the API server proxy and through Prometheus.
//   proxy:      a fake API server (HTTPS, keep-alive, no gzip) serving N SimulatedKubelets; a tick = every node's
//               /proxy/metrics fetched once through the scheduler + parsed + reduced, and the table rows derived.
//   prometheus: a fake Prometheus query API answering every query with N series; a tick = one fetchFigures()
//               (the jobs', the figures' and the absent nodes' instant queries) + reduced, and the table rows derived.
// The fake servers run in this process, so the CPU measured includes their side of each request.
import http from 'node:http';
import type net from 'node:net';
import {createApiServerSource} from '../source/sources/api-server.js';
import {loadKubeconfig} from '../source/sources/kube/kubeconfig.js';
import {createPrometheusSource} from '../source/sources/prometheus/source.js';
import {absentQuery, jobsQuery, plegQueries} from '../source/sources/prometheus/queries.js';
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';
import {startPrometheusOverview, startProxyOverview, type OverviewEngine} from '../source/engine/overview-engine.js';
import {sortedRows} from '../source/screen/overview-rows.js';
import {nodeView} from '../source/domain/fleet/overview-state.js';
import {startFakeApiServer} from '../test/helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext} from '../test/helpers/kubeconfig-files.js';

export type OverviewBenchOptions = {
	nodes: number;
	ticks: number;
	via: 'proxy' | 'prometheus';
	/** Size of each simulated /metrics body (proxy), bytes. @default 250000 (a current kubelet) */
	metricsBytes?: number;
};

export type OverviewBenchResult = {
	via: 'proxy' | 'prometheus';
	nodes: number;
	ticks: number;
	/** User + system CPU of this process per tick (one warm-up tick excluded), ms. */
	cpuMsPerTick: number;
	wallMsPerTick: number;
	/** HTTP requests made in the measured ticks. */
	requests: number;
};

const names = (count: number) => Array.from({length: count}, (_, i) => `node-${String(i).padStart(4, '0')}`);

/** Runs `ticks` + 1 ticks (the first warms up), each ended when `done(tick)` holds, and measures the last `ticks`. */
async function measure(
	engine: OverviewEngine<unknown>,
	ticks: number,
	done: (tick: number) => boolean,
): Promise<{cpuMs: number; wallMs: number; requests: number}> {
	let tick = 0;
	let cpu = process.cpuUsage();
	let wall = performance.now();
	let requests = 0;
	await new Promise<void>((resolve) => {
		engine.subscribe(() => {
			if (!done(tick + 1)) return;
			tick++;
			// What the screen does once per refresh: every row derived and sorted.
			const now = Date.now();
			const views = [...engine.state.nodes.values()].map((entry) => nodeView(engine.kind, entry, now));
			sortedRows(views, {now, cycleMs: engine.effectiveIntervalMs()});
			if (tick === 1) {
				cpu = process.cpuUsage();
				wall = performance.now();
				requests = engine.requestCount;
			} else if (tick === ticks + 1) {
				resolve();
			}
		});
	});
	const used = process.cpuUsage(cpu);
	return {cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall, requests: engine.requestCount - requests};
}

async function proxyTicks(options: OverviewBenchOptions): Promise<OverviewBenchResult> {
	const kubelets = names(options.nodes).map((name, i) => ({
		name,
		kubelet: new SimulatedKubelet({now: Date.now, seed: i + 1, nodeName: name, startedAt: Date.now() - 3_600_000}),
	}));
	const bytes = options.metricsBytes ?? 250_000;
	const fake = await startFakeApiServer({
		nodes: kubelets.map(({name, kubelet}) => ({name, metrics: () => kubelet.paddedMetricsText(bytes)})),
		tokens: {'bench-token-0123456789': 'bench'},
		gzip: false,
	});
	const temp = makeTempDir();
	const file = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext(fake.url, {name: 'bench', token: 'bench-token-0123456789'})));
	const fleet = createApiServerSource({
		loaded: loadKubeconfig({kubeconfig: file, env: {}, homeDir: temp.dir}),
		node: '(all nodes)',
		timeoutMs: 30_000,
		now: Date.now,
	});
	// A tick is one pass over every node as fast as 8 connections allow: no rate bound, no interval wait.
	const engine = startProxyOverview({
		fleet: {label: 'bench', listNodes: fleet.listNodes, forNode: fleet.forNode},
		intervalMs: 1,
		windowSeconds: 10,
		maxInflight: 8,
		maxRps: 1e6,
	}) as OverviewEngine<unknown>;
	try {
		const result = await measure(
			engine,
			options.ticks,
			(tick) =>
				engine.requestCount >= tick * options.nodes &&
				[...engine.state.nodes.values()].every((entry) => (entry.feed as {status: {lastGoodAt: number | null}}).status.lastGoodAt !== null),
		);
		return {
			via: 'proxy',
			nodes: options.nodes,
			ticks: options.ticks,
			cpuMsPerTick: result.cpuMs / options.ticks,
			wallMsPerTick: result.wallMs / options.ticks,
			requests: result.requests,
		};
	} finally {
		engine.stop();
		fleet.close();
		await fake.close();
		temp.remove();
	}
}

/** A Prometheus query API stand-in: each of pleg-top's queries answered with one series per node. */
async function fakePrometheus(nodes: string[], windowSeconds: number): Promise<{url: string; close(): Promise<void>}> {
	const queries = plegQueries(windowSeconds);
	const answers = new Map(
		Object.entries(queries).map(([key, promql], k) => {
			const result = nodes.map((node, i) => ({
				metric:
					key === 'kubeletVersion'
						? {node, instance: `10.0.${i >> 8}.${i & 255}:10250`, git_version: 'v1.28.4'}
						: {node, instance: `10.0.${i >> 8}.${i & 255}:10250`},
				value: [1_700_000_000, String(key === 'lastSeenAgeSeconds' ? 1 : 0.001 * (k + 1) * (1 + (i % 7)))],
			}));
			return [promql, JSON.stringify({status: 'success', data: {resultType: 'vector', result}})];
		}),
	);
	// One scrape job holds every kubelet, and Prometheus knows no node without PLEG series.
	const vector = (result: unknown[]) => JSON.stringify({status: 'success', data: {resultType: 'vector', result}});
	answers.set(jobsQuery(), vector([{metric: {job: 'kubelet'}, value: [1_700_000_000, String(nodes.length)]}]));
	answers.set(absentQuery('kubelet'), vector([]));
	const server = http.createServer((request, response) => {
		const promql = new URL(request.url ?? '/', 'http://x').searchParams.get('query') ?? '';
		const body = answers.get(promql);
		response
			.writeHead(body ? 200 : 400, {'Content-Type': 'application/json'})
			.end(body ?? '{"status":"error","errorType":"bad_data","error":"unknown query"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
		close: async () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function prometheusTicks(options: OverviewBenchOptions): Promise<OverviewBenchResult> {
	const windowSeconds = 10;
	const fake = await fakePrometheus(names(options.nodes), windowSeconds);
	const source = createPrometheusSource({url: fake.url, windowSeconds, insecureSkipTlsVerify: false, timeoutMs: 30_000, now: Date.now});
	const engine = startPrometheusOverview({source, intervalMs: 1}) as OverviewEngine<unknown>;
	let fetches = 0;
	// The engine dispatches one 'names' then one 'feeds' action, heard as one read per node: a fetch is done at the last node's.
	const last = names(options.nodes).at(-1)!;
	engine.subscribe((node) => {
		if (node === last) fetches++;
	});
	try {
		const result = await measure(engine, options.ticks, (tick) => fetches >= tick);
		return {
			via: 'prometheus',
			nodes: options.nodes,
			ticks: options.ticks,
			cpuMsPerTick: result.cpuMs / options.ticks,
			wallMsPerTick: result.wallMs / options.ticks,
			requests: result.requests * (Object.keys(plegQueries(windowSeconds)).length + 2),
		};
	} finally {
		engine.stop();
		source.close?.();
		await fake.close();
	}
}

/** N overview ticks for `nodes` in-process fake nodes, through the API server proxy or through Prometheus. */
export async function runOverviewTicks(options: OverviewBenchOptions): Promise<OverviewBenchResult> {
	return options.via === 'proxy' ? proxyTicks(options) : prometheusTicks(options);
}
