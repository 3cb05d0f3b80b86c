// The incident view through the built CLI in a real terminal (tmux), on the demo at 20 × speed with `s` to stall
// it: the countdown to NotReady while healthy past the ok band, unhealthy for/since once past the threshold, the
// recovery, the terminal title a tmux status line shows (#{pane_title}) and the bell, at 80×24 and 120×35. Then
// the header's context against the fake API server and on a replay.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {cliPath, runCli} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {fast, startCluster, type Cluster} from './cluster.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-incident-'));
const sessions: TmuxSession[] = [];

let cluster: Cluster;

before(async () => {
	cluster = await startCluster();
});

after(async () => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
	await cluster.close();
});

function startCli(args: string[], columns: number, rows: number, env: Record<string, string>): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} ${args.join(' ')}`, {
		columns,
		rows,
		env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env},
	});
	sessions.push(session);
	return session;
}

function startDemo(args: string[], columns: number, rows: number): TmuxSession {
	const session = startTmux(`${process.execPath} ${cliPath} --demo --demo-speed 20 ${args.join(' ')}`, {
		columns,
		rows,
		env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
	});
	sessions.push(session);
	return session;
}

function display(session: TmuxSession, format: string): string {
	return tmux(['display-message', '-p', '-t', session.name, format]).trim();
}

/** "1m2s" or "58s" → seconds. */
function seconds(text: string): number {
	const match = /^(?:(\d+)m)?(\d+)s$/.exec(text);
	assert.ok(match, text);
	return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

/** "08:21:13" → seconds since midnight. */
function clock(text: string): number {
	const [hours, minutes, secs] = text.split(':').map(Number);
	return hours! * 3600 + minutes! * 60 + secs!;
}

const duration = '((?:\\d+m)?\\d+s)';
const countdown = new RegExp(`^!! NotReady in ${duration} \\(last seen ${duration} ago; threshold 3m0s\\) · pleg-top's estimate$`, 'm');
const unhealthyFor = new RegExp(`^  unhealthy for ${duration}, since (\\d\\d:\\d\\d:\\d\\d) · flaps 1`, 'm');
const kubeletWords = new RegExp(`^✗ PLEG is not healthy: pleg was last seen active ${duration} ago; threshold is 3m0s$`, 'm');
const headerClock = /^pleg-top · .* (\d\d:\d\d:\d\d)$/m;

for (const [columns, rows, bell] of [
	[80, 24, true],
	[120, 35, false],
] as const) {
	describe(`the incident view at ${columns}×${rows}`, () => {
		test(
			`countdown, unhealthy for/since, recovery and the title; ${bell ? 'the bell rings once' : '--no-bell: no bell'}`,
			{skip},
			async () => {
				const session = startDemo(bell ? [] : ['--no-bell'], columns, rows);
				await session.waitFor('✓ PLEG is healthy', 15_000);
				assert.equal(await session.waitForTitle(/: healthy$/), 'pleg-top demo-node: healthy');
				session.keys('s');

				// Healthy past half the threshold: the countdown and the age it comes from add up to the 3-minute threshold.
				const critical = await session.waitFor(countdown, 15_000);
				const [, left, age] = countdown.exec(critical)!;
				assert.equal(seconds(left!) + seconds(age!), 180, critical);
				assert.ok(seconds(age!) >= 90, critical);
				assert.match(critical, /^!! last seen .* · critical ≥ 90s$/m);
				// The warning before it is too late: the title says critical and the bell rings on entering it.
				await session.waitForTitle(/^pleg-top demo-node: critical, NotReady in (?:\d+m)?\d+s$/);
				assert.equal(display(session, '#{window_bell_flag}'), bell ? '1' : '0');

				// Past it: the kubelet's words, then for how long since when. Unhealthy since the gauge + 180 s, so the span
				// is the age in the kubelet's words less 3 minutes, and the header's clock less the start.
				const unhealthy = await session.waitFor(unhealthyFor, 20_000);
				const [, forText, since] = unhealthyFor.exec(unhealthy)!;
				const [, ageText] = kubeletWords.exec(unhealthy) ?? [];
				assert.ok(ageText, unhealthy);
				assert.equal(seconds(forText!), seconds(ageText) - 180, unhealthy);
				const now = clock(headerClock.exec(unhealthy)![1]!);
				// Both clocks are whole seconds of the same instant: the difference is the span or one more.
				assert.ok([0, 1].includes(now - clock(since!) - seconds(forText!)), unhealthy);
				const title = await session.waitForTitle(/^pleg-top demo-node: UNHEALTHY (?:\d+m)?\d+s$/);
				assert.ok(seconds(title.replace(/^.* UNHEALTHY /, '')) >= 1, title);
				assert.equal(display(session, '#{window_bell_flag}'), bell ? '1' : '0');
				// The title follows the span while it lasts.
				await session.waitForTitle(new RegExp(`^pleg-top demo-node: UNHEALTHY (?!${title.replace(/^.* UNHEALTHY /, '')}$)`));

				session.keys('r');
				// On the verdict's row: the span and the flaps fit beside it at both sizes.
				await session.waitFor(/^✓ PLEG is healthy · recovered (?:\d+m)?\d+s ago after (?:\d+m)?\d+s unhealthy · flaps 1/m, 20_000);
				assert.equal(await session.waitForTitle(/: healthy$/), 'pleg-top demo-node: healthy');

				session.keys('q');
				await session.waitFor(/write-down|PLEG relists every/, 15_000);
				// On exit the title is pleg-top's no longer (cleared, or the one the terminal had before).
				await session.waitForTitle(/^(?!pleg-top demo-node)/, 20_000);
			},
		);
	});
}

