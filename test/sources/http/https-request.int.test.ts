// getText (https-request.ts): Node's client through a keep-alive agent, the body received into a buffer kept
// between answers. A loopback server answers each request with a scripted answer written in pieces of random size;
// every answer must read to its exact bytes whatever the size of the answer before it (the kept buffer is reused,
// grown, and never shows a former answer's bytes), and every broken one must fail in its own way.
import assert from 'node:assert/strict';
import {getEventListeners} from 'node:events';
import http from 'node:http';
import net from 'node:net';
import {after, test} from 'node:test';
import zlib from 'node:zlib';
import {getText, type HttpAnswer} from '../../../source/sources/http/https-request.js';
import {BodyTooLargeError, RequestTimeoutError, StaleSocketError} from '../../../source/sources/http/request-errors.js';

/** A deterministic generator, so a failing case can be run again. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state * 1_664_525 + 1_013_904_223) >>> 0;
		return state / 2 ** 32;
	};
}

type Script = {name: string; answer: Buffer; closeAfter?: boolean};
/** A whole answer and what it must read as: its status and its body's exact bytes (gunzipped). */
type WholeScript = Script & {status: number; body: Buffer};

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
		// eslint-disable-next-line @typescript-eslint/no-misused-promises -- writes the answer in pieces, awaiting between them; nothing awaits the handler
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

const gzipText = Buffer.from('kubelet_pleg_relist_duration_seconds_count 42\n'.repeat(2000));
const body250k = bytes(250_000, 1);
const body300k = bytes(300_000, 2);
const body5k = bytes(5000, 4);
const body70k = bytes(70_000, 6);
const statusBody = Buffer.from('{"kind":"Status"}\n');
const text = (value: string) => Buffer.from(value);
const wholeScripts: WholeScript[] = [
	{name: 'Content-Length', answer: lengthAnswer(body250k), status: 200, body: body250k},
	{name: 'an empty body', answer: lengthAnswer(Buffer.alloc(0)), status: 200, body: Buffer.alloc(0)},
	{name: 'chunked', answer: chunkedAnswer(body300k, 3), status: 200, body: body300k},
	{
		name: 'chunked, upper-case hex and extensions',
		answer: Buffer.from(
			chunkedAnswer(body5k, 5, {extensions: true})
				.toString('latin1')
				.replace(/^[0-9a-f]+(?=;)/gm, (hex) => hex.toUpperCase()),
			'latin1',
		),
		status: 200,
		body: body5k,
	},
	{name: 'chunked with trailers', answer: chunkedAnswer(body70k, 7, {trailers: true}), status: 200, body: body70k},
	{
		name: 'a 100 Continue before the answer',
		answer: Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), lengthAnswer(text('after'))]),
		status: 200,
		body: text('after'),
	},
	{name: '204 No Content', answer: Buffer.from(crlf('HTTP/1.1 204 No Content\nX-A: 1\n\n')), status: 204, body: Buffer.alloc(0)},
	{
		name: 'repeated headers (joined, first kept, cookies listed)',
		answer: lengthAnswer(
			text('x'),
			'X-Many: a\nX-Many: b\nContent-Type: text/html\nSet-Cookie: a=1\nSet-Cookie: b=2\nRetry-After: 5\nRetry-After: 9\n',
		),
		status: 200,
		body: text('x'),
	},
	{
		name: 'a 403 Status as kube-apiserver sends it',
		answer: Buffer.concat([
			Buffer.from(
				crlf(
					'HTTP/1.1 403 Forbidden\nAudit-Id: 1\nCache-Control: no-cache, private\nContent-Type: application/json\nX-Content-Type-Options: nosniff\nContent-Length: 18\n\n',
				),
			),
			statusBody,
		]),
		status: 403,
		body: statusBody,
	},
	{name: 'gzip', answer: lengthAnswer(zlib.gzipSync(gzipText), 'Content-Encoding: gzip\n'), status: 200, body: gzipText},
	{
		name: 'a body the close delimits (no length)',
		answer: Buffer.from(crlf('HTTP/1.1 200 OK\nContent-Type: text/plain\n\n') + 'to the end'),
		closeAfter: true,
		status: 200,
		body: text('to the end'),
	},
	{
		name: 'HTTP/1.0 without keep-alive',
		answer: Buffer.from(crlf('HTTP/1.0 200 OK\nContent-Length: 3\n\n') + 'old'),
		closeAfter: true,
		status: 200,
		body: text('old'),
	},
	{name: 'Connection: close', answer: lengthAnswer(text('last'), 'Connection: close\n'), closeAfter: true, status: 200, body: text('last')},
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

type Outcome = {status: number; body: string} | {failed: string};

/** Reads the exact bytes of a body (latin1 keeps every byte), which the whole-body decoder would not for random bytes. */
const exactBytes = (body: Buffer) => body.toString('latin1');

