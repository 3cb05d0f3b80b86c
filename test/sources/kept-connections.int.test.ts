// pleg-top's own HTTP/1.1 client (kept-connections.ts) against Node's: a loopback server answers each request with
// a scripted answer, written in pieces, and getText reads it both ways. Whatever the answer (lengths, chunks,
// trailers, 1xx, repeated headers, a close in the body, bytes that are not HTTP), both must give the same status,
// headers and body, or fail the same way. Then what only the kept connections do: reuse, and when not to.
import assert from 'node:assert/strict';
import {getEventListeners} from 'node:events';
import http from 'node:http';
import net from 'node:net';
import {after, test} from 'node:test';
import zlib from 'node:zlib';
import {getText, type HttpAnswer} from '../../source/sources/http/https-request.js';
import {AnswerReader, KeptConnections, requestHead} from '../../source/sources/http/kept-connections.js';
import {BodyCutError, BodyTooLargeError, RequestTimeoutError, StaleSocketError} from '../../source/sources/http/request-errors.js';

/** A deterministic generator, so a failing case can be run again. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state * 1_664_525 + 1_013_904_223) >>> 0;
		return state / 2 ** 32;
	};
}

type Script = {name: string; answer: Buffer; closeAfter?: boolean};

/** A loopback TCP server whose close() also ends the connections it still holds. */
async function listen(onConnection: (socket: net.Socket) => void) {
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {});
		onConnection(socket);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		close: async () => {
			for (const socket of sockets) {
				socket.destroy();
			}

			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** Answers the n-th request on any connection with scripts[n], in pieces of random size, each in its own write. */
async function scriptedServer(scripts: Script[], seed: number) {
	const next = random(seed);
	let index = 0;
	let connections = 0;
	const server = await listen((socket) => {
		connections++;
		let head = '';
		// eslint-disable-next-line @typescript-eslint/no-misused-promises -- it writes the answer in pieces across turns; nothing awaits it
		socket.on('data', async (data) => {
			head += data.toString('latin1');
			while (head.includes('\r\n\r\n')) {
				head = head.slice(head.indexOf('\r\n\r\n') + 4);
				const script = scripts[index++ % scripts.length]!;
				let at = 0;
				while (at < script.answer.length) {
					const size = 1 + Math.floor(next() * (next() < 0.3 ? 8 : 40_000));
					socket.write(script.answer.subarray(at, at + size));
					at += size;
					await new Promise((resolve) => setImmediate(resolve));
				}

				if (script.closeAfter) {
					socket.end();
				}
			}
		});
	});
	return {
		port: server.port,
		connections: () => connections,
		reset(to = 0) {
			index = to;
		},
		close: server.close,
	};
}

const crlf = (text: string) => text.replaceAll('\n', '\r\n');
const bytes = (length: number, seed: number) => {
	const next = random(seed);
	return Buffer.from(Array.from({length}, () => Math.floor(next() * 256)));
};

function lengthAnswer(body: Buffer, extra = ''): Buffer {
	return Buffer.concat([Buffer.from(crlf(`HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: ${body.length}\n${extra}\n`)), body]);
}

function chunkedAnswer(body: Buffer, seed: number, {extensions = false, trailers = false} = {}): Buffer {
	const next = random(seed);
	const parts: Buffer[] = [Buffer.from(crlf('HTTP/1.1 200 OK\nTransfer-Encoding: chunked\nContent-Type: text/plain\n\n'))];
	let at = 0;
	while (at < body.length) {
		const size = 1 + Math.floor(next() * 20_000);
		const piece = body.subarray(at, at + size);
		parts.push(Buffer.from(`${piece.length.toString(16)}${extensions ? ';name=value' : ''}\r\n`), piece, Buffer.from('\r\n'));
		at += size;
	}

	parts.push(Buffer.from(trailers ? '0\r\nX-Trailer: yes\r\n\r\n' : '0\r\n\r\n'));
	return Buffer.concat(parts);
}

const gzipBody = zlib.gzipSync(Buffer.from('kubelet_pleg_relist_duration_seconds_count 42\n'.repeat(2000)));
const wholeScripts: Script[] = [
	{name: 'Content-Length', answer: lengthAnswer(bytes(250_000, 1))},
	{name: 'an empty body', answer: lengthAnswer(Buffer.alloc(0))},
	{name: 'chunked', answer: chunkedAnswer(bytes(300_000, 2), 3)},
	{
		name: 'chunked, upper-case hex and extensions',
		answer: Buffer.from(
			chunkedAnswer(bytes(5000, 4), 5, {extensions: true})
				.toString('latin1')
				.replace(/^[0-9a-f]+(?=;)/gm, (hex) => hex.toUpperCase()),
			'latin1',
		),
	},
	{name: 'chunked with trailers', answer: chunkedAnswer(bytes(70_000, 6), 7, {trailers: true})},
	{
		name: 'a 100 Continue before the answer',
		answer: Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), lengthAnswer(Buffer.from('after'))]),
	},
	{name: '204 No Content', answer: Buffer.from(crlf('HTTP/1.1 204 No Content\nX-A: 1\n\n'))},
	{
		name: 'repeated headers (joined, first kept, cookies listed)',
		answer: lengthAnswer(
			Buffer.from('x'),
			'X-Many: a\nX-Many: b\nContent-Type: text/html\nSet-Cookie: a=1\nSet-Cookie: b=2\nRetry-After: 5\nRetry-After: 9\n',
		),
	},
	{
		name: 'a 403 Status as kube-apiserver sends it',
		answer: Buffer.from(
			crlf(
				'HTTP/1.1 403 Forbidden\nAudit-Id: 1\nCache-Control: no-cache, private\nContent-Type: application/json\nX-Content-Type-Options: nosniff\nContent-Length: 18\n\n',
			) + '{"kind":"Status"}\n',
		),
	},
	{name: 'gzip', answer: lengthAnswer(gzipBody, 'Content-Encoding: gzip\n')},
	{
		name: 'a body the close delimits (no length)',
		answer: Buffer.from(crlf('HTTP/1.1 200 OK\nContent-Type: text/plain\n\n') + 'to the end'),
		closeAfter: true,
	},
	{name: 'HTTP/1.0 without keep-alive', answer: Buffer.from(crlf('HTTP/1.0 200 OK\nContent-Length: 3\n\n') + 'old'), closeAfter: true},
	{name: 'Connection: close', answer: lengthAnswer(Buffer.from('last'), 'Connection: close\n'), closeAfter: true},
];

