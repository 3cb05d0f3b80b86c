// The body decoder and inflater: for every input the same string as Buffer#toString('utf8') of zlib's one-call
// gunzip, the same error for a damaged body, whichever path they take.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {test} from 'node:test';
import zlib from 'node:zlib';
import {BodyInflater, decodeUtf8, gunzipBody} from '../../../source/sources/http/body-text.js';
import {BodyTooLargeError} from '../../../source/sources/http/request-errors.js';

const fixture = fs.readFileSync(new URL('../../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url));

const cases: Array<[string, Buffer]> = [
	['a real kubelet dump (ASCII)', fixture],
	['empty', Buffer.alloc(0)],
	['ASCII with a NUL byte', Buffer.from('kubelet_pleg_last_seen_seconds 1\u0000\n')],
	['a BOM first', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('kubelet_pleg_relist_duration_seconds_count 3\n')])],
	['non-ASCII help text (é, █, 日本)', Buffer.from('# HELP x caf\u00e9 \u2588 \u65e5\u672c\nx 1\n')],
	['a byte that is never UTF-8 (0xff)', Buffer.from([0x61, 0xff, 0x62, 0x0a])],
	['a sequence cut short at the end', Buffer.from([0x61, 0xe2, 0x96])],
	['Latin-1 bytes that are not UTF-8 (0xe9 alone)', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])],
	['a view into a larger buffer, ASCII', fixture.subarray(17, 4000)],
	['a view whose only non-ASCII byte is outside it', Buffer.from('abc\u00e9def').subarray(0, 3)],
];

for (const [name, bytes] of cases) {
	test(`decodeUtf8: ${name}`, () => {
		assert.equal(decodeUtf8(bytes), bytes.toString('utf8'));
	});
}

test('decodeUtf8: broken UTF-8 still reads as U+FFFD, which the parser rejects as a binary response', () => {
	assert.ok(decodeUtf8(Buffer.from([0x61, 0xff])).includes('\uFFFD'));
	assert.ok(!decodeUtf8(fixture).includes('\uFFFD'));
});

// gunzipBody sizes zlib's output from the gzip trailer; whatever the trailer says, zlib's answer is the same.
const gzipped = zlib.gzipSync(fixture);
const withTrailer = (bytes: Buffer, size: number) => {
	const copy = Buffer.from(bytes);
	copy.writeUInt32LE(size, copy.length - 4);
	return copy;
};

test('gunzipBody: a real dump comes back whole, in one buffer of the size the trailer states (plus one byte)', () => {
	const body = gunzipBody(gzipped);
	assert.ok(body.equals(fixture));
	assert.equal(body.buffer.byteLength, fixture.length + 1);
});

test('gunzipBody: two gzip members read as one body, as zlib reads them', () => {
	const twoMembers = Buffer.concat([zlib.gzipSync(fixture.subarray(0, 1000)), zlib.gzipSync(fixture.subarray(1000))]);
	assert.ok(gunzipBody(twoMembers).equals(fixture));
});

test('gunzipBody: an empty body stays empty; a trailer that lies (10 bytes, 4 GB) fails as it fails without the hint', () => {
	assert.ok(gunzipBody(withTrailer(zlib.gzipSync(Buffer.alloc(0)), 0)).equals(Buffer.alloc(0)));
	// zlib checks the trailer's size itself ("incorrect length check"); the hint only sizes the pieces, at most 16 MiB.
	for (const size of [10, 0xffffffff]) {
		const lying = withTrailer(gzipped, size);
		assert.throws(() => zlib.gunzipSync(lying));
		assert.throws(
			() => gunzipBody(lying),
			(error: Error) => error.message === captureError(() => zlib.gunzipSync(lying)).message,
		);
	}
});

test('gunzipBody: a body cut short throws as zlib does', () => {
	const cut = gzipped.subarray(0, gzipped.length - 100);
	assert.throws(() => gunzipBody(cut), {message: captureError(() => zlib.gunzipSync(cut)).message});
});

