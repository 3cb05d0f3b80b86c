import assert from 'node:assert/strict';
import path from 'node:path';
import {after, describe, test} from 'node:test';
import {loadKubeconfig, type KubeconfigOptions} from '../../../source/sources/kube/kubeconfig.js';
import {SourceFailure, exitCodeFor} from '../../../source/sources/failure.js';
import {kubeconfigYaml, makeTempDir, type KubeconfigSpec} from '../../helpers/kubeconfig-files.js';

const temp = makeTempDir();
after(() => temp.remove());

const home = path.join(temp.dir, 'home');

function options(extra: Partial<KubeconfigOptions>): KubeconfigOptions {
	return {env: {}, homeDir: home, ...extra};
}

function failureOf(run: () => unknown): SourceFailure['failure'] {
	try {
		run();
	} catch (error) {
		assert.ok(error instanceof SourceFailure, `expected SourceFailure, got ${String(error)}`);
		return error.failure;
	}

	assert.fail('expected a SourceFailure');
}

// Two files that both define context "shared", user "admin" and cluster "prod" differently.
const first: KubeconfigSpec = {
	clusters: [{name: 'prod', server: 'https://first.example:6443', caFile: 'certs/ca.crt'}],
	users: [{name: 'admin', token: 'first-token', certFile: 'certs/client.crt', keyFile: '/abs/client.key'}],
	contexts: [{name: 'shared', cluster: 'prod', user: 'admin'}],
};
const second: KubeconfigSpec = {
	clusters: [
		{name: 'prod', server: 'https://second.example:6443'},
		{name: 'staging', server: 'https://staging.example:6443'},
	],
	users: [
		{name: 'admin', token: 'second-token'},
		{name: 'dev', token: 'dev-token'},
	],
	contexts: [
		{name: 'shared', cluster: 'staging', user: 'dev'},
		{name: 'staging', cluster: 'staging', user: 'dev'},
	],
	currentContext: 'staging',
};
const firstFile = temp.write('a/first.yaml', kubeconfigYaml({...first, currentContext: 'shared'}));
const firstNoCurrent = temp.write('a/first-no-current.yaml', kubeconfigYaml(first));
const secondFile = temp.write('b/second.yaml', kubeconfigYaml(second));

describe('KUBECONFIG merge (kubectl rules)', () => {
	test('a repeated context, user and cluster name: the first file wins, the later entry is dropped whole', () => {
		const loaded = loadKubeconfig(options({env: {KUBECONFIG: `${firstFile}:${secondFile}`}}));
		assert.equal(loaded.contextName, 'shared');
		// "shared" comes from the first file: cluster prod, user admin (not staging/dev from the second).
		assert.equal(loaded.clusterName, 'prod');
		assert.equal(loaded.userName, 'admin');
		assert.equal(loaded.server, 'https://first.example:6443');
		assert.equal(loaded.kubeConfig.getUser('admin')?.token, 'first-token');
		assert.deepEqual(loaded.origins, {context: firstFile, cluster: firstFile, user: firstFile});
		// Names only the second file defines are still merged in.
		assert.equal(loaded.kubeConfig.getUser('dev')?.token, 'dev-token');
		assert.deepEqual(
			loaded.kubeConfig.getContexts().map((context) => context.name),
			['shared', 'staging'],
		);
	});

	test('current-context comes from the first file that sets it', () => {
		// The first file sets none, so the second file's "staging" is used.
		const loaded = loadKubeconfig(options({env: {KUBECONFIG: `${firstNoCurrent}:${secondFile}`}}));
		assert.equal(loaded.contextName, 'staging');
		assert.equal(loaded.server, 'https://staging.example:6443');
		assert.equal(loaded.origins.context, secondFile);
		// The first file sets "shared": it wins over the second file's "staging".
		assert.equal(loadKubeconfig(options({env: {KUBECONFIG: `${firstFile}:${secondFile}`}})).contextName, 'shared');
	});

	test('missing files and empty entries in KUBECONFIG are ignored, but listed as tried', () => {
		const missing = path.join(temp.dir, 'nope.yaml');
		const loaded = loadKubeconfig(options({env: {KUBECONFIG: `${missing}::${secondFile}:`}}));
		assert.equal(loaded.contextName, 'staging');
		assert.deepEqual(loaded.filesTried, [missing, secondFile]);
	});

	test('relative certificate paths resolve against the file that defined them', () => {
		const loaded = loadKubeconfig(options({env: {KUBECONFIG: `${firstFile}:${secondFile}`}}));
		assert.equal(loaded.kubeConfig.getCluster('prod')?.caFile, path.join(temp.dir, 'a', 'certs', 'ca.crt'));
		assert.equal(loaded.kubeConfig.getUser('admin')?.certFile, path.join(temp.dir, 'a', 'certs', 'client.crt'));
		assert.equal(loaded.kubeConfig.getUser('admin')?.keyFile, '/abs/client.key');
	});

	test('an exec command with a path separator resolves against its file; a bare name stays for PATH', () => {
		const file = temp.write(
			'c/exec.yaml',
			kubeconfigYaml({
				clusters: [{name: 'c', server: 'https://c.example'}],
				users: [
					{name: 'rel', exec: {command: './bin/get-token'}},
					{name: 'bare', exec: {command: 'aws', args: ['eks', 'get-token']}},
				],
				contexts: [{name: 'x', cluster: 'c', user: 'rel'}],
				currentContext: 'x',
			}),
		);
		const loaded = loadKubeconfig(options({kubeconfig: file}));
		assert.equal(loaded.kubeConfig.getUser('rel')?.exec.command, path.join(temp.dir, 'c', 'bin', 'get-token'));
		assert.equal(loaded.kubeConfig.getUser('bare')?.exec.command, 'aws');
		assert.deepEqual(loaded.kubeConfig.getUser('bare')?.exec.args, ['eks', 'get-token']);
	});

	test('--kubeconfig reads only that file, even when KUBECONFIG is set', () => {
		const loaded = loadKubeconfig(options({kubeconfig: secondFile, env: {KUBECONFIG: firstFile}}));
		assert.equal(loaded.contextName, 'staging');
		assert.deepEqual(loaded.filesTried, [secondFile]);
		assert.equal(loaded.kubeConfig.getUser('admin')?.token, 'second-token');
	});

	test('--context overrides current-context', () => {
		const loaded = loadKubeconfig(options({kubeconfig: secondFile, context: 'shared'}));
		assert.equal(loaded.contextName, 'shared');
		assert.equal(loaded.userName, 'dev');
		assert.equal(loaded.kubeConfig.getCurrentContext(), 'shared');
	});

	test('without --kubeconfig and KUBECONFIG, ~/.kube/config is read', () => {
		const homeFile = temp.write('home/.kube/config', kubeconfigYaml(second));
		const loaded = loadKubeconfig(options({env: {KUBECONFIG: ''}}));
		assert.equal(loaded.contextName, 'staging');
		assert.deepEqual(loaded.filesTried, [homeFile]);
	});
});

