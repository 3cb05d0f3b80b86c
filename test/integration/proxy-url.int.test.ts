// A cluster behind a proxy-url: the built CLI reaches the fake API server through a loopback HTTP CONNECT proxy or a
// SOCKS5 one, with client-node's proxy agents.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import {after, before, describe, test} from 'node:test';
import {singleContext} from '../helpers/kubeconfig-files.js';
import {runCli} from '../helpers/run-cli.js';
import {closedPort, fast, startCluster, tokenUser, type Cluster} from './cluster.js';

type Proxy = {url: string; /** host:port of every tunnel asked for, in order. */ targets: string[]; close(): Promise<void>};

/** What both proxies share: the tunnels asked for, and every socket, so close() ends them all. */
function tunnels() {
	const targets: string[] = [];
	const sockets = new Set<net.Socket>();
	const track = (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
	};

	return {
		/** Connects to host:port, answers the client with `reply`, passes on what the client already sent, then pipes. */
		open(client: net.Socket, host: string, port: number, reply: string | Buffer, early: Buffer) {
			targets.push(`${host}:${port}`);
			track(client);
			const upstream = net.connect(port, host, () => {
				client.write(reply);
				upstream.write(early);
				upstream.pipe(client);
				client.pipe(upstream);
			});
			track(upstream);
		},
		async listen(server: net.Server, scheme: string): Promise<Proxy> {
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			const {port} = server.address() as net.AddressInfo;
			return {
				url: `${scheme}://127.0.0.1:${port}`,
				targets,
				async close() {
					for (const socket of sockets) socket.destroy();
					await new Promise<void>((resolve) => server.close(() => resolve()));
				},
			};
		},
	};
}

/** An HTTP proxy that only tunnels (CONNECT), as a corporate proxy in front of an API server does. */
async function startConnectProxy(): Promise<Proxy> {
	const proxy = tunnels();
	const server = http.createServer((_request, response) => {
		response.writeHead(405).end();
	});
	server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
		const target = new URL(`http://${request.url ?? ''}`);
		proxy.open(client, target.hostname, Number(target.port), 'HTTP/1.1 200 Connection Established\r\n\r\n', head);
	});
	return proxy.listen(server, 'http');
}

/** A SOCKS5 proxy (no auth, CONNECT only), as `ssh -D` gives one: reads the greeting, then the request, then pipes. */
async function startSocksProxy(): Promise<Proxy> {
	const proxy = tunnels();
	const server = net.createServer((client) => {
		let buffered = Buffer.alloc(0);
		let greeted = false;
		const onData = (chunk: Buffer) => {
			buffered = Buffer.concat([buffered, chunk]);
			if (!greeted) {
				// VER, NMETHODS, METHODS: answer "no authentication".
				if (buffered.length < 2 || buffered.length < 2 + buffered[1]!) return;
				buffered = buffered.subarray(2 + buffered[1]!);
				greeted = true;
				client.write(Buffer.from([5, 0]));
			}

			// VER, CMD (1 = CONNECT), RSV, ATYP (1 = IPv4, 3 = name), address, port.
			if (buffered.length < 5) return;
			const addressLength = buffered[3] === 1 ? 4 : buffered[3] === 3 ? 1 + buffered[4]! : 16;
			if (buffered.length < 4 + addressLength + 2) return;
			const host = buffered[3] === 1 ? [...buffered.subarray(4, 8)].join('.') : buffered.subarray(5, 4 + addressLength).toString();
			client.off('data', onData);
			const succeeded = Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
			proxy.open(client, host, buffered.readUInt16BE(4 + addressLength), succeeded, buffered.subarray(4 + addressLength + 2));
		};

		client.on('data', onData);
	});
	return proxy.listen(server, 'socks5');
}

describe('a kubeconfig with proxy-url', () => {
	let cluster: Cluster;
	let proxy: Proxy;

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
