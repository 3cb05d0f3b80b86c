// Pure text layout: every pane builds its rows as Line[] at a given width, so that
// (1) no row is ever wider than its pane (the terminal never wraps, no figure is cut),
// (2) the dashboard can count rows before rendering and decide what to drop.
// Items (a label with its value) are kept or dropped whole; only prose is word-wrapped.
import stringWidth from '../../domain/text/text-width.js';
import type {Tone} from './theme.js';

export type Segment = {text: string; tone?: Tone};
/** One terminal row. */
export type Line = Segment[];
/** A unit that is shown whole or not at all, e.g. "mean 4.2 ms". */
export type Item = Segment[];

/** Terminal cells of a string, as the terminal draws it: CJK and most emoji take two, combining marks none. */
export function cellWidth(text: string): number {
	// Most rows are printable ASCII and Latin-1 ("·", "×"), one cell a character: counted without the width tables
	// (the same number; the soft hyphen U+00AD takes none).
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 || (code > 0x7e && code < 0xa0) || code === 0xad || code > 0xff) {
			return stringWidth(text);
		}
	}

	return text.length;
}

export function lineWidth(line: Line): number {
	return line.reduce((sum, segment) => sum + cellWidth(segment.text), 0);
}

export function lineText(line: Line): string {
	return line.map((segment) => segment.text).join('');
}

export function seg(text: string, tone?: Tone): Segment {
	return tone ? {text, tone} : {text};
}

/** Join items with `separator`, keeping items in order and skipping any that would overflow `width`. */
export function fitItems(items: Item[], width: number, separator = ' · '): Line {
	const line: Line = [];
	let used = 0;
	for (const item of items) {
		const itemWidth = lineWidth(item);
		const gap = line.length > 0 ? cellWidth(separator) : 0;
		if (itemWidth === 0 || used + gap + itemWidth > width) {
			continue;
		}

		if (gap > 0) {
			line.push(seg(separator, 'dim'));
		}

		line.push(...item);
		used += gap + itemWidth;
	}

	return line;
}

/** The longest run of leading items that fits: for ordered lists (key hints) where skipping one would mislead. */
export function fitLeading(items: Item[], width: number, separator = ' · '): Line {
	let count = 0;
	while (count < items.length && widthOf(items.slice(0, count + 1), separator) <= width) {
		count++;
	}

	return fitItems(items.slice(0, count), width, separator);
}

function widthOf(items: Item[], separator: string): number {
	const present = items.filter((item) => lineWidth(item) > 0);
	return present.reduce((sum, item) => sum + lineWidth(item), 0) + Math.max(0, present.length - 1) * cellWidth(separator);
}

/** The first candidate that fits whole, else nothing. */
export function firstFitting(candidates: Item[], width: number): Item | undefined {
	return candidates.find((item) => lineWidth(item) > 0 && lineWidth(item) <= width);
}

/**
 * Lay items out over as many rows as needed, breaking only between items.
 * Continuation rows start with `indent` spaces. An item wider than a whole row is left out.
 */
export function flowItems(items: Item[], width: number, options: {separator?: string; indent?: number} = {}): Line[] {
	const separator = options.separator ?? ' · ';
	const indent = ' '.repeat(options.indent ?? 2);
	const lines: Line[] = [];
	let current: Line = [];
	let used = 0;
	for (const item of items) {
		const itemWidth = lineWidth(item);
		if (itemWidth === 0) {
			continue;
		}

		const gap = current.length > 0 ? cellWidth(separator) : 0;
		if (current.length > 0 && used + gap + itemWidth <= width) {
			current.push(seg(separator, 'dim'), ...item);
			used += gap + itemWidth;
			continue;
		}

		const start = lines.length === 0 && current.length === 0 ? '' : indent;
		if (cellWidth(start) + itemWidth > width) {
			continue;
		}

		if (current.length > 0) {
			lines.push(current);
		}

		current = start ? [seg(start), ...item] : [...item];
		used = cellWidth(start) + itemWidth;
	}

	if (current.length > 0) {
		lines.push(current);
	}

	return lines;
}

/**
 * Word-wrap prose into at most `maxLines` rows of `width`. Breaks at spaces only, so numbers
 * such as "3m1s" stay whole; when the text does not fit, the last row ends with "…" after a
 * whole word. A single word wider than the row (a long URL) is cut with "…": it is not a figure.
 */
export function wrapWords(text: string, width: number, maxLines: number, tone?: Tone, indent = 0): Line[] {
	if (width <= 0 || maxLines <= 0) {
		return [];
	}

	const pad = ' '.repeat(Math.min(indent, Math.max(0, width - 1)));
	const rows: string[] = [];
	let current = '';
	const words = glueUnits(text.split(/\s+/).filter(Boolean)).map((word) => cutWord(word, width - cellWidth(pad)));
	let index = 0;
	for (; index < words.length; index++) {
		const word = words[index]!; // in bounds
		const prefix = rows.length === 0 ? '' : pad;
		const candidate = current ? `${current} ${word}` : `${prefix}${word}`;
		if (cellWidth(candidate) <= width) {
			current = candidate;
			continue;
		}

		rows.push(current);
		if (rows.length === maxLines) {
			break;
		}

		current = `${pad}${word}`;
	}

	if (rows.length < maxLines && current) {
		rows.push(current);
	} else if (index < words.length) {
		// Ran out of rows: end the last one with an ellipsis after a whole word.
		rows[rows.length - 1] = ellipsize(rows[rows.length - 1]!, width); // in bounds
	}

	return rows.map((row) => [seg(row, tone)]);
}

/** A unit word stays on the row of its number: "300 s" never wraps as "300" / "s". */
function glueUnits(words: string[]): string[] {
	const glued: string[] = [];
	for (const word of words) {
		const previous = glued.at(-1);
		if (previous !== undefined && /\d$/.test(previous) && /^(?:ns|µs|ms|s|m|h|seconds?|minutes?)[,.;:)]*$/.test(word)) {
			glued[glued.length - 1] = `${previous} ${word}`;
		} else {
			glued.push(word);
		}
	}

	return glued;
}

function cutWord(word: string, width: number): string {
	if (cellWidth(word) <= width) return word;
	let kept = '';
	for (const char of word) {
		if (cellWidth(kept + char) > width - 1) break;
		kept += char;
	}

	return `${kept}…`;
}

function ellipsize(row: string, width: number): string {
	let words = row.split(' ');
	while (words.length > 1 && cellWidth(`${words.join(' ')} …`) > width) {
		words = words.slice(0, -1);
	}

	const joined = words.join(' ');
	return cellWidth(`${joined} …`) <= width ? `${joined} …` : joined;
}

/** Place `right` flush right of `left` when both fit in `width`; otherwise only `left`. */
export function spread(left: Line, right: Line, width: number): Line {
	const gap = width - lineWidth(left) - lineWidth(right);
	if (gap < 1 || lineWidth(right) === 0) {
		return left;
	}

	return [...left, seg(' '.repeat(gap)), ...right];
}
