// A hung credential plugin, end to end: the built CLI with a kubeconfig exec plugin that answers once and then hangs.
// The hung plugin must not stop polling silently: it is killed after --timeout, each poll fails in the user's terms,
// the figures go stale and the verdict is unknown, never a false "not healthy" from ageing data.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, describe, test} from 'node:test';
import {pluginRuns, processGone, singleContext, writeHangingPlugin} from '../helpers/kubeconfig-files.js';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput} from '../helpers/run-cli.js';
import {clusterPerFile, jsonLinesOf} from './cluster-per-file.js';
import {fast, testToken, v121After} from './cluster.js';

const files = clusterPerFile();

after(() => {
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

describe('an exec plugin that hangs after its first answer', () => {
	test('JSON lines: stale lines naming the plugin, verdict unknown, the plugin killed and run again at each poll', async () => {
		const {cluster} = files;
		let calls = 0;
		cluster.fake.setMetrics('worker-1', () => v121After(++calls));
		const runsFile = path.join(cluster.temp.dir, 'plugin-runs');
		const hangFile = path.join(cluster.temp.dir, 'hang-now');
		const plugin = writeHangingPlugin(cluster.temp, 'bin/aws', {runsFile, token: testToken, hangFile});
		const env = cluster.envFor(
			'hanging.yaml',
			singleContext(cluster.fake.url, {name: 'eks-admin', exec: {command: plugin, args: ['eks', 'get-token']}}),
		);
		const cli = files.spawn(['--node', 'worker-1', ...fast, '--timeout', '500ms'], env);
		await cli.waitForStdout(/"verdict":"PLEG is healthy"/, 20_000);
		const answered = pluginRuns(runsFile).length;
		fs.writeFileSync(hangFile, '');
		// Two stale lines: the first poll with the hung plugin, and the retry after the back-off.
		await cli.waitForStdout((stdout) => stdout.split('\n').filter((text) => text.includes('"stale":true')).length >= 2, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0);

		const lines = jsonLinesOf(cli);
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
					'killed; it runs again at the next poll (it gets --timeout, at most 30s)',
					'if it waits for a login (browser, MFA), first run: kubectl get --raw /version',
				],
			});
		}

		// Runs while it answered, then at least one per failed poll; none of the hung ones is left running.
		const pids = pluginRuns(runsFile);
		assert.ok(pids.length >= answered + 2, `plugin runs: ${answered} answered, ${pids.length - answered} hung`);
		for (const pid of pids) {
			await processGone(pid);
		}
	});
});
