// Odd series, end to end: the built CLI against the fake API server serving a _sum that falls while the
// _count rises, and a kubelet whose relist metrics switch from the µs summary to the seconds histogram mid-run.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {readDump, setSamples} from '../domain/dump.js';
import {runCli} from '../helpers/run-cli.js';
import {clusterPerFile, jsonLinesOf} from './cluster-per-file.js';
import {fast, withLastSeen} from './cluster.js';

type Line = Record<string, any>;
const files = clusterPerFile();

const duration = 'kubelet_pleg_relist_duration_seconds';

describe('a _sum that falls while the _count rises', () => {
	test('--once JSON: no restart, the count delta and rate stand, no mean, and the note in unavailable', async () => {
		// Request n: +10 relists and 1 s less sum each time (a broken exporter).
		files.cluster.fake.setMetrics('worker-1', (n) =>
			withLastSeen(
				setSamples(readDump('1.21.2'), {[`${duration}_count`]: String(1_671_950 + 10 * n), [`${duration}_sum`]: String(35_470 - n)}),
				1,
			),
		);
		const result = await runCli(['--node', 'worker-1', '--once', '-o', 'json', ...fast], {env: files.cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const report = JSON.parse(result.stdout) as Line;
		// Two scrapes one request apart: +10 relists. Before, each scrape was a "restart" adding the whole count.
		assert.equal(report['relist'].windowCount, 10);
		assert.equal(report['relist'].windowMeanSeconds, null);
		assert.ok(report['relist'].ratePerSecond > 0 && report['relist'].ratePerSecond < 1000, String(report['relist'].ratePerSecond));
		assert.ok(
			report['unavailable'].includes('relist duration: _sum fell while _count rose by 10: inconsistent series, no window mean'),
			report['unavailable'].join('\n'),
		);
	});
});

describe('a _sum gone below zero', () => {
	test('--once: no lifetime mean (−6.8 ms would read as a figure), the count stands', async () => {
		files.cluster.fake.setMetrics('worker-1', (n) =>
			withLastSeen(
				setSamples(readDump('1.21.2'), {[`${duration}_count`]: String(1_671_950 + 10 * n), [`${duration}_sum`]: String(-11_370 + n)}),
				1,
			),
		);
		const json = await runCli(['--node', 'worker-1', '--once', '-o', 'json', ...fast], {env: files.cluster.env});
		const report = JSON.parse(json.stdout) as Line;
		assert.equal(report['relist'].lifetimeMeanSeconds, null);
		assert.ok(report['relist'].count > 1_671_950, String(report['relist'].count));
		const text = await runCli(['--node', 'worker-1', '--once', ...fast], {env: files.cluster.env});
		assert.match(text.stdout, /^lifetime +1,67\d,\d{3} relists, mean —$/m);
	});
});

describe('the relist metrics change format mid-run', () => {
	test('JSON lines: the window starts again at the first histogram scrape, says so, then gives its figures', async () => {
		// Requests 1-3: a v1.14 kubelet's µs summaries (+1 relist each); from 4 on, the v1.21 histogram (+60 each).
		const legacy = (n: number) =>
			setSamples(readDump('1.10.0'), {
				kubelet_pleg_relist_latency_microseconds_count: String(286 + n),
				kubelet_pleg_relist_latency_microseconds_sum: String(7_541_840 + 20_000 * n),
			});
		const histogram = (n: number) =>
			withLastSeen(
				setSamples(readDump('1.21.2'), {
					[`${duration}_count`]: String(1_671_950 + 60 * n),
					[`${duration}_sum`]: String(35_470 + 0.6 * n),
				}),
				1,
			);
		files.cluster.fake.setMetrics('old-114', (n) => (n <= 3 ? legacy(n) : histogram(n)));
		const cli = files.spawn(['--node', 'old-114', '--window', '300ms', '--interval', '100ms']);
		const noteLine = (line: Line) => (line['unavailable'] as string[]).find((text) => text.startsWith('metric format changed at'));
		const lines = () => jsonLinesOf(cli);
		await cli.waitForStdout(() => lines().some((line) => noteLine(line) !== undefined && line['relist'].windowCount !== null), 20_000);
		cli.child.kill('SIGTERM');
		await cli.exited;

		const all = lines();
		const first = all.findIndex((line) => noteLine(line) !== undefined);
		// Before: the summary's window, one relist of 20 ms a scrape.
		assert.equal(all[first - 1]!['relist'].windowMeanSeconds, 0.02);
		// The first histogram scrape: a window of one scrape (no figures), never "no relist completed" (count 0).
		assert.equal(all[first]!['relist'].windowCount, null);
		assert.match(noteLine(all[first]!)!, /^metric format changed at \d\d:\d\d:\d\d: window restarted \(µs summary → seconds histogram\)$/);
		// The next: the histogram's own window, 60 relists of 10 ms a scrape.
		const next = all[first + 1]!;
		assert.equal(next['relist'].windowCount, 60);
		assert.equal(next['relist'].windowMeanSeconds, 0.01);
	});
});
