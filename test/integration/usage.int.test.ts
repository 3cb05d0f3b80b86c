// Usage errors through the built CLI: exit 2 before any request, pleg-top's own message naming the flag and
// what to write instead, and the hint to --help. HOME is an empty temp dir: no kubeconfig is needed to fail here.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';

const home = mkdtempSync(join(tmpdir(), 'pleg-top-usage-'));
after(() => {
	rmSync(home, {recursive: true, force: true});
});

/** Runs the CLI, expects exit 2, nothing on stdout, and returns the first stderr line. */
async function usage(args: string[]): Promise<string> {
	const result = await runCli(args, {env: {HOME: home}});
	assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
	assert.equal(result.stdout, '');
	const lines = result.stderr.trimEnd().split('\n');
	assert.equal(lines.at(-1), 'Run pleg-top --help for the flags.');
	return lines[0]!;
}

describe("usage errors: exit 2 and pleg-top's own words", {concurrency: true}, () => {
	test('durations above their maxima (a timer would overflow): --interval 700h, --window 99999h, --timeout 600h', async () => {
		assert.equal(
			await usage(['worker-1', '--interval', '700h', '--window', '1400h']),
			'pleg-top: --interval must be at most 1h, not "700h"',
		);
		assert.equal(await usage(['worker-1', '--window', '99999h']), 'pleg-top: --window must be at most 24h, not "99999h"');
		assert.equal(await usage(['worker-1', '--timeout', '600h']), 'pleg-top: --timeout must be at most 10m, not "600h"');
	});

	test("a typo in a flag: the flag meant, in pleg-top's words, not the argument parser's", async () => {
		assert.equal(await usage(['worker-1', '--intreval', '2s']), 'pleg-top: unknown flag --intreval: did you mean --interval?');
		assert.equal(await usage(['worker-1', '--bogus']), 'pleg-top: unknown flag --bogus');
	});

	test('--interval -1s: a negative duration, said by pleg-top rather than the argument parser', async () => {
		assert.equal(
			await usage(['worker-1', '--interval', '-1s']),
			'pleg-top: --interval cannot be negative, not "-1s": write it as 100ms, 2s, 1m or 1m30s',
		);
	});

	test("--node '': a node name is needed, not the whole-cluster overview", async () => {
		assert.equal(await usage(['--node', '']), 'pleg-top: --node needs a node name (kubectl get nodes lists them)');
	});

	test('two different node names, and a node name with --demo', async () => {
		assert.equal(
			await usage(['worker-1', '--node', 'worker-2']),
			'pleg-top: the node is named twice ("worker-1" and --node "worker-2"): give it once',
		);
		assert.equal(await usage(['--demo', 'worker-1']), 'pleg-top: --demo shows its own simulated node: drop the node name "worker-1"');
	});

	test('--fail-on: a band name, and only with --once', async () => {
		assert.equal(
			await usage(['worker-1', '--once', '--fail-on', 'red']),
			'pleg-top: --fail-on must be unhealthy, critical or warn, not "red"',
		);
		assert.equal(await usage(['worker-1', '--fail-on', 'warn']), 'pleg-top: --fail-on sets the exit code of --once: add --once');
	});

	test("a flag without its value: pleg-top's words and what to write, not the argument parser's", async () => {
		assert.equal(await usage(['worker-1', '--window']), 'pleg-top: --window needs a value: write it as 100ms, 2s, 1m or 1m30s');
		// The next word is a flag, not the value.
		assert.equal(await usage(['worker-1', '--window', '--once']), 'pleg-top: --window needs a value: write it as 100ms, 2s, 1m or 1m30s');
		assert.equal(await usage(['worker-1', '--once', '-o']), 'pleg-top: -o/--output needs a value: text or json');
		assert.equal(await usage(['worker-1', '--once=yes']), 'pleg-top: --once takes no value: give it alone');
	});

	test('kubectl TYPE/NAME that is not a node', async () => {
		assert.equal(
			await usage(['pod/worker-1', '--once']),
			'pleg-top: "pod/worker-1" is not a node: give a node name (kubectl get nodes -o name lists them)',
		);
	});

	test('--record for the whole cluster: it follows one node', async () => {
		assert.equal(await usage(['--record', join(home, 'x.jsonl')]), 'pleg-top: --record follows one node: give the node (pleg-top NODE)');
	});
});
