// Completion as a shell and kubectl run it: the bash script sourced from `pleg-top completion bash` and its
// function called the way bash calls it, and `kubectl __complete pleg-top …` running the plugin's
// kubectl_complete-pleg_top; node names come from the fake API server of the typed (or current) context.
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {after, before, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {startCluster, type Cluster} from './cluster.js';

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('shell completion through the CLI', () => {
	let cluster: Cluster;
	let bin: string;

	before(async () => {
		cluster = await startCluster([{name: 'worker-1'}, {name: 'worker-2'}, {name: 'db-1'}, {name: 'evil\u001b]0;pwned\u0007'}]);
		bin = path.join(cluster.temp.dir, 'bin');
		mkdirSync(bin);
		for (const name of ['pleg-top', 'kubectl-pleg_top', 'kubectl_complete-pleg_top']) symlinkSync(cliPath, path.join(bin, name));
	});

	after(() => cluster.close());

	const env = () => ({...cluster.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`});

	/** Runs a command that talks to the fake API server, which answers from this process: never spawnSync. */
	async function run(command: string, args: string[]): Promise<string> {
		const {stdout} = await promisify(execFile)(command, args, {env: env(), encoding: 'utf8', timeout: 30_000});
		return stdout;
	}

	/** What bash's completion function offers for `words` (the last one being typed). */
	async function bashOffers(words: string[]): Promise<string[]> {
		const script = [
			'source <(pleg-top completion bash)',
			`COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})`,
			`COMP_CWORD=${words.length - 1}`,
			'_pleg_top_complete',
			'printf "%s\\n" "${COMPREPLY[@]}"',
		].join('\n');
		return (await run('bash', ['-c', script])).split('\n').filter(Boolean);
	}

	test('bash: node names of the current context, only the DNS-safe ones', async () => {
		assert.deepEqual(await bashOffers(['pleg-top', 'wor']), ['worker-1', 'worker-2']);
		// a loaded CI machine may take longer than the default bound to start node and list: the typed --timeout bounds it
		assert.deepEqual(await bashOffers(['pleg-top', '--timeout', '30s', '']), ['db-1', 'worker-1', 'worker-2']);
	});

	test('bash: flags and flag values', async () => {
		assert.deepEqual(await bashOffers(['pleg-top', 'worker-1', '--fail']), ['--fail-on']);
		assert.deepEqual(await bashOffers(['pleg-top', '--once', '-o', '']), ['text', 'json']);
	});

	test('bash: a context that does not exist offers no names and prints nothing else', async () => {
		assert.deepEqual(await bashOffers(['pleg-top', '--context', 'nope', 'wor']), []);
	});

	test(
		'kubectl __complete pleg-top runs kubectl_complete-pleg_top and passes its answer on',
		{skip: !has('kubectl') && 'kubectl not installed'},
		async () => {
			const stdout = await run('kubectl', ['__complete', 'pleg-top', '--timeout', '30s', 'worker']);
			assert.deepEqual(stdout.split('\n').filter(Boolean), ['worker-1', 'worker-2', ':4']);
		},
	);

	for (const [shell, check] of [
		['zsh', ['-n']],
		['fish', ['--no-execute']],
	] as const) {
		test(`${shell}: the script pleg-top prints is valid ${shell}`, {skip: !has(shell) && `${shell} not installed`}, () => {
			const script = spawnSync(process.execPath, [cliPath, 'completion', shell], {encoding: 'utf8'});
			assert.equal(script.status, 0);
			const file = path.join(cluster.temp.dir, `completion.${shell}`);
			writeFileSync(file, script.stdout);
			const result = spawnSync(shell, [...check, file], {encoding: 'utf8'});
			assert.equal(result.status, 0, result.stderr);
		});
	}

	test('completion with an unknown shell exits 2 naming the shells', () => {
		const result = spawnSync(process.execPath, [cliPath, 'completion', 'tcsh'], {encoding: 'utf8'});
		assert.equal(result.status, 2);
		assert.match(result.stderr, /^pleg-top: completion takes one shell: bash, zsh, fish/);
	});
});
