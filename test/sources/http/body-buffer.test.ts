// The body buffers kept between answers (body-buffer.ts): reused, grown only as needed, bounded by the cap and by
// what is kept.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {BodyBuffers} from '../../../source/sources/http/body-buffer.js';
import {BodyTooLargeError} from '../../../source/sources/http/request-errors.js';

const kibibyte = 1024;
const mebibyte = 1024 * kibibyte;
const tooLarge = (limitBytes: number) => (error: unknown) =>
	error instanceof BodyTooLargeError && error.limitBytes === limitBytes && !error.decoded;

test('a released buffer carries the next answer: the same memory, holding only the new bytes', () => {
	const buffers = new BodyBuffers();
	const first = buffers.open(mebibyte, null);
	first.append(Buffer.from('first answer, the longer one'));
	const memory = first.bytes.buffer;
	first.release();
	assert.equal(buffers.free.length, 1);
	const second = buffers.open(mebibyte, 6);
	second.append(Buffer.from('second'));
	assert.equal(second.bytes.toString(), 'second');
	assert.equal(second.bytes.buffer, memory);
	assert.equal(buffers.free.length, 0);
});

test('an unsized body starts at 64 KiB and doubles, the bytes so far carried over; a stated length is sized at once', () => {
	const buffers = new BodyBuffers();
	const unsized = buffers.open(mebibyte, null);
	const piece = Buffer.alloc(40 * kibibyte, 'a');
	const sizes: number[] = [];
	for (let index = 0; index < 5; index++) {
		unsized.append(piece);
		sizes.push(unsized.bytes.buffer.byteLength);
	}

	// 40, 80, 120, 160, 200 KiB received: 64, 128, 128, 256, 256 KiB of room.
	assert.deepEqual(
		sizes.map((size) => size / kibibyte),
		[64, 128, 128, 256, 256],
	);
	assert.equal(unsized.bytes.length, 200 * kibibyte);
	assert.ok(unsized.bytes.every((byte) => byte === 0x61));
	const stated = new BodyBuffers().open(mebibyte, 300 * kibibyte);
	stated.append(Buffer.alloc(300 * kibibyte));
	assert.equal(stated.bytes.buffer.byteLength, 300 * kibibyte);
});

test('a kept buffer too small for a stated length is replaced, not grown piece by piece', () => {
	const buffers = new BodyBuffers();
	buffers.open(mebibyte, 10).release();
	assert.equal(buffers.free[0]!.length, 64 * kibibyte);
	const body = buffers.open(mebibyte, 200 * kibibyte);
	body.append(Buffer.alloc(200 * kibibyte));
	assert.equal(body.bytes.buffer.byteLength, 200 * kibibyte);
});

test('the cap: a body of exactly maxBytes is read, one byte more fails, and room never grows past the cap', () => {
	const buffers = new BodyBuffers();
	const atCap = buffers.open(100 * kibibyte, null);
	atCap.append(Buffer.alloc(100 * kibibyte));
	assert.equal(atCap.bytes.length, 100 * kibibyte);
	assert.equal(atCap.bytes.buffer.byteLength, 100 * kibibyte);
	assert.throws(() => atCap.append(Buffer.alloc(1)), tooLarge(100 * kibibyte));
	assert.equal(atCap.bytes.length, 100 * kibibyte);
	assert.throws(() => buffers.open(100 * kibibyte, 100 * kibibyte + 1), tooLarge(100 * kibibyte));
});

test('a stated length sizes at most 16 MiB up front: a lying Content-Length does not allocate the cap', () => {
	const body = new BodyBuffers().open(256 * mebibyte, 200 * mebibyte);
	body.append(Buffer.from('small'));
	assert.equal(body.bytes.buffer.byteLength, 16 * mebibyte);
});

test('at most 12 buffers (a Prometheus refresh in flight) and 64 MiB wait between answers', () => {
	const buffers = new BodyBuffers();
	const open = Array.from({length: 14}, () => buffers.open(mebibyte, null));
	for (const body of open) body.release();
	assert.equal(buffers.free.length, 12);
	// Five bodies of 16 MiB at once: four are kept (64 MiB), the fifth is left to the collector.
	const large = new BodyBuffers();
	const bodies = Array.from({length: 5}, () => large.open(64 * mebibyte, 16 * mebibyte));
	for (const body of bodies) body.release();
	assert.deepEqual(
		large.free.map((buffer) => buffer.length / mebibyte),
		[16, 16, 16, 16],
	);
});

test('a release is once only, and bytes appended after it do not reach the buffer another answer now holds', () => {
	const buffers = new BodyBuffers();
	const late = buffers.open(mebibyte, null);
	late.release();
	late.release();
	assert.equal(buffers.free.length, 1);
	const next = buffers.open(mebibyte, null);
	next.append(Buffer.from('next'));
	late.append(Buffer.from('LATE'));
	assert.equal(next.bytes.toString(), 'next');
});
