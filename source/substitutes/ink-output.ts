// Stands in for ink's output.js where ink's renderer builds a frame (scripts/build.mjs). ink turns every frame into
// a grid of cell objects: it tokenises each written row into styled characters, places them cell by cell and
// re-encodes every row into a string. That was about 40 % of pleg-top's CPU per tick (ansi-tokenize, measured
// with `npm run bench:profile`), for rows that pleg-top hands over already styled and already fitted.
//
// This Output records the same operations. When every row of the frame is a plain placement (texts of narrow
// glyphs and colour codes only, none overlapping another, each inside its clip), the row is the texts themselves
// joined by the spaces between them: the same cells and the same styles as ink's grid. Any other frame, for
// example one with a wide glyph, an emoji or overlapping texts, goes through ink's own Output unchanged.
import InkOutput from '../../node_modules/ink/build/output.js';

type Transformer = (line: string, index: number) => string;
type Clip = {x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined};
type Operation =
	{type: 'write'; x: number; y: number; text: string; transformers: Transformer[]} | {type: 'clip'; clip: Clip} | {type: 'unclip'};
/** One text placed on one row: columns [x, end). */
type Placement = {x: number; end: number; text: string};

/** SGR (colour and style) sequences: the only escape sequences the plain path passes through. */
const sgr = /\u001B\[[\d;]*m/g;
/**
 * Rows made only of SGR sequences and glyphs that ink, string-width and every terminal count as one column each:
 * ASCII, Latin-1 (not the soft hyphen), Greek, general punctuation, arrows, mathematical operators, box drawing,
 * blocks and geometric shapes (up to U+25FC; U+25FD and U+25FE are wide emoji), ✓ and ✗.
 */
const plainRow =
	/^(?:\u001B\[[\d;]*m|[\u0020-\u007E\u00A0-\u00AC\u00AE-\u00FF\u0391-\u03C9\u2010-\u2027\u2030-\u205E\u2190-\u22FF\u2500-\u25FC\u2713\u2717])*$/;

export default class Output {
	width: number;
	height: number;
	private readonly operations: Operation[] = [];

	constructor(options: {width: number; height: number}) {
		this.width = options.width;
		this.height = options.height;
	}

	write(x: number, y: number, text: string, options: {transformers: Transformer[]}): void {
		if (!text) return;
		this.operations.push({type: 'write', x, y, text, transformers: options.transformers});
	}

	clip(clip: Clip): void {
		this.operations.push({type: 'clip', clip});
	}

	unclip(): void {
		this.operations.push({type: 'unclip'});
	}

	get(): {output: string; height: number} {
		const rows = this.plainRows();
		if (rows === null) return this.replayInInk();
		return {output: rows.map(joinPlacements).join('\n'), height: this.height};
	}

	/** Each row's placements in column order, or null when some write needs ink's cell grid. */
	private plainRows(): Placement[][] | null {
		const rows: Placement[][] = [];
		for (let row = 0; row < this.height; row++) {
			rows.push([]);
		}

		const clips: Clip[] = [];
		for (const operation of this.operations) {
			if (operation.type === 'clip') {
				clips.push(operation.clip);
				continue;
			}

			if (operation.type === 'unclip') {
				clips.pop();
				continue;
			}

			const lines = operation.text.split('\n');
			const clip = clips.at(-1);
			if (clip && !insideVertically(clip, operation.y, lines.length)) return null;
			for (const [index, written] of lines.entries()) {
				const row = rows[operation.y + index];
				// ink drops rows below the frame; so does this.
				if (row === undefined) continue;
				let line = written;
				for (const transformer of operation.transformers) line = transformer(line, index);
				if (!plainRow.test(line)) return null;
				const width = line.replace(sgr, '').length;
				if (width === 0) continue;
				if (clip && !insideHorizontally(clip, operation.x, width)) return null;
				const placement = {x: operation.x, end: operation.x + width, text: line};
				if (!insertWithoutOverlap(row, placement)) return null;
			}
		}

		return rows;
	}

	private replayInInk(): {output: string; height: number} {
		const output = new InkOutput({width: this.width, height: this.height});
		for (const operation of this.operations) {
			if (operation.type === 'write') output.write(operation.x, operation.y, operation.text, {transformers: operation.transformers});
			else if (operation.type === 'clip') output.clip(operation.clip);
			else output.unclip();
		}

		return output.get();
	}
}

function insideVertically(clip: Clip, y: number, height: number): boolean {
	if (typeof clip.y1 !== 'number' || typeof clip.y2 !== 'number') return true;
	return y >= clip.y1 && y + height <= clip.y2;
}

function insideHorizontally(clip: Clip, x: number, width: number): boolean {
	if (typeof clip.x1 !== 'number' || typeof clip.x2 !== 'number') return true;
	return x >= clip.x1 && x + width <= clip.x2;
}

/** Adds `placement` in column order; false when it would share a column with another (ink's grid decides then). */
function insertWithoutOverlap(row: Placement[], placement: Placement): boolean {
	let at = row.length;
	while (at > 0 && row[at - 1]!.x > placement.x) at--;
	const before = row[at - 1];
	const after = row[at];
	if ((before && before.end > placement.x) || (after && placement.end > after.x)) return false;
	row.splice(at, 0, placement);
	return true;
}

/** The row as ink's grid prints it: each text at its column, spaces between, trailing spaces trimmed. */
function joinPlacements(row: Placement[]): string {
	let line = '';
	let column = 0;
	for (const placement of row) {
		line += ' '.repeat(placement.x - column) + placement.text;
		column = placement.end;
	}

	return line.trimEnd();
}
