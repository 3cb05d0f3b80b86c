// Prometheus' own compact vector answers, read in one pass over their bytes: no decoding, no JSON.parse, no label
// strings but those asked for: a refresh of a large fleet is a dozen large answers (bench/README.md). Any answer
// this does not recognise is left to the checked general path (envelope.ts).
import {isAscii} from 'node:buffer';
import {parseValue} from '../../domain/exposition/parse-value.js';

/** One element of an instant vector. */
export type VectorSample = {metric: Record<string, string>; value: number};

/** One sample as the figures read it: its labels by name and its value. */
export type SampleReader = {
	label(name: string): string | undefined;
	/** label(name) === text, without making the label's string. */
	labelIs(name: string, text: string): boolean;
	readonly value: number;
};

/** A sample of the general path, read through the same door as a compact one. */
export function sampleReader(sample: VectorSample): SampleReader {
	return {
		label: (name) => sample.metric[name],
		labelIs: (name, text) => sample.metric[name] === text,
		value: sample.value,
	};
}

/** Prometheus' own answer up to the samples, compact and in its key order (api/v1 writes it so). */
const vectorHead = '{"status":"success","data":{"resultType":"vector","result":[';
const backslash = 0x5c;
const quote = 0x22;
const comma = 0x2c;
const digit0 = 0x30;
const dot = 0x2e;
const minus = 0x2d;
const plus = 0x2b;

/** Whether `code` may be part of a JSON number (the sample's timestamp). */
function numberChar(code: number): boolean {
	return (code >= digit0 && code <= 0x39) || code === dot || code === plus || code === minus || code === 0x65 || code === 0x45;
}

/** Whether `bytes` hold the ASCII `text` at `at`. */
function holds(bytes: Buffer, text: string, at: number): boolean {
	if (at + text.length > bytes.length) return false;
	for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

/** Whether bytes [start, end) are printable ASCII: a label visibleLine would leave as it is. */
function printable(bytes: Buffer, start: number, end: number): boolean {
	for (let at = start; at < end; at++) {
		const code = bytes[at]!; // in bounds
		if (code < 0x20 || code > 0x7e) return false;
	}

	return true;
}

/**
 * The number written in `bytes` from `start` to `end` (ASCII), as parseValue reads it (NaN for what it does not).
 * Plain decimals of up to 15 digits are read in place: their digits as an integer (exact below 2^53) over a power of
 * ten (exact up to 10^22) is one correctly rounded division, the same double Number() gives; anything else is sliced.
 */
export function numberAt(bytes: Buffer, start: number, end: number): number {
	let at = start;
	const sign = bytes[at] === minus ? -1 : 1;
	if (sign < 0 || bytes[at] === plus) at++;
	let digits = 0;
	let mantissa = 0;
	let fraction = -1;
	for (; at < end; at++) {
		const code = bytes[at]!; // in bounds
		if (code === dot && fraction < 0) {
			fraction = 0;
		} else if (code >= digit0 && code <= 0x39 && digits < 15) {
			mantissa = mantissa * 10 + (code - digit0);
			digits++;
			if (fraction >= 0) fraction++;
		} else {
			return parseValue(bytes.toString('latin1', start, end)) ?? Number.NaN;
		}
	}

	if (digits === 0) return parseValue(bytes.toString('latin1', start, end)) ?? Number.NaN;
	return (sign * mantissa) / 10 ** Math.max(0, fraction);
}

/**
 * A sample of a compact answer while it is visited: offsets into the answer's bytes, so reading a refresh of
 * 10,000 nodes makes no label strings and no objects per sample (only the labels asked for become strings).
 */
export class CompactSample implements SampleReader {
	/** Per label: name start, name end, value start, value end. */
	readonly offsets: number[] = [];
	labels = 0;
	value = Number.NaN;

	constructor(private readonly bytes: Buffer) {}

	#find(name: string): number {
		for (let i = 0; i < this.labels * 4; i += 4) {
			const start = this.offsets[i]!; // in bounds
			if (this.offsets[i + 1]! - start === name.length && holds(this.bytes, name, start)) return i; // in bounds
		}

		return -1;
	}

	label(name: string): string | undefined {
		const i = this.#find(name);
		return i < 0 ? undefined : this.bytes.toString('latin1', this.offsets[i + 2], this.offsets[i + 3]);
	}

	labelIs(name: string, text: string): boolean {
		const i = this.#find(name);
		return i >= 0 && this.offsets[i + 3]! - this.offsets[i + 2]! === text.length && holds(this.bytes, text, this.offsets[i + 2]!); // in bounds
	}

	/** Each label as [name, value] strings (compactVector's records). */
	*entries(): Generator<[string, string]> {
		for (let i = 0; i < this.labels * 4; i += 4) {
			yield [
				this.bytes.toString('latin1', this.offsets[i], this.offsets[i + 1]),
				this.bytes.toString('latin1', this.offsets[i + 2], this.offsets[i + 3]),
			];
		}
	}
}

