// Clock skew between the node and this machine, end to end: the built CLI against the fake API server,
// whose fake kubelets write kubelet_pleg_last_seen_seconds and the Date header from a clock off ours. The kubelet
// judges Healthy() on its own clock; so must pleg-top.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, cliPath, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {setSamples} from '../domain/dump.js';
import {startCluster, testToken, v121After, type Cluster} from './cluster.js';

type Line = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];
const sessions: TmuxSession[] = [];

before(async () => {
	cluster = await startCluster([
		{name: 'behind-200', kubeletVersion: 'v1.21.2', clockOffsetSeconds: -200},
		{name: 'ahead-60', kubeletVersion: 'v1.21.2', clockOffsetSeconds: 60},
		{name: 'ahead-60-no-date', kubeletVersion: 'v1.21.2', clockOffsetSeconds: null},
		{name: 'behind-30', kubeletVersion: 'v1.21.2', clockOffsetSeconds: -30},
	]);
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	for (const session of sessions) session.kill();
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

/** A kubelet `offset` s off our clock relisting at 1/s: +60 relists a request, a relist started this node second. */
function relisting(node: string, offset: number): void {
	let calls = 0;
	cluster.fake.setMetrics(node, () => v121After(++calls, {lastSeenAge: -offset}));
}

/**
 * A kubelet `offset` s off our clock whose relist hung `stalledFor` s ago (node time): count and gauge stay put.
 * Returns the gauge.
 */
function stalled(node: string, offset: number, stalledFor: number, minutes = 1): number {
	const gauge = Math.floor(Date.now() / 1000) + offset - stalledFor;
	const body = setSamples(v121After(minutes), {kubelet_pleg_last_seen_seconds: String(gauge)});
	cluster.fake.setMetrics(node, () => body);
	return gauge;
}

// Two scrapes 1.5 s apart: the gauge, in whole seconds, advances between them.
const once = (node: string, ...extra: string[]) => ['--node', node, '--once', '--window', '1500ms', '--interval', '100ms', ...extra];

describe('--once on a skewed node', () => {
	test('200 s behind, relisting at 1/s: healthy on the node clock, exit 0, the offset from the relist loop', async () => {
		relisting('behind-200', -200);
		const result = await runCli(once('behind-200', '-o', 'json'), {env: cluster.env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as Line;
		assert.equal(report['healthy'], true);
		assert.equal(report['band'], 'ok');
		assert.equal(report['clockOffsetSource'], 'relist');
		// Gauge ⌊t⌋ − 200 read at t (+ the answer's own time): gauge − t in (−201 − latency, −200]; a loaded machine's
		// latency is given up to 2 s.
		assert.ok(report['clockOffsetSeconds'] > -203 && report['clockOffsetSeconds'] <= -200, String(report['clockOffsetSeconds']));
		// On the local clock the age would be 200 to 201 s: unhealthy. On the node's it is under 2 s.
		assert.ok(report['lastSeenAgeSeconds'] >= 0 && report['lastSeenAgeSeconds'] < 2, String(report['lastSeenAgeSeconds']));
	});

	test('200 s behind, text: the node clock line says how far and from what', async () => {
		relisting('behind-200', -200);
		const result = await runCli(once('behind-200'), {env: cluster.env});
		assert.equal(result.code, 0);
		assert.match(result.stdout, /^verdict +PLEG is healthy$/m);
		assert.match(result.stdout, /^node clock +3m2[0-2]s behind \(from the relist loop; ages on the node clock\)$/m);
	});

	test('60 s ahead with a 185 s stall from the start: unhealthy on the node clock from the Date header, exit 1', async () => {
		stalled('ahead-60', 60, 185);
		const result = await runCli(once('ahead-60', '-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 1);
		const report = JSON.parse(result.stdout) as Line;
		assert.equal(report['healthy'], false);
		assert.equal(report['band'], 'unhealthy');
		assert.equal(report['clockOffsetSource'], 'date-header');
		// The Date is the node's second, truncated: the midpoint lies within a second of 60 (plus the answer's time).
		assert.ok(Math.abs(report['clockOffsetSeconds'] - 60) < 1.2, String(report['clockOffsetSeconds']));
		// Local age 125 s and the seconds the run took (healthy by our clock, as before the fix); on the node's, 60 s more.
		const age = report['lastSeenAgeSeconds'] as number;
		assert.ok(age > 184 && age < 215, String(age));
		assert.equal(report['verdict'], `PLEG is not healthy: pleg was last seen active 3m${Math.floor(age) - 180}s ago; threshold is 3m0s`);
	});

	test('the same stall with no Date of the node: the offset cannot be known, and that is said', async () => {
		stalled('ahead-60-no-date', 60, 185);
		const json = await runCli(once('ahead-60-no-date', '-o', 'json'), {env: cluster.env});
		const report = JSON.parse(json.stdout) as Line;
		assert.equal(report['clockOffsetSeconds'], null);
		assert.equal(report['clockOffsetSource'], 'unknown');
		// Judged on the local clock, all there is: 125 s, healthy, exit 0.
		assert.equal(json.code, 0);
		const text = await runCli(once('ahead-60-no-date'), {env: cluster.env});
		assert.match(text.stdout, /^node clock +unknown \(no relist seen to complete and no Date header; ages on this machine's clock\)$/m);
	});
});

describe('JSON lines on a node 30 s behind', () => {
	test('relisting: ok, no countdown; stalled: the countdown moves with the time', async () => {
		relisting('behind-30', -30);
		const cli = spawnCli(['--node', 'behind-30', '--window', '1s', '--interval', '200ms'], {env: cluster.env, timeoutMs: 30_000});
		running.push(cli);
		const linesOf = () =>
			cli.stdout
				.split('\n')
				.slice(0, -1)
				.map((text) => JSON.parse(text) as Line);
		await cli.waitForStdout(() => linesOf().some((line) => line['clockOffsetSource'] === 'relist'), 20_000);
		const relist = linesOf().find((line) => line['clockOffsetSource'] === 'relist')!;
		// On the local clock 30 s old: "warn", a countdown stuck at 2m29s. On the node's: ok, 178 s and more to go.
		assert.equal(relist['band'], 'ok');
		assert.ok(relist['secondsToThreshold'] > 178, String(relist['secondsToThreshold']));
		const before = linesOf().length;
		stalled('behind-30', -30, 0, 100);
		await cli.waitForStdout(() => linesOf().length >= before + 8, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0);
		// The lines after the stall began (the first one may still be a relisting answer): the gauge stays put, so
		// threshold − age falls by exactly the time between lines.
		const afterStall = linesOf().slice(before + 1);
		for (const [previous, next] of afterStall.slice(0, -1).map((line, index) => [line, afterStall[index + 1]!] as const)) {
			const elapsed = (Date.parse(next['time']) - Date.parse(previous['time'])) / 1000;
			const fell = previous['secondsToThreshold'] - next['secondsToThreshold'];
			assert.ok(elapsed > 0 && Math.abs(fell - elapsed) < 0.005, `${fell} vs ${elapsed}`);
			assert.equal(next['clockOffsetSource'], 'relist');
		}
	});
});

describe('the live screen', {skip: hasTmux ? false : 'tmux not installed'}, () => {
	test('80x24, 200 s behind: the header says so, the verdict is healthy', async () => {
		relisting('behind-200', -200);
		const command = `${process.execPath} ${cliPath} behind-200 --interval 300ms; sleep 60`;
		const session = startTmux(command, {columns: 80, rows: 24, env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...cluster.env}});
		sessions.push(session);
		const screen = await session.waitFor(/node clock 3m2[0-2]s behind/, 20_000);
		const [header] = screen.split('\n');
		assert.match(header!, /^pleg-top · behind-200 · node clock 3m2[0-2]s behind · /);
		assert.match(screen, /✓ PLEG is healthy/);
	});
});
