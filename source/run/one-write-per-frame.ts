// ink brackets each frame with the terminal's synchronized-update markers (DEC mode 2026) and writes each marker on
// its own: three write(2) calls a frame, each a separate read and parse for the terminal, where one does. This
// stdout for ink holds what ink writes from the opening marker to the closing one and writes it as one chunk; a
// pair with nothing between them (a frame with no changed row) is not written at all. Everything else passes
// through: the properties, the listeners and any other write, at once.
const beginUpdate = '\u001B[?2026h';
const endUpdate = '\u001B[?2026l';

type WriteCallback = (error?: Error | null) => void;

export function oneWritePerFrame(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
	let held: string[] | null = null;

	const flush = () => {
		if (held === null) return;
		const chunks = held;
		held = null;
		// An opening marker alone is not worth a write; one with rows after it is written even without its end.
		if (chunks.length > 1) stdout.write(chunks.join(''));
	};

	const write = (chunk: unknown, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean => {
		if (typeof chunk !== 'string' || typeof encoding === 'function' || callback !== undefined) {
			flush();
			return stdout.write(chunk as string, encoding as BufferEncoding, callback); // write()'s own arguments
		}

		if (chunk === beginUpdate) {
			flush();
			held = [chunk];
			// ink writes a frame in one synchronous run: whatever is still held after it goes out regardless.
			queueMicrotask(flush);
			return true;
		}

		if (held === null) return stdout.write(chunk, encoding);
		if (chunk !== endUpdate) {
			held.push(chunk);
			return true;
		}

		const frame = held.length > 1 ? held.join('') + chunk : '';
		held = null;
		return frame === '' ? true : stdout.write(frame);
	};

	return new Proxy(stdout, {
		get(target, key) {
			if (key === 'write') return write;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value; // checked function
		},
	});
}
