// The README's Install section, done as written in a copy of this checkout into an empty home directory with no
// network, then its tmux and kubectl lines (from "Using it") typed into a shell in a tmux server of the test's
// own, whose PATH is what a login shell would give: the prefix's bin, node, the system. The README's cluster is
// the fake API server (KUBECONFIG), and worker-1 its node.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {hasTmux} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';
import {startFakeCluster, type FakeCluster} from './fake-cluster.js';
import {readme, root, section, shellBlocks} from './readme-commands.js';

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	bin: Record<string, string>;
};
const isCheckout = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {cwd: root, encoding: 'utf8'}).stdout.trim() === 'true';
/** Where kubectl is, when it is installed: its folder goes on the test PATH, as the system's would be. */
const kubectl = spawnSync('sh', ['-c', 'command -v kubectl'], {encoding: 'utf8'}).stdout.trim();

const skip = !hasTmux
	? 'tmux is not installed'
	: !isCheckout
		? 'not a git checkout: the test copies its files as a clone would have them'
		: false;

const text = readme();
const [installSteps = [], undoSteps = []] = shellBlocks(section(text, 'Install'));
const usingIt = shellBlocks(section(text, 'Using it')).flat();
const tmuxLine = usingIt.find((line) => line.startsWith('tmux split-window '));
const kubectlLine = usingIt.find((line) => line.startsWith('kubectl pleg-top '));
const [quickStart = []] = shellBlocks(section(text, 'Quick start'));

/** The files a fresh clone has: tracked, plus new files not ignored (this checkout's own, not yet committed). */
function copyCheckout(destination: string): void {
	const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: root, encoding: 'utf8'});
	for (const file of new Set(listed.split('\0').filter(Boolean))) {
		const from = path.join(root, file);
		// A tracked file deleted in the working tree is not in a clone of it either.
		if (!existsSync(from) || !lstatSync(from).isFile()) continue;
		mkdirSync(path.dirname(path.join(destination, file)), {recursive: true});
		copyFileSync(from, path.join(destination, file));
	}
}

/** A tmux server of the test's own (its socket in the temp folder), started with `env`, one shell in one window. */
function startServer(socket: string, env: Record<string, string>, cwd: string) {
	const run = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
	execFileSync('tmux', ['-S', socket, 'new-session', '-d', '-x', '160', '-y', '40', '-c', cwd, 'sh'], {env});
	const panes = () => run('list-panes', '-F', '#{pane_id}').split('\n').filter(Boolean);
	return {
		panes,
		screen: (pane: string) => run('capture-pane', '-p', '-t', pane),
		/** Types `line` into the pane's shell and presses Enter. */
		type(pane: string, line: string) {
			run('send-keys', '-t', pane, '-l', line);
			run('send-keys', '-t', pane, 'Enter');
		},
		keys: (pane: string, ...keys: string[]) => void run('send-keys', '-t', pane, ...keys),
		/** Waits for the pane's screen (with `history`, its scrollback too: what a program printed after leaving the alternate screen). */
		async waitFor(pane: string, pattern: RegExp, options: {history?: boolean} = {}): Promise<string> {
			let last = '';
			return until(
				() => {
					last = run('capture-pane', '-p', '-J', ...(options.history ? ['-S', '-'] : []), '-t', pane);
					return pattern.test(last) && last;
				},
				() => `pane ${pane} to show ${String(pattern)}; last screen:\n${last}`,
				30_000,
				100,
			);
		},
		async waitForPanes(count: number, timeoutMs = 10_000): Promise<string[]> {
			let last: string[] = [];
			return until(
				() => {
					last = panes();
					return last.length === count && last;
				},
				() => `the window to have ${count} panes; it has: ${last.join(' ')}`,
				timeoutMs,
				100,
			);
		},
		kill: () => spawnSync('tmux', ['-S', socket, 'kill-server']),
	};
}

