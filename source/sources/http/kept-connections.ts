// GETs over kept-alive HTTP/1.1 connections of pleg-top's own: a request is one write of its head, an answer is
// read straight off the socket. Node's http client costs about 0.6 ms of CPU more per request (a ClientRequest,
// an IncomingMessage stream, the agent's events; measured with the bench server at 100 ms ticks), a tenth of
// pleg-top's whole tick. Used for every request without a proxy; a kubeconfig's proxy-url keeps Node's client
// and client-node's agent.
import type http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import {BodyCutError, BodyTooLargeError, StaleSocketError} from './request-errors.js';

export type ConnectOptions = {
	host: string;
	port: number;
	/** TLS material; null for plain http://. */
	tls: null | {ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer; rejectUnauthorized?: boolean; servername?: string};
};

export type RawAnswer = {status: number; headers: http.IncomingHttpHeaders; body: Buffer};

function ignore() {}

/** Node's own words and codes for the same faults, so classify.ts reads them alike. */
function hangUp(): NodeJS.ErrnoException {
	return Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'});
}

function parseError(reason: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`Parse Error: ${reason}`), {code: 'HPE_INVALID_RESPONSE'});
}

/**
 * A header value with CR, LF or another control character would end the head early or garble it: refused before
 * anything is sent, by Node's own rule (tab, printable ASCII and Latin-1 only; a name of token characters).
 */
function checkHeader(name: string, value: string): void {
	if (/[^\t\x20-\x7e\x80-\xff]/.test(value) || !/^[!#$%&'*+.^`|~\w-]+$/.test(name)) {
		throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), {code: 'ERR_INVALID_CHAR'});
	}
}

export function requestHead(path: string, hostHeader: string, headers: Record<string, string>): string {
	let head = `GET ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\n`;
	for (const name in headers) {
		const value = headers[name]!;
		checkHeader(name, value);
		head += `${name}: ${value}\r\n`;
	}

	return head + 'Connection: keep-alive\r\n\r\n';
}

/** Headers Node's client keeps the first of when an answer repeats them; the others it joins with ", ". */
const firstWins = new Set([
	'age',
	'authorization',
	'content-length',
	'content-type',
	'etag',
	'expires',
	'from',
	'host',
	'if-modified-since',
	'if-unmodified-since',
	'last-modified',
	'location',
	'max-forwards',
	'proxy-authorization',
	'referer',
	'retry-after',
	'server',
	'user-agent',
]);

/** A head longer than this is not an answer pleg-top can use (Node's own limit is 16 KiB). */
const maxHeadBytes = 64 * 1024;

type Framing = {kind: 'length'; remaining: number} | {kind: 'chunked'} | {kind: 'close'} | {kind: 'none'};

/**
 * Reads one answer from the bytes a socket delivers. `push` returns true once the answer is whole; `end` is called
 * when the socket ends and says whether the answer is whole then (a body delimited by the close).
 */
export class AnswerReader {
	status = 0;
	headers: http.IncomingHttpHeaders = {};
	/** The connection may carry another request after this answer. */
	reusable = false;
	private pending: Buffer | null = null;
	private headDone = false;
	private framing: Framing = {kind: 'none'};
	private readonly body: Buffer[] = [];
	private bodyBytes = 0;
	/** Chunked: bytes of the current chunk still to come (then its CRLF), or -1 when a size line is next. */
	private chunkLeft = -1;
	private inTrailers = false;
	private done = false;
	receivedAny = false;

	/** `maxBodyBytes`: push() throws BodyTooLargeError once the body passes it (the caller then closes the socket). */
	constructor(private readonly maxBodyBytes = Number.POSITIVE_INFINITY) {}

	/** The status line and headers have arrived. */
	get answered(): boolean {
		return this.headDone;
	}

	/** Feeds bytes; returns true when the answer is whole. Throws on a malformed answer. */
	push(chunk: Buffer): boolean {
		this.receivedAny = true;
		if (this.done) {
			// Bytes after a whole answer: the connection is out of step, so it is not used again.
			this.reusable = false;
			return true;
		}

		let bytes = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
		this.pending = null;
		while (!this.headDone) {
			const end = bytes.indexOf('\r\n\r\n');
			if (end === -1) {
				if (bytes.length > maxHeadBytes) {
					throw parseError('the answer head is too long');
				}

				this.pending = bytes;
				return false;
			}

			const informational = this.readHead(bytes.toString('latin1', 0, end));
			bytes = bytes.subarray(end + 4);
			if (!informational) {
				this.headDone = true;
			}
		}

		return this.readBody(bytes);
	}

