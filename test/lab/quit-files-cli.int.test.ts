// The write-down is never lost at quit, through the built CLI against the fake API server: --summary and --plot are
// checked at start (exit 2 naming the path and why, before any request), and a write that still fails at quit
// prints the write-down on stderr and ends the run non-zero.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {startCluster, v121After, type Cluster} from '../integration/cluster.js';

let cluster: Cluster;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster([{name: 'worker-1', kubeletVersion: 'v1.21.2'}]);
	let calls = 0;
	cluster.fake.setMetrics('worker-1', () => v121After(++calls));
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
});

describe('at start', () => {
	for (const [flag, file] of [
		['--summary', '/missing/dir/lab.md'],
		['--plot', '/missing/p.svg'],
	] as const) {
		test(`${flag} ${file}: exit 2 naming the path and why, before any request`, async () => {
			const before = cluster.fake.requests.length;
			const result = await runCli(['--node', 'worker-1', flag, file], {env: cluster.env});
			assert.equal(result.code, 2, result.stderr);
			assert.match(result.stderr, new RegExp(`cannot write the ${flag} file ${file}: ENOENT \\(no directory ${path.dirname(file)}\\)`));
			assert.equal(cluster.fake.requests.length, before);
			assert.equal(result.stdout, '');
		});
	}

	test('--summary naming a directory, with --once: exit 2, EISDIR', async () => {
		const result = await runCli(['--node', 'worker-1', '--once', '--summary', cluster.temp.dir], {env: cluster.env});
		assert.equal(result.code, 2, result.stderr);
		assert.match(result.stderr, /cannot write the --summary file .*: EISDIR \(it is a directory\)/);
	});
});

describe('at quit', () => {
	test('the directory gone meanwhile: the write-down goes to stderr whole, the run ends 74', async () => {
		const dir = path.join(cluster.temp.dir, 'lab-out');
		fs.mkdirSync(dir);
		const summary = path.join(dir, 'lab.md');
		const cli = spawnCli(['--node', 'worker-1', '--window', '1s', '--interval', '200ms', '--summary', summary], {env: cluster.env});
		running.push(cli);
		await cli.waitForStdout((stdout) => stdout.split('\n').length > 3, 30_000);
		fs.rmSync(dir, {recursive: true});
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 74, result.stderr);
		assert.match(result.stderr, new RegExp(`pleg-top: could not write the write-down to ${summary}: ENOENT`));
		assert.match(result.stderr, /The write-down meant for .*lab\.md:\n\n# PLEG write-down: worker-1, /);
		assert.match(result.stderr, /Measured on worker-1 \(kubelet v1\.21\.2\)/);
	});
});
