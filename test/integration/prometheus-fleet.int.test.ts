// Through the built CLI against a REAL Prometheus (Debian's `prometheus`), scraping ten simulated kubelets in job
// `kubelet`, three of them also in a second job `kubelet-copy`: the --prometheus overview neither hides a node whose
// kubelet stopped answering nor sums one kubelet's series of two jobs. Skipped, visibly, without the binary.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, describe, test} from 'node:test';
import {SimulatedKubelet} from '../../source/demo/simulated-kubelet.js';
import {findPrometheus, startPrometheus, type RunningPrometheus, type ScrapeTarget} from '../helpers/prometheus-server.js';
import {cliPath, runCli, spawnCli} from '../helpers/run-cli.js';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const binary = findPrometheus();
const skip = binary === null ? 'prometheus binary not found: apt-get install prometheus' : false;
// Two seconds between scrapes: a one-second scrape timeout on a loaded machine would fail healthy targets too.
const scrapeSeconds = 2;
const windowSeconds = 20;
const nodes = Array.from({length: 10}, (_, i) => `node-0${i}`);
const copied = nodes.slice(0, 3);
const dead = 'node-09';
const stalled = 'node-03';

type JsonNode = {
	node: string;
	status: string;
	band: string;
	error?: {kind: string; summary: string};
	relist?: {count: number | null; ratePerSecond: number | null};
};
type JsonOverview = {nodes: JsonNode[]; job?: string | null; otherJobs?: string[]};

