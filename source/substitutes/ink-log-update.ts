// Stands in for ink's log-update.js, the part of ink that writes each frame to the terminal (scripts/build.mjs).
// ink's writer erases and rewrites every row of every frame: ~3.3 KB a tick at 120×40, when a tick changes a
// handful of figures. Its `incrementalRendering` option rewrites only the changed rows, but in ink 6.8 it moves
// the cursor up one row too few whenever the frame ends in a newline (every frame shorter than the terminal), so
// each frame lands a row lower than the last: the header drawn four times, a ✓ beside STALE.
//
// pleg-top draws with ink only in the alternate screen, from its top-left corner (run/full-screen.ts), so a row's
// place on screen is its index in the frame. This writer puts each changed row at its absolute position: no
// relative cursor move can drift. The first frame, the frame after a clear, and any frame after the terminal's
// size changed are drawn whole, down to an erase of everything below them.
import stringWidth from './string-width.js';

type Stream = NodeJS.WriteStream;
type CursorPosition = {x: number; y: number};
export type FrameWriter = ((frame: string) => boolean) & {
	clear(): void;
	done(): void;
	sync(frame: string): void;
	setCursorPosition(position: CursorPosition | undefined): void;
	isCursorDirty(): boolean;
	willRender(frame: string): boolean;
};

const hideCursor = '\u001B[?25l';
const showCursor = '\u001B[?25h';
const eraseToEndOfLine = '\u001B[K';
const eraseBelow = '\u001B[J';
const moveTo = (row: number, column = 0) => `\u001B[${row + 1};${column + 1}H`;

/** A frame's rows: ink ends frames shorter than the terminal with a newline that is not a row. */
function rowsOf(frame: string): string[] {
	const rows = frame.split('\n');
	if (frame.endsWith('\n')) rows.pop();
	return rows;
}

/**
 * Erasing to the end of the line after a row that fills the terminal's width would erase its last cell (the cursor
 * waits there to wrap), so the erase follows only rows narrower than the terminal.
 */
function endOfRow(row: string, columns: number): string {
	return stringWidth(row) >= columns ? '' : eraseToEndOfLine;
}

function create(stream: Stream, {showCursor: keepCursor = false}: {showCursor?: boolean; incremental?: boolean} = {}): FrameWriter {
	/** Rows on screen as this writer left them; null when the next frame must be drawn whole. */
	let drawn: string[] | null = null;
	let drawnFrame = '';
	let drawnSize = '';
	let cursorHidden = false;
	let cursorPosition: CursorPosition | undefined;
	let cursorDirty = false;
	let shownCursor: CursorPosition | undefined;

	const size = () => `${stream.columns}x${stream.rows}`;
	const activeCursor = () => (cursorDirty ? cursorPosition : undefined);
	const cursorMoved = (cursor: CursorPosition | undefined) => cursor?.x !== shownCursor?.x || cursor?.y !== shownCursor?.y;

	const render = ((frame: string): boolean => {
		const cursor = activeCursor();
		cursorDirty = false;
		const whole = drawn === null || drawnSize !== size();
		if (!whole && frame === drawnFrame && !cursorMoved(cursor)) return false;
		const rows = rowsOf(frame);
		const columns = stream.columns ?? Number.POSITIVE_INFINITY;
		let out = !keepCursor && !cursorHidden ? hideCursor : '';
		cursorHidden ||= !keepCursor;
		if (shownCursor && !cursor) out += hideCursor;
		for (const [index, row] of rows.entries()) {
			if (!whole && row === drawn![index]) continue;
			out += moveTo(index) + row + endOfRow(row, columns);
		}

		if (whole || rows.length < drawn!.length) out += moveTo(rows.length) + eraseBelow;
		if (cursor) out += moveTo(cursor.y, cursor.x) + showCursor;
		stream.write(out);
		drawn = rows;
		drawnFrame = frame;
		drawnSize = size();
		shownCursor = cursor && {...cursor};
		return true;
	}) as FrameWriter;

	// ink calls clear() before it writes something of its own (the Ctrl-L redraw) and when the terminal narrows; the
	// frame after it is drawn whole, over every row, so nothing needs erasing now.
	render.clear = () => {
		drawn = null;
		drawnFrame = '';
	};

	render.done = () => {
		drawn = null;
		drawnFrame = '';
		shownCursor = undefined;
		if (cursorHidden) {
			stream.write(showCursor);
			cursorHidden = false;
		}
	};

	// ink wrote `frame` itself (its path for frames as tall as the terminal): take it as what is on screen.
	render.sync = (frame: string) => {
		drawn = rowsOf(frame);
		drawnFrame = frame;
		drawnSize = size();
		cursorDirty = false;
	};

	render.setCursorPosition = (position) => {
		cursorPosition = position;
		cursorDirty = true;
	};

	render.isCursorDirty = () => cursorDirty;
	render.willRender = (frame) => drawn === null || drawnSize !== size() || frame !== drawnFrame || cursorMoved(activeCursor());
	return render;
}

const logUpdate = {create};
export default logUpdate;
