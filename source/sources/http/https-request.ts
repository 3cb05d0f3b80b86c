// One GET, over pleg-top's kept connections or through a caller's agent (a proxy-url): a whole-request timeout,
// abort by signal, gzip.
import http from 'node:http';
import https from 'node:https';
import {BodyInflater, textOf, type BodyReader} from './body-text.js';
import {requestHead, type KeptConnections, type RawAnswer} from './kept-connections.js';
import {BodyCutError, BodyEncodingError, BodyTooLargeError, RequestTimeoutError, StaleSocketError} from './request-errors.js';

export type HttpAnswer = {
	status: number;
	headers: http.IncomingHttpHeaders;
	/** The body, decompressed, as UTF-8 text. */
	body: string;
};

export type RequestOptions = {
	url: URL;
	/** Node's client through this agent (a kubeconfig's proxy-url), or pleg-top's own kept connections. */
	via: {agent: http.Agent} | {connections: KeptConnections};
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

/** A GET that `cancel` can fail at any time (destroying its connection); resolves with the raw answer. */
type Send = (cancel: (fail: (error: unknown) => void) => void) => Promise<RawAnswer>;

/** Node's http client through `agent`. */
function sendThroughAgent(url: URL, agent: http.Agent, headers: Record<string, string>, maxBodyBytes: number): Send {
	return (cancel) =>
		new Promise((resolve, reject) => {
			const request = (url.protocol === 'http:' ? http : https).request(url, {method: 'GET', agent, headers});
			let answered = false;
			let settled = false;
			const fail = (error: unknown) => {
				if (!settled) {
					settled = true;
					reject(error);
					request.destroy();
				}
			};

			cancel(fail);
			request.on('error', (error) => {
				const stale = !answered && request.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
				fail(stale ? new StaleSocketError(error) : error);
			});
			request.on('response', (response) => {
				answered = true;
				const chunks: Buffer[] = [];
				let received = 0;
				response.on('error', (error) => fail(new BodyCutError(error)));
				response.on('close', () => {
					if (!response.complete) {
						fail(new BodyCutError(new Error('connection closed')));
					}
				});
				response.on('data', (chunk: Buffer) => {
					received += chunk.length;
					if (received > maxBodyBytes) fail(new BodyTooLargeError(maxBodyBytes, false));
					else chunks.push(chunk);
				});
				response.on('end', () => {
					settled = true;
					resolve({status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks)});
				});
			});
			request.end();
		});
}

/** The body as text, gunzipped (up to `maxBytes`) when the answer says so. */
function decodeBody(answer: RawAnswer, read: BodyReader | undefined, maxBytes: number): string {
	const gzip = /\bgzip\b/i.test(String(answer.headers['content-encoding'] ?? ''));
	try {
		return gzip ? inflater.text(answer.body, read, maxBytes) : textOf(answer.body, read);
	} catch (error) {
		throw error instanceof BodyTooLargeError ? error : new BodyEncodingError(error);
	}
}

/**
 * GET `url`; rejects with the socket/TLS error, RequestTimeoutError, BodyCutError, BodyEncodingError,
 * BodyTooLargeError, or the signal's reason.
 */
export async function getText(options: RequestOptions): Promise<HttpAnswer> {
	const {url, via, headers, timeoutMs, signal, readBody: read, maxBodyBytes = defaultMaxBodyBytes} = options;
	if (signal.aborted) {
		throw abortReason(signal);
	}

	const send: Send =
		'agent' in via
			? sendThroughAgent(url, via.agent, headers, maxBodyBytes)
			: (cancel) => via.connections.get(requestHead(url.pathname + url.search, url.host, headers), cancel, maxBodyBytes);
	let timer: NodeJS.Timeout | undefined;
	let onAbort: (() => void) | undefined;
	try {
		const answer = await send((fail) => {
			timer = setTimeout(() => fail(new RequestTimeoutError(timeoutMs)), timeoutMs);
			onAbort = () => fail(abortReason(signal));
			signal.addEventListener('abort', onAbort, {once: true});
		});
		return {status: answer.status, headers: answer.headers, body: decodeBody(answer, read, maxBodyBytes)};
	} finally {
		clearTimeout(timer);
		signal.removeEventListener('abort', onAbort!);
	}
}