/**
 * Visits each sample of Prometheus' own compact answer in one pass over its bytes, without decoding or JSON.parse;
 * the reader given to `visit` is the same object for every sample and valid only during the call. False for any
 * other answer (an envelope with warnings, whitespace, an escape, a byte beyond printable ASCII in a label, another
 * order), which the general path reads; the samples visited before it was found out were read right and are read
 * again there. Why: for a large fleet, parsing the answers into objects, then copying the labels, took most of the
 * CPU of a refresh, and even decoded once they were strings only a full collection frees (bench/README.md). ASCII without a backslash means every JSON
 * string is its raw bytes; printable labels are ones visibleLine would leave as they are.
 */
export function eachCompactSample(body: Buffer, visit: (sample: CompactSample, place: number) => void): boolean {
	if (!holds(body, vectorHead, 0) || !isAscii(body) || body.includes(backslash)) return false;
	const sample = new CompactSample(body);
	let at = vectorHead.length;
	if (holds(body, ']}}', at)) return body.length === at + 3;
	for (let place = 0; ; place++) {
		if (!holds(body, '{"metric":{', at)) return false;
		at += 11;
		sample.labels = 0;
		while (body[at] === quote) {
			const nameEnd = body.indexOf(quote, at + 1);
			if (nameEnd < 0 || !holds(body, ':"', nameEnd + 1)) return false;
			const valueEnd = body.indexOf(quote, nameEnd + 3);
			if (valueEnd < 0 || !printable(body, at + 1, valueEnd)) return false;
			const i = sample.labels++ * 4;
			sample.offsets[i] = at + 1;
			sample.offsets[i + 1] = nameEnd;
			sample.offsets[i + 2] = nameEnd + 3;
			sample.offsets[i + 3] = valueEnd;
			at = valueEnd + 1;
			if (body[at] === comma && body[at + 1] === quote) at++;
		}

		if (!holds(body, '},"value":[', at)) return false;
		at += 11;
		const stamp = at;
		while (numberChar(body[at]!)) at++; // in bounds
		if (at === stamp || !holds(body, ',"', at)) return false;
		const valueEnd = body.indexOf(quote, at + 2);
		if (valueEnd < 0 || !holds(body, ']}', valueEnd + 1) || !printable(body, at + 2, valueEnd)) return false;
		sample.value = numberAt(body, at + 2, valueEnd);
		visit(sample, place);
		at = valueEnd + 3;
		if (body[at] === comma) {
			at++;
			continue;
		}

		return holds(body, ']}}', at) && body.length === at + 3;
	}
}

/** The samples of Prometheus' own compact answer (eachCompactSample) as objects; null for any other text. */
export function compactVector(body: string): VectorSample[] | null {
	const samples: VectorSample[] = [];
	const compact = eachCompactSample(Buffer.from(body, 'utf8'), (sample) => {
		samples.push({metric: Object.fromEntries(sample.entries()), value: sample.value});
	});
	return compact ? samples : null;
}