/** What matters of an answer or a failure: the error class, and whether a code says it is a parse error. */
async function outcome(answer: Promise<HttpAnswer>): Promise<Outcome> {
	try {
		const {status, body} = await answer;
		return {status, body};
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? '';
		return {failed: `${(error as Error).name}${code.startsWith('HPE_') ? ' parse error' : code ? ` ${code}` : ''}`};
	}
}

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
	for (const cleanup of cleanups) {
		await cleanup();
	}
});

/** A keep-alive agent as the transport makes one, destroyed after the tests. */
function keepAliveAgent(): http.Agent {
	const agent = new http.Agent({keepAlive: true});
	cleanups.push(() => agent.destroy());
	return agent;
}

/** A scripted server and a GET to it through one keep-alive agent. */
async function scripted(scripts: Script[], seed: number) {
	const server = await scriptedServer(scripts, seed);
	cleanups.push(server.close);
	const agent = keepAliveAgent();
	const get = async (extra: Partial<Parameters<typeof getText>[0]> = {}) =>
		outcome(
			getText({
				url: new URL(`http://127.0.0.1:${server.port}/metrics`),
				agent,
				headers: {Accept: '*/*'},
				timeoutMs: 10_000,
				signal: new AbortController().signal,
				readBody: exactBytes,
				...extra,
			}),
		);
	return {server, agent, get};
}

for (const seed of [1, 2, 3]) {
	test(`every whole answer reads to its exact bytes, whatever the answer before it (pieces of seed ${seed})`, async () => {
		const {get} = await scripted(wholeScripts, seed);
		for (const script of wholeScripts) {
			assert.deepEqual(await get(), {status: script.status, body: exactBytes(script.body)}, script.name);
		}
	});
}

test('headers read as Node reads them: repeats joined, the first kept where only one may be, cookies listed', async () => {
	const script = wholeScripts.find(({name}) => name.startsWith('repeated headers'))!;
	const server = await scriptedServer([script], 1);
	cleanups.push(server.close);
	const answer = await getText({
		url: new URL(`http://127.0.0.1:${server.port}/`),
		agent: keepAliveAgent(),
		headers: {},
		timeoutMs: 10_000,
		signal: new AbortController().signal,
	});
	assert.equal(answer.headers['x-many'], 'a, b');
	assert.equal(answer.headers['content-type'], 'text/plain');
	assert.deepEqual(answer.headers['set-cookie'], ['a=1', 'b=2']);
	assert.equal(answer.headers['retry-after'], '5');
});

const failures: Record<string, string> = {
	'bytes that are not HTTP': 'Error parse error',
	'a close in the middle of the body': 'BodyCutError',
	'a close in the middle of a chunk': 'BodyCutError',
	'a close before the last chunk': 'BodyCutError',
	'a chunk size that is not hex': 'Error parse error',
	'a close before any answer': 'Error ECONNRESET',
};
for (const script of failingScripts) {
	test(`a broken answer fails in its own way: ${script.name}`, async () => {
		const {get} = await scripted([script], 5);
		assert.deepEqual(await get(), {failed: failures[script.name]});
	});
}

test('one connection carries every request while the server keeps it; a close ends it', async () => {
	const plain = lengthAnswer(text('kept'));
	const {server, get} = await scripted(
		[
			{name: '1', answer: plain},
			{name: '2', answer: plain},
			{name: '3', answer: plain},
			{name: 'close', answer: lengthAnswer(text('bye'), 'Connection: close\n'), closeAfter: true},
			{name: '5', answer: plain},
			{name: '6', answer: plain},
		],
		9,
	);
	const seen: Array<[string, number]> = [];
	for (let index = 0; index < 6; index++) {
		const answer = await get();
		seen.push(['body' in answer ? answer.body : answer.failed, server.connections()]);
	}

	assert.deepEqual(seen, [
		['kept', 1],
		['kept', 1],
		['kept', 1],
		['bye', 1],
		['kept', 2],
		['kept', 2],
	]);
});

test('requests in flight at once each read their own body, and their buffers are reused after', async () => {
	// Four answers of different sizes written in interleaved pieces: a body buffer shared by two requests in flight
	// would mix them.
	const scripts = [body250k, body5k, body300k, body70k].map((body, index) => ({name: `${index}`, answer: lengthAnswer(body), body}));
	const {get} = await scripted(scripts, 4);
	for (let round = 0; round < 2; round++) {
		const answers = await Promise.all(scripts.map(async () => get()));
		// The server answers requests in the order they arrive, one script each: the same four bodies, in some order.
		assert.deepEqual(
			answers.map((answer) => ('body' in answer ? answer.body.length : answer.failed)).sort(),
			scripts.map(({body}) => body.length).sort(),
		);
		for (const answer of answers) {
			assert.ok('body' in answer && scripts.some(({body}) => exactBytes(body) === answer.body), `round ${round}: a body that was sent`);
		}
	}
});

