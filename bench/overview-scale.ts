// Benchmark (not a test): the overview's cost as the fleet grows. The real CLI draws the overview in a 120×40 tmux
// pane against stand-ins this process serves, and its CPU and resident memory are read from /proc:
//   --prometheus: a stand-in Prometheus query API answering each of pleg-top's instant queries with one series
//                 per node, pleg-top refreshing every 1 s (the default --interval);
//   API server:   the test fake API server with N nodes, each /proxy/metrics a SimulatedKubelet padded to 250 KB,
//                 pleg-top at its defaults (--interval 1s, --max-rps 20, --max-inflight 8).
// Per size: the first full table (every node judged in the counts line), CPU per second of wall time over a steady
// stretch after it, refreshes a second (Prometheus), and the highest VmRSS read during the stretch. The growth of
// CPU with N is fitted as CPU ∝ N^k over the --prometheus sizes from 100 up.
//   node --import tsx bench/overview-scale.ts [--sizes 1,100,1000,10000] [--proxy-sizes 1,100,300] [--seconds 20]
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import {absentQuery, jobsQuery, plegQueries} from '../source/sources/prometheus/queries.js';
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';
import {startFakeApiServer} from '../test/helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext} from '../test/helpers/kubeconfig-files.js';
import {processCpuMs, residentBytes} from './proc.js';
import {keepTmuxServer, quitLiveCli, startLiveCli, until} from './tmux-cli.js';

type Row = {
	via: 'prometheus' | 'proxy';
	nodes: number;
	firstFullTableSeconds: number;
	cpuPerSecondMs: number;
	refreshesPerSecond: number | null;
	peakRssMiB: number;
	seconds: number;
};

const names = (count: number) => Array.from({length: count}, (_, i) => `node-${String(i).padStart(5, '0')}`);
const windowSeconds = 60;

/** Prometheus' scrape interval in the stand-in: each node scraped every 15 s, the fleet spread over the interval. */
const scrapeEveryMs = 15_000;

function vectorAnswer(result: unknown[]): string {
	return JSON.stringify({status: 'success', data: {resultType: 'vector', result}});
}

/**
 * Each of pleg-top's queries answered with one series per node, counting the queries asked. The figures are fixed
 * (computed once); the scrape times (timestamp()) and the last-seen ages move with the clock, as a Prometheus
 * scraping every 15 s answers them: rebuilt once a second.
 */