const failingScripts: Script[] = [
	{name: 'bytes that are not HTTP', answer: Buffer.from('SSH-2.0-OpenSSH_9.6\r\n\r\n'), closeAfter: true},
	{name: 'a close in the middle of the body', answer: lengthAnswer(bytes(1000, 8)).subarray(0, 600), closeAfter: true},
	{name: 'a close in the middle of a chunk', answer: chunkedAnswer(bytes(50_000, 9), 10).subarray(0, 30_000), closeAfter: true},
	{name: 'a close before the last chunk', answer: chunkedAnswer(bytes(5000, 11), 12).subarray(0, -5), closeAfter: true},
	{
		name: 'a chunk size that is not hex',
		answer: Buffer.from(crlf('HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\nzz\nabc\n0\n\n')),
		closeAfter: true,
	},
	{name: 'a close before any answer', answer: Buffer.alloc(0), closeAfter: true},
];

type Outcome = {status: number; headers: http.IncomingHttpHeaders; body: string} | {failed: string};

/** What matters of an answer or a failure: the error class, and whether a code says it is a parse error. */
async function outcome(answer: Promise<HttpAnswer>): Promise<Outcome> {
	try {
		const {status, headers, body} = await answer;
		// Node's client adds no header; neither does pleg-top's.
		return {status, headers: {...headers}, body};
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? '';
		return {failed: `${(error as Error).name}${code.startsWith('HPE_') ? ' parse error' : code ? ` ${code}` : ''}`};
	}
}

/** pleg-top's kept connections to `port`, closed after the tests. */
function keptTo(port: number): KeptConnections {
	const connections = new KeptConnections({host: '127.0.0.1', port, tls: null});
	cleanups.push(() => connections.close());
	return connections;
}

/** A scripted server, and one GET to it through each client: pleg-top's (`kept`) and Node's (`node`). */
async function bothClients(scripts: Script[], seed: number) {
	const server = await scriptedServer(scripts, seed);
	cleanups.push(server.close);
	const connections = keptTo(server.port);
	const agent = new http.Agent({keepAlive: true});
	cleanups.push(() => agent.destroy());
	const common = {
		url: new URL(`http://127.0.0.1:${server.port}/metrics`),
		headers: {Accept: '*/*'},
		timeoutMs: 10_000,
		signal: new AbortController().signal,
	};
	return {
		server,
		connections,
		agent,
		kept: async () => outcome(getText({...common, via: {connections}})),
		node: async () => outcome(getText({...common, via: {agent}})),
	};
}

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
	for (const cleanup of cleanups) {
		await cleanup();
	}
});

