// Terminal escape injection (the class of CVE-2021-25743) through the built CLI: a fake API server puts a
// payload set (OSC title, OSC 52 clipboard, CSI, C1 CSI, CR, BS, BEL, DEL, a lone ESC, a bidi override) in every
// string pleg-top shows: the Node's versions and Ready condition, an Event's reason, source and message, a node's
// name in the list, a Status message of a 403 and a 500. No ESC/C1/BEL/CR/BS byte may reach stdout, stderr, a
// file or the terminal title, and the visible form (^[, \u009b, ^M …) must be there instead.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {after, before, beforeEach, describe, test} from 'node:test';
import {allPayloads as p, allPayloadsVisible as v, firstControl} from '../helpers/escape-payloads.js';
import {singleContext, writeFailingPlugin} from '../helpers/kubeconfig-files.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, cliPath, runCli, spawnCli, type CliResult} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {fast, startCluster, testToken, v121After, type Cluster} from './cluster.js';

let cluster: Cluster;
const sessions: TmuxSession[] = [];
const evil = `evil${p}`;
/** The payload node's name in a row, cut in the middle (overview rows keep both ends), its controls shown visible. */
const visibleName = (before: string) => new RegExp(String.raw`${before}evil\^\[\]0;pwn\^G.*….*\\u202etxt\.exe`, 'm');

/** An RFC 3339 time `secondsAgo` before now, to the second as the API server writes it. */
const ago = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

before(async () => {
	cluster = await startCluster([
		{
			name: 'worker-1',
			kubeletVersion: `v1.21.2${p}`,
			containerRuntimeVersion: `containerd://1.7.2${p}`,
			ready: {status: 'False', reason: `KubeletNotReady${p}`, message: `PLEG ${p}`, lastTransitionTime: ago(100)},
			events: [
				{type: 'Warning', reason: `Evil${p}`, message: `msg ${p}`, count: 2, lastTimestamp: ago(30), source: {component: `kubelet${p}`}},
			],
		},
		{name: evil},
	]);
});

beforeEach(() => {
	cluster.fake.clearFaults();
	for (const name of ['worker-1', evil]) {
		let calls = 0;
		cluster.fake.setMetrics(name, () => v121After(++calls));
	}
});