export async function standInPrometheus(nodes: string[]): Promise<{url: string; queries: () => number; close(): Promise<void>}> {
	const queries = plegQueries(windowSeconds);
	const fixed = new Map(
		Object.entries(queries).map(([key, promql], k) => {
			const result = nodes.map((node, i) => ({
				metric: key === 'kubeletVersion' ? {node, git_version: 'v1.28.4'} : {node},
				value: [Date.now() / 1000, String(0.001 * (k + 1) * (1 + (i % 7)))],
			}));
			return [promql, vectorAnswer(result)];
		}),
	);
	// One scrape job holds every kubelet, and Prometheus knows no node without PLEG series.
	fixed.set(jobsQuery(), vectorAnswer([{metric: {job: 'kubelet'}, value: [Date.now() / 1000, String(nodes.length)]}]));
	fixed.set(absentQuery('kubelet'), vectorAnswer([]));
	let second = -1;
	const moving = new Map<string, string>();
	const answerFor = (promql: string): string | undefined => {
		const now = Date.now();
		if (Math.floor(now / 1000) !== second) {
			second = Math.floor(now / 1000);
			const scraped = nodes.map((_, i) => {
				const phase = (i * 997) % scrapeEveryMs;
				return Math.floor((now - phase) / scrapeEveryMs) * scrapeEveryMs + phase;
			});
			// The kubelet relisted 1 s before each scrape.
			const series = (value: (i: number) => number) =>
				vectorAnswer(nodes.map((node, i) => ({metric: {node}, value: [now / 1000, String(value(i))]})));
			moving.set(
				queries.lastSeenScrapedAt,
				series((i) => scraped[i]! / 1000),
			);
			moving.set(
				queries.lastSeenAgeSeconds,
				series((i) => (now - scraped[i]!) / 1000 + 1),
			);
		}

		return moving.get(promql) ?? fixed.get(promql);
	};

	let asked = 0;
	const server = http.createServer((request, response) => {
		asked++;
		const body = answerFor(new URL(request.url ?? '/', 'http://x').searchParams.get('query') ?? '');
		response.writeHead(body ? 200 : 400, {'Content-Type': 'application/json'}).end(body ?? '{"status":"error","error":"unknown query"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
		queries: () => asked,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * How many nodes the counts line (the screen's third line) gives a verdict: ok, slow, warn, critical, unhealthy or
 * an error; not the unknown ones (waiting for a first read). A simulated fleet has a slow node or two.
 */
export function judgedNodes(screen: string): number {
	const counts = screen.split('\n')[2] ?? '';
	let judged = 0;
	for (const match of counts.matchAll(/(\d+) (unhealthy|critical|errors?|warn|slow|ok)\b/g)) judged += Number(match[1]);
	return judged;
}

/** Runs the CLI until the counts line judges all `nodes`, then measures a steady stretch of `seconds`. */
async function measureCli(
	args: string[],
	env: Record<string, string>,
	nodes: number,
	seconds: number,
	counter: (() => number) | null,
	perRefresh: number,
): Promise<Omit<Row, 'via' | 'nodes'>> {
	const started = Date.now();
	const cli = startLiveCli(args, env, undefined, nodeArgs);
	try {
		await until(() => judgedNodes(cli.session.screen()) === nodes, 120_000, `${nodes} nodes judged`, 50);
		const firstFullTableSeconds = (Date.now() - started) / 1000;
		const cpu0 = processCpuMs(cli.pid);
		const asked0 = counter?.() ?? 0;
		const wall0 = Date.now();
		let peak = 0;
		while (Date.now() - wall0 < seconds * 1000) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			peak = Math.max(peak, residentBytes(cli.pid));
		}

		const wall = (Date.now() - wall0) / 1000;
		return {
			firstFullTableSeconds,
			cpuPerSecondMs: (processCpuMs(cli.pid) - cpu0) / wall,
			refreshesPerSecond: counter === null ? null : (counter() - asked0) / perRefresh / wall,
			peakRssMiB: peak / 2 ** 20,
			seconds: wall,
		};
	} finally {
		await quitLiveCli(cli.session);
	}
}

async function prometheusRow(nodes: number, seconds: number, home: string): Promise<Row> {
	const stand = await standInPrometheus(names(nodes));
	try {
		// The figures' queries, the jobs' and the absent nodes'.
		const perRefresh = Object.keys(plegQueries(windowSeconds)).length + 2;
		const args = ['--prometheus', stand.url, '--window', `${windowSeconds}s`, '--interval', '1s'];
		return {via: 'prometheus', nodes, ...(await measureCli(args, {HOME: home}, nodes, seconds, stand.queries, perRefresh))};
	} finally {
		await stand.close();
	}
}

async function proxyRow(nodes: number, seconds: number): Promise<Row> {
	const kubelets = names(nodes).map(
		(name, i) => [name, new SimulatedKubelet({now: Date.now, seed: i + 1, nodeName: name, startedAt: Date.now() - 3_600_000})] as const,
	);
	const fake = await startFakeApiServer({
		nodes: kubelets.map(([name, kubelet]) => ({name, kubeletVersion: 'v1.28.4', metrics: () => kubelet.paddedMetricsText(250_000)})),
		tokens: {'bench-token-0123456789': 'bench'},
	});
	const temp = makeTempDir('pleg-top-overview-scale-');
	try {
		const kubeconfig = temp.write(
			'kubeconfig.yaml',
			kubeconfigYaml(singleContext(fake.url, {name: 'bench', token: 'bench-token-0123456789'})),
		);
		// A steady stretch of at least two cycles at the rate bound (300 nodes: 15 s each).
		const stretch = Math.max(seconds, (2 * nodes) / 20);
		return {via: 'proxy', nodes, ...(await measureCli([], {HOME: temp.dir, KUBECONFIG: kubeconfig}, nodes, stretch, null, 1))};
	} finally {
		await fake.close();
		temp.remove();
	}
}

/** k of CPU ∝ N^k by least squares on the logarithms. */
export function fittedExponent(points: ReadonlyArray<{nodes: number; cpu: number}>): number | null {
	const usable = points.filter((point) => point.nodes > 0 && point.cpu > 0);
	if (usable.length < 2) return null;
	const xs = usable.map((point) => Math.log(point.nodes));
	const ys = usable.map((point) => Math.log(point.cpu));
	const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
	const my = ys.reduce((a, b) => a + b, 0) / ys.length;
	const sxy = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
	const sxx = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
	return sxx === 0 ? null : sxy / sxx;
}

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(name);
	return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

/** `--node-args "--cpu-prof --cpu-prof-dir=DIR"`: flags for node itself, to profile the measured CLI. */
const nodeArgs = option('--node-args', '').split(' ').filter(Boolean);

async function main(): Promise<void> {
	const sizes = option('--sizes', '1,100,1000,10000').split(',').filter(Boolean).map(Number);
	const proxySizes = option('--proxy-sizes', '1,100,300').split(',').filter(Boolean).map(Number);
	const seconds = Number(option('--seconds', '20'));
	const release = keepTmuxServer();
	const home = makeTempDir('pleg-top-overview-scale-home-');
	const rows: Row[] = [];
	try {
		for (const nodes of sizes) {
			rows.push(await prometheusRow(nodes, seconds, home.dir));
			console.error(JSON.stringify(rows.at(-1)));
		}

		for (const nodes of proxySizes) {
			rows.push(await proxyRow(nodes, seconds));
			console.error(JSON.stringify(rows.at(-1)));
		}
	} finally {
		release();
		home.remove();
	}

	const exponent = fittedExponent(
		rows.filter((row) => row.via === 'prometheus' && row.nodes >= 100).map((row) => ({nodes: row.nodes, cpu: row.cpuPerSecondMs})),
	);
	const file = path.join(
		import.meta.dirname,
		'results',
		`${new Date().toISOString().replaceAll(':', '-').slice(0, 19)}Z-overview-scale.json`,
	);
	fs.writeFileSync(file, JSON.stringify({rows, prometheusCpuExponent: exponent}, null, 2) + '\n');
	console.log('| via | nodes | first full table | CPU (ms per s) | refreshes/s | peak RSS |');
	console.log('|---|---|---|---|---|---|');
	for (const row of rows) {
		const refreshes = row.refreshesPerSecond === null ? '—' : row.refreshesPerSecond.toFixed(2);
		console.log(
			`| ${row.via} | ${row.nodes} | ${row.firstFullTableSeconds.toFixed(1)} s | ${row.cpuPerSecondMs.toFixed(0)} | ${refreshes} | ${row.peakRssMiB.toFixed(0)} MiB |`,
		);
	}

	console.log(
		`\nCPU ∝ N^${exponent?.toFixed(2) ?? '?'} (--prometheus, 100 nodes and up); written to ${path.relative(process.cwd(), file)}`,
	);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
