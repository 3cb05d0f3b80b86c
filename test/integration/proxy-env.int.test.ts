// HTTPS_PROXY, https_proxy and NO_PROXY, as kubectl reads them when the kubeconfig has no proxy-url: the built CLI
// against the fake API server, through a loopback HTTP CONNECT proxy that counts what it tunnels. Go never proxies
// a loopback address, so the API server is named as a name only the proxy resolves, or as this machine's own
// non-loopback address (a forwarder to the fake API server listens there).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import {after, before, describe, test} from 'node:test';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {listen, pipe, startConnectProxy, type Listener, type TunnelProxy} from '../helpers/proxies.js';
import {runCli} from '../helpers/run-cli.js';
import {closedPort, fast, startCluster, tokenUser, type Cluster} from './cluster.js';

/** This machine's first non-loopback IPv4 address, or null (a sandbox without a network). */
function ownAddress(): string | null {
	const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
	return all.find((entry) => entry.family === 'IPv4' && !entry.internal)?.address ?? null;
}

/** A TCP forwarder on `host` to 127.0.0.1:`port`, counting connections. */
async function startForwarder(host: string, port: number): Promise<Listener & {readonly connections: number}> {
	let connections = 0;
	const server = net.createServer((client) => {
		connections++;
		const upstream = net.connect(port, '127.0.0.1');
		pipe(client, upstream);
	});
	const listener = await listen(server, host);
	return {
		...listener,
		get connections() {
			return connections;
		},
	};
}

// A reserved name (RFC 2606 .test) that no resolver answers: only the proxy reaches it.
const proxiedName = 'kube-api.pleg-top.test';
const once = ['--node', 'worker-1', '--once', ...fast];