describe('installed as the README says, from a clone', {skip}, () => {
	let cluster: FakeCluster;
	let clone: string;
	let home: string;
	let env: Record<string, string>;
	let server: ReturnType<typeof startServer>;

	/** Runs a README line with sh in the clone, as a reader pastes it. */
	function shell(line: string): {status: number | null; stdout: string; stderr: string} {
		const result = spawnSync('sh', ['-c', line], {cwd: clone, encoding: 'utf8', timeout: 120_000, env});
		return {status: result.status, stdout: result.stdout, stderr: result.stderr};
	}

	before(async () => {
		cluster = await startFakeCluster(['worker-1']);
		clone = path.join(cluster.temp.dir, 'clone');
		home = path.join(cluster.temp.dir, 'home');
		mkdirSync(home);
		copyCheckout(clone);
		const dirs = [
			path.join(home, '.local', 'bin'),
			path.dirname(process.execPath),
			...(kubectl ? [path.dirname(kubectl)] : []),
			'/usr/local/bin',
			'/usr/bin',
			'/bin',
		];
		env = {
			PATH: [...new Set(dirs)].join(':'),
			HOME: home,
			KUBECONFIG: cluster.kubeconfig,
			TERM: 'xterm-256color',
			SHELL: '/bin/sh',
			// Proof that nothing needs the registry: npm may not go online, and has no cached package to fall back on.
			npm_config_offline: 'true',
			npm_config_cache: path.join(cluster.temp.dir, 'npm-cache'),
			npm_config_update_notifier: 'false',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
		};
		// The shell starts in the clone, as the reader's would.
		server = startServer(path.join(cluster.temp.dir, 'tmux.sock'), env, clone);
	});

	after(async () => {
		server?.kill();
		await cluster?.close();
	});

	test('the README gives the install steps, the undo, a tmux line and a kubectl line', () => {
		assert.deepEqual(installSteps, [
			'npm install',
			'npm pack',
			`npm install -g --prefix ~/.local --ignore-scripts ./${manifest.name}-${manifest.version}.tgz`,
		]);
		assert.deepEqual(undoSteps, [`npm uninstall -g --prefix ~/.local ${manifest.name}`]);
		assert.equal(tmuxLine, `tmux split-window -h -e KUBECONFIG="$KUBECONFIG" 'pleg-top worker-1; read x'`);
		assert.equal(kubectlLine, 'kubectl pleg-top worker-1');
		// The README's "pleg-top-0.1.0.tgz", checked above, is the name `npm pack` gives this version.
		assert.deepEqual(Object.keys(manifest.bin).sort(), ['kubectl-pleg_top', 'kubectl_complete-pleg_top', 'pleg-top']);
	});

	test('before the install nothing is on PATH: the tmux pane says so and stays until Enter', async () => {
		assert.equal(existsSync(path.join(home, '.local')), false, 'the prefix starts empty');
		assert.notEqual(shell('command -v pleg-top').status, 0, 'a pleg-top outside the test prefix is on PATH');
		const [shellPane] = await server.waitForPanes(1);
		server.type(shellPane!, tmuxLine!);
		const [, pane] = await server.waitForPanes(2);
		await server.waitFor(pane!, /pleg-top: (command )?not found/);
		server.keys(pane!, 'Enter');
		await server.waitForPanes(1);
	});

	test('npm pack and npm install -g into ~/.local put the bins on PATH (kubectl completes through the third), offline', () => {
		// `npm install` (the first step) is stood in for by this checkout's node_modules, which `npm ci` filled.
		symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
		for (const step of installSteps.slice(1)) {
			const result = shell(step);
			assert.equal(result.status, 0, `${step} failed:\n${result.stdout}\n${result.stderr}`);
		}

		const bin = path.join(home, '.local', 'bin');
		assert.deepEqual(readdirSync(bin).sort(), ['kubectl-pleg_top', 'kubectl_complete-pleg_top', 'pleg-top']);
		const installed = path.join(home, '.local', 'lib', 'node_modules', manifest.name);
		// A copy, not a link back to the clone: the clone may go.
		assert.equal(lstatSync(installed).isDirectory(), true);
		assert.deepEqual(readdirSync(installed).sort(), ['LICENSE', 'README.md', 'dist', 'package.json']);
		assert.equal(shell('command -v pleg-top').stdout.trim(), path.join(bin, 'pleg-top'));
		assert.equal(shell('command -v kubectl-pleg_top').stdout.trim(), path.join(bin, 'kubectl-pleg_top'));
		assert.equal(shell('command -v kubectl_complete-pleg_top').stdout.trim(), path.join(bin, 'kubectl_complete-pleg_top'));
		assert.equal(shell('pleg-top --version').stdout, `${manifest.version}\n`);
	});

	test("the Quick start's first command in the clone: npx finds the clone's own pleg-top and shows the demo node", async () => {
		assert.equal(quickStart[0], 'npm install && npx pleg-top --demo');
		const [pane] = await server.waitForPanes(1);
		// `npm install &&` is the node_modules link made above.
		server.type(pane!, quickStart[0].replace(/^npm install && /, ''));
		const screen = await server.waitFor(pane!, /PLEG is healthy/);
		assert.match(screen, /demo-node/);
		server.keys(pane!, 'q');
		await server.waitFor(pane!, /Measured on demo-node/, {history: true});
	});

	test("the README's tmux line: a pane with pleg-top's screen for worker-1; after q its write-down stays until Enter", async () => {
		const before = cluster.api.requests.length;
		const [shellPane] = await server.waitForPanes(1);
		server.type(shellPane!, tmuxLine!);
		const [, pane] = await server.waitForPanes(2);
		const screen = await server.waitFor(pane!, /PLEG is healthy/);
		assert.match(screen, /worker-1/);
		assert.ok(
			cluster.api.requests.slice(before).some((request) => request.path === '/api/v1/nodes/worker-1/proxy/metrics'),
			'the pane read worker-1 through the API server',
		);
		server.keys(pane!, 'q');
		const after = await server.waitFor(pane!, /Measured on worker-1/, {history: true});
		assert.match(after.replaceAll('\n', ' '), /The kubelet's PLEG relists every 1s/);
		assert.equal(server.panes().length, 2, 'the pane stays after q');
		server.keys(pane!, 'Enter');
		await server.waitForPanes(1);
	});

	test(
		"the README's kubectl line: kubectl runs kubectl-pleg_top from the prefix, with worker-1's screen",
		{skip: kubectl ? false : 'kubectl is not installed'},
		async () => {
			const before = cluster.api.requests.length;
			const [pane] = await server.waitForPanes(1);
			server.type(pane!, kubectlLine!);
			const screen = await server.waitFor(pane!, /PLEG is healthy/);
			assert.match(screen, /worker-1/);
			server.keys(pane!, 'q');
			await server.waitFor(pane!, /Measured on worker-1/, {history: true});
			assert.ok(cluster.api.requests.slice(before).some((request) => request.path === '/api/v1/nodes/worker-1/proxy/metrics'));
		},
	);

	test("the README's undo removes the bins and the package", () => {
		for (const step of undoSteps) {
			const result = shell(step);
			assert.equal(result.status, 0, `${step} failed:\n${result.stdout}\n${result.stderr}`);
		}

		assert.deepEqual(readdirSync(path.join(home, '.local', 'bin')), []);
		assert.equal(existsSync(path.join(home, '.local', 'lib', 'node_modules', manifest.name)), false);
		assert.notEqual(shell('command -v pleg-top').status, 0);
	});
});
