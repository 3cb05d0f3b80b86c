// Credentials and TLS trust of the API-server source against the fake API server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {startFakeApiServer, testTls, type FakeApiServer} from '../helpers/fake-api-server.js';
import {
	makeTempDir,
	pluginRuns,
	singleContext,
	writeExecPlugin,
	writeFailingPlugin,
	writeGarbagePlugin,
	writeHangingPlugin,
} from '../helpers/kubeconfig-files.js';
import {assertNoSecrets, makeHarness} from './api-server-helpers.js';

const token = 'pleg-top-test-token-7d1e9b42c0';
const otherToken = 'pleg-top-rotated-token-51aa0f';
const pluginToken = 'pleg-top-plugin-token-e83c55d1';
const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXRlc3Q';
const metricsText = '# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.714557600e+09\n';

const temp = makeTempDir();
const harness = makeHarness(temp);
let fake: FakeApiServer;
let wrongHost: FakeApiServer;

before(async () => {
	const nodes = [{name: 'worker-1', metrics: () => metricsText}];
	fake = await startFakeApiServer({nodes, tokens: {[token]: 'alice', [otherToken]: 'bob', [pluginToken]: 'sso-user'}});
	wrongHost = await startFakeApiServer({nodes, tokens: {[token]: 'alice'}, cert: testTls.wrongHostCert, key: testTls.wrongHostKey});
	// Certificates next to the kubeconfigs, referred to by relative paths.
	for (const name of ['ca.crt', 'client.crt', 'client.key', 'other-ca.crt']) {
		fs.copyFileSync(path.join(testTls.dir, name), path.join(temp.dir, name));
	}
});

after(async () => {
	harness.closeAll();
	await fake.close();
	await wrongHost.close();
	temp.remove();
});

const lastUser = () => fake.requests.at(-1)?.user;