	/** The socket ended: true when that completes the answer. */
	end(): boolean {
		if (this.done) {
			return true;
		}

		if (this.headDone && this.framing.kind === 'close') {
			this.done = true;
			return true;
		}

		return false;
	}

	bodyBuffer(): Buffer {
		return this.body.length === 1 ? this.body[0]! : Buffer.concat(this.body, this.bodyBytes);
	}

	/** Reads a status line and headers; true for a 1xx answer, which another head follows. */
	private readHead(text: string): boolean {
		const lines = text.split('\r\n');
		const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
		if (statusLine === null) {
			throw parseError(`Expected HTTP/, got "${(lines[0] ?? '').slice(0, 40)}"`);
		}

		const status = Number(statusLine[2]);
		if (status >= 100 && status < 200 && status !== 101) {
			return true;
		}

		const headers: http.IncomingHttpHeaders = {};
		for (let index = 1; index < lines.length; index++) {
			const line = lines[index]!;
			const colon = line.indexOf(':');
			if (colon <= 0) {
				throw parseError('a header line without a name');
			}

			const name = line.slice(0, colon).trim().toLowerCase();
			const value = line.slice(colon + 1).trim();
			const before = headers[name];
			if (name === 'set-cookie') {
				headers[name] = [...((before as string[] | undefined) ?? []), value];
			} else if (before === undefined) {
				headers[name] = value;
			} else if (!firstWins.has(name)) {
				headers[name] = `${String(before)}, ${value}`;
			}
		}

		this.status = status;
		this.headers = headers;
		const connection = String(headers['connection'] ?? '').toLowerCase();
		const keepAlive = statusLine[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
		const encoding = String(headers['transfer-encoding'] ?? '').toLowerCase();
		const length = headers['content-length'];
		if (status === 204 || status === 304) {
			this.framing = {kind: 'none'};
		} else if (/\bchunked\b/.test(encoding)) {
			this.framing = {kind: 'chunked'};
		} else if (length !== undefined) {
			if (!/^\d+$/.test(length)) {
				throw parseError(`Content-Length "${length}" is not a number`);
			}

			this.framing = {kind: 'length', remaining: Number(length)};
		} else {
			this.framing = {kind: 'close'};
		}

		this.reusable = keepAlive && this.framing.kind !== 'close';
		return false;
	}

	private keep(bytes: Buffer): void {
		if (bytes.length > 0) {
			// Each 'data' chunk is a buffer of its own (Node allocates one per read), so a view of it can be kept.
			this.bodyBytes += bytes.length;
			if (this.bodyBytes > this.maxBodyBytes) {
				throw new BodyTooLargeError(this.maxBodyBytes, false);
			}

			this.body.push(bytes);
		}
	}

	private finish(rest: Buffer): boolean {
		this.done = true;
		if (rest.length > 0) {
			this.reusable = false;
		}

		return true;
	}

	private readBody(bytes: Buffer): boolean {
		const framing = this.framing;
		switch (framing.kind) {
			case 'none': {
				return this.finish(bytes);
			}

			case 'close': {
				this.keep(bytes);
				return false;
			}

			case 'length': {
				const take = Math.min(framing.remaining, bytes.length);
				this.keep(bytes.subarray(0, take));
				framing.remaining -= take;
				return framing.remaining === 0 ? this.finish(bytes.subarray(take)) : false;
			}

			case 'chunked': {
				return this.readChunks(bytes);
			}
		}
	}

	private readChunks(input: Buffer): boolean {
		let bytes = input;
		for (;;) {
			if (this.chunkLeft > 0) {
				const take = Math.min(this.chunkLeft, bytes.length);
				this.keep(bytes.subarray(0, take));
				this.chunkLeft -= take;
				bytes = bytes.subarray(take);
				if (this.chunkLeft > 0) {
					return false;
				}

				this.chunkLeft = 0;
			}

			if (this.chunkLeft === 0) {
				// The CRLF after a chunk's data.
				if (bytes.length < 2) {
					this.pending = bytes.length > 0 ? Buffer.from(bytes) : null;
					return false;
				}

				if (bytes[0] !== 13 || bytes[1] !== 10) {
					throw parseError('a chunk does not end with CRLF');
				}

				bytes = bytes.subarray(2);
				this.chunkLeft = -1;
			}

			const lineEnd = bytes.indexOf('\r\n');
			if (lineEnd === -1) {
				if (bytes.length > 4096) {
					throw parseError('a chunk size line is too long');
				}

				this.pending = bytes.length > 0 ? Buffer.from(bytes) : null;
				return false;
			}

			const line = bytes.toString('latin1', 0, lineEnd);
			bytes = bytes.subarray(lineEnd + 2);
			if (this.inTrailers) {
				if (line === '') {
					return this.finish(bytes);
				}

				continue;
			}

			const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
			if (size === null) {
				throw parseError(`"${line.slice(0, 20)}" is not a chunk size`);
			}

			const length = Number.parseInt(size[1]!, 16);
			if (length === 0) {
				this.inTrailers = true;
			} else {
				this.chunkLeft = length;
			}
		}
	}
}

type Kept = {
	socket: net.Socket;
	/** It has carried an answer before. */
	used: boolean;
	/** While idle: the server closed it or it failed, so it leaves the idle list. */
	drop: () => void;
};

/**
 * Connections to one server, kept open between requests as Node's keep-alive agent keeps them: an idle one is
 * unreferenced (it does not hold the process open) and dropped when the server closes it.
 */
export class KeptConnections {
	private readonly idle: Kept[] = [];
	private readonly busy = new Set<net.Socket>();
	private closed = false;

