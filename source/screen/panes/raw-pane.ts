// The raw view (`w`, --raw): the kubelet_pleg_* sample lines of the last good scrape as the kubelet wrote them
// (what `watch … | grep ^kubelet_pleg` showed), to check a figure by hand. A heading with the scrape's age, then one
// line after another; a line wider than the pane goes on below, indented, broken before its value where it can be.
// Taller than its rows, it scrolls by whole lines (↑↓ PgUp PgDn Home End), and its last row says which lines show.
import {countOf, formatAge} from '../../domain/text/format.js';
import type {Figures} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {cellWidth, fitItems, seg, wrapWords, type Line} from '../layout/line.js';
import type {HelpScroll} from './help-screen.js';

export type RawPaneProps = {
	/** Figures.raw: the lines and when they were scraped; null when the source has no /metrics text (Prometheus). */
	raw: Figures['raw'];
	now: number;
	width: number;
	/** Rows the pane may take, its heading and its position row included. */
	height: number;
	/** The first line shown (the scroll keys move it); kept within the lines. @default 0 */
	offset?: number;
};

const title = 'raw kubelet_pleg_* lines';
/** Continuation rows of a line wider than the pane start with this. */
const continued = '  ';

/** The pane's rows: heading, the lines from `offset` on that fit, and (when not all fit) the position row. */
export function rawPaneLines({raw, now, width, height, offset = 0}: RawPaneProps): Line[] {
	if (height <= 0) return [];
	if (!raw || raw.lines.length === 0) {
		const why = raw === null ? noTextNote : 'no kubelet_pleg_* sample line in the last scrape';
		return [[seg(title, 'title')], ...wrapWords(why, width, Math.max(0, height - 1), 'dim')].slice(0, height);
	}

	const heading = headingLine(raw, now, width);
	const entries = raw.lines.map((line) => breakLine(line, width));
	if (1 + rowsIn(entries) <= height) {
		return [heading, ...entries.flat()];
	}

	const {page, maxOffset} = scrollOf(entries, height);
	if (page === 0) return [heading];
	const first = Math.max(0, Math.min(offset, maxOffset));
	const shown = fitFrom(entries, first, height - 2);
	const last = first + shown.length;
	const position = `lines ${first + 1}–${last} of ${raw.lines.length}`;
	const keys = first === 0 ? '↓ PgDn for more' : last === entries.length ? '↑ PgUp back' : '↑↓ PgUp PgDn scroll';
	const footer = [`${position} · ${keys}`, position].find((text) => cellWidth(text) <= width) ?? position;
	// A line taller than the whole page (a very narrow pane) shows its first rows.
	return [heading, ...shown.flat().slice(0, height - 2), [seg(footer, 'dim')]];
}

/** How the pane scrolls at this size: a page of whole lines, and the first line of the last page. */
export function rawPaneScroll({raw, width, height}: Omit<RawPaneProps, 'now' | 'offset'>): HelpScroll {
	if (!raw || raw.lines.length === 0) return {page: 1, maxOffset: 0};
	const entries = raw.lines.map((line) => breakLine(line, width));
	if (1 + rowsIn(entries) <= height) return {page: entries.length, maxOffset: 0};
	const {page, maxOffset} = scrollOf(entries, height);
	return {page: Math.max(1, page), maxOffset};
}

/** With --prometheus the figures are Prometheus's answers to queries: no kubelet text reaches pleg-top. */
const noTextNote = 'none with --prometheus: Prometheus answers with figures, not the kubelet /metrics text (pleg-top NODE reads it)';

/** "raw kubelet_pleg_* lines · scraped 2s ago · 14:02:11 · 51 more not kept · w hides": what does not fit goes. */
function headingLine(raw: NonNullable<Figures['raw']>, now: number, width: number): Line {
	const items: Line[] = [[seg(title, 'title')], [seg(`scraped ${formatAge(Math.max(0, (now - raw.at) / 1000))} ago`, 'value')]];
	if (raw.omitted > 0) items.push([seg(`${countOf(raw.omitted, 'more line')} not kept`, 'warn')]);
	items.push([seg(clockTime(raw.at), 'dim')], [seg('w hides', 'dim')]);
	return fitItems(items, width);
}

/** Rows of a page (the heading and the position row aside), the lines of the first page and the last page's first line. */
function scrollOf(entries: Line[][], height: number): {page: number; maxOffset: number} {
	const rows = height - 2;
	if (rows <= 0) return {page: 0, maxOffset: 0};
	let maxOffset = entries.length - 1;
	let used = entries[maxOffset]!.length; // in bounds
	// Below: in bounds.
	while (maxOffset > 0 && used + entries[maxOffset - 1]!.length <= rows) {
		maxOffset--;
		used += entries[maxOffset]!.length; // in bounds
	}

	return {page: fitFrom(entries, 0, rows).length, maxOffset};
}

/** The whole lines from `first` on that fit in `rows` (at least one: its rows are cut by the caller). */
function fitFrom(entries: Line[][], first: number, rows: number): Line[][] {
	const shown: Line[][] = [];
	let used = 0;
	for (let index = first; index < entries.length; index++) {
		const entry = entries[index]!; // in bounds
		if (shown.length > 0 && used + entry.length > rows) break;
		shown.push(entry);
		used += entry.length;
	}

	return shown;
}

function rowsIn(entries: Line[][]): number {
	return entries.reduce((sum, entry) => sum + entry.length, 0);
}

/**
 * One raw line in rows of `width`: whole when it fits; else broken at the last space that fits (before the value,
 * for a sample line), or at the width where there is none, each further row indented.
 */
export function breakLine(text: string, width: number): Line[] {
	const rows: Line[] = [];
	let rest = text;
	let indent = '';
	while (cellWidth(indent + rest) > width) {
		const fits = charsWithin(rest, width - indent.length);
		const space = rest.lastIndexOf(' ', fits);
		const at = space > 0 ? space : fits;
		rows.push(indent ? [seg(indent), seg(rest.slice(0, at))] : [seg(rest.slice(0, at))]);
		rest = rest.slice(space > 0 ? at + 1 : at);
		indent = width > 2 * continued.length ? continued : '';
	}

	rows.push(indent ? [seg(indent), seg(rest)] : [seg(rest)]);
	return rows;
}

/** How many characters of `text` fit in `cells` terminal cells; at least one, so a row always moves on. */
function charsWithin(text: string, cells: number): number {
	let used = 0;
	let index = 0;
	for (const char of text) {
		used += cellWidth(char);
		if (used > cells) break;
		index += char.length;
	}

	return Math.max(index, text.codePointAt(0)! > 0xffff ? 2 : 1); // one character
}