describe('the header says where the figures come from', () => {
	test('through the API server: the node once, the kubeconfig context and cluster, the runtime from the Node object', {skip}, async () => {
		const session = startCli(['worker-1', '--interval', '200ms'], 160, 35, cluster.env);
		const screen = await session.waitFor(/^pleg-top · worker-1 · /m, 20_000);
		const header = screen.split('\n').find((row) => row.startsWith('pleg-top · '))!;
		// The fake cluster's kubeconfig: context fake-ctx on cluster "fake"; its Node objects report containerd 1.7.2.
		assert.match(
			header,
			/^pleg-top · worker-1 · fake-ctx \(cluster fake\) · kubelet v1\.21\.2 · containerd:\/\/1\.7\.2 · via https:\/\/127\.0\.0\.1:\d+ +\d\d:\d\d:\d\d$/,
		);
		assert.equal(header.split('worker-1').length - 1, 1, header);

		// One failed scrape between good ones is a blip: the title stays, no bell.
		assert.equal(await session.waitForTitle(/: healthy$/), 'pleg-top worker-1: healthy');
		const metricsRequests = () => cluster.fake.requests.filter((request) => request.path.endsWith('/nodes/worker-1/proxy/metrics')).length;
		const before = metricsRequests();
		cluster.fake.setFault({type: 'status', code: 503}, {route: 'metrics', node: 'worker-1'}, 1);
		await until(() => metricsRequests() >= before + 3, 'three more reads of the metrics', 15_000);
		assert.equal(session.title(), 'pleg-top worker-1: healthy');
		assert.equal(display(session, '#{window_bell_flag}'), '0');
		// The scrapes keep failing: unknown in the title, with the bell; good again: healthy, no second bell needed.
		cluster.fake.setFault({type: 'status', code: 503}, {route: 'metrics', node: 'worker-1'});
		assert.equal(await session.waitForTitle(/: unknown$/), 'pleg-top worker-1: unknown');
		assert.equal(display(session, '#{window_bell_flag}'), '1');
		cluster.fake.clearFaults();
		assert.equal(await session.waitForTitle(/: healthy$/), 'pleg-top worker-1: healthy');
		session.keys('q');
	});

	test('the next steps on the live screen carry the --kubeconfig and --context given', {skip}, async () => {
		// worker-2 serves a last-seen gauge of 2023: unhealthy, so the next steps show.
		const session = startCli(['worker-2', '--kubeconfig', cluster.kubeconfig, '--context', 'fake-ctx'], 120, 35, {HOME: home});
		const screen = await session.waitFor(/^next steps · ready to paste$/m, 20_000);
		const rows = screen.split('\n').map((row) => row.trimEnd());
		assert.ok(rows.includes(`  kubectl --kubeconfig ${cluster.kubeconfig} --context fake-ctx describe node worker-2`), screen);
		assert.ok(rows.includes(`  kubectl --kubeconfig ${cluster.kubeconfig} --context fake-ctx cordon worker-2`), screen);
		session.keys('q');
	});

	test('a replay: REPLAY FILE ×speed, then end of recording', {skip}, async () => {
		const file = `${cluster.temp.dir}/header-replay.jsonl`;
		const recorded = await runCli(['worker-1', '--once', ...fast, '--record', file], {env: cluster.env});
		assert.equal(recorded.code, 0, recorded.stderr);
		const session = startCli(['--replay', file, '--speed', '4'], 160, 35, {HOME: home});
		const screen = await session.waitFor('end of recording', 20_000);
		assert.match(
			screen,
			new RegExp(`^pleg-top · worker-1 · REPLAY ${file.replaceAll('.', '\\.')} ×4 · end of recording · kubelet v1\\.21\\.2 `, 'm'),
		);
		session.keys('q');
	});
});