describe('--prometheus overview against a real Prometheus: nothing hidden, nothing doubled', {skip}, () => {
	let prometheus: RunningPrometheus;
	let server: http.Server;
	let temp: TempDir;
	const stopped = new Set<string>();
	const stalls = new Set<string>();
	const env = () => ({HOME: temp.dir, TZ: 'UTC'});
	const overview = async (...extra: string[]) => {
		const result = await runCli(['--prometheus', prometheus.url, '--window', `${windowSeconds}s`, '--once', ...extra], {env: env()});
		return result;
	};

	const json = async (...extra: string[]) => {
		const result = await overview('-o', 'json', ...extra);
		const parsed = JSON.parse(result.stdout) as JsonOverview;
		return {code: result.code, stderr: result.stderr, parsed, byName: new Map(parsed.nodes.map((node) => [node.node, node]))};
	};

	/** One value per node of an instant query, by its `node` label. */
	const byNode = async (promql: string) =>
		new Map((await prometheus.query(promql)).result.map((sample) => [sample.metric['node']!, Number(sample.value![1])]));

	before(async () => {
		temp = makeTempDir();
		const started = Date.now() - 20 * 60_000;
		const kubelets = new Map(
			nodes.map((node, i) => [node, new SimulatedKubelet({now: Date.now, seed: i + 31, nodeName: node, startedAt: started})]),
		);
		server = http.createServer((request, response) => {
			const node = /^\/nodes\/([^/]+)\/metrics$/.exec(request.url ?? '')?.[1] ?? '';
			const kubelet = kubelets.get(node);
			if (kubelet === undefined || stopped.has(node)) {
				response.writeHead(kubelet ? 503 : 404).end();
				return;
			}

			let text = kubelet.metricsText();
			// A stalled PLEG as the kubelet reports it: the last relist seen 200 s ago, past the 3-minute threshold.
			if (stalls.has(node))
				text = text.replace(/^kubelet_pleg_last_seen_seconds .*$/m, `kubelet_pleg_last_seen_seconds ${Date.now() / 1000 - 200}`);
			response.writeHead(200, {'Content-Type': 'text/plain; version=0.0.4'}).end(text);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const {port} = server.address() as net.AddressInfo;
		const target = (node: string, job: string): ScrapeTarget => ({
			address: `127.0.0.1:${port}`,
			metricsPath: `/nodes/${node}/metrics`,
			labels: {node},
			job,
		});
		prometheus = await startPrometheus(
			binary!,
			[...nodes.map((node) => target(node, 'kubelet')), ...copied.map((node) => target(node, 'kubelet-copy'))],
			scrapeSeconds,
		);
		// A whole window of samples of every series, so every rate has its window.
		const enough = windowSeconds / scrapeSeconds + 1;
		await until(
			async () => {
				const counts = await prometheus.query(
					`count_over_time(kubelet_pleg_relist_duration_seconds_count[${windowSeconds + scrapeSeconds}s])`,
				);
				const full =
					counts.result.length === nodes.length + copied.length && counts.result.every((sample) => Number(sample.value![1]) >= enough);
				return full ? true : undefined;
			},
			`${enough} samples of every series in Prometheus (its log: ${prometheus.log()})`,
			60_000,
			250,
		);
	});

	after(async () => {
		await prometheus?.close();
		server?.close();
		temp?.remove();
	});

	test(
		"a kubelet scraped by two jobs: relists/s and the lifetime count are one kubelet's, the job read named",
		{timeout: 120_000},
		async () => {
			const {code, stderr, parsed, byName} = await json();
			assert.equal(code, 0, stderr);
			// Prometheus' own figures of one job, read after pleg-top's: the count only grows.
			const rates = await byNode(`rate(kubelet_pleg_relist_duration_seconds_count{job="kubelet"}[${windowSeconds}s])`);
			const counts = await byNode('kubelet_pleg_relist_duration_seconds_count{job="kubelet"}');
			for (const node of copied) {
				const relist = byName.get(node)!.relist!;
				// About one relist a second (not two): within a quarter of Prometheus' own rate of that job.
				assert.ok(
					Math.abs(relist.ratePerSecond! - rates.get(node)!) < 0.25 * rates.get(node)!,
					`${node}: ${relist.ratePerSecond} vs ${rates.get(node)}`,
				);
				assert.ok(relist.ratePerSecond! < 1.5, `${node}: ${relist.ratePerSecond}`);
				// The lifetime count is the kubelet's, a few scrapes behind at most (doubled it would be twice that).
				assert.ok(
					relist.count! <= counts.get(node)! && relist.count! > 0.9 * counts.get(node)!,
					`${node}: ${relist.count} vs ${counts.get(node)}`,
				);
			}

			assert.equal(parsed.job, 'kubelet');
			assert.deepEqual(parsed.otherJobs, ['kubelet-copy']);
			const text = await overview();
			assert.match(text.stdout, /^read: job kubelet \(also seen: kubelet-copy, not read; --job to choose\)$/m);
		},
	);

	test('--job kubelet-copy reads that job: the nodes it does not scrape stay listed, with why', {timeout: 120_000}, async () => {
		const {code, parsed, byName} = await json('--job', 'kubelet-copy');
		assert.equal(parsed.job, 'kubelet-copy');
		assert.deepEqual(parsed.otherJobs, ['kubelet']);
		assert.equal(parsed.nodes.length, nodes.length);
		for (const node of copied) assert.ok(byName.get(node)!.relist!.ratePerSecond! < 1.5, node);
		const other = byName.get('node-05')!;
		assert.equal(other.status, 'unknown');
		assert.match(other.error!.summary, /PLEG series only in job kubelet, not read \(--job kubelet\)/);
		assert.equal(code, 3);
	});

	test(
		'a kubelet that stops answering stays listed as unknown with why; exit 3, and 1 when a node is unhealthy',
		{timeout: 180_000},
		async () => {
			stopped.add(dead);
			// Prometheus has seen the failed scrape: up=0 and the PLEG series gone stale.
			await until(
				async () => {
					const up = await byNode(`up{job="kubelet",node="${dead}"}`);
					const live = await byNode(`kubelet_pleg_relist_duration_seconds_count{job="kubelet",node="${dead}"}`);
					return up.get(dead) === 0 && live.size === 0 ? true : undefined;
				},
				'up=0 of the stopped kubelet and its PLEG series stale',
				60_000,
				250,
			);
			// When Prometheus last scraped it well: the last sample of up that was 1.
			const ups = (await prometheus.query(`up{job="kubelet",node="${dead}"}[5m]`)).result[0]!.values!;
			const lastGood = ups.filter(([, value]) => value === '1').at(-1)![0];
			const since = new Date(lastGood * 1000).toISOString().slice(11, 19);

			const {code, stderr, parsed, byName} = await json();
			assert.equal(code, 3, stderr);
			assert.equal(parsed.nodes.length, nodes.length);
			const gone = byName.get(dead)!;
			assert.deepEqual([gone.status, gone.band, gone.error?.kind], ['unknown', 'unknown', 'not-found']);
			assert.equal(gone.error!.summary, `Prometheus has no PLEG series for node "${dead}": kubelet not scraped since ${since}, up=0`);
			for (const node of nodes.filter((name) => name !== dead)) assert.equal(byName.get(node)!.band, 'ok', node);

			const text = await overview();
			assert.match(text.stdout, new RegExp(`\\? not scraped +${dead} `));
			assert.match(
				text.stdout,
				new RegExp(`^${dead}: Prometheus has no PLEG series for node "${dead}": kubelet not scraped since ${since}, up=0$`, 'm'),
			);

			// The one-node query says the same in its own words.
			const one = await runCli(['--prometheus', prometheus.url, dead, '--window', `${windowSeconds}s`, '--once'], {env: env()});
			assert.equal(one.code, 3);
			assert.match(one.stderr, /Prometheus has no PLEG series for node/);

			if (hasTmux) {
				const session = startTmux(`${process.execPath} ${cliPath} --prometheus ${prometheus.url} --window ${windowSeconds}s`, {
					columns: 140,
					rows: 20,
					env: {...env(), PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
				});
				try {
					const screen = await session.waitFor(/\? 1 unknown/, 30_000);
					const header = screen.split('\n')[0]!;
					assert.match(header, /\b10 nodes\b/);
					assert.match(header, /all nodes via Prometheus http:\S+ · job kubelet \(also seen: kubelet-copy\)/);
					assert.match(screen, /✓ 9 ok/);
					assert.match(screen, new RegExp(`\\? not scraped +${dead} `));
				} finally {
					session.kill();
				}
			}

			// A node whose PLEG is unhealthy wins over the one that could not be read.
			stalls.add(stalled);
			await until(
				async () => {
					const age = await byNode(`time() - kubelet_pleg_last_seen_seconds{job="kubelet",node="${stalled}"}`);
					return (age.get(stalled) ?? 0) > 190 ? true : undefined;
				},
				"the stalled kubelet's last-seen age past the threshold in Prometheus",
				60_000,
				250,
			);
			const worst = await json();
			assert.equal(worst.code, 1, worst.stderr);
			assert.equal(worst.byName.get(stalled)!.status, 'unhealthy');
			assert.equal(worst.byName.get(dead)!.status, 'unknown');
			assert.equal(worst.parsed.nodes.length, nodes.length);
		},
	);

	test('every kubelet of the job stopping at once: the live overview keeps all of them listed, unknown', {timeout: 180_000}, async () => {
		// JSON lines (stdout not a terminal): one line per node and refresh.
		const cli = spawnCli(['--prometheus', prometheus.url, '--window', `${windowSeconds}s`], {env: env(), timeoutMs: 180_000});
		try {
			await cli.waitForStdout((out) => nodes.every((node) => out.includes(`"node":"${node}"`)), 60_000);
			for (const node of nodes) stopped.add(node);
			await until(
				async () => {
					const up = await byNode('up{job="kubelet"} == 0');
					const live = await byNode('kubelet_pleg_relist_duration_seconds_count');
					return up.size === nodes.length && live.size === 0 ? true : undefined;
				},
				'up=0 of every kubelet and no PLEG series left',
				60_000,
				250,
			);
			const mark = cli.stdout.length;
			const lines = () =>
				cli.stdout
					.slice(mark)
					.split('\n')
					.filter((line) => line.startsWith('{'))
					.map((line) => JSON.parse(line) as JsonNode);
			// Every node's line says it is not scraped: none dropped although no job has PLEG series any more.
			await cli.waitForStdout(
				() => nodes.every((node) => lines().some((line) => line.node === node && /kubelet not scraped/.test(line.error?.summary ?? ''))),
				60_000,
			);
			// Three kubelets are scraped by both jobs, whose series go stale at different moments: the figures stay one
			// job's throughout (a rate summed over both would read 2/s).
			const rates = cli.stdout
				.split('\n')
				.filter((line) => line.startsWith('{'))
				.map((line) => (JSON.parse(line) as {relist?: {ratePerSecond: number | null}}).relist?.ratePerSecond)
				.filter((rate) => typeof rate === 'number');
			assert.ok(
				rates.every((rate) => rate < 1.5),
				`relists/s: ${rates.join(', ')}`,
			);
		} finally {
			cli.child.kill('SIGTERM');
			await cli.exited;
		}
	});
});
