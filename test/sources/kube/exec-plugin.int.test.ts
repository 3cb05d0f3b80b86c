// The bounded exec credential plugin runner and its cache rule (exec-plugin.ts), with real plugin processes.
import assert from 'node:assert/strict';
import path from 'node:path';
import {after, describe, test} from 'node:test';
import {
	credentialGoodUntil,
	execSpecOf,
	execTimeoutFor,
	ExecPluginTimeoutError,
	runExecPlugin,
	type ExecSpec,
} from '../../../source/sources/kube/exec-plugin.js';
import {
	makeTempDir,
	pluginRuns,
	processGone,
	writeExecPlugin,
	writeGarbagePlugin,
	writeHangingPlugin,
} from '../../helpers/kubeconfig-files.js';

const temp = makeTempDir();
after(() => temp.remove());

const spec = (command: string): ExecSpec => ({command, args: [], env: [], apiVersion: 'client.authentication.k8s.io/v1'});

describe('how long a plugin credential is used', () => {
	const fetchedAt = Date.parse('2026-12-04T15:00:00Z');

	test('until 30 s before its expirationTimestamp', () => {
		// 15:15:00 less 30 s = 15:14:30.
		assert.equal(credentialGoodUntil({expirationTimestamp: '2026-12-04T15:15:00Z'}, fetchedAt), Date.parse('2026-12-04T15:14:30Z'));
	});

	test('one that lapses within the margin (or has lapsed) is used for this request only', () => {
		assert.equal(credentialGoodUntil({expirationTimestamp: '2026-12-04T15:00:20Z'}, fetchedAt), fetchedAt);
		assert.equal(credentialGoodUntil({expirationTimestamp: '2026-12-04T14:00:00Z'}, fetchedAt), fetchedAt);
	});

	test("without an expiry (or with one that is not a time): kubectl's rule, until a 401", () => {
		assert.equal(credentialGoodUntil({token: 'x'}, fetchedAt), Number.POSITIVE_INFINITY);
		assert.equal(credentialGoodUntil({expirationTimestamp: 'tomorrow'}, fetchedAt), Number.POSITIVE_INFINITY);
	});
});

describe('the bound on one plugin run', () => {
	test('the request timeout, at most 30 s', () => {
		assert.equal(execTimeoutFor(10_000), 10_000);
		assert.equal(execTimeoutFor(30_000), 30_000);
		assert.equal(execTimeoutFor(120_000), 30_000);
	});

	test('a plugin that hangs (and ignores SIGTERM) is killed and the run fails with the bound', async () => {
		const runsFile = path.join(temp.dir, 'hang-runs');
		const plugin = writeHangingPlugin(temp, 'hang', {runsFile});
		const error = await runExecPlugin(spec(plugin), 1000).then(
			() => assert.fail('a hanging plugin must not answer'),
			(error: unknown) => error,
		);
		assert.ok(error instanceof ExecPluginTimeoutError);
		assert.equal(error.timeoutMs, 1000);
		const [pid] = pluginRuns(runsFile);
		assert.ok(pid !== undefined, 'the plugin ran');
		await processGone(pid);
	});
});

describe('one plugin run', () => {
	test("its ExecCredential's status, with KUBERNETES_EXEC_INFO and the spec's env passed in", async () => {
		const plugin = writeExecPlugin(temp, 'ok', {token: 'plugin-token-1234', expirationTimestamp: '2999-01-01T00:00:00Z'});
		const status = await runExecPlugin(spec(plugin), 5000);
		assert.deepEqual(status, {token: 'plugin-token-1234', expirationTimestamp: '2999-01-01T00:00:00Z'});

		const echo = temp.write(
			'echo-env',
			`#!${process.execPath}\nconst info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);\nprocess.stdout.write(JSON.stringify({status: {token: info.spec.interactive + ':' + process.env.PLUGIN_REGION}}));\n`,
			0o755,
		);
		const withEnv = {...spec(echo), env: [{name: 'PLUGIN_REGION', value: 'eu-west-1'}]};
		assert.deepEqual(await runExecPlugin(withEnv, 5000), {token: 'false:eu-west-1'});
	});

	test('stdout that is not an ExecCredential is a SyntaxError/TypeError (its text is never in the message)', async () => {
		const garbage = writeGarbagePlugin(temp, 'garbage', 'secret-token-not-json');
		const error = await runExecPlugin(spec(garbage), 5000).catch((error: unknown) => error);
		assert.ok(error instanceof SyntaxError);
		const noStatus = writeGarbagePlugin(temp, 'no-status', '{"kind":"ExecCredential"}');
		assert.ok((await runExecPlugin(spec(noStatus), 5000).catch((error: unknown) => error)) instanceof TypeError);
	});

	test('a plugin printing without end is stopped after 1 MiB', async () => {
		const endless = temp.write('endless', '#!/bin/sh\nexec yes pleg-top\n', 0o755);
		const error = await runExecPlugin(spec(endless), 20_000).catch((error: unknown) => error);
		assert.ok(error instanceof TypeError);
		assert.equal(error.message, 'the plugin printed more than 1 MiB');
	});
});

describe('the exec spec of a kubeconfig user', () => {
	test('command, args, env and apiVersion; none without a command', () => {
		assert.deepEqual(
			execSpecOf({command: 'aws', args: ['eks', 'get-token'], env: [{name: 'AWS_PROFILE', value: 'dev'}, {value: 'no name'}]}),
			{
				command: 'aws',
				args: ['eks', 'get-token'],
				env: [{name: 'AWS_PROFILE', value: 'dev'}],
				apiVersion: 'client.authentication.k8s.io/v1',
			},
		);
		assert.equal(execSpecOf({args: []}), null);
		assert.equal(execSpecOf(undefined), null);
	});
});
