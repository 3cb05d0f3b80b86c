// The verdict is never wrong because of a clock, end to end: the built CLI against the fake API server, whose
// fake kubelets write kubelet_pleg_last_seen_seconds from a clock off ours and may send no Date (a hop that drops
// it). The node's own Ready words and a count that stands still are evidence no clock bends.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {setSamples} from '../domain/dump.js';
import {startCluster, testToken, v121After, type Cluster} from './cluster.js';
import {bounds, recordingText, recordsOf, t0} from '../lab/exposition.js';

type Line = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];
const pleg = 'PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s';
/** The Ready condition of a node 60 s ahead whose PLEG stalled: its heartbeat, on its clock, 10 s old (50 s ahead of ours). */
const notReady = () => ({
	status: 'False' as const,
	reason: 'KubeletNotReady',
	message: pleg,
	lastTransitionTime: new Date(Date.now() + 55_000).toISOString(),
	lastHeartbeatTime: new Date(Date.now() + 50_000).toISOString(),
});

before(async () => {
	cluster = await startCluster([
		{name: 'ahead-60-stalled', kubeletVersion: 'v1.21.2', clockOffsetSeconds: null, ready: notReady()},
		{name: 'behind-200-no-date', kubeletVersion: 'v1.21.2', clockOffsetSeconds: null},
	]);
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

/** A kubelet 60 s ahead of our clock whose relist hung 185 s ago (its time): count and gauge stay put. */
function stalledAhead(node: string): void {
	const gauge = Math.floor(Date.now() / 1000) + 60 - 185;
	const body = setSamples(v121After(1), {kubelet_pleg_last_seen_seconds: String(gauge)});
	cluster.fake.setMetrics(node, () => body);
}

const once = (node: string, ...extra: string[]) => ['--node', node, '--once', '--window', '1500ms', ...extra];
const linesOf = (stdout: string) =>
	stdout
		.split('\n')
		.filter((text) => text.trim() !== '')
		.map((text) => JSON.parse(text) as Line);

describe("60 s ahead, stalled 185 s ago, no Date: the node's own words", () => {
	test("--once -o json: not healthy in the kubelet's words, band unhealthy, exit 1", async () => {
		stalledAhead('ahead-60-stalled');
		const result = await runCli(once('ahead-60-stalled', '-o', 'json'), {env: cluster.env});
		const report = JSON.parse(result.stdout) as Line;
		// The heartbeat bounds the clock at least ~50 s ahead: by the age alone ~175 s, healthy and critical.
		assert.equal(report['clockOffsetSource'], 'heartbeat');
		assert.equal(report['healthy'], false);
		assert.equal(report['verdict'], pleg);
		assert.equal(report['band'], 'unhealthy');
		assert.equal(result.code, 1);
	});

	test('--once text: the verdict quotes the Ready condition, and says so', async () => {
		stalledAhead('ahead-60-stalled');
		const result = await runCli(once('ahead-60-stalled'), {env: cluster.env});
		assert.equal(result.code, 1);
		assert.match(result.stdout, /^verdict +PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s/m);
		assert.doesNotMatch(result.stdout, /PLEG is healthy/);
	});
});

describe('200 s behind, no Date: no false unhealthy before the offset is known', () => {
	test('JSON lines: no line says unhealthy, and the write-down records no outage', async () => {
		let calls = 0;
		// Relisting at 1/s on a clock 200 s behind: gauge = now − 200 s, the count rising with every answer.
		cluster.fake.setMetrics('behind-200-no-date', () => v121After(++calls, {lastSeenAge: 200}));
		const summary = path.join(cluster.temp.dir, 'behind-200.md');
		const cli = spawnCli(['--node', 'behind-200-no-date', '--window', '1s', '--interval', '300ms', '--summary', summary], {
			env: cluster.env,
			timeoutMs: 40_000,
		});
		running.push(cli);
		await cli.waitForStdout((stdout) => linesOf(stdout).filter((line) => line['healthy'] === true).length >= 3, 30_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		const lines = linesOf(result.stdout);
		// The first answer alone: 200 s by this machine's clock, the node's not known yet: not judged.
		assert.equal(lines[0]!['healthy'], null, JSON.stringify(lines[0]));
		assert.match(lines[0]!['verdict'], /^cannot judge yet: last seen 3m2[0-2]s ago by this machine's clock/);
		assert.deepEqual(
			lines.filter((line) => line['healthy'] === false || line['band'] === 'unhealthy').map((line) => line['verdict']),
			[],
		);
		assert.equal(lines.at(-1)!['transitions'], 0);
		const written = fs.readFileSync(summary, 'utf8');
		assert.match(written, /PLEG was healthy at every scrape/);
		assert.doesNotMatch(written, /not healthy from|PLEG was not healthy/);
	});
});

describe('a count and gauge that stand still past the threshold: a stall on any clock', () => {
	test('--replay --once of a node 60 s ahead whose answers had no Date: not healthy once 3m0s passed unmoved, exit 1', async () => {
		// The relist hung as the recording began, on a clock 60 s ahead: gauge t0 + 60 s. Read on the recording
		// machine's clock it is 140 s old at the last line (t0 + 200 s): healthy by the age alone.
		const hung = {count: 100, sum: 0.5, buckets: bounds.map(() => 100), lastSeen: t0 / 1000 + 60};
		const scrapes = Array.from({length: 21}, (_, i) => ({at: t0 + i * 10_000, totals: hung}));
		const file = path.join(cluster.temp.dir, 'hung-ahead.jsonl');
		fs.writeFileSync(file, recordingText(recordsOf(scrapes).map((record) => ({...record, date: null}))));
		const result = await runCli(['--replay', file, '--once', '-o', 'json'], {env: {...cluster.env, TZ: 'UTC'}, timeoutMs: 60_000});
		assert.equal(result.code, 1, result.stderr);
		const report = JSON.parse(result.stdout) as Line;
		// Unmoved from t0: past 3m0s at the line of t0 + 190 s, first seen there; the words are the last line's (3m20s).
		assert.deepEqual(
			(report['unhealthy'] as Line[]).map((span) => [span['from'], span['message']]),
			[
				[
					'2024-01-15T14:03:10.000Z',
					'PLEG is not healthy: no relist has ended and the last-seen gauge has not moved for 3m20s; threshold is 3m0s',
				],
			],
		);
	});
});
