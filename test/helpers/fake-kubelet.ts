// A loopback kubelet for --kubelet-url: HTTPS with the test server certificate (127.0.0.1/localhost, signed by the
// test CA), or plain HTTP when asked, GET /metrics with a bearer token check as the kubelet's webhook authn/authz
// answers it: no or unknown token -> 401 "Unauthorized", a known token without `get nodes/metrics` -> 403 with the
// kubelet's wording. A test can make it answer something else for a while (setAnswer).
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import assert from 'node:assert/strict';
import {SourceFailure} from '../../source/sources/failure.js';
import type {Failure} from '../../source/domain/types.js';
import {testTls} from './fake-api-server.js';

export type FakeKubeletOptions = {
	/** The /metrics body, read per request. */
	metrics: () => string;
	/** token -> user name; `allowed` users may get nodes/metrics. */
	tokens: Record<string, string>;
	allowed: string[];
	/** Plain http:// instead of HTTPS. */
	plain?: boolean;
};

/** An answer given instead of the normal one, e.g. 429 with Retry-After. */
type KubeletAnswer = {status: number; headers?: Record<string, string>; body: string};

export type FakeKubelet = {
	url: string;
	readonly requests: Array<{path: string; authorization: string | undefined; status: number}>;
	/** Answer every request with `answer` from now on (null: the normal answers again). */
	setAnswer(answer: KubeletAnswer | null): void;
	close(): Promise<void>;
};

export async function startFakeKubelet(options: FakeKubeletOptions): Promise<FakeKubelet> {
	const requests: FakeKubelet['requests'] = [];
	const sockets = new Set<{destroy(): void}>();
	let instead: KubeletAnswer | null = null;
	const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
		const authorization = request.headers.authorization;
		const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
		const user = token === undefined ? undefined : options.tokens[token];
		const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
			requests.push({path: request.url ?? '', authorization, status});
			response.writeHead(status, {...headers, 'Content-Type': type});
			response.end(body);
		};

		if (instead !== null) {
			answer(instead.status, 'text/plain; charset=utf-8', instead.body, instead.headers);
		} else if (request.url !== '/metrics') {
			answer(404, 'text/plain; charset=utf-8', '404 page not found\n');
		} else if (user === undefined) {
			answer(401, 'text/plain; charset=utf-8', 'Unauthorized');
		} else if (!options.allowed.includes(user)) {
			// pkg/kubelet/server/auth.go: the kubelet's own 403 text.
			answer(403, 'text/plain; charset=utf-8', `Forbidden (user=${user}, verb=get, resource=nodes, subresource(s)=[metrics])`);
		} else {
			answer(200, 'text/plain; version=0.0.4; charset=utf-8', options.metrics());
		}
	};

	const server = options.plain
		? http.createServer(handler)
		: https.createServer({cert: testTls.serverCert, key: testTls.serverKey}, handler);
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	return {
		url: `${options.plain ? 'http' : 'https'}://127.0.0.1:${port}`,
		requests,
		setAnswer(answer) {
			instead = answer;
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Awaits `promise`, expects it to reject with a SourceFailure, and returns its Failure. */
export async function failureOf(promise: Promise<unknown>): Promise<Failure> {
	try {
		await promise;
	} catch (error) {
		assert.ok(error instanceof SourceFailure, String(error));
		return error.failure;
	}

	return assert.fail('expected a failure');
}