after(async () => {
	for (const session of sessions) session.kill();
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

function assertClean(text: string, where: string): void {
	assert.equal(firstControl(text), null, `a control character reached ${where}`);
}

function assertCleanResult(result: CliResult): void {
	assertClean(result.stdout, 'stdout');
	assertClean(result.stderr, 'stderr');
}

describe('--once', () => {
	test('text: the kubelet version, Ready reason and message, the Event in the visible form', async () => {
		const result = await runCli(['worker-1', '--once', ...fast], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assertCleanResult(result);
		const lines = result.stdout.split('\n');
		assert.ok(lines.includes(`kubelet         v1.21.2${v}`), result.stdout);
		assert.ok(lines.includes(`Ready           False · KubeletNotReady${v} · PLEG ${v}`), result.stdout);
		assert.match(
			result.stdout,
			new RegExp(
				`^event +${escapeRegExp(`Evil${v}`)} ×2, \\d+s ago \\(${escapeRegExp(`kubelet${v}`)}\\): ${escapeRegExp(`msg ${v}`)}$`,
				'm',
			),
		);
	});

	test('-o json: no control character, even escaped; the fields hold the visible form', async () => {
		const result = await runCli(['worker-1', '--once', '-o', 'json', ...fast], {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		assertCleanResult(result);
		const report = JSON.parse(result.stdout) as Record<string, any>;
		// Not even escaped: the values themselves hold none.
		assertClean(stringsOf(report).join('\n'), 'a JSON value');
		assert.equal(report['kubeletVersion'], `v1.21.2${v}`);
		assert.deepEqual(report['events'][0], {reason: `Evil${v}`, message: `msg ${v}`, ageSeconds: report['events'][0].ageSeconds, count: 2});
	});

	for (const code of [403, 500]) {
		test(`a ${code} Status with the payload in its message: quoted visible on stderr, exit 3`, async () => {
			cluster.fake.setFault({type: 'status', code, message: `refused ${p}`}, {route: 'metrics'});
			const result = await runCli(['worker-1', '--once', ...fast], {env: cluster.env});
			assert.equal(result.code, 3);
			assertCleanResult(result);
			assert.ok(result.stderr.includes(`API server: refused ${v}`), result.stderr);
		});
	}

	test("JSON lines: a failed scrape's error quotes the Status visible; no line holds a control", async () => {
		const cli = spawnCli(['worker-1', ...fast], {env: cluster.env, timeoutMs: 30_000});
		await cli.waitForStdout(/"eventsError":null/, 20_000);
		cluster.fake.setFault({type: 'status', code: 500, message: `etcd ${p}`}, {route: 'metrics'});
		await cli.waitForStdout(/"stale":true/, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assertCleanResult(result);
		const lines = result.stdout
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, any>);
		for (const line of lines) assertClean(stringsOf(line).join('\n'), 'a JSON line');
		const stale = lines.find((line) => line['stale'] === true)!;
		assert.deepEqual(stale['error'].details, [`API server: etcd ${v}`]);
		assert.equal(lines.find((line) => line['eventsError'] === null)!['events'][0].message, `msg ${v}`);
	});

	test('an exec credential plugin that fails: its stderr quoted visible, line by line; exit 3', async () => {
		const plugin = writeFailingPlugin(cluster.temp, 'evil-plugin', `login failed ${p}\nrun sso login\n`);
		const env = cluster.envFor('exec-evil.yaml', singleContext(cluster.fake.url, {name: 'sso-user', exec: {command: plugin}}));
		const result = await runCli(['worker-1', '--once', ...fast], {env});
		assert.equal(result.code, 3);
		assertCleanResult(result);
		assert.ok(result.stderr.endsWith(`  its stderr:\n  login failed ${v}\n  run sso login\n`), result.stderr);
	});

	test('the overview: a node named with the payload is listed visible and read at its own name', async () => {
		const text = await runCli(['--once', ...fast], {env: cluster.env});
		assert.equal(text.code, 0, text.stderr);
		assertCleanResult(text);
		// The name is cut in the middle to its column, both ends visible; the row is read (ok), not an error.
		assert.match(text.stdout, visibleName('^ +✓ ok +'));
		const json = await runCli(['--once', '-o', 'json', ...fast], {env: cluster.env});
		assertCleanResult(json);
		const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
		assertClean(stringsOf(parsed).join('\n'), 'a JSON value');
		const nodes = parsed['nodes'] as Array<Record<string, unknown>>;
		const row = nodes.find((node) => node['node'] === `evil${v}`);
		assert.equal(row?.['healthy'], true, json.stdout);
		assert.ok(
			cluster.fake.requests.some((request) => request.path === `/api/v1/nodes/${encodeURIComponent(evil)}/proxy/metrics`),
			'the metrics were read at the name the API server holds',
		);
	});
});

/** Every string in a parsed JSON value. */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([key, each]) => [key, ...stringsOf(each)]);
}

function escapeRegExp(text: string): string {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
}

describe('the live screen in a real terminal', {skip: hasTmux ? false : 'tmux not installed'}, () => {
	function startLive(args: string[]): TmuxSession {
		const command = `sh -c '${process.execPath} ${cliPath} ${args.join(' ')}; echo "AFTER-PLEG-TOP exit=$?"; sleep 120'`;
		const session = startTmux(command, {columns: 120, rows: 40, env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...cluster.env}});
		sessions.push(session);
		return session;
	}

	/** The pane and its scrollback: a raw payload would have been read by the terminal, so only the visible form can show. */
	const history = (session: TmuxSession) => tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', session.name]);

	test('one node: Ready, Events, the error line, the title, then the write-down on stderr and in --summary', async () => {
		const summary = `${cluster.temp.dir}/escape-summary.md`;
		const stderr = `${cluster.temp.dir}/escape-stderr.txt`;
		const session = startLive(['worker-1', '--interval', '200ms', '--window', '1s', '--summary', summary, `2>${stderr}`]);
		let screen = await session.waitFor(/events · 1 Event/, 30_000);
		const flat = screen.replaceAll('\n', ' ');
		assert.match(flat, /Ready=False KubeletNotReady\^\[\]0;pwn\^G \^\[\]52;c;cm0gLXJmIC8=\^G \^\[\[2J \\u009b31m hidden\^Mshown/);
		// The reason column is cut at 18 cells (so every message starts in one column); the message shows the rest.
		assert.match(
			screen,
			/^ {2}Evil\^\[\]0;pwn\^G \^\[… +\d+s ago +×2 +msg \^\[\]0;pwn\^G \^\[\]52;c;cm0gLXJmIC8=\^G \^\[\[2J \\u009b31m hidden\^Mshown abc\^H\^H\^Hxyz/m,
		);
		assert.match(await session.waitForTitle(/^pleg-top worker-1: /), /^pleg-top worker-1: /);

		cluster.fake.setFault({type: 'status', code: 500, message: `etcd ${p}`}, {route: 'metrics'});
		screen = await session.waitFor(/etcd \^\[\]0;pwn\^G/, 15_000);
		assert.match(screen, /STALE/);
		// Unknown is said once two scrapes in a row failed (one alone is debounced): the title is pleg-top's words, never the payload's.
		assert.match(await session.waitForTitle(/: unknown$/), /^pleg-top worker-1: unknown$/);
		cluster.fake.clearFaults();
		await session.waitFor(/✓ PLEG is healthy/, 15_000);

		session.keys('q');
		await session.waitFor('AFTER-PLEG-TOP exit=0', 15_000);
		assert.doesNotMatch(session.title(), /pwn/);
		assert.doesNotMatch(history(session), /pwn\n|^shown/m);
		const written = fs.readFileSync(stderr, 'utf8');
		assertClean(written, 'the write-down on stderr');
		assert.ok(written.replaceAll('\n', ' ').includes(`kubelet v1.21.2${v}`.slice(0, 40)), written);
		const file = fs.readFileSync(summary, 'utf8');
		assertClean(file, 'the --summary file');
		assert.ok(file.includes(`(kubelet v1.21.2${v})`), file);
	});

	test('the overview: the node name in its row, visible', async () => {
		const session = startLive(['--interval', '200ms', '--window', '1s']);
		const screen = await session.waitFor(visibleName(''), 30_000);
		assert.match(screen, /worker-1/);
		assert.match(session.title(), /^(?!.*pwn)/);
		session.keys('q');
		await session.waitFor('AFTER-PLEG-TOP exit=0', 15_000);
	});
});
