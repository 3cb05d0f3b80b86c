// The --prometheus source against a REAL Prometheus (Debian's `prometheus` package), started on loopback and
// scraping four simulated kubelets the test serves over plain HTTP every second. pleg-top's figures are compared
// with (1) Prometheus' own answers to hand-written mixin-style PromQL at the same evaluation time, and (2) pleg-top's
// own derive (deltaFigures) on the very /metrics texts Prometheus scraped. Skipped, visibly, without the binary.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, describe, test} from 'node:test';
import {stripVTControlCharacters} from 'node:util';
import React from 'react';
import {render} from 'ink-testing-library';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {deltaFigures} from '../../../source/domain/histogram/window.js';
import type {PrometheusFigures} from '../../../source/domain/fleet/prometheus-feed.js';
import {createPrometheusSource} from '../../../source/sources/prometheus/source.js';
import {plegQueries} from '../../../source/sources/prometheus/queries.js';
import {SimulatedKubelet} from '../../../source/demo/simulated-kubelet.js';
import type {Scrape} from '../../../source/domain/types.js';
import {startPrometheusOverview, type OverviewEngine} from '../../../source/engine/overview-engine.js';
import {OverviewApp} from '../../../source/screen/overview-app.js';
import {sortedRows} from '../../../source/screen/overview-rows.js';
import {nodeView} from '../../../source/domain/fleet/overview-state.js';
import {findPrometheus, startPrometheus, type RunningPrometheus} from '../../helpers/prometheus-server.js';
import {until} from '../../helpers/until.js';

const binary = findPrometheus();
const skip = binary === null ? 'prometheus binary not found: apt-get install prometheus' : false;
const windowSeconds = 10;
const nodes = ['idle-a', 'idle-b', 'churn-a', 'slow-a'];

