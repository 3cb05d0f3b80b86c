// A cluster behind a proxy-url: the built CLI reaches the fake API server through a loopback HTTP CONNECT proxy or a
// SOCKS5 one, with client-node's proxy agents.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {startConnectProxy, startSocksProxy, type TunnelProxy} from '../helpers/proxies.js';
import {runCli} from '../helpers/run-cli.js';
import {closedPort, fast, startCluster, tokenUser, type Cluster} from './cluster.js';

describe('a kubeconfig with proxy-url', () => {
	let cluster: Cluster;
	let proxy: TunnelProxy;

	before(async () => {
		cluster = await startCluster();
		proxy = await startConnectProxy();
	});

	after(async () => {
		await proxy.close();
		await cluster.close();
	});

	test('--once reaches the node through the proxy: every request tunnels to the API server, exit 0', async () => {
		const env = cluster.envFor('proxied.yaml', singleContext(cluster.fake.url, tokenUser, {proxyUrl: proxy.url}));
		const before = cluster.fake.requests.length;
		const result = await runCli(['--node', 'worker-1', '--once', '--output', 'json', ...fast], {env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		assert.equal((JSON.parse(result.stdout) as {kubeletVersion: string}).kubeletVersion, 'v1.21.2');
		const apiServer = new URL(cluster.fake.url).host;
		assert.ok(proxy.targets.length > 0, 'no request went through the proxy');
		assert.deepEqual(new Set(proxy.targets), new Set([apiServer]));
		// The API server answered the node's metrics, so the tunnel carried the requests to it.
		const metrics = cluster.fake.requests.slice(before).filter((request) => request.path === '/api/v1/nodes/worker-1/proxy/metrics');
		assert.ok(metrics.length >= 2, `${metrics.length} metrics requests`);
	});

	test('a proxy that refuses: the failure names the proxy-url, without the password it carries; exit 3', async () => {
		const port = await closedPort();
		const proxyUrl = `http://squid-user:proxy-secret-4f1e@127.0.0.1:${port}`;
		const env = cluster.envFor('refused.yaml', singleContext(cluster.fake.url, tokenUser, {proxyUrl}));
		const result = await runCli(['--node', 'worker-1', '--once', ...fast], {env});
		assert.equal(result.code, 3);
		assert.match(result.stderr, new RegExp(`cannot reach ${cluster.fake.url.replaceAll('.', '\\.')}: connection refused`));
		assert.ok(
			result.stderr.includes(
				`through proxy-url http://127.0.0.1:${port} of cluster "fake" in ${env.KUBECONFIG}: the error may be the proxy's`,
			),
			result.stderr,
		);
		assert.ok(!result.stderr.includes('proxy-secret-4f1e') && !result.stderr.includes('squid-user'), result.stderr);
	});

	test('a SOCKS5 proxy-url (as ssh -D gives): --once reaches the node through it, exit 0', async () => {
		const socks = await startSocksProxy();
		try {
			const env = cluster.envFor('socks.yaml', singleContext(cluster.fake.url, tokenUser, {proxyUrl: socks.url}));
			const result = await runCli(['--node', 'worker-1', '--once', '--output', 'json', ...fast], {env});
			assert.equal(result.stderr, '');
			assert.equal(result.code, 0);
			assert.equal((JSON.parse(result.stdout) as {kubeletVersion: string}).kubeletVersion, 'v1.21.2');
			assert.ok(socks.targets.length > 0, 'no request went through the SOCKS proxy');
			assert.deepEqual(new Set(socks.targets), new Set([new URL(cluster.fake.url).host]));
		} finally {
			await socks.close();
		}
	});
});
