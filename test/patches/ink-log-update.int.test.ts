// ink's terminal writer as patched (patches/ink+6.8.0+004+absolute-row-writer.patch): the first frame whole, then
// only the rows that changed, each at its own row, and a whole frame again after a clear or a size change.
// The bytes are checked exactly; then a real terminal (tmux) is given a sequence of frames and must show the last.
import assert from 'node:assert/strict';
import path from 'node:path';
import {after, describe, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {inkModule} from '../helpers/ink-build.js';
import {makeTempDir} from '../helpers/kubeconfig-files.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';

type FrameWriter = ((frame: string) => boolean) & {
	clear(): void;
	done(): void;
	sync(frame: string): void;
	setCursorPosition(position: {x: number; y: number} | undefined): void;
	isCursorDirty(): boolean;
	willRender(frame: string): boolean;
};
const logUpdate = (
	await inkModule<{default: {create(stream: NodeJS.WriteStream, options?: {showCursor?: boolean}): FrameWriter}}>('log-update.js')
).default;
const logUpdateUrl = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.resolve('ink'))), 'log-update.js')).href;

function fakeTerminal(columns: number, rows: number) {
	const writes: string[] = [];
	const stream = {columns, rows, write: (chunk: string) => writes.push(chunk) > 0} as unknown as NodeJS.WriteStream & {
		columns: number;
		rows: number;
	};
	return {stream, writes, last: () => writes.at(-1) ?? ''};
}

const at = (row: number) => `\u001B[${row};1H`;
const erase = '\u001B[K';
const below = '\u001B[J';
const hide = '\u001B[?25l';

describe("ink's terminal writer, patched to write each changed row at its place", () => {
	test('the first frame is drawn whole from the top-left corner, each row erased to its end, then everything below', () => {
		const terminal = fakeTerminal(20, 10);
		const write = logUpdate.create(terminal.stream);
		assert.equal(write('header\n\nfigures 1\n'), true);
		assert.deepEqual(terminal.writes, [`${hide}${at(1)}header${erase}${at(2)}${erase}${at(3)}figures 1${erase}${at(4)}${below}`]);
	});

	test('later frames rewrite only the rows that changed; an unchanged frame writes nothing', () => {
		const terminal = fakeTerminal(20, 10);
		const write = logUpdate.create(terminal.stream);
		write('header\nsteady\nfigures 1\nfooter\n');
		write('header\nsteady\nfigures 22\nfooter\n');
		assert.equal(terminal.last(), `${at(3)}figures 22${erase}`);
		assert.equal(write('header\nsteady\nfigures 22\nfooter\n'), false);
		assert.equal(terminal.writes.length, 2);
		assert.equal(write.willRender('header\nsteady\nfigures 22\nfooter\n'), false);
		assert.equal(write.willRender('header\nsteady\nfigures 3\nfooter\n'), true);
	});

	test('a shorter frame erases the rows it no longer has', () => {
		const terminal = fakeTerminal(20, 10);
		const write = logUpdate.create(terminal.stream);
		write('a\nb\nc\nd\n');
		write('a\nB\n');
		assert.equal(terminal.last(), `${at(2)}B${erase}${at(3)}${below}`);
	});

	test('after a clear, and after the terminal changes size, the next frame is drawn whole', () => {
		const terminal = fakeTerminal(20, 10);
		const write = logUpdate.create(terminal.stream);
		write('a\nb\n');
		write.clear();
		write('a\nb\n');
		assert.equal(terminal.last(), `${at(1)}a${erase}${at(2)}b${erase}${at(3)}${below}`);
		terminal.stream.columns = 12;
		assert.equal(write.willRender('a\nb\n'), true);
		write('a\nb\n');
		assert.equal(terminal.last(), `${at(1)}a${erase}${at(2)}b${erase}${at(3)}${below}`);
	});

	test('a row as wide as the terminal is not followed by an erase, which would take its last cell', () => {
		const terminal = fakeTerminal(10, 5);
		const write = logUpdate.create(terminal.stream);
		write('\u001B[32m0123456789\u001B[39m\nshort\n');
		assert.equal(terminal.last(), `${hide}${at(1)}\u001B[32m0123456789\u001B[39m${at(2)}short${erase}${at(3)}${below}`);
	});

	test('a frame ink wrote itself (sync) is what the next frame is compared with; done shows the cursor again', () => {
		const terminal = fakeTerminal(20, 5);
		const write = logUpdate.create(terminal.stream);
		write('x\n');
		write.sync('one\ntwo');
		write('one\nTWO');
		assert.equal(terminal.last(), `${at(2)}TWO${erase}`);
		write.done();
		assert.equal(terminal.last(), '\u001B[?25h');
	});

	test('in a real terminal the screen ends up showing exactly the last frame', {skip: hasTmux ? false : 'tmux not installed'}, async () => {
		// A script writes frames that change rows, grow, shrink and grow again; the pane must hold the last frame only.
		const temp = makeTempDir('pleg-top-writer-');
		after(() => temp.remove());
		const frames = [
			'pleg-top · node-a\n\nlast seen 0s ago\nrelists 1\nmean 5ms\nfooter\n',
			'pleg-top · node-a\n\nlast seen 1s ago\nrelists 2\nmean 5ms\nfooter\n',
			'pleg-top · node-a\n\n? verdict unknown\n',
			'pleg-top · node-a\n\nlast seen 2s ago\nrelists 3\nmean 6ms\n\nhistory\nfooter\n',
		];
		const script = temp.write(
			'frames.mts',
			[
				`import logUpdate from ${JSON.stringify(logUpdateUrl)};`,
				`const frames = ${JSON.stringify(frames)};`,
				"process.stdout.write('\\u001B[?1049h');",
				'const write = logUpdate.create(process.stdout);',
				'for (const frame of frames) { write(frame); await new Promise((resolve) => setTimeout(resolve, 50)); }',
				"process.stdout.write('\\u001B[10;1Hdone');",
				'await new Promise((resolve) => setTimeout(resolve, 60_000));',
			].join('\n'),
		);
		const session = startTmux(`${process.execPath} --import ${import.meta.resolve('tsx')} ${script}`, {
			columns: 40,
			rows: 12,
			env: {PATH: process.env['PATH'] ?? ''},
		});
		try {
			const screen = await session.waitFor('done', 20_000);
			const rows = screen.replace(/\n+$/, '').split('\n');
			// Rows 1-8 are the last frame, whole; row 9 was erased by nothing but never written; "done" is on row 10.
			assert.deepEqual(rows.slice(0, 8), frames.at(-1)!.replace(/\n$/, '').split('\n'));
			assert.deepEqual(rows.slice(8), ['', 'done']);
		} finally {
			session.kill();
		}
	});
});
