// `/` in the help, as in less and man: type a word, Enter jumps to the first row holding it (from the row shown on
// top, round to the start), n to the next, N back; Esc while typing drops the search. Pure: the screens keep the
// search and the first row in their state and hand each key here.
import type {Line, Segment} from '../layout/line.js';

/** The text searched for; `typing` until Enter or Esc. */
export type HelpSearch = {query: string; typing: boolean};

/** The parts of a key as ink reports it that the search reads. */
export type SearchKey = {
	input: string;
	return: boolean;
	escape: boolean;
	backspace: boolean;
	delete: boolean;
	ctrl: boolean;
	meta: boolean;
};

/** The search and the help's first row after a key. */
export type SearchStep = {search: HelpSearch | null; offset: number};

const plain = (line: Line) => line.map((segment) => segment.text).join('');

/** The rows of the help's body as text: what the search looks through. */
export function rowsText(body: Line[]): string[] {
	return body.map(plain);
}

/** The first row from `from` on (`step` 1) or back from it (-1), round the ends, whose text holds `query` in any case. */
export function findRow(rows: readonly string[], query: string, from: number, step: 1 | -1 = 1): number | null {
	const wanted = query.toLowerCase();
	if (wanted === '' || rows.length === 0) return null;
	for (let tried = 0; tried < rows.length; tried++) {
		const row = (((from + step * tried) % rows.length) + rows.length) % rows.length;
		if (rows[row]!.toLowerCase().includes(wanted)) return row; // in bounds
	}

	return null;
}

/**
 * A key while the help shows: the search's step, or undefined when the key is not the search's (scrolling, `?`, and
 * Esc closing the help stay the screen's). While typing every key is the search's.
 */
export function searchKey(
	search: HelpSearch | null,
	offset: number,
	key: SearchKey,
	rows: () => readonly string[],
): SearchStep | undefined {
	if (search?.typing) {
		if (key.escape) return {search: null, offset};
		if (key.return) return {search: {query: search.query, typing: false}, offset: findRow(rows(), search.query, offset) ?? offset};
		if (key.backspace || key.delete) return {search: {...search, query: search.query.slice(0, -1)}, offset};
		const printable = !key.ctrl && !key.meta && /^[^\u0000-\u001F\u007F]+$/u.test(key.input);
		return {search: printable ? {...search, query: search.query + key.input} : search, offset};
	}

	if (key.input === '/' && !key.ctrl && !key.meta) return {search: {query: '', typing: true}, offset};
	if (search && search.query !== '' && (key.input === 'n' || key.input === 'N')) {
		const next = key.input === 'n' ? findRow(rows(), search.query, offset + 1) : findRow(rows(), search.query, offset - 1, -1);
		return {search, offset: next ?? offset};
	}

	return undefined;
}

/**
 * The keys of one input event in turn: ink hands a chunk of typed or pasted text at once ("/cordon", "cordon\r").
 * Undefined when its first key is not the search's; the rest of a chunk the search stops taking is dropped.
 */
export function searchKeys(
	search: HelpSearch | null,
	offset: number,
	key: SearchKey,
	rows: () => readonly string[],
): SearchStep | undefined {
	const chars = key.input.length > 1 && !key.ctrl && !key.meta ? [...key.input] : [key.input];
	let step: SearchStep | undefined;
	for (const char of chars) {
		const each = chars.length === 1 ? key : {...key, input: char === '\r' ? '' : char, return: key.return || char === '\r'};
		const next = searchKey(step?.search ?? search, step?.offset ?? offset, each, rows);
		if (!next) break;
		step = next;
	}

	return step;
}

/** The help's last row while a search is on: what is typed, else where the match is and the keys that move on. */
export function searchFooter(search: HelpSearch, rows: readonly string[]): string {
	if (search.typing) return `/${search.query}▌  Enter find · Esc cancel`;
	const matches = rows.filter((row) => row.toLowerCase().includes(search.query.toLowerCase())).length;
	if (matches === 0) return `/${search.query}: no row holds it · / search again`;
	return `/${search.query}: ${matches} ${matches === 1 ? 'row' : 'rows'} · n next · N back · / search again`;
}

/** The row with each occurrence of `query` (any case) in the `match` tone, for the rows shown. */
export function markMatches(line: Line, query: string): Line {
	const text = plain(line);
	const wanted = query.toLowerCase();
	if (wanted === '' || !text.toLowerCase().includes(wanted)) return line;
	const marked = new Set<number>();
	for (let at = text.toLowerCase().indexOf(wanted); at !== -1; at = text.toLowerCase().indexOf(wanted, at + wanted.length)) {
		for (let index = at; index < at + wanted.length; index++) marked.add(index);
	}

	// Split every segment where the marking starts or stops: each character keeps its tone unless it is marked.
	const out: Segment[] = [];
	let position = 0;
	for (const segment of line) {
		for (const char of segment.text) {
			const tone = marked.has(position) ? 'match' : segment.tone;
			const last = out.at(-1);
			if (last && last.tone === tone) last.text += char;
			else out.push(tone ? {text: char, tone} : {text: char});
			position += char.length;
		}
	}

	return out;
}
