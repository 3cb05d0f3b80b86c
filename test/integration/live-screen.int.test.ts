// The live screen end to end: the built CLI in a real terminal (tmux) against the fake API server. Faults
// come and go while it runs; the screen must keep the last good figures, mark them STALE with their age,
// show the message, recover, follow resizes, and give the terminal back on q and on signals.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {after, before, beforeEach, describe, test} from 'node:test';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {cliPath} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {until} from '../helpers/until.js';
import {startCluster, testToken, v121After, type Cluster} from './cluster.js';

const skip = hasTmux ? false : 'tmux not installed';
let cluster: Cluster;
const sessions: TmuxSession[] = [];
/** Every screen read, for the credential scan. */
const screens: string[] = [];

before(async () => {
	if (!hasTmux) return;
	cluster = await startCluster();
});

beforeEach(() => {
	if (!hasTmux) return;
	cluster.fake.clearFaults();
	let calls = 0;
	// A healthy kubelet: +60 relists and a fresh last-seen gauge on every request.
	cluster.fake.setMetrics('worker-1', () => v121After(++calls));
});

after(async () => {
	if (!hasTmux) return;
	for (const session of sessions) session.kill();
	await cluster.close();
	assertNoSecretsIn(screens, integrationSecrets({'test token': testToken}));
});

/**
 * pleg-top inside a shell that prints a line before it and its exit code after it, then stays: after exit the
 * pane must show that normal screen (the alternate screen was left), not the dashboard.
 */
function startLive(args: string[], options: {columns?: number; rows?: number; env?: Record<string, string>} = {}): TmuxSession {
	const env = options.env ?? cluster.env;
	const command = `sh -c '${process.execPath} ${cliPath} ${args.join(' ')}; echo "AFTER-PLEG-TOP exit=$?"; sleep 120'`;
	const session = startTmux(`sh -c 'echo BEFORE-PLEG-TOP; exec ${command.replaceAll("'", "'\"'\"'")}'`, {
		columns: options.columns ?? 100,
		rows: options.rows ?? 30,
		env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env},
	});
	sessions.push(session);
	return session;
}

/** Waits for the screen to show `pattern`; generous, since a loaded machine is slow to start node. */
async function waitFor(session: TmuxSession, pattern: RegExp | string, timeoutMs = 20_000): Promise<string> {
	const screen = await session.waitFor(pattern, timeoutMs);
	screens.push(screen);
	return screen;
}

function paneFlags(session: TmuxSession): {alternate: boolean; cursorVisible: boolean} {
	const [alternate, cursor] = tmux(['display-message', '-p', '-t', session.name, '#{alternate_on} #{cursor_flag}']).trim().split(' ');
	return {alternate: alternate === '1', cursorVisible: cursor === '1'};
}

/** The pid of pleg-top: the child of the pane's shell. */
function plegTopPid(session: TmuxSession): number {
	const shell = tmux(['display-message', '-p', '-t', session.name, '#{pane_pid}']).trim();
	const children = fs.readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/);
	assert.equal(children.length, 1, `children of the pane shell: ${children.join(' ')}`);
	return Number(children[0]);
}

/** The pane with its scrollback: what pleg-top prints after quitting (its write-down) may scroll the first lines up. */
function paneWithHistory(session: TmuxSession): string {
	const text = tmux(['capture-pane', '-p', '-S', '-', '-t', session.name]);
	screens.push(text);
	return text;
}

/** After pleg-top ended: the shell's own lines are back, the dashboard is gone, the cursor is visible. */
async function assertTerminalRestored(session: TmuxSession, exitCode: number): Promise<void> {
	const screen = await waitFor(session, `AFTER-PLEG-TOP exit=${exitCode}`);
	// Only the dashboard has the key hints and the "pleg-top · NODE ·" header.
	assert.doesNotMatch(screen, /q quit {2}\? help|^pleg-top · /m);
	const history = paneWithHistory(session);
	assert.match(history, /^BEFORE-PLEG-TOP$/m);
	assert.doesNotMatch(history, /\n\s+at |Error:/, 'no stack trace');
	assert.deepEqual(paneFlags(session), {alternate: false, cursorVisible: true});
}

const healthy = /✓ PLEG is healthy/;
const nearThreshold = /^!! NotReady in [12]s \(last seen 2m5[89]s ago; threshold 3m0s\) · pleg-top's estimate$/m;
/** The lifetime figures of the last good scrape: stay on screen through every fault. */
const lastGoodFigures = /lifetime mean 21\.2ms · since kubelet start/;
const staleWithAge = /STALE — last good data \d+s ago \(\d\d:\d\d:\d\d\)/;

