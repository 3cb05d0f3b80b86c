// One streaming GET, as a watch is read: the answer's body handed on a line at a time while it arrives, until the
// server ends it. The head must come within the request timeout; after it, the stream may be quiet for at most
// `idleMs` (a watch the server forgot, or a connection cut without a word). A non-2xx answer is read whole and
// returned, as getText returns one.
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import {BodyCutError, BodyTooLargeError, RequestTimeoutError} from './request-errors.js';

export type LineStreamOptions = {
	url: URL;
	agent: http.Agent;
	headers: Record<string, string>;
	/** Limit until the answer's head, ms. */
	timeoutMs: number;
	/** Limit on a quiet stream after the head, ms. */
	idleMs: number;
	signal: AbortSignal;
	/** The longest line (or non-2xx body) read, bytes. */
	maxLineBytes: number;
	/** Each complete line of a 2xx answer, in order. */
	onLine: (line: string) => void;
};

/** How the stream ended: the server closed a 2xx answer (`body` empty), or the whole body of any other. */
export type StreamEnd = {status: number; headers: http.IncomingHttpHeaders; body: string};

/** Rejects with the socket/TLS error, RequestTimeoutError, BodyCutError, BodyTooLargeError, or the signal's reason. */
export async function streamLines(options: LineStreamOptions): Promise<StreamEnd> {
	const {url, signal} = options;
	if (signal.aborted) throw signal.reason;
	const request = (url.protocol === 'http:' ? http : https).request(url, {method: 'GET', agent: options.agent, headers: options.headers});
	return new Promise<StreamEnd>((resolve, reject) => {
		let settled = false;
		let timer = setTimeout(() => fail(new RequestTimeoutError(options.timeoutMs)), options.timeoutMs);
		const finish = (outcome: () => void) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			signal.removeEventListener('abort', onAbort);
			outcome();
		};

		const fail = (error: unknown) =>
			finish(() => {
				reject(error);
				request.destroy();
			});
		const onAbort = () => fail(signal.reason);
		const quiet = () => {
			clearTimeout(timer);
			timer = setTimeout(() => fail(new RequestTimeoutError(options.idleMs)), options.idleMs);
		};

		signal.addEventListener('abort', onAbort, {once: true});
		request.on('error', fail);
		request.on('response', (response) => {
			const ok = (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;
			const gzip = /\bgzip\b/i.test(String(response.headers['content-encoding'] ?? ''));
			const body = gzip ? response.pipe(zlib.createGunzip()) : response;
			const lines = lineSplitter(options.maxLineBytes, ok ? options.onLine : undefined);
			quiet();
			body.on('data', (chunk: Buffer) => {
				quiet();
				try {
					lines.push(chunk);
				} catch (error) {
					fail(error);
				}
			});
			body.on('error', (error) => fail(new BodyCutError(error)));
			response.on('close', () => {
				if (!response.complete) fail(new BodyCutError(new Error('connection closed')));
			});
			body.on('end', () => {
				finish(() => resolve({status: response.statusCode ?? 0, headers: response.headers, body: ok ? '' : lines.rest()}));
			});
		});
		request.end();
	});
}

/** Bytes in, complete lines out (to `onLine`, or kept whole when there is none); at most `maxBytes` pending. */
function lineSplitter(maxBytes: number, onLine: ((line: string) => void) | undefined) {
	let pending: Buffer = Buffer.alloc(0);
	return {
		push(chunk: Buffer): void {
			pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
			if (onLine !== undefined) {
				let newline = pending.indexOf(10);
				while (newline >= 0) {
					const line = pending.subarray(0, newline).toString('utf8').trim();
					pending = pending.subarray(newline + 1);
					if (line !== '') onLine(line);
					newline = pending.indexOf(10);
				}
			}

			if (pending.length > maxBytes) throw new BodyTooLargeError(maxBytes, false);
		},
		rest: () => pending.toString('utf8'),
	};
}
