// --history-from through the built CLI: a real Prometheus (Debian's) holding 15 minutes of one kubelet's past,
// backfilled with promtool before it starts, and the fake API server serving the same kubelet live. The first JSON
// line already has the chart's points from Prometheus and a window that starts at Prometheus' counters one --window
// ago; a Prometheus that is not there, or has no series of the node, leaves the live figures as they were and says why.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {spawnCli} from '../helpers/run-cli.js';
import {findPrometheus, startPrometheus, type RunningPrometheus} from '../helpers/prometheus-server.js';
import {closedPort, startCluster, type Cluster} from './cluster.js';

const binary = findPrometheus();
const skip = binary === null ? 'prometheus binary not found: apt-get install prometheus' : false;

/** The kubelet: started 20 minutes before the test, one relist a second since, each 50 ms; relisted a second ago. */
const startedAt = Math.floor(Date.now() / 1000) - 20 * 60;
const bounds = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];
const relistSeconds = 0.05;

function countAt(seconds: number): number {
	return Math.floor(seconds) - startedAt;
}

/** The kubelet's PLEG series at `seconds`, each line with `labels` and `suffix` (an OpenMetrics timestamp). */
function series(seconds: number, labels: string[], suffix = ''): string[] {
	const count = countAt(seconds);
	const with_ = (extra: string[]) => (extra.length + labels.length > 0 ? `{${[...labels, ...extra].join(',')}}` : '');
	return [
		...bounds.map(
			(le) => `kubelet_pleg_relist_duration_seconds_bucket${with_([`le="${le}"`])} ${Number(le) < relistSeconds ? 0 : count}${suffix}`,
		),
		`kubelet_pleg_relist_duration_seconds_sum${with_([])} ${count * relistSeconds}${suffix}`,
		`kubelet_pleg_relist_duration_seconds_count${with_([])} ${count}${suffix}`,
		`kubelet_pleg_last_seen_seconds${with_([])} ${Math.floor(seconds) - 1}${suffix}`,
	];
}

/** The newest backfilled sample's time, Unix s. */
let newestBackfilled = 0;

/** 15 minutes and a window of samples 15 s apart, up to 20 s ago, as Prometheus would have scraped them. */
function backfill(now: number): string {
	const times: number[] = [];
	for (let t = now - 16 * 60; t <= now - 20; t += 15) times.push(t);
	newestBackfilled = times.at(-1)!;
	const grouped = (filter: (line: string) => boolean) =>
		times.flatMap((t) => series(t, ['node="worker-1"', 'job="kubelet"'], ` ${t}`).filter(filter));
	// OpenMetrics wants each family together, each series in time order.
	const lines = series(0, []).map((line) => line.split(' ')[0]!);
	const bySeries = lines.map((name) => grouped((line) => line.startsWith(name.replace('{', '{node="worker-1",job="kubelet",'))));
	return [
		'# TYPE kubelet_pleg_relist_duration_seconds histogram',
		...bySeries.slice(0, -1).flat(),
		'# TYPE kubelet_pleg_last_seen_seconds gauge',
		...bySeries.at(-1)!,
		'# EOF',
		'',
	].join('\n');
}

function liveText(): string {
	return `${series(Date.now() / 1000, []).join('\n')}\nkubernetes_build_info{git_version="v1.28.4"} 1\n`;
}

type Line = {
	historyFrom: {url: string; points: number; fromSeconds: number | null; untilSeconds: number | null; error: string | null} | null;
	relist: {windowSeconds: number | null; windowCount: number | null; windowMeanSeconds: number | null; windowP99Seconds: number | null};
	unavailable: string[];
	lastSeenAgeSeconds: number | null;
	time: string;
};

async function firstLine(args: string[], env: Record<string, string>): Promise<{line: Line; stderr: string}> {
	const cli = spawnCli(args, {env, timeoutMs: 40_000});
	try {
		const stdout = await cli.waitForStdout(/\n/, 30_000);
		return {line: JSON.parse(stdout.split('\n')[0]!) as Line, stderr: cli.stderr};
	} finally {
		cli.child.kill('SIGTERM');
		await cli.exited.catch(() => undefined);
	}
}