	constructor(private readonly options: ConnectOptions) {}

	/**
	 * Sends `head` and resolves with the whole answer. Rejects with the socket's error, a parse error (code
	 * HPE_INVALID_RESPONSE), "socket hang up" (ECONNRESET) when the connection ends before an answer, BodyCutError
	 * when it ends in the body, BodyTooLargeError once the body passes `maxBodyBytes`, or StaleSocketError when a kept
	 * connection failed before any byte of an answer (safe to send again). `cancel` is given the function that fails the request and destroys its connection.
	 */
	get(head: string, cancel: (fail: (error: unknown) => void) => void, maxBodyBytes?: number): Promise<RawAnswer> {
		const kept = this.take();
		const {socket} = kept;
		return new Promise<RawAnswer>((resolve, reject) => {
			const reader = new AnswerReader(maxBodyBytes);
			let settled = false;
			const cleanup = () => {
				settled = true;
				socket.removeListener('data', onData);
				socket.removeListener('end', onEnd);
				socket.removeListener('error', lost);
				socket.removeListener('close', onClose);
				this.busy.delete(socket);
			};

			// Ends the request with `error` as it is: a timeout, an abort, a malformed answer.
			function fail(error: unknown) {
				if (!settled) {
					cleanup();
					socket.on('error', ignore);
					socket.destroy();
					reject(error);
				}
			}

			// The connection failed or ended under the request: said the way Node's client says it.
			function lost(error: unknown) {
				fail(kept.used && !reader.receivedAny ? new StaleSocketError(error) : reader.answered ? new BodyCutError(error) : error);
			}

			const succeed = () => {
				cleanup();
				kept.used = true;
				if (reader.reusable && !this.closed && !socket.destroyed) {
					this.release(kept);
				} else {
					socket.destroy();
				}

				resolve({status: reader.status, headers: reader.headers, body: reader.bodyBuffer()});
			};

			function onData(chunk: Buffer) {
				let whole: boolean;
				try {
					whole = reader.push(chunk);
				} catch (error) {
					fail(error);
					return;
				}

				if (whole) {
					succeed();
				}
			}

			function onEnd() {
				if (reader.end()) {
					succeed();
				} else {
					lost(hangUp());
				}
			}

			function onClose() {
				lost(hangUp());
			}

			socket.on('data', onData);
			socket.on('end', onEnd);
			socket.on('error', lost);
			socket.on('close', onClose);
			cancel(fail);
			socket.write(head, 'latin1');
		});
	}

	/** Closes every connection; a request in flight fails with its socket. */
	close(): void {
		this.closed = true;
		for (const {socket} of this.idle.splice(0)) {
			socket.destroy();
		}

		for (const socket of this.busy) {
			socket.destroy();
		}
	}

	private take(): Kept {
		const kept = this.idle.pop() ?? this.connect();
		kept.socket.removeListener('error', kept.drop).removeListener('close', kept.drop).removeListener('end', kept.drop);
		kept.socket.ref();
		this.busy.add(kept.socket);
		return kept;
	}

	private release(kept: Kept): void {
		kept.socket.unref();
		kept.socket.on('error', kept.drop).on('close', kept.drop).on('end', kept.drop);
		this.idle.push(kept);
	}

	private connect(): Kept {
		const {host, port, tls: material} = this.options;
		const socket =
			material === null
				? net.connect({host, port})
				: tls.connect({host, port, ...material, servername: material.servername ?? (net.isIP(host) ? undefined : host)});
		socket.setNoDelay(true);
		socket.setKeepAlive(true, 1000);
		const kept: Kept = {
			socket,
			used: false,
			drop: () => {
				const index = this.idle.indexOf(kept);
				if (index !== -1) {
					this.idle.splice(index, 1);
				}

				socket.destroy();
			},
		};
		return kept;
	}
}