describe('the proxy from the environment', () => {
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

	/** A kubeconfig for the fake API server as `host`:`port`, its certificate checked as localhost's. */
	const envAt = (file: string, host: string, port: number) =>
		cluster.envFor(file, singleContext(`https://${host}:${port}`, tokenUser, {tlsServerName: 'localhost'}));

	test('HTTPS_PROXY: every request tunnels through it, with its credentials; --once names it without them; exit 0', async () => {
		const env = envAt('named.yaml', proxiedName, cluster.fake.port);
		const seen = proxy.targets.length;
		const url = `http://squid-user:proxy-secret-71c3@127.0.0.1:${proxy.port}`;
		const result = await runCli(once, {env: {...env, HTTPS_PROXY: url, NO_PROXY: 'other.example,10.0.0.0/8'}});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		assert.match(result.stdout, new RegExp(`^via +proxy http://127\\.0\\.0\\.1:${proxy.port} from HTTPS_PROXY$`, 'm'));
		assert.ok(!result.stdout.includes('proxy-secret-71c3') && !result.stdout.includes('squid-user'), result.stdout);
		const targets = proxy.targets.slice(seen);
		assert.ok(targets.length > 0, 'no request went through the proxy');
		assert.deepEqual(new Set(targets), new Set([`${proxiedName}:${cluster.fake.port}`]));
		const basic = `Basic ${Buffer.from('squid-user:proxy-secret-71c3').toString('base64')}`;
		assert.deepEqual(new Set(proxy.authorizations.slice(seen)), new Set([basic]));
	});

	test('https_proxy when HTTPS_PROXY is empty; HTTP_PROXY is not for an https:// server', async () => {
		const env = envAt('lower.yaml', proxiedName, cluster.fake.port);
		const seen = proxy.targets.length;
		const port = await closedPort();
		const result = await runCli(['-o', 'json', ...once], {
			env: {...env, HTTPS_PROXY: '', https_proxy: `127.0.0.1:${proxy.port}`, HTTP_PROXY: `http://127.0.0.1:${port}`},
		});
		assert.equal(result.code, 0, result.stderr);
		assert.ok(proxy.targets.length > seen, 'no request went through the proxy');
	});

	describe('a dead proxy, the server at a non-loopback address', () => {
		const address = ownAddress();
		let forwarder: Awaited<ReturnType<typeof startForwarder>> | undefined;
		before(async () => {
			if (address !== null) forwarder = await startForwarder(address, cluster.fake.port);
		});
		after(async () => forwarder?.close());

		test('fails as kubectl does, naming the proxy and the variable, never its password; exit 3', async (t) => {
			if (address === null || forwarder === undefined) return t.skip('no non-loopback IPv4 address on this machine');
			const dead = await closedPort();
			const env = envAt('dead.yaml', address, forwarder.port);
			const result = await runCli(once, {env: {...env, HTTPS_PROXY: `http://u:dead-secret-9a@127.0.0.1:${dead}`}});
			assert.equal(result.code, 3, result.stdout);
			assert.match(result.stderr, /connection refused/);
			assert.ok(
				result.stderr.includes(`through proxy http://127.0.0.1:${dead} from HTTPS_PROXY: the error may be the proxy's`),
				result.stderr,
			);
			assert.ok(!result.stderr.includes('dead-secret-9a'), result.stderr);
			assert.equal(forwarder.connections, 0, 'pleg-top went around the proxy');
		});

		test('NO_PROXY (a CIDR) or no_proxy (the address and port) reaches the server directly; exit 0', async (t) => {
			if (address === null || forwarder === undefined) return t.skip('no non-loopback IPv4 address on this machine');
			const dead = await closedPort();
			const env = envAt('direct.yaml', address, forwarder.port);
			const before = forwarder.connections;
			const cidr = `${address.split('.').slice(0, 3).join('.')}.0/24`;
			const byCidr = await runCli(once, {env: {...env, HTTPS_PROXY: `127.0.0.1:${dead}`, NO_PROXY: `example.com, ${cidr}`}});
			assert.equal(byCidr.code, 0, byCidr.stderr);
			assert.doesNotMatch(byCidr.stdout, /^via /m);
			const byHost = await runCli(once, {env: {...env, https_proxy: `127.0.0.1:${dead}`, no_proxy: `${address}:${forwarder.port}`}});
			assert.equal(byHost.code, 0, byHost.stderr);
			assert.ok(forwarder.connections > before);
		});
	});

	test('a loopback server is never proxied, as in Go: a dead HTTPS_PROXY does not matter', async () => {
		const dead = await closedPort();
		const result = await runCli(once, {env: {...cluster.env, HTTPS_PROXY: `http://127.0.0.1:${dead}`}});
		assert.equal(result.code, 0, result.stderr);
	});

	test('a silent proxy: one request, one --timeout, then exit 3 naming the proxy (not a second try of as long)', async () => {
		let connections = 0;
		// Accepts the connection and never answers the CONNECT.
		const silent = await listen(
			net.createServer(() => connections++),
			'127.0.0.1',
		);
		try {
			const env = envAt('silent.yaml', proxiedName, cluster.fake.port);
			// 3 s: long enough that even a loaded machine has connected to the proxy before the deadline.
			const result = await runCli([...once, '--timeout', '3s'], {env: {...env, HTTPS_PROXY: `http://127.0.0.1:${silent.port}`}});
			assert.equal(result.code, 3);
			assert.match(result.stderr, /^pleg-top: no answer from https:\/\/kube-api\.pleg-top\.test:\d+ within 3s$/m);
			assert.ok(result.stderr.includes(`through proxy http://127.0.0.1:${silent.port} from HTTPS_PROXY`), result.stderr);
			assert.equal(connections, 1);
		} finally {
			await silent.close();
		}
	});

	test('a proxy that wants credentials (407): said in words, naming the proxy; exit 3', async () => {
		const server = http.createServer((_request, response) => response.writeHead(405).end());
		server.on('connect', (_request: http.IncomingMessage, client: net.Socket) => {
			client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n');
		});
		const wants = await listen(server, '127.0.0.1');
		try {
			const env = envAt('407.yaml', proxiedName, cluster.fake.port);
			const result = await runCli(once, {env: {...env, HTTPS_PROXY: `http://127.0.0.1:${wants.port}`}});
			assert.equal(result.code, 3);
			assert.match(
				result.stderr,
				/cannot reach https:\/\/kube-api\.pleg-top\.test:\d+: the proxy answered 407 Proxy Authentication Required to CONNECT: the proxy wants credentials/,
			);
			assert.ok(result.stderr.includes(`through proxy http://127.0.0.1:${wants.port} from HTTPS_PROXY`), result.stderr);
		} finally {
			await wants.close();
		}
	});

	test('a proxy value of a scheme no proxy speaks: a config error naming the variable; exit 2', async () => {
		const env = envAt('ftp.yaml', proxiedName, cluster.fake.port);
		const result = await runCli(once, {env: {...env, HTTPS_PROXY: 'ftp://user:ftp-secret@proxy.corp:21'}});
		assert.equal(result.code, 2);
		assert.match(result.stderr, /HTTPS_PROXY cannot be used as a proxy: its scheme ftp is not http, https or socks5/);
		assert.ok(!result.stderr.includes('ftp-secret'), result.stderr);
	});
});
