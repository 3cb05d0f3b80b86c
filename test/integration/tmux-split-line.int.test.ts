// The tmux line of `pleg-top --help`, run as a user would paste it: from a shell that exported KUBECONFIG after
// the tmux server started. A new pane gets the server's environment, not the shell's, so without `-e` it finds no
// kubeconfig; the line passes the shell's KUBECONFIG on and the pane shows the node. The built CLI against the fake
// API server, in a tmux server of its own started without KUBECONFIG.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, symlinkSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {after, before, test} from 'node:test';
import {cliPath, runCli} from '../helpers/run-cli.js';
import {hasTmux} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';
import {dumpThenMinuteLater, startCluster, type Cluster} from './cluster.js';

const skip = hasTmux ? false : 'tmux not installed';
const socket = `pleg-top-split-${process.pid}`;
const session = 'work';
let cluster: Cluster;
let path: string;

before(async () => {
	cluster = await startCluster();
	cluster.fake.setMetrics('worker-1', dumpThenMinuteLater());
	const bin = join(cluster.temp.dir, 'bin');
	mkdirSync(bin);
	symlinkSync(cliPath, join(bin, 'pleg-top'));
	path = `${bin}:${dirname(process.execPath)}:${process.env['PATH'] ?? '/usr/bin:/bin'}`;
});

after(async () => {
	spawnSync('tmux', ['-L', socket, 'kill-server']);
	await cluster.close();
});

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});

async function paneShows(pattern: RegExp, timeoutMs: number): Promise<string> {
	let last = '';
	return until(
		() => {
			last = tmux('capture-pane', '-p', '-t', `${session}.1`);
			return pattern.test(last) && last;
		},
		() => `the pane to show ${String(pattern)}; last:\n${last}`,
		timeoutMs,
		100,
	);
}

test("the help's tmux line from a shell that exported KUBECONFIG after tmux started: the pane shows the node", {skip}, async () => {
	const help = await runCli(['--help'], {env: {HOME: cluster.temp.dir}});
	const line = /^ {2}(tmux split-window .*)$/m.exec(help.stdout)?.[1];
	assert.ok(line, help.stdout);
	// The tmux server starts without KUBECONFIG, as one started before the shell exported it.
	const server = {PATH: path, HOME: cluster.temp.dir, TERM: 'xterm-256color', LANG: 'C.UTF-8'};
	execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '160', '-y', '40', 'sleep 600'], {
		env: server,
	});
	// The pasted line, aimed at this server's session (a shell inside tmux finds it through $TMUX).
	const pasted = line.replace(/^tmux split-window /, `tmux -L ${socket} split-window -t ${session} `);
	execFileSync('sh', ['-c', pasted], {env: {...server, KUBECONFIG: cluster.kubeconfig}});
	const screen = await paneShows(/PLEG is healthy|no kubeconfig found/, 30_000);
	assert.doesNotMatch(screen, /no kubeconfig found/);
	assert.match(screen, /^pleg-top · worker-1 · fake-ctx /m);
});