describe('credentials', () => {
	test('bearer token', async () => {
		const {source} = harness.source(singleContext(fake.url, {name: 'token-user', token}));
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		assert.equal(lastUser(), 'alice');
		assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${token}`);
	});

	test('client certificate and key by data', async () => {
		const {source} = harness.source(singleContext(fake.url, {name: 'cert-user', certData: testTls.clientCert, keyData: testTls.clientKey}));
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		// The fake server names a client-cert user by the certificate's CN.
		assert.equal(lastUser(), 'pleg-top-test');
		assert.equal(fake.requests.at(-1)?.headers.authorization, undefined);
	});

	test('client certificate and key by relative file paths, CA by relative file path', async () => {
		const spec = singleContext(
			fake.url,
			{name: 'cert-files', certFile: 'client.crt', keyFile: 'client.key'},
			{caFile: 'ca.crt', caData: undefined},
		);
		const {source} = harness.source(spec);
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		assert.equal(lastUser(), 'pleg-top-test');
	});

	test('tokenFile is read trimmed and re-read, so a rotated token is used', async () => {
		const tokenFile = temp.write('token', `${token}\n`);
		const {source} = harness.source(singleContext(fake.url, {name: 'file-user', tokenFile: 'token'}), {credentialTtlMs: 0});
		await source.fetchMetrics(new AbortController().signal);
		assert.equal(lastUser(), 'alice');
		fs.writeFileSync(tokenFile, `${otherToken}\n`);
		await source.fetchMetrics(new AbortController().signal);
		assert.equal(lastUser(), 'bob');
	});

	test('exec plugin (client.authentication.k8s.io/v1): its token is used and cached until expiry', async () => {
		const countFile = path.join(temp.dir, 'plugin-runs');
		writeExecPlugin(temp, 'bin/get-token', {token: pluginToken, expirationTimestamp: '2999-01-01T00:00:00Z', countFile});
		const {source} = harness.source(singleContext(fake.url, {name: 'sso', exec: {command: './bin/get-token'}}), {credentialTtlMs: 0});
		const signal = new AbortController().signal;
		await source.fetchMetrics(signal);
		await source.fetchMetrics(signal);
		await source.fetchNode(signal);
		assert.equal(lastUser(), 'sso-user');
		// Three requests, one plugin run: the credential is valid until 2999.
		assert.equal(fs.readFileSync(countFile, 'utf8'), 'run\n');
	});

	/** How many times a plugin printing `expirationTimestamp` ran for `requests` metrics reads (auth cache TTL 0). */
	async function runsFor(name: string, expirationTimestamp: string | undefined, requests: number): Promise<number> {
		const countFile = path.join(temp.dir, `${name}-runs`);
		const plugin = writeExecPlugin(temp, name, {token: pluginToken, expirationTimestamp, countFile});
		const {source} = harness.source(singleContext(fake.url, {name: 'sso', exec: {command: plugin}}), {credentialTtlMs: 0});
		for (let request = 0; request < requests; request++) await source.fetchMetrics(new AbortController().signal);
		assert.equal(lastUser(), 'sso-user');
		return fs.readFileSync(countFile, 'utf8').split('\n').length - 1;
	}

	test("exec plugin without an expirationTimestamp: kubectl's rule, one run for the life of the source", async () => {
		assert.equal(await runsFor('no-expiry', undefined, 3), 1);
	});

	test('exec plugin whose credential lapses within 30 s: asked again for the next request', async () => {
		assert.equal(await runsFor('short-lived', new Date(Date.now() + 20_000).toISOString(), 2), 2);
	});

	test('an exec plugin that hangs: killed after the request timeout, a timeout failure naming it, run again next time', async () => {
		const runsFile = path.join(temp.dir, 'hang-source-runs');
		const plugin = writeHangingPlugin(temp, 'bin/aws', {runsFile});
		const {source} = harness.source(singleContext(fake.url, {name: 'eks-admin', exec: {command: plugin, args: ['eks', 'get-token']}}), {
			timeoutMs: 1000,
		});
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'timeout',
			summary: 'exec plugin "aws" (from kubeconfig user "eks-admin") did not answer within 1s',
			details: [
				`command: ${plugin} eks get-token`,
				'killed; it runs again at the next poll (it gets --timeout, at most 30s)',
				'if it waits for a login (browser, MFA), first run: kubectl get --raw /version',
			],
		});
		await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.equal(pluginRuns(runsFile).length, 2);
	});

	test('exec plugin (client.authentication.k8s.io/v1beta1)', async () => {
		const plugin = writeExecPlugin(temp, 'beta-plugin', {token: pluginToken, apiVersion: 'client.authentication.k8s.io/v1beta1'});
		const {source} = harness.source(
			singleContext(fake.url, {name: 'beta', exec: {command: plugin, apiVersion: 'client.authentication.k8s.io/v1beta1'}}),
		);
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		assert.equal(lastUser(), 'sso-user');
	});

	test('exec plugin that returns a client certificate and key', async () => {
		const plugin = writeExecPlugin(temp, 'cert-plugin', {clientCertificate: {cert: testTls.clientCert, key: testTls.clientKey}});
		const {source} = harness.source(singleContext(fake.url, {name: 'cert-sso', exec: {command: plugin}}));
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		assert.equal(lastUser(), 'pleg-top-test');
		assert.equal(fake.requests.at(-1)?.headers.authorization, undefined);
	});

	test('a failing exec plugin: its stderr verbatim, credentials redacted', async () => {
		const stderr = `error: the SSO session has expired\nold token was ${jwt}\nrun "example-sso login" and try again\n`;
		const plugin = writeFailingPlugin(temp, 'failing-plugin', stderr);
		const {source} = harness.source(singleContext(fake.url, {name: 'sso', exec: {command: plugin, args: ['--cluster', 'prod']}}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'unauthorized',
			summary: 'the credential plugin of user "sso" (context "fake-ctx") failed',
			details: [
				`command: ${plugin} --cluster prod`,
				'its stderr:',
				'error: the SSO session has expired',
				'old token was [redacted]',
				'run "example-sso login" and try again',
			],
		});
	});

	test('an exec plugin that prints a bare token instead of an ExecCredential: the output is not shown', async () => {
		const plugin = writeGarbagePlugin(temp, 'garbage-plugin', pluginToken);
		const {source} = harness.source(singleContext(fake.url, {name: 'sso', exec: {command: plugin}}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'unauthorized',
			summary: 'the credential plugin of user "sso" (context "fake-ctx") did not print an ExecCredential',
			details: [`command: ${plugin}`, 'its output (not shown: it may hold a credential) is not ExecCredential JSON with a status'],
		});
	});

	test('an exec plugin that is not installed: config error with the installHint', async () => {
		const {source, file} = harness.source(
			singleContext(fake.url, {
				name: 'sso',
				exec: {command: 'pleg-top-no-such-plugin', installHint: 'install it with: brew install example-sso'},
			}),
		);
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'config',
			summary: 'the credential plugin of user "sso" (context "fake-ctx") could not be started: pleg-top-no-such-plugin not found',
			details: ['command: pleg-top-no-such-plugin', `users[].user.exec.command in ${file}`, 'install it with: brew install example-sso'],
		});
	});

	test('a token from an exec plugin that the server rejects: plugin asked again once, then unauthorized', async () => {
		const countFile = path.join(temp.dir, 'rejected-runs');
		const plugin = writeExecPlugin(temp, 'stale-plugin', {token: 'stale-plugin-token-0000', countFile});
		const {source, file} = harness.source(singleContext(fake.url, {name: 'sso', exec: {command: plugin}}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'unauthorized',
			summary: `${fake.url} rejected the credentials of context "fake-ctx" (user "sso")`,
			details: [
				'API server: Unauthorized',
				`the token from the credential plugin (users[].user.exec of user "sso" in ${file}) was rejected`,
				'check: kubectl --context fake-ctx auth whoami',
			],
		});
		// First run, then one more after the 401 (kubectl drops a rejected credential and asks again).
		assert.equal(fs.readFileSync(countFile, 'utf8'), 'run\nrun\n');
	});

	test('a missing tokenFile is a config error naming the setting', async () => {
		const {source, file} = harness.source(singleContext(fake.url, {name: 'file-user', tokenFile: 'secrets/gone'}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'config',
			summary: `cannot read ${path.join(temp.dir, 'secrets', 'gone')}: no such file`,
			details: [`it is the tokenFile of user "file-user" in ${file}`],
		});
	});

	test('a missing certificate-authority file is a config error naming the setting', async () => {
		const spec = singleContext(fake.url, {name: 'token-user', token}, {caFile: 'nope/ca.crt', caData: undefined});
		const {source, file} = harness.source(spec);
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'config',
			summary: `cannot read ${path.join(temp.dir, 'nope', 'ca.crt')}: no such file`,
			details: [`it is the certificate-authority of cluster "fake" in ${file}`],
		});
	});
});

describe('TLS trust', () => {
	test('insecure-skip-tls-verify: true connects without a CA, and the label and the start-up note say so', async () => {
		const {source, file} = harness.source(singleContext(fake.url, {name: 'token-user', token}, {caData: undefined, insecure: true}));
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
		assert.equal(source.label, `worker-1 via ${fake.url} (TLS NOT VERIFIED)`);
		assert.deepEqual(source.notes, [
			`TLS not verified: insecure-skip-tls-verify of cluster "fake" in ${file} accepts any certificate from ${fake.url}`,
		]);
	});

	test('a server not signed by the configured CA (data): tls, naming the setting', async () => {
		const {source, file} = harness.source(singleContext(fake.url, {name: 'token-user', token}, {caData: testTls.otherCaCert}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'tls',
			summary: `the certificate of ${fake.url} is not trusted: it is not signed by the configured CA`,
			details: [
				`trust comes from certificate-authority-data of cluster "fake" in ${file}`,
				// The fake server sends its CA along with its certificate, as many API servers do.
				'TLS: SELF_SIGNED_CERT_IN_CHAIN',
				"pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig",
			],
		});
	});

	test('a server not signed by the configured CA (file)', async () => {
		const {source, file} = harness.source(
			singleContext(fake.url, {name: 'token-user', token}, {caData: undefined, caFile: 'other-ca.crt'}),
		);
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.equal(failure.kind, 'tls');
		assert.equal(
			failure.details[0],
			`trust comes from certificate-authority ${path.join(temp.dir, 'other-ca.crt')} of cluster "fake" in ${file}`,
		);
	});

	test('no CA configured: the system CAs decide, and the message says so', async () => {
		const {source, file} = harness.source(singleContext(fake.url, {name: 'token-user', token}, {caData: undefined}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.equal(failure.summary, `the certificate of ${fake.url} is not trusted: it is not signed by the configured CA`);
		assert.equal(
			failure.details[0],
			`trust comes from the system's trusted CAs (cluster "fake" in ${file} sets neither certificate-authority nor certificate-authority-data)`,
		);
	});

	test('a certificate for another host name: tls, with the names it lists', async () => {
		const {source, file} = harness.source(singleContext(wrongHost.url, {name: 'token-user', token}));
		const failure = await harness.failure(source.fetchMetrics(new AbortController().signal));
		assert.deepEqual(failure, {
			kind: 'tls',
			summary: `the certificate of ${wrongHost.url} is not valid for host 127.0.0.1`,
			details: [
				"TLS: IP: 127.0.0.1 is not in the cert's list: ",
				`the host comes from clusters[].cluster.server of cluster "fake" in ${file}: use a name the certificate lists, or set tls-server-name`,
				"pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig",
			],
		});
	});

	test('tls-server-name makes the same certificate acceptable', async () => {
		const {source} = harness.source(singleContext(wrongHost.url, {name: 'token-user', token}, {tlsServerName: 'wrong.example'}));
		assert.equal(await source.fetchMetrics(new AbortController().signal), metricsText);
	});
});

test('no token, plugin token or JWT appears in any failure message', () => {
	assertNoSecrets(harness.failures, [token, otherToken, pluginToken, jwt, 'stale-plugin-token-0000', testTls.clientKey.split('\n')[1]!]);
});
