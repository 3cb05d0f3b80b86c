// The terminal's stdout for a locale that is not UTF-8: every string written passes through the glyph table
// (screen/layout/glyphs.ts) on its way out, so ink, the title and the alternate-screen switches all reach the
// terminal as ASCII. Everything else (the size, the listeners) is the stream's own.
import {asciiText} from '../screen/layout/glyphs.js';

type WriteCallback = (error?: Error | null) => void;

export function asciiStream(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
	const write = (chunk: unknown, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean =>
		stdout.write(typeof chunk === 'string' ? asciiText(chunk) : (chunk as Uint8Array), encoding as BufferEncoding, callback); // write()'s own arguments

	return new Proxy(stdout, {
		get(target, key) {
			if (key === 'write') return write;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value; // checked function
		},
	});
}
