// Loopback proxies for the CLI tests: an HTTP proxy that only tunnels (CONNECT), as a corporate proxy in front of an
// API server does, and a SOCKS5 one, as `ssh -D` gives. Both resolve every name to 127.0.0.1, as a proxy resolves
// names for its clients (so a name only "the proxy" knows reaches the fake API server), and record what they tunnel.
import http from 'node:http';
import net from 'node:net';

export type Listener = {port: number; close(): Promise<void>};

/** Listens on `host` (port 0: any free one) and destroys every socket at close. */
export async function listen(server: net.Server, host = '127.0.0.1'): Promise<Listener> {
	const sockets = new Set<net.Socket>();
	server.on('connection', (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Pipes two sockets together, each ended when the other fails. */
export function pipe(a: net.Socket, b: net.Socket): void {
	a.on('error', () => b.destroy());
	b.on('error', () => a.destroy());
	a.pipe(b);
	b.pipe(a);
}

export type TunnelProxy = Listener & {
	/** scheme://127.0.0.1:port, for a kubeconfig's proxy-url or HTTPS_PROXY. */
	url: string;
	/** host:port of every tunnel asked for, in order. */
	targets: string[];
	/** The Proxy-Authorization header of each CONNECT (empty when none; always empty for SOCKS). */
	authorizations: string[];
};

/** Connects to 127.0.0.1:port, answers the client with `reply`, passes on what the client already sent, then pipes. */
function tunnel(client: net.Socket, port: number, reply: string | Buffer, early: Buffer): void {
	const upstream = net.connect(port, '127.0.0.1', () => {
		client.write(reply);
		upstream.write(early);
		pipe(client, upstream);
	});
	upstream.on('error', () => client.destroy());
}

export async function startConnectProxy(): Promise<TunnelProxy> {
	const targets: string[] = [];
	const authorizations: string[] = [];
	const server = http.createServer((_request, response) => response.writeHead(405).end());
	server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
		targets.push(request.url ?? '');
		authorizations.push(request.headers['proxy-authorization'] ?? '');
		tunnel(client, Number(new URL(`http://${request.url ?? ''}`).port), 'HTTP/1.1 200 Connection Established\r\n\r\n', head);
	});
	const listener = await listen(server);
	return {...listener, url: `http://127.0.0.1:${listener.port}`, targets, authorizations};
}

/** SOCKS5 with no authentication, CONNECT only: reads the greeting, then the request, then pipes. */
export async function startSocksProxy(): Promise<TunnelProxy> {
	const targets: string[] = [];
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
			const port = buffered.readUInt16BE(4 + addressLength);
			client.off('data', onData);
			targets.push(`${host}:${port}`);
			tunnel(client, port, Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]), buffered.subarray(4 + addressLength + 2));
		};

		client.on('data', onData);
		client.on('error', () => client.destroy());
	});
	const listener = await listen(server);
	return {...listener, url: `socks5://127.0.0.1:${listener.port}`, targets, authorizations: []};
}