for (const seed of [1, 2, 3]) {
	test(`every whole answer reads as Node's client reads it (pieces of seed ${seed})`, async () => {
		const both = await bothClients(wholeScripts, seed);
		const kept: Outcome[] = [];
		for (const _ of wholeScripts) {
			kept.push(await both.kept());
		}

		both.server.reset();
		for (const [index, script] of wholeScripts.entries()) {
			const node = await both.node();
			assert.deepEqual(kept[index], node, script.name);
			assert.ok(!('failed' in node), `${script.name}: Node's client read it`);
		}
	});
}

for (const script of failingScripts) {
	test(`a broken answer fails as Node's client fails: ${script.name}`, async () => {
		const both = await bothClients([script], 5);
		const kept = await both.kept();
		const node = await both.node();
		assert.ok('failed' in node, `Node's client failed: ${JSON.stringify(node).slice(0, 200)}`);
		assert.deepEqual(kept, node);
	});
}

test('one connection carries every request while the server keeps it; a close, or bytes beyond the answer, end it', async () => {
	const plain = lengthAnswer(Buffer.from('kept'));
	const {server, kept} = await bothClients(
		[
			{name: '1', answer: plain},
			{name: '2', answer: plain},
			{name: '3', answer: plain},
			{name: 'close', answer: lengthAnswer(Buffer.from('bye'), 'Connection: close\n'), closeAfter: true},
			{name: '5', answer: plain},
			{name: 'extra bytes', answer: Buffer.concat([plain, Buffer.from('HTTP/1.1 200 OK\r\n')])},
			{name: '7', answer: plain},
		],
		9,
	);
	const seen: Array<[string, number]> = [];
	for (let index = 0; index < 7; index++) {
		const answer = await kept();
		seen.push(['body' in answer ? answer.body : answer.failed, server.connections()]);
	}

	assert.deepEqual(seen, [
		['kept', 1],
		['kept', 1],
		['kept', 1],
		['bye', 1],
		['kept', 2],
		['kept', 2],
		['kept', 3],
	]);
});

test('a kept connection the server drops as the next request arrives fails as stale (safe to send again); a timeout never does', async () => {
	let requests = 0;
	const server = await listen((socket) => {
		socket.on('data', () => {
			requests++;
			if (requests === 1) {
				socket.write(lengthAnswer(Buffer.from('first')));
			} else if (requests === 2) {
				socket.destroy();
			} else if (requests === 3) {
				socket.write(lengthAnswer(Buffer.from('third')));
			}
			// The fourth request gets no answer.
		});
	});
	cleanups.push(server.close);
	const {port} = server;
	const connections = keptTo(port);
	const get = async (timeoutMs = 10_000) =>
		getText({url: new URL(`http://127.0.0.1:${port}/`), via: {connections}, headers: {}, timeoutMs, signal: new AbortController().signal});
	assert.equal((await get()).body, 'first');
	await assert.rejects(get(), StaleSocketError);
	assert.equal((await get()).body, 'third');
	await assert.rejects(get(200), RequestTimeoutError);
});

test('a connection ended in the body is a cut body, not a refused connection', async () => {
	const {server, connections} = await bothClients(
		[{name: 'cut', answer: lengthAnswer(bytes(100, 1)).subarray(0, 80), closeAfter: true}],
		1,
	);
	await assert.rejects(
		getText({
			url: new URL(`http://127.0.0.1:${server.port}/`),
			via: {connections},
			headers: {},
			timeoutMs: 5000,
			signal: new AbortController().signal,
		}),
		BodyCutError,
	);
});

test('an abort ends the request and its connection at once', {timeout: 10_000}, async () => {
	let closed!: () => void;
	const serverSawClose = new Promise<void>((resolve) => {
		closed = resolve;
	});
	const server = await listen((socket) => {
		socket.resume();
		socket.on('close', closed);
	});
	cleanups.push(server.close);
	const connections = keptTo(server.port);
	const controller = new AbortController();
	const pending = getText({
		url: new URL(`http://127.0.0.1:${server.port}/`),
		via: {connections},
		headers: {},
		timeoutMs: 10_000,
		signal: controller.signal,
	});
	setTimeout(() => controller.abort(new Error('stopped by the test')), 50);
	await assert.rejects(pending, /stopped by the test/);
	await serverSawClose;
});

