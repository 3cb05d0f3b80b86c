// The body decoder: for every input the same string as Buffer#toString('utf8'), whichever path it takes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {test} from 'node:test';
import zlib from 'node:zlib';
import {decodeUtf8, gunzipBody} from '../../source/sources/http/https-request.js';

const fixture = fs.readFileSync(new URL('../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url));

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

function captureError(run: () => unknown): Error {
	try {
		run();
	} catch (error) {
		return error as Error;
	}

	throw new Error('did not throw');
}