/** Relative difference |a - b| / max(|a|, |b|). */
function relative(a: number, b: number): number {
	return a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

/** One value per node from an instant-vector answer, keyed by the `node` label. */
function byNode(result: Array<{metric: Record<string, string>; value?: [number, string]}>): Map<string, number> {
	return new Map(result.map((sample) => [sample.metric['node']!, Number(sample.value![1])]));
}

/**
 * Prometheus 2.x extrapolatedRate() for a counter (promql/functions.go), re-done here so the test can show that
 * the rate Prometheus answers is pleg-top's plain Δcount/span stretched towards the window edges: the samples
 * cover only part of the window, so Prometheus extrapolates to each edge when the gap there is below 1.1 × the
 * average sample spacing (else by half a spacing), and never below the counter's zero point.
 */
function extrapolatedRate(samples: Array<[number, number]>, rangeStart: number, rangeEnd: number): number {
	const [firstT, firstV] = samples[0]!;
	const [lastT, lastV] = samples.at(-1)!;
	const delta = lastV - firstV;
	const sampled = lastT - firstT;
	const average = sampled / (samples.length - 1);
	const threshold = average * 1.1;
	let toStart = firstT - rangeStart;
	let toEnd = rangeEnd - lastT;
	if (toStart >= threshold) toStart = average / 2;
	if (toEnd >= threshold) toEnd = average / 2;
	if (delta > 0 && firstV >= 0) toStart = Math.min(toStart, sampled * (firstV / delta));
	return (delta * ((sampled + toStart + toEnd) / sampled)) / (rangeEnd - rangeStart);
}

describe('Prometheus source against a real Prometheus', {skip}, () => {
	let prometheus: RunningPrometheus;
	let server: http.Server;
	/** Every /metrics text served, per node, with the local time it was served (ms). */
	const served = new Map<string, Array<{at: number; text: string}>>(nodes.map((node) => [node, []]));
	let at: number;
	let figures: Map<string, PrometheusFigures>;

	before(async () => {
		const started = Date.now() - 20 * 60_000;
		const kubelets = new Map(
			nodes.map((node, i) => [node, new SimulatedKubelet({now: Date.now, seed: i + 11, nodeName: node, startedAt: started})]),
		);
		kubelets.get('churn-a')!.churn(true);
		kubelets.get('slow-a')!.slowRuntime(true);
		server = http.createServer((request, response) => {
			const node = /^\/nodes\/([^/]+)\/metrics$/.exec(request.url ?? '')?.[1];
			const kubelet = node === undefined ? undefined : kubelets.get(node);
			if (kubelet === undefined) {
				response.writeHead(404).end();
				return;
			}

			const text = kubelet.metricsText();
			served.get(node!)!.push({at: Date.now(), text});
			response.writeHead(200, {'Content-Type': 'text/plain; version=0.0.4'}).end(text);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const {port} = server.address() as net.AddressInfo;
		prometheus = await startPrometheus(
			binary!,
			nodes.map((node) => ({address: `127.0.0.1:${port}`, metricsPath: `/nodes/${node}/metrics`, labels: {node}})),
			1,
		);
		// Wait for W + 2 s of one-second scrapes, at least 3 samples of every node in the window: on a loaded machine a
		// scrape that outlives its 1 s timeout is skipped, so the count of samples is not promised, only the span.
		const scraping = Date.now();
		await until(
			async () => {
				const counts = await prometheus.query(`count_over_time(kubelet_pleg_relist_duration_seconds_count[${windowSeconds}s])`);
				const spanned = Date.now() - scraping >= (windowSeconds + 2) * 1000;
				return spanned && counts.result.length === nodes.length && counts.result.every((sample) => Number(sample.value![1]) >= 3);
			},
			() => `Prometheus to collect 3 samples of every node: ${prometheus.log()}`,
			40_000,
			500,
		);

		// Evaluate a little in the past, so the newest scrape is surely stored, and everything at the same instant.
		at = Math.floor(Date.now() / 1000) * 1000 - 1500;
		const source = createPrometheusSource({
			url: prometheus.url,
			windowSeconds,
			insecureSkipTlsVerify: false,
			timeoutMs: 5000,
			now: () => at,
		});
		figures = (await source.fetchFigures(new AbortController().signal)).figures;
		source.close?.();
	});

	after(async () => {
		await prometheus?.close();
		server?.close();
	});

	test('one answer per node, keyed by the node label', () => {
		assert.deepEqual([...figures.keys()].sort(), [...nodes].sort());
		for (const entry of figures.values()) {
			assert.equal(entry.at, at);
			assert.equal(entry.kubeletVersion, 'v1.28.4');
		}
	});

	test("pleg-top's figures are Prometheus' own answers to the mixin PromQL at the same time", {timeout: 30_000}, async () => {
		const time = at / 1000;
		const w = `[${windowSeconds}s]`;
		const own = {
			mean: byNode(
				(
					await prometheus.query(
						`sum by (node) (rate(kubelet_pleg_relist_duration_seconds_sum${w})) / sum by (node) (rate(kubelet_pleg_relist_duration_seconds_count${w}))`,
						time,
					)
				).result,
			),
			p50: byNode(
				(await prometheus.query(`histogram_quantile(0.5, sum by (node, le) (rate(kubelet_pleg_relist_duration_seconds_bucket${w})))`, time))
					.result,
			),
			p99: byNode(
				(
					await prometheus.query(
						`histogram_quantile(0.99, sum by (node, le) (rate(kubelet_pleg_relist_duration_seconds_bucket${w})))`,
						time,
					)
				).result,
			),
			rate: byNode((await prometheus.query(`rate(kubelet_pleg_relist_duration_seconds_count${w})`, time)).result),
			age: byNode((await prometheus.query('time() - kubelet_pleg_last_seen_seconds', time)).result),
			interval: byNode(
				(
					await prometheus.query(
						`rate(kubelet_pleg_relist_interval_seconds_sum${w}) / rate(kubelet_pleg_relist_interval_seconds_count${w})`,
						time,
					)
				).result,
			),
		};
		for (const node of nodes) {
			const mine = figures.get(node)!;
			// The same arithmetic on the same samples in the same server: equal but for float rounding.
			assert.ok(relative(mine.meanSeconds!, own.mean.get(node)!) < 1e-12, `${node} mean ${mine.meanSeconds} vs ${own.mean.get(node)}`);
			assert.ok(relative(mine.p50!, own.p50.get(node)!) < 1e-12, `${node} p50`);
			assert.ok(relative(mine.p99!, own.p99.get(node)!) < 1e-12, `${node} p99`);
			assert.ok(relative(mine.ratePerSecond!, own.rate.get(node)!) < 1e-12, `${node} rate`);
			assert.ok(relative(mine.intervalMeanSeconds!, own.interval.get(node)!) < 1e-12, `${node} interval`);
			assert.equal(mine.lastSeenAgeSeconds, own.age.get(node));
		}

		console.log(
			'prometheus vs pleg-top (Prometheus source):',
			JSON.stringify(
				nodes.map((node) => ({
					node,
					mean: own.mean.get(node),
					p99: own.p99.get(node),
					rate: own.rate.get(node),
					plegTopMean: figures.get(node)!.meanSeconds,
					plegTopP99: figures.get(node)!.p99,
				})),
			),
		);
	});

	test(
		"and they match pleg-top's own derive on the texts Prometheus scraped (rate: but for the extrapolation)",
		{timeout: 30_000},
		async () => {
			const time = at / 1000;
			const report: object[] = [];
			for (const node of nodes) {
				// The samples Prometheus used: a range selector at the same time gives their timestamps and values.
				const range = await prometheus.query(`kubelet_pleg_relist_duration_seconds_count{node="${node}"}[${windowSeconds}s]`, time);
				const samples = range.result[0]!.values!.map(([t, v]): [number, number] => [t, Number(v)]);
				// Under load Prometheus may skip a scrape or two; first and last are what the figures use.
				assert.ok(samples.length >= 3, `${node}: ${samples.length} samples`);
				// The text served for each: of those holding the stored count, the one served closest to the sample's
				// timestamp (the scrape start). On a loaded machine a scrape can time out after the text was served, or
				// be answered late: the nearest text in time alone may not be the one Prometheus stored.
				const scrapeAt = ([t, v]: [number, number]): Scrape => {
					const holding = served
						.get(node)!
						.map((entry) => ({...entry, sample: parsePlegSample(entry.text)}))
						.filter((entry) => entry.sample.relistDuration?.count === v);
					assert.ok(holding.length > 0, `${node}: a served text holds the stored sample ${v}`);
					const {sample} = holding.reduce((best, entry) => (Math.abs(entry.at - t * 1000) < Math.abs(best.at - t * 1000) ? entry : best));
					return {at: t * 1000, sample, latencyMs: 0};
				};

				const mine = deltaFigures(scrapeAt(samples[0]!), scrapeAt(samples.at(-1)!));
				const theirs = figures.get(node)!;
				// Mean: rate(sum)/rate(count) stretches Δsum and Δcount by the same extrapolation factor, which cancels.
				assert.ok(relative(mine.meanSeconds!, theirs.meanSeconds!) < 1e-9, `${node} mean ${mine.meanSeconds} vs ${theirs.meanSeconds}`);
				// Quantiles: histogram_quantile over bucket rates is scale-free, so the bucket deltas give the same answer,
				// except that extrapolation stops at a counter's zero point per bucket: a bucket that was 0 at the window
				// start is stretched less than the others. After 20 minutes of relists that moves a quantile by well
				// under 1 %.
				assert.ok(relative(mine.p50!.seconds, theirs.p50!) < 0.01, `${node} p50 ${mine.p50?.seconds} vs ${theirs.p50}`);
				assert.ok(relative(mine.p99!.seconds, theirs.p99!) < 0.01, `${node} p99 ${mine.p99?.seconds} vs ${theirs.p99}`);
				// Rate: pleg-top divides Δcount by the span between the two scrapes; Prometheus extrapolates Δcount to
				// the whole window and divides by the window. Re-doing that extrapolation gives Prometheus' answer.
				const expected = extrapolatedRate(samples, time - windowSeconds, time);
				// (1e-6: the timestamps come back as decimal seconds with millisecond digits.)
				assert.ok(relative(expected, theirs.ratePerSecond!) < 1e-6, `${node} rate: extrapolated ${expected} vs ${theirs.ratePerSecond}`);
				const sampledSeconds = samples.at(-1)![0] - samples[0]![0];
				const plain = (samples.at(-1)![1] - samples[0]![1]) / sampledSeconds;
				// (1e-6 again: pleg-top's scrape times are these decimal seconds × 1000, rounded as floats.)
				assert.ok(relative(mine.ratePerSecond!, plain) < 1e-6, `${node} pleg-top rate ${mine.ratePerSecond} vs Δcount/span ${plain}`);
				report.push({
					node,
					promMean: theirs.meanSeconds,
					plegTopMean: mine.meanSeconds,
					promP99: theirs.p99,
					plegTopP99: mine.p99?.seconds,
					promRate: theirs.ratePerSecond,
					plegTopRate: mine.ratePerSecond,
				});
			}

			console.log('prometheus vs pleg-top derive:', JSON.stringify(report));
		},
	);

	test('--window 1500ms: every query is one Prometheus parses (a range in whole units, [1500ms])', {timeout: 30_000}, async () => {
		const queries = Object.values(plegQueries(1.5));
		assert.ok(queries.every((query) => !query.includes('[1.5s]')));
		// prometheus.query throws on an error answer, such as a 400 for a range it cannot parse.
		for (const query of queries) await prometheus.query(query, at / 1000);
	});

	test('--node narrows every query to one node, with the same figures', {timeout: 30_000}, async () => {
		const source = createPrometheusSource({
			url: prometheus.url,
			node: 'churn-a',
			windowSeconds,
			insecureSkipTlsVerify: false,
			timeoutMs: 5000,
			now: () => at,
		});
		const one = (await source.fetchFigures(new AbortController().signal)).figures;
		source.close?.();
		assert.deepEqual([...one.keys()], ['churn-a']);
		assert.deepEqual(one.get('churn-a'), figures.get('churn-a'));
	});

	test(
		'overview and one-node screens run on it: churning and slow-runtime nodes have a higher p99 than idle ones',
		{timeout: 30_000},
		async () => {
			const source = createPrometheusSource({
				url: prometheus.url,
				windowSeconds,
				insecureSkipTlsVerify: false,
				timeoutMs: 5000,
				now: Date.now,
			});
			const engine = startPrometheusOverview({source, intervalMs: 1000}) as OverviewEngine<unknown>;
			try {
				await new Promise<void>((resolve, reject) => {
					const timer = setTimeout(() => reject(new Error('no figures for every node within 15 s')), 15_000);
					const stop = engine.subscribe(() => {
						if (
							engine.state.nodes.size === nodes.length &&
							[...engine.state.nodes.values()].every((entry) => engine.kind.figures(entry.feed, Date.now()) !== null)
						) {
							clearTimeout(timer);
							stop();
							resolve();
						}
					});
				});
				const rows = sortedRows(
					[...engine.state.nodes.values()].map((entry) => nodeView(engine.kind, entry, Date.now())),
					{now: Date.now(), cycleMs: engine.effectiveIntervalMs()},
				);
				const p99 = new Map(rows.map((row) => [row.name, row.p99!.seconds]));
				// A node is `slow` exactly when its p99 is at least 10 × the median p99 of the other three (their middle one).
				for (const row of rows) {
					const others = rows
						.filter((other) => other.name !== row.name)
						.map((other) => other.p99!.seconds)
						.sort((a, b) => a - b);
					assert.equal(
						row.word,
						row.p99!.seconds >= 10 * others[1]! ? 'slow' : 'ok',
						`${row.name}: p99 ${row.p99!.seconds} vs ${others.join(', ')}`,
					);
				}

				for (const quiet of ['idle-a', 'idle-b']) assert.equal(rows.find((row) => row.name === quiet)!.word, 'ok');
				for (const busy of ['churn-a', 'slow-a']) {
					for (const quiet of ['idle-a', 'idle-b'])
						assert.ok(p99.get(busy)! > p99.get(quiet)!, `${busy} ${p99.get(busy)} vs ${quiet} ${p99.get(quiet)}`);
				}
			} finally {
				engine.stop();
				source.close?.();
			}

			const single = createPrometheusSource({
				url: prometheus.url,
				node: 'idle-a',
				windowSeconds,
				insecureSkipTlsVerify: false,
				timeoutMs: 5000,
				now: Date.now,
			});
			const oneEngine = startPrometheusOverview({source: single, intervalMs: 1000}) as OverviewEngine<unknown>;
			const app = render(
				React.createElement(OverviewApp<unknown>, {engine: oneEngine, only: 'idle-a', renderEveryMs: 20, size: {columns: 120, rows: 30}}),
			);
			try {
				const read = () => stripVTControlCharacters(app.lastFrame() ?? '');
				const frame = await until(
					() => {
						const text = read();
						return text.includes('PLEG is healthy') && text;
					},
					() => `the screen to say PLEG is healthy; last frame:\n${read()}`,
					20_000,
					20,
				);

				// The node named once: the source's label without it.
				assert.match(frame.split('\n')[0]!, new RegExp(`^pleg-top · idle-a · kubelet v1.28.4 · via Prometheus ${prometheus.url}`));
				assert.match(frame, /PLEG is healthy/);
			} finally {
				app.unmount();
				oneEngine.stop();
				single.close?.();
			}
		},
	);
});
