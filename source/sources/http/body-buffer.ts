// An answer's body received into a buffer kept between answers. Collecting each answer's chunks and joining them
// made a new buffer per answer; V8 counts buffers as external memory and starts a full collection once enough of
// it has been allocated since the last one, so at 100 ms ticks a new body buffer a tick kept the collector busy
// (bench/README.md).
import {BodyTooLargeError} from './request-errors.js';

/** What an unsized answer (chunked, or delimited by the close) starts with when no kept buffer is free. */
const firstSize = 64 * 1024;
/** No buffer sized up front past this from what an answer claims (Content-Length): it grows as bytes come. */
const maxUpFront = 16 * 1024 * 1024;
/**
 * At most this many buffers wait between answers: one per request in flight at once (the overview's default is 8;
 * a Prometheus refresh asks its 12 queries at once, and with 8 kept made four new buffers a refresh).
 */
const maxFree = 12;
/** And at most these bytes in all, so one huge answer, or many large ones at once, are not held for the rest of the run. */
const maxFreeBytes = 64 * 1024 * 1024;

/**
 * The buffers waiting between answers. Requests in flight at the same time each hold one of their own; a body's
 * bytes are read (decoded to text) before its buffer is given back, so a buffer is never read after reuse.
 */
export class BodyBuffers {
	readonly #free: Buffer[] = [];

	/**
	 * A body of at most `maxBytes`; `expected` is the length the answer states (Content-Length), or null. Throws
	 * BodyTooLargeError at once when the stated length already passes `maxBytes`.
	 */
	open(maxBytes: number, expected: number | null): ReceivedBody {
		if (expected !== null && expected > maxBytes) {
			throw new BodyTooLargeError(maxBytes, false);
		}

		const wanted = Math.min(expected ?? 0, maxUpFront, maxBytes);
		const kept = this.#free.pop();
		const buffer =
			kept !== undefined && kept.length >= wanted
				? kept
				: Buffer.allocUnsafe(Math.min(Math.max(wanted, kept?.length ?? 0, firstSize), maxBytes));
		return new ReceivedBody(buffer, maxBytes, (done) => this.#giveBack(done));
	}

	/** The buffers waiting for the next answer (tests check that they are reused and bounded). */
	get free(): readonly Buffer[] {
		return this.#free;
	}

	#giveBack(buffer: Buffer): void {
		const held = this.#free.reduce((sum, free) => sum + free.length, 0);
		if (this.#free.length < maxFree && held + buffer.length <= maxFreeBytes) {
			this.#free.push(buffer);
		}
	}
}

/** One answer's body as it arrives. */
export class ReceivedBody {
	#buffer: Buffer;
	#length = 0;
	#released = false;

	constructor(
		buffer: Buffer,
		private readonly maxBytes: number,
		private readonly giveBack: (buffer: Buffer) => void,
	) {
		this.#buffer = buffer;
	}

	/** Copies `chunk` in; throws BodyTooLargeError when it would take the body past `maxBytes` (nothing is copied then). */
	append(chunk: Buffer): void {
		if (this.#released) {
			// The buffer may be another answer's by now; these bytes are read by nobody.
			return;
		}

		const length = this.#length + chunk.length;
		if (length > this.maxBytes) {
			throw new BodyTooLargeError(this.maxBytes, false);
		}

		if (length > this.#buffer.length) {
			const next = Buffer.allocUnsafe(Math.min(Math.max(this.#buffer.length * 2, length), this.maxBytes));
			this.#buffer.copy(next, 0, 0, this.#length);
			this.#buffer = next;
		}

		chunk.copy(this.#buffer, this.#length);
		this.#length = length;
	}

	/** The bytes received so far: a view of the kept buffer, valid until release(). */
	get bytes(): Buffer {
		return this.#buffer.subarray(0, this.#length);
	}

	/** The body is no longer read: its buffer waits for the next answer. Once only; later calls do nothing. */
	release(): void {
		if (!this.#released) {
			this.#released = true;
			this.giveBack(this.#buffer);
		}
	}
}