// BodyInflater writes into a buffer it keeps; every answer must still be exactly zlib's.
const inflateCases: Array<[string, Buffer]> = [
	['a real dump', gzipped],
	['two gzip members', Buffer.concat([zlib.gzipSync(fixture.subarray(0, 1000)), zlib.gzipSync(fixture.subarray(1000))])],
	['a trailer stating 10 bytes for the whole dump', withTrailer(gzipped, 10)],
	['a trailer stating 4 GB', withTrailer(gzipped, 0xffffffff)],
	['cut 100 bytes short', gzipped.subarray(0, gzipped.length - 100)],
	['cut inside the header', gzipped.subarray(0, 5)],
	['empty', Buffer.alloc(0)],
	['not gzip at all', fixture.subarray(0, 500)],
	['an empty member', zlib.gzipSync(Buffer.alloc(0))],
	['garbage after the member', Buffer.concat([gzipped, Buffer.from([0, 1, 2, 3])])],
	['a damaged byte in the middle', Buffer.from(gzipped).fill(0x55, 2000, 2010)],
	['non-ASCII text', zlib.gzipSync(Buffer.from('# HELP x caf\u00e9 \u2588\nx 1\n'))],
	[
		'a large member that outgrows a small trailer hint',
		withTrailer(zlib.gzipSync(Buffer.concat(Array.from({length: 8}, () => fixture))), 100),
	],
];

function zlibAnswer(body: Buffer): {text: string} | {error: string} {
	try {
		return {text: decodeUtf8(zlib.gunzipSync(body))};
	} catch (error) {
		return {error: (error as Error).message};
	}
}

function inflaterAnswer(inflater: BodyInflater, body: Buffer): {text: string} | {error: string} {
	try {
		return {text: inflater.text(body)};
	} catch (error) {
		return {error: (error as Error).message};
	}
}

test('BodyInflater: each body, one after the other through one inflater, reads as zlib reads it alone', () => {
	const inflater = new BodyInflater();
	// Twice round, so every case also comes after a failure and after a body of another size.
	for (const [name, body] of [...inflateCases, ...inflateCases]) {
		assert.deepEqual(inflaterAnswer(inflater, body), zlibAnswer(body), name);
	}
});

test('BodyInflater: the next body of the same size is written into the same buffer, not a new one', () => {
	const inflater = new BodyInflater();
	assert.equal(inflater.text(gzipped), fixture.toString('latin1'));
	const kept = inflater.keptBuffer;
	assert.ok(kept.length > fixture.length);
	const other = Buffer.from(fixture).fill(0x61, 100, 200);
	assert.equal(inflater.text(zlib.gzipSync(other)), other.toString('latin1'));
	assert.equal(inflater.keptBuffer, kept);
	assert.throws(() => inflater.text(gzipped.subarray(0, 300)));
	assert.equal(inflater.text(gzipped), fixture.toString('latin1'));
	assert.equal(inflater.keptBuffer, kept);
});

test('BodyInflater: an engine without the handle it drives falls back to zlib.gunzipSync, closed and never used', () => {
	const engines: zlib.Gunzip[] = [];
	const inflater = new BodyInflater(() => {
		const engine = zlib.createGunzip();
		Object.defineProperty(engine, '_writeState', {value: undefined});
		engines.push(engine);
		return engine;
	});
	for (const [name, body] of inflateCases) {
		assert.deepEqual(inflaterAnswer(inflater, body), zlibAnswer(body), name);
	}

	assert.equal(engines.length, 1);
	assert.ok(engines[0]?.destroyed);
	assert.equal(inflater.keptBuffer.length, 0);
});

function captureError(run: () => unknown): Error {
	try {
		run();
	} catch (error) {
		return error as Error;
	}

	throw new Error('did not throw');
}

test('a cap on the gunzipped size: a body of exactly the cap is read, one byte more fails (both paths)', () => {
	const cap = 100_000;
	const exact = zlib.gzipSync(Buffer.alloc(cap, 'a'));
	const over = zlib.gzipSync(Buffer.alloc(cap + 1, 'a'));
	const inflater = new BodyInflater();
	assert.equal(inflater.text(exact, undefined, cap).length, cap);
	assert.equal(gunzipBody(exact, cap).length, cap);
	for (const read of [() => inflater.text(over, undefined, cap), () => gunzipBody(over, cap)]) {
		assert.throws(read, (error: unknown) => error instanceof BodyTooLargeError && error.limitBytes === cap && error.decoded);
	}
});

test('a gzip bomb (256 MiB of zeros in 256 members, 261 KB) stops at the cap, and the next body reads as usual', () => {
	const member = zlib.gzipSync(Buffer.alloc(1024 * 1024));
	const bomb = Buffer.concat(Array.from({length: 256}, () => member));
	const inflater = new BodyInflater();
	assert.throws(() => inflater.text(bomb, undefined, 1024 * 1024), BodyTooLargeError);
	// Nothing of the bomb is kept: the output buffer grows to the cap plus one byte at most, and is dropped.
	assert.ok(inflater.keptBuffer.length <= 1024 * 1024 + 1, String(inflater.keptBuffer.length));
	assert.equal(inflater.text(zlib.gzipSync(fixture), undefined, 1024 * 1024), fixture.toString('latin1'));
});
