// `kubectl pleg-top ...`: kubectl finds the `kubectl-pleg_top` executable on PATH and runs it with every
// argument after the plugin name, so --context and --kubeconfig reach pleg-top, which reads them itself.
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, symlinkSync} from 'node:fs';
import {dirname} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {startFakeCluster, type FakeCluster} from './fake-cluster.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0;

describe('kubectl plugin', {skip: hasKubectl ? false : 'kubectl is not installed: the plugin tests need it'}, () => {
	let cluster: FakeCluster;
	let pathWithPlugin: string;

	before(async () => {
		cluster = await startFakeCluster(['worker-1']);
		// What `npm install -g` puts on PATH: kubectl-pleg_top, a symbolic link to the CLI (its #! line finds node on PATH).
		mkdirSync(`${cluster.temp.dir}/bin`);
		symlinkSync(cliPath, `${cluster.temp.dir}/bin/kubectl-pleg_top`);
		pathWithPlugin = `${cluster.temp.dir}/bin:${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`;
	});

	after(async () => {
		await cluster.close();
	});

	/**
	 * Runs kubectl with the plugin on PATH; KUBECONFIG points nowhere so only --kubeconfig can find the cluster.
	 * Asynchronous: the fake API server answers from this process's event loop.
	 */
	async function kubectl(args: string[]): Promise<{status: number | null; stdout: string; stderr: string}> {
		const child = spawn('kubectl', args, {
			timeout: 30_000,
			env: {PATH: pathWithPlugin, HOME: cluster.temp.dir, KUBECONFIG: `${cluster.temp.dir}/no-such-kubeconfig`},
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
		return {status, stdout, stderr};
	}

	test('kubectl lists the plugin', async () => {
		const result = await kubectl(['plugin', 'list']);
		assert.match(result.stdout, /\/bin\/kubectl-pleg_top$/m, result.stderr);
	});

	test('kubectl pleg-top --demo --once --window 2s: the report, exit 0', async () => {
		const result = await kubectl(['pleg-top', '--demo', '--once', '--window', '2s']);
		assert.equal(result.status, 0, result.stderr);
		assert.match(result.stdout, /^verdict +PLEG is healthy$/m);
		assert.match(result.stdout, /^window +[23](\.\d)?s: /m);
	});

	test('kubectl pleg-top --help names itself kubectl pleg-top', async () => {
		const result = await kubectl(['pleg-top', '--help']);
		assert.equal(result.status, 0, result.stderr);
		assert.match(result.stdout, /^kubectl pleg-top \S+ — /);
		assert.match(result.stdout, /^ {2}kubectl pleg-top NODE --once \[-o json\] +two scrapes/m);
	});

	test('a usage error under kubectl names kubectl pleg-top, in the message and the hint', async () => {
		const result = await kubectl(['pleg-top', '--record', `${cluster.temp.dir}/r.jsonl`]);
		assert.equal(result.status, 2, result.stderr);
		assert.equal(
			result.stderr,
			'kubectl pleg-top: --record follows one node: give the node (kubectl pleg-top NODE)\nRun kubectl pleg-top --help for the flags.\n',
		);
		// A failure met while running, too: every line pleg-top starts with its name.
		const failed = await kubectl(['pleg-top', 'worker-1', '--once', '--kubeconfig', `${cluster.temp.dir}/no-such-file`]);
		assert.equal(failed.status, 2, failed.stderr);
		assert.match(failed.stderr, /^kubectl pleg-top: /);
		assert.doesNotMatch(failed.stderr, /^pleg-top: /m);
		const missing = await kubectl(['pleg-top', 'worker-1', '--window']);
		assert.equal(missing.status, 2, missing.stderr);
		assert.match(missing.stderr, /^kubectl pleg-top: --window needs a value: write it as 100ms, 2s, 1m or 1m30s\n/);
	});

	test('kubectl pleg-top NODE: the node as a positional word, as kubectl takes it', async () => {
		const result = await kubectl([
			'pleg-top',
			'worker-1',
			'--kubeconfig',
			cluster.kubeconfig,
			'--context',
			'prod',
			'--once',
			'--window',
			'2s',
		]);
		assert.equal(result.status, 0, result.stderr);
		assert.match(result.stdout, /^node +worker-1$/m);
	});

	test('--kubeconfig and --context after the plugin name are read by pleg-top', async () => {
		// "prod" works; "stale" has a token the API server refuses: the answer shows which context pleg-top used.
		const good = await kubectl([
			'pleg-top',
			'--kubeconfig',
			cluster.kubeconfig,
			'--context',
			'prod',
			'--node',
			'worker-1',
			'--once',
			'--window',
			'2s',
		]);
		assert.equal(good.status, 0, good.stderr);
		assert.match(good.stdout, /^node +worker-1$/m);

		const refused = await kubectl([
			'pleg-top',
			'--kubeconfig',
			cluster.kubeconfig,
			'--context',
			'stale',
			'--node',
			'worker-1',
			'--once',
			'--window',
			'2s',
		]);
		assert.equal(refused.status, 3, refused.stdout);
		assert.match(refused.stderr, /context "stale"/);

		const users = new Set(cluster.api.requests.map((request) => request.user));
		assert.deepEqual(
			[...users].sort((a, b) => String(a).localeCompare(String(b))),
			['jane@example.com', null],
		);
	});
});