describe('live screen in a real terminal', () => {
	test('faults one after another: message, STALE with its age, last good figures kept; then recovery', {skip}, async () => {
		const session = startLive(['--node', 'worker-1', '--interval', '200ms', '--window', '1s']);
		let screen = await waitFor(session, /last scrape \d+ms/);
		assert.match(screen, healthy);
		assert.match(screen, lastGoodFigures);
		assert.equal(paneFlags(session).alternate, true);

		const faults = [
			{fault: {type: 'status', code: 503} as const, message: 'the API server cannot reach the kubelet on node "worker-1"'},
			{
				fault: {type: 'status', code: 403} as const,
				message: 'context "fake-ctx" (user "token-user") is not allowed to get nodes/proxy on node "worker-1"',
			},
			{fault: {type: 'html'} as const, message: 'metrics could not be parsed (line 1)'},
		];
		for (const {fault, message} of faults) {
			cluster.fake.setFault(fault, {route: 'metrics'});
			screen = await waitFor(session, message);
			assert.match(screen, staleWithAge);
			// While stale the verdict is unknown, never the last good scrape's ✓; the age an upper bound under "?".
			assert.match(screen, /^\? verdict unknown: the last good scrape is \d+s old \(then: PLEG is healthy\)$/m);
			assert.doesNotMatch(screen, healthy);
			assert.match(screen, /\? last seen up to \d+s ago · STALE/);
			assert.match(screen, lastGoodFigures);
			// One failure so far: the retry waits max(200 ms, 1 s) = 1 s (2 s after a second one, on a slow machine).
			assert.match(screen, /retry back-off (1s · 1 failure|2s · 2 failures) /);
			cluster.fake.clearFaults();
			screen = await waitFor(session, /every 0\.2s {2}last scrape/);
			assert.doesNotMatch(screen, /STALE/);
		}

		// Slow answers (4.5 s, the interval is 200 ms): no overlap, and the gauge keeps ageing on the local clock meanwhile.
		cluster.fake.setFault({type: 'delay', ms: 4500}, {route: 'metrics'});
		await cluster.fake.nextRequest();
		screen = await waitFor(session, /last seen [4-9]s ago/);
		screen = await waitFor(session, /last scrape [4-9](?:\.\d+)?s/, 25_000);
		cluster.fake.clearFaults();
		assert.equal(cluster.fake.maxInFlightOn('metrics'), 1);

		session.resize(40, 12);
		screen = await waitFor(session, /^pleg-top · worker-1 +\d\d:\d\d:\d\d$/m);
		assert.match(screen, healthy);
		assert.ok(
			screen.split('\n').every((row) => [...row].length <= 40),
			screen,
		);
		session.resize(36, 10);
		screen = await waitFor(session, /^✓ worker-1 last seen \d+s/m);
		session.resize(100, 30);
		screen = await waitFor(session, /relist duration · window 1s/);

		session.keys('q');
		await assertTerminalRestored(session, 0);
	});

	test("stale near the threshold: the verdict is unknown, and an age past it only pleg-top's estimate", {skip}, async () => {
		// Its own node; the gauge 178 s old at every scrape: healthy, two seconds short of the 3-minute threshold. The
		// count stays: a gauge that kept its age while relists complete would be a node clock 178 s behind.
		cluster.fake.setMetrics('new-128', () => v121After(1, {lastSeenAge: 178}));
		const session = startLive(['new-128', '--interval', '200ms', '--window', '1s'], {columns: 180});
		// Healthy, and past half the threshold: the countdown, as pleg-top's estimate (180 − 178 or 179 whole seconds).
		await waitFor(session, nearThreshold);
		cluster.fake.setFault({type: 'status', code: 503}, {route: 'metrics', node: 'new-128'});
		let screen = await waitFor(session, /^\? verdict unknown: the last good scrape is \d+s old \(then: PLEG is healthy\)/m);
		assert.doesNotMatch(screen, healthy);
		// A few seconds on, the old gauge would be past 180 s: said as pleg-top's estimate, never as the kubelet's message.
		screen = await waitFor(
			session,
			/^\? verdict unknown: the last good scrape is \d+s old \(then: PLEG is healthy\); pleg-top's estimate: last seen up to 3m\d+s ago, past the 3m0s threshold$/m,
		);
		assert.doesNotMatch(screen, /PLEG is not healthy/);
		assert.match(screen, /STALE — last good data \d+s ago/);
		cluster.fake.clearFaults();
		await waitFor(session, nearThreshold);
		session.keys('q');
		await assertTerminalRestored(session, 0);
	});

	test('the first request fails (503 everywhere): the screen comes up anyway, retries, then shows the figures', {skip}, async () => {
		cluster.fake.setFault({type: 'status', code: 503});
		const session = startLive(['--node', 'worker-1', '--interval', '200ms', '--window', '1s']);
		const screen = await waitFor(session, 'the API server cannot reach the kubelet on node "worker-1"');
		assert.match(screen, /STALE — no good scrape yet/);
		cluster.fake.clearFaults();
		// Retries after 1 s, 2 s, 4 s…: within a few seconds of the fault clearing.
		await waitFor(session, healthy, 25_000);
		session.keys('q');
		await assertTerminalRestored(session, 0);
	});

	test('a rejected token ends the run before the screen is taken, the message stays readable, exit 3', {skip}, async () => {
		const env = cluster.envFor(
			'revoked-live.yaml',
			singleContext(cluster.fake.url, {name: 'token-user', token: 'revoked-live-token-31f0a9c2'}),
		);
		const session = startLive(['--node', 'worker-1'], {env});
		const screen = await waitFor(session, 'AFTER-PLEG-TOP exit=3');
		assert.match(screen, /pleg-top: https:\/\/127\.0\.0\.1:\d+ rejected the credentials of context "fake-ctx" \(user "token-user"\)/);
		assert.match(screen, /check: kubectl --context fake-ctx auth whoami/);
		assert.deepEqual(paneFlags(session), {alternate: false, cursorVisible: true});
	});

	test('an unknown node (404) ends the run before the screen is taken: the message on the normal screen, exit 3', {skip}, async () => {
		const session = startLive(['worker-9']);
		const screen = await waitFor(session, 'AFTER-PLEG-TOP exit=3');
		assert.match(screen, /^pleg-top: node "worker-9" does not exist in cluster "fake"$/m);
		assert.match(screen, /^ {2}nodes that exist: worker-1, worker-2, old-110, old-114, new-128$/m);
		assert.deepEqual(paneFlags(session), {alternate: false, cursorVisible: true});
	});

	test('RBAC 403 on nodes/proxy before any good scrape: the screen ends and says it on the normal screen, exit 3', {skip}, async () => {
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		// Wide enough for the message's first line.
		const session = startLive(['worker-1', '--interval', '200ms', '--window', '1s'], {columns: 160});
		const screen = await waitFor(session, 'AFTER-PLEG-TOP exit=3');
		assert.match(screen, /^pleg-top: context "fake-ctx" \(user "token-user"\) is not allowed to get nodes\/proxy on node "worker-1"$/m);
		assert.deepEqual(paneFlags(session), {alternate: false, cursorVisible: true});
		const history = paneWithHistory(session);
		assert.doesNotMatch(history, /q quit {2}\? help/, 'the dashboard is not left on the normal screen');
	});

	test('503 at start opens the screen; a 403 met before the first good scrape still ends it with exit 3', {skip}, async () => {
		cluster.fake.setFault({type: 'status', code: 503});
		const session = startLive(['worker-1', '--interval', '200ms', '--window', '1s'], {columns: 160});
		await waitFor(session, /STALE — no good scrape yet/);
		assert.equal(paneFlags(session).alternate, true);
		cluster.fake.clearFaults();
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'metrics'});
		// The next retry comes after the back-off (1 s, 2 s, 4 s, …).
		const screen = await waitFor(session, 'AFTER-PLEG-TOP exit=3', 25_000);
		assert.match(screen, /^pleg-top: context "fake-ctx" \(user "token-user"\) is not allowed to get nodes\/proxy on node "worker-1"$/m);
		assert.deepEqual(paneFlags(session), {alternate: false, cursorVisible: true});
	});

	test(
		'p freezes everything shown: no request at all while paused (the Node object included), the frame unchanged; p resumes',
		{skip},
		async () => {
			// Its own node: no other run of this file polls worker-2, so every request to it is this run's.
			let calls = 0;
			cluster.fake.setMetrics('worker-2', () => v121After(++calls));
			const session = startLive(['worker-2', '--interval', '200ms', '--window', '1s']);
			await waitFor(session, healthy);
			session.keys('p');
			const paused = await waitFor(session, /PAUSED \(p resumes\)/);
			const mine = () => cluster.fake.requests.filter((request) => request.path.startsWith('/api/v1/nodes/worker-2'));
			// A request sent just before p was pressed may still arrive: count from once none has come for a second
			// (while reading at 200 ms, a second without one never comes).
			let count = -1;
			let countedAt = 0;
			await until(() => {
				if (mine().length !== count) [count, countedAt] = [mine().length, Date.now()];
				return Date.now() - countedAt >= 1000;
			}, 'a second without a request after p');
			const before = mine().length;
			const frozen = session.screen();
			// Longer than the 10 s between two reads of the Node object.
			await new Promise((resolve) => setTimeout(resolve, 11_000));
			const during = mine()
				.slice(before)
				.map((request) => request.path);
			assert.deepEqual(during, [], 'requests while paused');
			assert.equal(session.screen(), frozen, 'the frame while paused');
			assert.equal(frozen, paused);
			session.keys('p');
			await waitFor(session, /every 0\.2s {2}last scrape/);
			const nodeReads = () =>
				mine()
					.slice(before)
					.filter((request) => request.path === '/api/v1/nodes/worker-2').length;
			await until(() => nodeReads() > 0, 'the Node object read again on resume');
			assert.equal(nodeReads(), 1, 'the Node object is read again on resume');
			session.keys('q');
			await assertTerminalRestored(session, 0);
		},
	);

	test('the write-down goes to stderr, wrapped to the terminal width; --quiet leaves it out', {skip}, async () => {
		const env = {HOME: cluster.temp.dir};
		const writeDown = /The kubelet's PLEG relists every 1s/;
		// 60 columns: narrower than the write-down's own 80.
		const narrow = startLive(['--demo'], {env, columns: 60, rows: 30});
		const stderrFile = `${cluster.temp.dir}/write-down-stderr.txt`;
		const redirected = startLive(['--demo', `2>${stderrFile}`], {env});
		const quiet = startLive(['--demo', '--quiet'], {env});
		for (const session of [narrow, redirected, quiet]) {
			await waitFor(session, healthy);
			session.keys('q');
		}

		await waitFor(narrow, 'AFTER-PLEG-TOP exit=0');
		// -J joins the rows the terminal wrapped: each row left is a line pleg-top wrote.
		const joined = tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', narrow.name]);
		screens.push(joined);
		assert.match(joined.replaceAll('\n', ' '), writeDown);
		const lines = joined
			.split('\n')
			.filter((line) => line.trim() !== '' && !line.startsWith('AFTER-PLEG-TOP') && !line.startsWith('BEFORE-PLEG-TOP'));
		assert.ok(lines.length >= 4, joined);
		for (const line of lines) assert.ok([...line].length <= 60, `${[...line].length} columns: ${line}`);

		// stderr to a file: the write-down is there, not on the terminal (stdout).
		await waitFor(redirected, 'AFTER-PLEG-TOP exit=0');
		assert.doesNotMatch(paneWithHistory(redirected), writeDown);
		assert.match(fs.readFileSync(stderrFile, 'utf8').replaceAll('\n', ' '), writeDown);

		await waitFor(quiet, 'AFTER-PLEG-TOP exit=0');
		assert.doesNotMatch(paneWithHistory(quiet), /The kubelet's PLEG|Measured on/);
	});

	// A hangup exits 129 (128 + SIGHUP); a terminal still there after one (kill -HUP) is restored all the same.
	for (const [signal, code] of [
		['SIGTERM', 0],
		['SIGHUP', 129],
	] as const) {
		test(`${signal}: the terminal is restored and pleg-top exits ${code} without a stack trace`, {skip}, async () => {
			const session = startLive(['--node', 'worker-1', '--interval', '200ms', '--window', '1s']);
			await waitFor(session, healthy);
			process.kill(plegTopPid(session), signal);
			await assertTerminalRestored(session, code);
		});
	}

	test('Ctrl-C: the terminal is restored, exit 130 (an interrupt, as a shell reports it)', {skip}, async () => {
		const session = startLive(['--node', 'worker-1', '--interval', '200ms', '--window', '1s']);
		await waitFor(session, healthy);
		session.keys('C-c');
		await assertTerminalRestored(session, 130);
	});

	test(
		'demo at 60×: s stalls the relist loop and the verdict turns within seconds (CI=true set: the screen still draws)',
		{skip},
		async () => {
			// With CI set, ink would draw only the last frame on exit; pleg-top on a terminal must draw live anyway.
			const session = startLive(['--demo', '--demo-speed', '60'], {env: {HOME: cluster.temp.dir, CI: 'true'}});
			await waitFor(session, healthy);
			session.keys('s');
			// 3 simulated minutes at 60× = 3 s of real time.
			await waitFor(session, /✗ PLEG is not healthy: pleg was last seen active 3m\d+s ago; threshold is 3m0s/, 25_000);
			// The Node object is re-read at the demo's pace (every 10 simulated seconds, at most once a second),
			// so the node's Ready condition follows within a couple of real seconds instead of 10: 9 s leaves a loaded
			// machine its margin and still tells the two apart.
			await waitFor(session, /✗ node Ready=False KubeletNotReady/, 9000);
			session.keys('q');
			await assertTerminalRestored(session, 0);
		},
	);
});
