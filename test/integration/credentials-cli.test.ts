// Issue 24, credentials, end to end: the built CLI with a kubeconfig exec plugin that answers once and then hangs.
// The hung plugin must not stop polling silently: it is killed after --timeout, each poll fails in the user's terms,
// the figures go stale and the verdict is unknown, never a false "not healthy" from ageing data.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {pluginRuns, singleContext, writeHangingPlugin} from '../helpers/kubeconfig-files.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {fast, startCluster, testToken, v121After, type Cluster} from './cluster.js';

type Line = Record<string, any>;
let cluster: Cluster;
const running: CliProcess[] = [];

before(async () => {
	cluster = await startCluster();
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

function linesOf(cli: CliProcess): Line[] {
	return cli.stdout
		.split('\n')
		.slice(0, -1)
		.map((text) => JSON.parse(text) as Line);
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe('an exec plugin that hangs after its first answer', () => {
	test('JSON lines: stale lines naming the plugin, verdict unknown, the plugin killed and run again at each poll', async () => {
		let calls = 0;
		cluster.fake.setMetrics('worker-1', () => v121After(++calls));
		const runsFile = path.join(cluster.temp.dir, 'plugin-runs');
		const hangFile = path.join(cluster.temp.dir, 'hang-now');
		const plugin = writeHangingPlugin(cluster.temp, 'bin/aws', {runsFile, token: testToken, hangFile});
		const env = cluster.envFor(
			'hanging.yaml',
			singleContext(cluster.fake.url, {name: 'eks-admin', exec: {command: plugin, args: ['eks', 'get-token']}}),
		);
		const cli = spawnCli(['--node', 'worker-1', ...fast, '--timeout', '500ms'], {env, timeoutMs: 30_000});
		running.push(cli);
		await cli.waitForStdout(/"verdict":"PLEG is healthy"/, 20_000);
		const answered = pluginRuns(runsFile).length;
		fs.writeFileSync(hangFile, '');
		// Two stale lines: the first poll with the hung plugin, and the retry after the back-off.
		await cli.waitForStdout((stdout) => stdout.split('\n').filter((text) => text.includes('"stale":true')).length >= 2, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0);

		const lines = linesOf(cli);
		const stale = lines.filter((line) => line['stale'] === true);
		// The credential lapses as it is printed: every poll runs the plugin, so the first one after the switch hangs.
		const lastGood = lines.findLast((line) => line['stale'] !== true)!;
		assert.ok(lines.indexOf(lastGood) < lines.indexOf(stale[0]!));
		assert.equal(lastGood['verdict'], 'PLEG is healthy');
		for (const line of stale) {
			assert.equal(line['healthy'], null);
			assert.match(line['verdict'], /^verdict unknown: the last good scrape is \d+s old \(then: PLEG is healthy\)/);
			assert.equal(line['relist'].count, lastGood['relist'].count);
			assert.deepEqual(line['error'], {
				kind: 'timeout',
				summary: 'exec plugin "aws" (from kubeconfig user "eks-admin") did not answer within 500ms',
				details: [
					`command: ${plugin} eks get-token`,
					'pleg-top stopped it and runs it again at the next poll; it gets as long as --timeout, at most 30s',
					'a plugin that waits for a login (browser, MFA) needs one run by hand first, e.g. kubectl get --raw /version',
				],
			});
		}

		// Runs while it answered, then at least one per failed poll; none of the hung ones is left running.
		const pids = pluginRuns(runsFile);
		assert.ok(pids.length >= answered + 2, `plugin runs: ${answered} answered, ${pids.length - answered} hung`);
		for (const pid of pids) {
			for (let tries = 0; alive(pid) && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
			assert.equal(alive(pid), false, `plugin run ${pid} still running`);
		}
	});
});
