// The stdout ink draws through (run/one-write-per-frame.ts): a frame between the synchronized-update markers is one
// write, an empty pair is none, and everything else reaches the terminal as ink wrote it.
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {test} from 'node:test';
import {oneWritePerFrame} from '../../source/run/one-write-per-frame.js';

const begin = '\u001B[?2026h';
const end = '\u001B[?2026l';

function terminal() {
	const writes: string[] = [];
	const stream = Object.assign(new EventEmitter(), {
		isTTY: true,
		columns: 120,
		rows: 40,
		write(chunk: string) {
			writes.push(chunk);
			return true;
		},
	});
	return {writes, stdout: oneWritePerFrame(stream as unknown as NodeJS.WriteStream), stream};
}

test('a frame between the markers is written once, markers included', () => {
	const {writes, stdout} = terminal();
	stdout.write(begin);
	stdout.write('\u001B[1;1Hrow one\u001B[K');
	stdout.write('\u001B[5;1Hrow five\u001B[K');
	stdout.write(end);
	assert.deepEqual(writes, [`${begin}\u001B[1;1Hrow one\u001B[K\u001B[5;1Hrow five\u001B[K${end}`]);
});

test('markers with nothing between them are not written', () => {
	const {writes, stdout} = terminal();
	stdout.write(begin);
	stdout.write(end);
	assert.deepEqual(writes, []);
});

test('writes outside a frame pass at once, in order', () => {
	const {writes, stdout} = terminal();
	stdout.write('\u001B[?1049h');
	stdout.write(begin);
	stdout.write('frame');
	stdout.write(end);
	stdout.write('\u001B[?25h');
	assert.deepEqual(writes, ['\u001B[?1049h', `${begin}frame${end}`, '\u001B[?25h']);
});

test('a frame left open is written before the next one, and by the end of the synchronous run', async () => {
	const {writes, stdout} = terminal();
	stdout.write(begin);
	stdout.write('first');
	stdout.write(begin);
	stdout.write('second');
	assert.deepEqual(writes, [`${begin}first`]);
	await Promise.resolve();
	assert.deepEqual(writes, [`${begin}first`, `${begin}second`]);
});

test("sizes, TTY-ness and listeners are the real stream's", () => {
	const {stdout, stream} = terminal();
	assert.equal(stdout.columns, 120);
	assert.equal(stdout.rows, 40);
	assert.ok('isTTY' in stdout && stdout.isTTY);
	let resized = 0;
	stdout.on('resize', () => resized++);
	stream.emit('resize');
	assert.equal(resized, 1);
});