describe('kubeconfig errors', () => {
	test('a missing --kubeconfig file is an error naming it', () => {
		const missing = path.join(temp.dir, 'missing.yaml');
		const failure = failureOf(() => loadKubeconfig(options({kubeconfig: missing})));
		assert.equal(failure.kind, 'config');
		assert.equal(failure.summary, `cannot read kubeconfig ${missing}: the file does not exist`);
		assert.equal(exitCodeFor(failure.kind), 2);
	});

	test('an unknown --context lists the contexts that exist', () => {
		const failure = failureOf(() => loadKubeconfig(options({env: {KUBECONFIG: `${firstFile}:${secondFile}`}, context: 'prod-eu'})));
		assert.deepEqual(failure, {
			kind: 'config',
			summary: 'context "prod-eu" not found (from --context)',
			details: [`files read: ${firstFile}, ${secondFile}`, 'contexts that exist: shared, staging'],
		});
	});

	test('invalid YAML names the file', () => {
		const bad = temp.write('bad.yaml', 'clusters:\n  - name: x\n   cluster: [unclosed\n');
		const failure = failureOf(() => loadKubeconfig(options({env: {KUBECONFIG: `${secondFile}:${bad}`}})));
		assert.equal(failure.kind, 'config');
		assert.equal(failure.summary, `kubeconfig ${bad} is not valid YAML`);
		assert.equal(failure.details[0], `kubeconfig file: ${bad}`);
	});

	test('a YAML file that is not a mapping is rejected', () => {
		const list = temp.write('list.yaml', '- just\n- a list\n');
		const failure = failureOf(() => loadKubeconfig(options({kubeconfig: list})));
		assert.equal(failure.summary, `kubeconfig ${list} is not a kubeconfig (expected a mapping with clusters, users and contexts)`);
	});

	test('no config anywhere says which files were tried and how to point at one; never localhost:8080', () => {
		const emptyHome = path.join(temp.dir, 'empty-home');
		const failure = failureOf(() => loadKubeconfig({env: {}, homeDir: emptyHome}));
		assert.deepEqual(failure, {
			kind: 'config',
			summary: 'no kubeconfig found',
			details: [
				`files tried: ${path.join(emptyHome, '.kube', 'config')}`,
				'point pleg-top at a kubeconfig with --kubeconfig FILE or KUBECONFIG=FILE[:FILE...]',
				'in a pod, pleg-top uses its service account when KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are set and its token is mounted; it never falls back to http://localhost:8080',
			],
		});
	});

	test('KUBECONFIG naming only missing files is "no kubeconfig found" with both files', () => {
		const a = path.join(temp.dir, 'gone-1');
		const b = path.join(temp.dir, 'gone-2');
		const failure = failureOf(() => loadKubeconfig(options({env: {KUBECONFIG: `${a}:${b}`}})));
		assert.equal(failure.summary, 'no kubeconfig found');
		assert.equal(failure.details[0], `files tried: ${a}, ${b}`);
	});

	test('no current-context and no --context lists the contexts', () => {
		const failure = failureOf(() => loadKubeconfig(options({kubeconfig: firstNoCurrent})));
		assert.equal(failure.summary, 'no context chosen: current-context is not set and --context was not given');
		assert.deepEqual(failure.details.slice(1), [
			'contexts that exist: shared',
			'pick one with --context NAME (or kubectl config use-context NAME)',
		]);
	});

	test('a context whose cluster is not defined says so', () => {
		const file = temp.write(
			'dangling.yaml',
			kubeconfigYaml({users: [{name: 'u', token: 't0ken'}], contexts: [{name: 'x', cluster: 'ghost', user: 'u'}], currentContext: 'x'}),
		);
		const failure = failureOf(() => loadKubeconfig(options({kubeconfig: file})));
		assert.equal(failure.summary, `cluster "ghost" of context "x" in ${file} is not defined`);
		assert.equal(failure.details[1], 'clusters that exist: (none)');
	});

	test('a server that is not an http(s) URL is a config error', () => {
		const file = temp.write(
			'bad-server.yaml',
			kubeconfigYaml({
				clusters: [{name: 'c', server: 'ftp://x'}],
				users: [{name: 'u'}],
				contexts: [{name: 'x', cluster: 'c', user: 'u'}],
				currentContext: 'x',
			}),
		);
		const failure = failureOf(() => loadKubeconfig(options({kubeconfig: file})));
		assert.equal(failure.summary, `cluster "c" in ${file} has server "ftp://x", which is not an http(s) URL`);
	});
});

