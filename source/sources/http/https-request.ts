// One GET through a caller-owned keep-alive agent: a whole-request timeout, abort by signal, gzip.
import http from 'node:http';
import https from 'node:https';
import {BodyInflater, textOf, type BodyReader} from './body-text.js';

export type HttpAnswer = {
	status: number;
	headers: http.IncomingHttpHeaders;
	/** The body, decompressed, as UTF-8 text. */
	body: string;
};

/** The whole request (connect, headers and body) took longer than `timeoutMs`. */
export class RequestTimeoutError extends Error {
	readonly timeoutMs: number;

	constructor(timeoutMs: number) {
		super(`no answer within ${timeoutMs} ms`);
		this.name = 'RequestTimeoutError';
		this.timeoutMs = timeoutMs;
	}
}

/** The connection closed or the gzip stream broke before the whole body arrived. */
export class BodyCutError extends Error {
	constructor(cause: unknown) {
		super('the answer was cut off before its end', {cause});
		this.name = 'BodyCutError';
	}
}

/** The whole answer arrived, but its gzip encoding does not inflate (the body was cut or damaged on its way). */
export class BodyEncodingError extends Error {
	constructor(cause: unknown) {
		super(`its gzip encoding is damaged: ${cause instanceof Error ? cause.message : String(cause)}`, {cause});
		this.name = 'BodyEncodingError';
	}
}

/**
 * A kept-alive socket that the server had already closed failed before any answer: the request never
 * reached the server and is safe to send again (Node's documented keep-alive race).
 */
export class StaleSocketError extends Error {
	constructor(cause: unknown) {
		super('a kept-alive connection was closed by the server', {cause});
		this.name = 'StaleSocketError';
	}
}

export type RequestOptions = {
	url: URL;
	agent: http.Agent;
	headers: Record<string, string>;
	/** Limit for the whole request, ms. */
	timeoutMs: number;
	signal: AbortSignal;
	/** How the body becomes text (the whole body decoded when absent or when it declines). */
	readBody?: BodyReader;
};

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** One for the process: requests end one at a time on the event loop, and each decodes its text before returning. */
const inflater = new BodyInflater();

function readBody(
	response: http.IncomingMessage,
	read: BodyReader | undefined,
	fail: (error: unknown) => void,
	done: (body: string) => void,
): void {
	const gzip = /\bgzip\b/i.test(String(response.headers['content-encoding'] ?? ''));
	const chunks: Buffer[] = [];
	response.on('error', (error) => fail(new BodyCutError(error)));
	response.on('close', () => {
		if (!response.complete) {
			fail(new BodyCutError(new Error('connection closed')));
		}
	});
	response.on('data', (chunk: Buffer) => chunks.push(chunk));
	response.on('end', () => {
		const body = Buffer.concat(chunks);
		let text: string;
		try {
			text = gzip ? inflater.text(body, read) : textOf(body, read);
		} catch (error) {
			fail(new BodyEncodingError(error));
			return;
		}

		done(text);
	});
}

/** GET `url`; rejects with the socket/TLS error, RequestTimeoutError, BodyCutError, BodyEncodingError, or the signal's reason. */
export function getText(options: RequestOptions): Promise<HttpAnswer> {
	const {url, agent, headers, timeoutMs, signal, readBody: read} = options;
	return new Promise((resolve, reject) => {
		if (signal.aborted) {
			reject(abortReason(signal));
			return;
		}

		const request = (url.protocol === 'http:' ? http : https).request(url, {method: 'GET', agent, headers});
		let settled = false;
		const settle = (action: () => void) => {
			if (!settled) {
				settled = true;
				clearTimeout(timer);
				signal.removeEventListener('abort', onAbort);
				action();
			}
		};

		const fail = (error: unknown) => {
			if (!settled) {
				settle(() => reject(error));
				request.destroy();
			}
		};

		const timer = setTimeout(() => fail(new RequestTimeoutError(timeoutMs)), timeoutMs);
		const onAbort = () => fail(abortReason(signal));
		signal.addEventListener('abort', onAbort, {once: true});
		let answered = false;
		request.on('error', (error) => {
			const stale = !answered && request.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
			fail(stale ? new StaleSocketError(error) : error);
		});
		request.on('response', (response) => {
			answered = true;
			readBody(response, read, fail, (body) => settle(() => resolve({status: response.statusCode ?? 0, headers: response.headers, body})));
		});
		request.end();
	});
}