test('a kept connection the server drops as the next request arrives fails as stale (safe to send again); a timeout never does', async () => {
	let requests = 0;
	const server = await listen((socket) => {
		socket.on('data', () => {
			requests++;
			if (requests === 1) {
				socket.write(lengthAnswer(text('first')));
			} else if (requests === 2) {
				socket.destroy();
			} else if (requests === 3) {
				socket.write(lengthAnswer(text('third')));
			}
			// The fourth request gets no answer.
		});
	});
	cleanups.push(server.close);
	const agent = keepAliveAgent();
	const get = async (timeoutMs = 10_000) =>
		getText({url: new URL(`http://127.0.0.1:${server.port}/`), agent, headers: {}, timeoutMs, signal: new AbortController().signal});
	assert.equal((await get()).body, 'first');
	await assert.rejects(get(), StaleSocketError);
	assert.equal((await get()).body, 'third');
	await assert.rejects(get(200), RequestTimeoutError);
});

test('an abort ends the request and its connection at once', {timeout: 10_000}, async () => {
	let closed!: () => void;
	const serverSawClose = new Promise<void>((resolve) => {
		closed = resolve;
	});
	const controller = new AbortController();
	// Aborted once the server holds the connection (the request is then in flight), however long that took.
	const server = await listen((socket) => {
		socket.resume();
		socket.on('close', closed);
		controller.abort(new Error('stopped by the test'));
	});
	cleanups.push(server.close);
	const pending = getText({
		url: new URL(`http://127.0.0.1:${server.port}/`),
		agent: keepAliveAgent(),
		headers: {},
		timeoutMs: 10_000,
		signal: controller.signal,
	});
	await assert.rejects(pending, /stopped by the test/);
	await serverSawClose;
});

test('a header value that would end the head early is refused before anything is sent', async () => {
	let connections = 0;
	const server = await listen(() => {
		connections++;
	});
	cleanups.push(server.close);
	const agent = keepAliveAgent();
	const refused: Array<Record<string, string>> = [
		{Authorization: 'a\r\nX-Injected: 1'},
		{Authorization: 'a\nb'},
		{Authorization: 'a\u0000b'},
		{'Bad Name': 'x'},
	];
	for (const headers of refused) {
		await assert.rejects(
			getText({url: new URL(`http://127.0.0.1:${server.port}/`), agent, headers, timeoutMs: 1000, signal: new AbortController().signal}),
			{code: /^ERR_INVALID_(CHAR|HTTP_TOKEN)$/},
			JSON.stringify(headers),
		);
	}

	await new Promise((resolve) => setImmediate(resolve));
	assert.equal(connections, 0);
});

test('requests that share one signal leave no abort listener on it, whether they answer, fail or time out', async () => {
	const {server, agent} = await scripted(
		[
			{name: 'ok', answer: lengthAnswer(text('ok'))},
			{name: 'not HTTP', answer: Buffer.from('nonsense\r\n\r\n'), closeAfter: true},
			{name: 'no answer', answer: Buffer.alloc(0)},
		],
		3,
	);
	const {signal} = new AbortController();
	const get = async () => getText({url: new URL(`http://127.0.0.1:${server.port}/`), agent, headers: {}, timeoutMs: 300, signal});
	assert.equal((await get()).body, 'ok');
	await assert.rejects(get(), {code: /^HPE_/});
	await assert.rejects(get(), RequestTimeoutError);
	assert.equal(getEventListeners(signal, 'abort').length, 0);
});

test('a body past the cap fails with BodyTooLargeError: an endless one as it passes, a stated length at once', async () => {
	const chunk = Buffer.alloc(16 * 1024, 'x');
	let sentEndless = 0;
	const server = http.createServer((request, response) => {
		if (request.url === '/stated') {
			// Says 1 MiB, sends 1 KiB and holds the connection: only the stated length can fail it before the timeout.
			response.writeHead(200, {'Content-Type': 'text/plain', 'Content-Length': 1024 * 1024});
			response.write(chunk.subarray(0, 1024));
			return;
		}

		response.writeHead(200, {'Content-Type': 'text/plain'});
		const more = () => {
			while (!response.destroyed && response.write(chunk)) sentEndless += chunk.length;
		};

		response.on('drain', more);
		more();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(async () => new Promise<void>((resolve) => server.close(() => resolve())));
	cleanups.push(() => server.closeAllConnections());
	const {port} = server.address() as net.AddressInfo;
	const common = {headers: {}, timeoutMs: 5000, signal: new AbortController().signal, maxBodyBytes: 64 * 1024};
	for (const path of ['/endless', '/stated']) {
		for (const agent of [keepAliveAgent(), new http.Agent()]) {
			await assert.rejects(
				getText({...common, url: new URL(`http://127.0.0.1:${port}${path}`), agent}),
				(error: unknown) => error instanceof BodyTooLargeError && error.limitBytes === 64 * 1024 && !error.decoded,
				path,
			);
		}
	}

	assert.ok(sentEndless < 64 * 1024 * 1024, `${sentEndless} bytes of the endless body sent`);
});
