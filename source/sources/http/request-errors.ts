// How a request can fail besides the socket's and TLS's own errors; classify.ts turns each into the user's words.

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
 * The body passed `limitBytes` (--max-body-size): reading stopped there and the connection was closed. `decoded`
 * when it passed the limit only once gunzipped (a small gzip body can inflate to gigabytes).
 */
export class BodyTooLargeError extends Error {
	readonly limitBytes: number;
	readonly decoded: boolean;

	constructor(limitBytes: number, decoded: boolean) {
		super(`the body passed ${limitBytes} bytes${decoded ? ' after decompression' : ''}`);
		this.name = 'BodyTooLargeError';
		this.limitBytes = limitBytes;
		this.decoded = decoded;
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
