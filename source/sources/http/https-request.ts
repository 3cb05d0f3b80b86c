// One GET through Node's http client and a keep-alive agent (the transport's own, or a kubeconfig proxy-url's): a
// whole-request timeout, abort by signal, a body cap, gzip. The body is received into a buffer kept between answers
// and decoded to text before the request settles.
// Node's client, not a reader of pleg-top's own: a hand-written HTTP/1.1 reader is parsing on the path that carries
// cluster credentials, for a saving a user does not feel (bench/README.md).
import http from 'node:http';
import https from 'node:https';
import {BodyBuffers, type ReceivedBody} from './body-buffer.js';
import {BodyInflater, textOf, type BodyReader} from './body-text.js';
import {BodyCutError, BodyEncodingError, BodyTooLargeError, RequestTimeoutError, StaleSocketError} from './request-errors.js';
import {codeOf} from '../../domain/text/thrown.js';

export type HttpAnswer = {
	status: number;
	headers: http.IncomingHttpHeaders;
	/** The body, decompressed, as UTF-8 text. */
	body: string;
};

export type RequestOptions = {
	url: URL;
	/** Keeps the connections: the transport's keep-alive agent, or the agent of a kubeconfig's proxy-url. */
	agent: http.Agent;
	headers: Record<string, string>;
	/** Limit for the whole request, ms. */
	timeoutMs: number;
	signal: AbortSignal;
	/** How the body becomes text (the whole body decoded when absent or when it declines). */
	readBody?: BodyReader;
	/** The most body bytes read, as received and once gunzipped (--max-body-size); past it the request fails. @default 64 MiB */
	maxBodyBytes?: number | undefined;
};

/**
 * The default cap on a body: a kubelet's /metrics is a few MB at most, and without a cap an endless body (or a 1 MB
 * gzip bomb) grows the process until the machine runs out of memory.
 */
export const defaultMaxBodyBytes = 64 * 1024 * 1024;

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** One for the process: requests end one at a time on the event loop, and each decodes its text before returning. */
const inflater = new BodyInflater();
/** The same for the bytes as received: a request in flight holds one buffer until its text is decoded. */
const bodies = new BodyBuffers();

/** A Content-Length the body can be sized by, or null (absent, or not a plain number: Node's parser judges it). */
function statedLength(headers: http.IncomingHttpHeaders): number | null {
	const length = headers['content-length'];
	return length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : null;
}

/** The body as text, gunzipped (up to `maxBytes`) when the answer says so. */
function decodeBody(headers: http.IncomingHttpHeaders, bytes: Buffer, read: BodyReader | undefined, maxBytes: number): string {
	const gzip = /\bgzip\b/i.test(String(headers['content-encoding'] ?? ''));
	try {
		return gzip ? inflater.text(bytes, read, maxBytes) : textOf(bytes, read);
	} catch (error) {
		throw error instanceof BodyTooLargeError ? error : new BodyEncodingError(error);
	}
}

/**
 * GET `url`; rejects with the socket/TLS error, Node's ERR_INVALID_CHAR for a header value that would end the head
 * early (nothing is sent), RequestTimeoutError, BodyCutError, BodyEncodingError, BodyTooLargeError,
 * StaleSocketError (a kept connection closed under a request that never reached the server: safe to send again),
 * or the signal's reason.
 */
export async function getText(options: RequestOptions): Promise<HttpAnswer> {
	const {url, agent, headers, timeoutMs, signal, readBody: read, maxBodyBytes = defaultMaxBodyBytes} = options;
	if (signal.aborted) {
		throw abortReason(signal);
	}

	// Throws before anything is sent on a header value with CR, LF or another control character.
	const request = (url.protocol === 'http:' ? http : https).request(url, {method: 'GET', agent, headers});
	return new Promise<HttpAnswer>((resolve, reject) => {
		let body: ReceivedBody | null = null;
		let answered = false;
		let settled = false;
		const settle = () => {
			settled = true;
			clearTimeout(timer);
			signal.removeEventListener('abort', onAbort);
			body?.release();
		};

		// Ends the request with `error` and destroys its connection: a timeout, an abort, a body past the cap.
		const fail = (error: unknown) => {
			if (!settled) {
				settle();
				reject(error);
				request.destroy();
			}
		};

		const onAbort = () => fail(abortReason(signal));
		const timer = setTimeout(() => fail(new RequestTimeoutError(timeoutMs)), timeoutMs);
		signal.addEventListener('abort', onAbort, {once: true});
		request.on('error', (error) => {
			const stale = !answered && request.reusedSocket && codeOf(error) === 'ECONNRESET';
			fail(stale ? new StaleSocketError(error) : error);
		});
		request.on('response', (response) => {
			answered = true;
			try {
				body = bodies.open(maxBodyBytes, statedLength(response.headers));
			} catch (error) {
				fail(error);
				return;
			}

			const received = body;
			response.on('error', (error) => fail(new BodyCutError(error)));
			response.on('close', () => {
				if (!response.complete) fail(new BodyCutError(new Error('connection closed')));
			});
			response.on('data', (chunk: Buffer) => {
				try {
					received.append(chunk);
				} catch (error) {
					fail(error);
				}
			});
			response.on('end', () => {
				if (settled) return;
				// The whole answer is in and the connection already back with the agent: a body that does not decode
				// settles the request without touching the connection.
				let text: string;
				try {
					text = decodeBody(response.headers, received.bytes, read, maxBodyBytes);
				} catch (error) {
					settle();
					reject(error);
					return;
				}

				settle();
				resolve({status: response.statusCode ?? 0, headers: response.headers, body: text});
			});
		});
		request.end();
	});
}