describe('--history-from against a real Prometheus', {skip}, () => {
	let prometheus: RunningPrometheus;
	let cluster: Cluster;

	before(async () => {
		const now = Math.floor(Date.now() / 1000);
		prometheus = await startPrometheus(binary!, [], 60, backfill(now));
		cluster = await startCluster([
			{name: 'worker-1', kubeletVersion: 'v1.28.4', metrics: liveText},
			{name: 'worker-2', kubeletVersion: 'v1.28.4', metrics: liveText},
		]);
	});

	after(async () => {
		await cluster?.close();
		await prometheus?.close();
	});

	test('the first JSON line has the last 15 minutes on the chart and a window from Prometheus', {timeout: 60_000}, async () => {
		const {line} = await firstLine(['worker-1', '--window', '60s', '--history-from', prometheus.url], cluster.env);
		const history = line.historyFrom!;
		assert.equal(history.error, null);
		assert.equal(history.url, prometheus.url);
		// A 2 s step over 15 minutes: 451 steps; every one within 5 minutes of a sample has an age, the first has a mean.
		assert.ok(history.points >= 440 && history.points <= 451, `points ${history.points}`);
		const lineAt = Date.parse(line.time) / 1000;
		assert.ok(Math.abs(lineAt - 15 * 60 - history.fromSeconds!) < 5, `from ${history.fromSeconds} vs ${lineAt}`);
		// One scrape alone spans nothing: this window starts at the counters Prometheus held one window (60 s) ago, the
		// newest sample at or before then (samples 15 s apart), and ends at the live scrape. When a loaded machine took
		// so long to start that one window ago is past the backfill, the start is the newest backfilled sample.
		const window = line.relist;
		const longest = Math.max(75, lineAt - newestBackfilled) + 1;
		assert.ok(window.windowSeconds! >= 60 && window.windowSeconds! < longest, `window ${window.windowSeconds}, at most ${longest}`);
		// One relist a second on both sides of the seam, none counted twice: the count is the span, to a second.
		assert.ok(Math.abs(window.windowCount! - window.windowSeconds!) <= 1.5, `count ${window.windowCount} over ${window.windowSeconds} s`);
		// Every relist took 50 ms: the mean is that, and p99 is histogram_quantile's 0.025 + 0.99 × 0.025 in (0.025, 0.05].
		assert.ok(Math.abs(window.windowMeanSeconds! - 0.05) < 1e-9, `mean ${window.windowMeanSeconds}`);
		assert.ok(Math.abs(window.windowP99Seconds! - 0.04975) < 1e-9, `p99 ${window.windowP99Seconds}`);
	});

	test('--prometheus NODE reads the same 15 minutes from that Prometheus, with no --history-from', {timeout: 60_000}, async () => {
		const {line} = await firstLine(['worker-1', '--prometheus', prometheus.url], cluster.env);
		const history = line.historyFrom!;
		assert.deepEqual([history.url, history.error], [prometheus.url, null]);
		assert.ok(history.points >= 440 && history.points <= 451, `points ${history.points}`);
	});

	test('a node Prometheus has no series of: live figures as ever, and a line saying why', {timeout: 60_000}, async () => {
		const {line} = await firstLine(['worker-2', '--window', '60s', '--history-from', prometheus.url], cluster.env);
		const expected = `Prometheus at ${prometheus.url} has no kubelet_pleg_relist_duration_seconds or kubelet_pleg_last_seen_seconds series for node worker-2`;
		assert.deepEqual(line.historyFrom, {url: prometheus.url, points: 0, fromSeconds: null, untilSeconds: null, error: expected});
		assert.ok(line.unavailable.includes(`no history: ${expected}`), line.unavailable.join('\n'));
		// The window is the live one: one scrape spans nothing yet.
		assert.equal(line.relist.windowSeconds, null);
	});
});

describe('--history-from that cannot be reached', () => {
	let cluster: Cluster;
	before(async () => {
		cluster = await startCluster([{name: 'worker-1', kubeletVersion: 'v1.28.4', metrics: liveText}]);
	});
	after(async () => {
		await cluster?.close();
	});

	test('the live figures come at once and the line names the URL', {timeout: 60_000}, async () => {
		const url = `http://127.0.0.1:${await closedPort()}`;
		const {line} = await firstLine(['worker-1', '--history-from', url], cluster.env);
		assert.equal(line.historyFrom!.points, 0);
		assert.match(line.historyFrom!.error!, new RegExp(`127\\.0\\.0\\.1:\\d+.*refused|refused.*127\\.0\\.0\\.1`));
		// The live scrape is there: its gauge read, its window (one scrape) not yet spanning anything.
		assert.equal(line.relist.windowSeconds, null);
		assert.ok(line.lastSeenAgeSeconds !== null && line.lastSeenAgeSeconds < 5, `age ${line.lastSeenAgeSeconds}`);
	});
});
