// A response body to text: gunzipped into one buffer kept between scrapes, then decoded.
import {constants as bufferConstants, isAscii} from 'node:buffer';
import zlib from 'node:zlib';
import {BodyTooLargeError} from './request-errors.js';
import {codeOf} from '../../domain/text/thrown.js';

/**
 * The body as UTF-8 text. A kubelet's /metrics is ASCII: checked in one pass, it is copied byte for byte (latin1),
 * the same string as UTF-8 decoding gives for ASCII at a fraction of its cost (bench/README.md). Anything else, a BOM or a broken byte included, takes the UTF-8 decoder, U+FFFD and all.
 */
export function decodeUtf8(body: Buffer): string {
	return isAscii(body) ? body.toString('latin1') : body.toString('utf8');
}

/**
 * zlib's one-call gunzip, told the output's size from the gzip trailer (ISIZE, the input's length mod 2^32) so it
 * writes one buffer instead of 16 KB pieces it then copies into one. The fallback when zlib's engine is not the
 * shape {@link BodyInflater} needs.
 */
export function gunzipBody(body: Buffer, maxBytes: number = bufferConstants.MAX_LENGTH): Buffer {
	// One byte more than the body, so zlib ends with room left and allocates no second piece to look for more. A
	// trailer that lies (several gzip members, a damaged body) only costs more pieces; zlib itself still decides.
	const chunkSize = Math.min(Math.max(statedSize(body) + 1, zlib.constants.Z_DEFAULT_CHUNK), maxHint);
	try {
		return zlib.gunzipSync(body, {chunkSize, maxOutputLength: maxBytes});
	} catch (error) {
		throw codeOf(error) === 'ERR_BUFFER_TOO_LARGE' ? new BodyTooLargeError(maxBytes, true) : error;
	}
}

function statedSize(body: Buffer): number {
	return body.length >= 18 ? body.readUInt32LE(body.length - 4) : 0;
}

/** No buffer sized from the trailer above this: a trailer claiming gigabytes must not allocate them up front. */
const maxHint = 16 * 1024 * 1024;
/** A larger body is inflated into a buffer of its own, so one huge answer is not held for the rest of the run. */
const maxKept = 64 * 1024 * 1024;

/**
 * Turns a body's bytes into the text a caller reads, or null to have the whole body decoded. The bytes are the
 * reader's to overwrite: nothing reads them after it.
 */
export type BodyReader = (bytes: Buffer) => string | null;

/** The text `read` gives, else the whole body decoded. */
export function textOf(bytes: Buffer, read?: BodyReader): string {
	return read?.(bytes) ?? decodeUtf8(bytes);
}

/** What Node's zlib engine has had since Node 10 (lib/zlib.js's own one-call path drives it the same way). */
type EngineHandle = {
	reset(): void;
	writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void;
};
type Engine = zlib.Gunzip & {_handle?: EngineHandle; _writeState?: Uint32Array};

/**
 * Gunzips bodies through one zlib engine into one output buffer kept between calls, and returns their text.
 *
 * Why not `zlib.gunzipSync`: it returns a new body-sized buffer every scrape. V8 counts buffers as external memory
 * and, once that has grown by the old generation's headroom since the last full collection, starts one, each
 * followed by the compiler re-optimising what it dropped (bench/README.md). The text is decoded before the call returns, so the kept
 * buffer never leaves this object.
 */
export class BodyInflater {
	#engine: Engine | null = null;
	#unsupported = false;
	#kept: Buffer = Buffer.alloc(0);
	readonly #createEngine: () => zlib.Gunzip;

	constructor(createEngine: () => zlib.Gunzip = () => zlib.createGunzip()) {
		this.#createEngine = createEngine;
	}

	/**
	 * The gunzipped body as text: `read`'s text when it gives one, else the whole body decoded. Throws zlib's own
	 * error for a damaged or cut body, BodyTooLargeError once the gunzipped bytes pass `maxBytes` (inflating stops
	 * there: a gzip bomb of 1 MB costs no more than `maxBytes`).
	 */
	text(body: Buffer, read?: BodyReader, maxBytes: number = bufferConstants.MAX_LENGTH): string {
		const engine = this.#readyEngine();
		if (!engine) {
			return textOf(gunzipBody(body, maxBytes), read);
		}

		const {handle, state} = engine;
		handle.reset();
		let output = this.#outputFor(body, maxBytes);
		let inOffset = 0;
		let outOffset = 0;
		for (;;) {
			handle.writeSync(zlib.constants.Z_FINISH, body, inOffset, body.length - inOffset, output, outOffset, output.length - outOffset);
			if (engine.stream.errored) {
				// zlib has closed this engine; the next body gets a new one.
				this.#engine = null;
				throw engine.stream.errored;
			}

			// zlib's room left in `output` and input left unread, as lib/zlib.js reads them.
			const outLeft = state[0]!; // zlib's write state
			outOffset = output.length - outLeft;
			inOffset = body.length - state[1]!; // zlib's write state
			if (outOffset > maxBytes) {
				// Inflating stops here, the engine is reset before the next body. Growth stops one byte past the limit.
				throw new BodyTooLargeError(maxBytes, true);
			}

			if (outLeft > 0) {
				break;
			}

			output = grown(output, maxBytes + 1);
		}

		if (output.length <= maxKept) {
			this.#kept = output;
		}

		return textOf(output.subarray(0, outOffset), read);
	}

	/** The buffer the next body is written into (tests check that it is reused). */
	get keptBuffer(): Buffer {
		return this.#kept;
	}

	#outputFor(body: Buffer, maxBytes: number): Buffer {
		const wanted = Math.min(statedSize(body) + 1, maxHint, maxBytes + 1);
		return this.#kept.length >= wanted ? this.#kept : Buffer.allocUnsafe(Math.max(wanted, zlib.constants.Z_DEFAULT_CHUNK));
	}

	#readyEngine(): {stream: Engine; handle: EngineHandle; state: Uint32Array} | null {
		if (this.#unsupported) {
			return null;
		}

		const stream = (this.#engine ??= this.#createEngine() as Engine); // its own stream
		const handle = stream._handle;
		const state = stream._writeState;
		if (typeof handle?.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
			this.#unsupported = true;
			this.#engine = null;
			stream.close();
			return null;
		}

		if (stream.listenerCount('error') === 0) {
			// The error is read from `errored` at once; the stream's own 'error' event, a tick later, must not crash.
			stream.on('error', () => undefined);
		}

		return {stream, handle, state};
	}
}

/** Twice the room (at most `atMost` bytes), the bytes written so far carried over. */
function grown(output: Buffer, atMost: number): Buffer {
	const size = Math.min(output.length * 2, atMost, bufferConstants.MAX_LENGTH);
	if (size <= output.length) {
		throw new RangeError(`the gunzipped body is larger than ${bufferConstants.MAX_LENGTH} bytes`);
	}

	const next = Buffer.allocUnsafe(size);
	output.copy(next);
	return next;
}
