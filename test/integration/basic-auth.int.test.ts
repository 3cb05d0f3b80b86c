// A kubeconfig user with a user name and password (basic auth) that the API server rejects: the failure says the
// server rejected them, not that the user has no credentials; the password is never shown.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {runCli} from '../helpers/run-cli.js';
import {fast, startCluster, type Cluster} from './cluster.js';

let cluster: Cluster;

before(async () => {
	cluster = await startCluster();
});

after(async () => {
	await cluster.close();
});

test('a wrong basic-auth password: "rejected", naming the user name and password of the user; exit 3', async () => {
	const user = {name: 'basic-user', username: 'admin', password: 'wrong-password-3e8f'};
	const env = cluster.envFor('basic.yaml', singleContext(cluster.fake.url, user));
	const result = await runCli(['--node', 'worker-1', '--once', ...fast], {env});
	assert.equal(result.code, 3);
	assert.match(
		result.stderr,
		/^pleg-top: https:\/\/127\.0\.0\.1:\d+ rejected the credentials of context "fake-ctx" \(user "basic-user"\)$/m,
	);
	assert.ok(
		result.stderr.includes(
			`the user name and password (users[].user.username and password of user "basic-user" in ${env.KUBECONFIG}) were rejected`,
		),
		result.stderr,
	);
	assert.doesNotMatch(result.stderr, /has no credentials/);
	// The request carried them: the server saw basic auth.
	assert.ok(cluster.fake.requests.some((request) => request.headers.authorization?.startsWith('Basic ')));
	assert.ok(!result.stderr.includes('wrong-password-3e8f'), result.stderr);
});