describe("in-cluster config (client-go's rule: only without a kubeconfig)", () => {
	const serviceAccountDir = path.join(temp.dir, 'serviceaccount');
	temp.write('serviceaccount/token', 'sa-token\n');
	temp.write('serviceaccount/ca.crt', 'not read here\n');
	const podEnv = {KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443'};
	const emptyHome = path.join(temp.dir, 'pod-home');

	test('no kubeconfig, the service variables set and the token mounted: the service account against the service address', () => {
		const loaded = loadKubeconfig({env: podEnv, homeDir: emptyHome, serviceAccountDir});
		assert.equal(loaded.inCluster, true);
		assert.equal(loaded.server, 'https://10.96.0.1:443');
		assert.deepEqual(loaded.filesTried, []);
		assert.equal(loaded.origins.user, `the service account mounted at ${serviceAccountDir}`);
		const cluster = loaded.kubeConfig.getCurrentCluster();
		assert.equal(cluster?.caFile, path.join(serviceAccountDir, 'ca.crt'));
		assert.equal(loaded.kubeConfig.getCurrentUser()?.authProvider?.config?.path, path.join(serviceAccountDir, 'token'));
	});

	test('an IPv6 service host is bracketed', () => {
		const loaded = loadKubeconfig({env: {...podEnv, KUBERNETES_SERVICE_HOST: 'fd00::1'}, homeDir: emptyHome, serviceAccountDir});
		assert.equal(loaded.server, 'https://[fd00::1]:443');
	});

	test('a kubeconfig that exists wins over the pod', () => {
		const loaded = loadKubeconfig({env: {...podEnv, KUBECONFIG: secondFile}, homeDir: emptyHome, serviceAccountDir});
		assert.equal(loaded.inCluster, false);
		assert.equal(loaded.server, 'https://staging.example:6443');
	});

	test('--kubeconfig or --context given, a variable missing, or no token: "no kubeconfig found", not the pod', () => {
		const missing = path.join(temp.dir, 'no-such-kubeconfig');
		assert.equal(failureOf(() => loadKubeconfig({env: podEnv, homeDir: emptyHome, serviceAccountDir, kubeconfig: missing})).kind, 'config');
		assert.equal(
			failureOf(() => loadKubeconfig({env: podEnv, homeDir: emptyHome, serviceAccountDir, context: 'prod'})).summary,
			'no kubeconfig found',
		);
		const onlyHost = {KUBERNETES_SERVICE_HOST: '10.96.0.1'};
		assert.equal(failureOf(() => loadKubeconfig({env: onlyHost, homeDir: emptyHome, serviceAccountDir})).summary, 'no kubeconfig found');
		const noToken = path.join(temp.dir, 'empty-serviceaccount');
		assert.equal(
			failureOf(() => loadKubeconfig({env: podEnv, homeDir: emptyHome, serviceAccountDir: noToken})).summary,
			'no kubeconfig found',
		);
	});
});