test('requestHead: one GET head; a value that would end it early is refused before anything is sent', () => {
	assert.equal(
		requestHead('/api/v1/nodes/n%201/proxy/metrics?x=1', 'h:6443', {Authorization: 'Bearer t', 'Accept-Encoding': 'gzip'}),
		'GET /api/v1/nodes/n%201/proxy/metrics?x=1 HTTP/1.1\r\nHost: h:6443\r\nAuthorization: Bearer t\r\nAccept-Encoding: gzip\r\nConnection: keep-alive\r\n\r\n',
	);
	for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\u0000b']) {
		assert.throws(() => requestHead('/', 'h', {Authorization: value}), {code: 'ERR_INVALID_CHAR'});
	}

	assert.throws(() => requestHead('/', 'h', {'Bad Name': 'x'}), {code: 'ERR_INVALID_CHAR'});
});

test('AnswerReader: a head split anywhere reads the same as a head in one piece', () => {
	const answer = chunkedAnswer(Buffer.from('abcdefghij'.repeat(30)), 4, {extensions: true, trailers: true});
	for (let cut = 1; cut < answer.length; cut++) {
		const reader = new AnswerReader();
		const first = reader.push(answer.subarray(0, cut));
		const whole = first || reader.push(answer.subarray(cut));
		assert.ok(whole, `cut at ${cut}`);
		assert.equal(reader.bodyBuffer().toString(), 'abcdefghij'.repeat(30), `cut at ${cut}`);
		assert.equal(reader.reusable, true);
	}
});

test('requests that share one signal leave no abort listener on it, whether they answer, fail or time out', async () => {
	const {server, connections, agent} = await bothClients(
		[
			{name: 'ok', answer: lengthAnswer(Buffer.from('ok'))},
			{name: 'not HTTP', answer: Buffer.from('nonsense\r\n\r\n'), closeAfter: true},
			{name: 'no answer', answer: Buffer.alloc(0)},
		],
		3,
	);
	const {signal} = new AbortController();
	for (const via of [{connections}, {agent}]) {
		server.reset();
		const get = async () => getText({url: new URL(`http://127.0.0.1:${server.port}/`), via, headers: {}, timeoutMs: 300, signal});
		assert.equal((await get()).body, 'ok');
		await assert.rejects(get(), {code: /^HPE_/});
		await assert.rejects(get(), RequestTimeoutError);
		assert.equal(getEventListeners(signal, 'abort').length, 0, Object.keys(via)[0]);
	}
});

test('AnswerReader: a body past the cap throws as the byte that passes it arrives, whatever the framing', () => {
	const body = Buffer.from('x'.repeat(1000));
	for (const answer of [lengthAnswer(body), chunkedAnswer(body, 7)]) {
		const atCap = new AnswerReader(1000);
		assert.equal(atCap.push(answer), true);
		assert.equal(atCap.bodyBuffer().length, 1000);
		const under = new AnswerReader(999);
		assert.throws(
			() => under.push(answer),
			(error: unknown) => error instanceof BodyTooLargeError && error.limitBytes === 999 && !error.decoded,
		);
	}
});

test('an endless body fails with BodyTooLargeError through the kept connections and through an agent (proxy-url)', async () => {
	const chunk = Buffer.alloc(16 * 1024, 'x');
	const server = http.createServer((_request, response) => {
		response.writeHead(200, {'Content-Type': 'text/plain'});
		const more = () => {
			while (!response.destroyed && response.write(chunk));
		};

		response.on('drain', more);
		more();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(async () => new Promise<void>((resolve) => server.close(() => resolve())));
	const {port} = server.address() as net.AddressInfo;
	const agent = new http.Agent();
	cleanups.push(() => agent.destroy());
	const common = {
		url: new URL(`http://127.0.0.1:${port}/metrics`),
		headers: {},
		timeoutMs: 10_000,
		signal: new AbortController().signal,
		maxBodyBytes: 64 * 1024,
	};
	for (const via of [{connections: keptTo(port)}, {agent}]) {
		await assert.rejects(
			getText({...common, via}),
			(error: unknown) => error instanceof BodyTooLargeError && error.limitBytes === 64 * 1024,
		);
	}
});
