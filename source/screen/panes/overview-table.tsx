// The cluster overview: one row per node, in the chosen order (worst first by default), the selected row marked,
// the sorted column's title arrowed. Built as Line[] at a known width (layout/line.ts): columns are dropped whole,
// least useful first, when the terminal is narrow; no row is ever wider than the width and none wraps. Props only:
// the rows come sorted from the overview app; the name filter typed after `/` is applied here.
import {Box} from 'ink';
import {formatCount, formatQuantile, formatRate, formatSeconds, missing} from '../../domain/text/format.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import {countdownLeftText} from '../../domain/health/health.js';
import type {Failure} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {cellWidth, fitItems, fitLeading, seg, spread, wrapWords, type Item, type Line, type Segment} from '../layout/line.js';
import {Lines} from '../layout/line-view.js';
import {healthSymbol, type Tone} from '../layout/theme.js';
import {noSharedParts, sharedParts, shortName, type SharedParts} from '../node-names.js';
import {
	defaultSort,
	filterRows,
	shownReadSeconds,
	sortsDescending,
	sortWords,
	type OverviewTableRow,
	type RowState,
	type SortColumn,
	type SortOrder,
} from '../overview-rows.js';

export type OverviewTableProps = {
	/** Every row, sorted; the filter below picks the ones shown. */
	rows: OverviewTableRow[];
	/** Name of the selected node; null = the first row shown. */
	selected: string | null;
	/** The order the rows are in, marked on its column's title. @default status, worst first */
	sort?: SortOrder;
	/** Part of a node name: only matching rows are shown. @default '' */
	filter?: string;
	/** The filter is being typed (after `/`): the bottom line is its prompt. */
	typing?: boolean;
	/** e.g. "all nodes via https://10.0.0.1:6443". */
	sourceLabel: string;
	/** e.g. "each node every 2.5 s (50 nodes, --max-rps 20)". */
	cadence: string;
	/** What holds the reads back, each in a sentence (a 429 wait, an absent API server, a slow cycle). */
	notes?: readonly string[];
	/** Why the node list could not be read (the table then shows the last list). */
	listFailure: Failure | null;
	now: number;
	width: number;
	height: number;
};

type Column = {
	id: SortColumn;
	title: string;
	width: number;
	/** Right-aligned (figures) or left-aligned (words). */
	right: boolean;
	cell(row: OverviewTableRow): Segment;
};

/** Symbol and colour per state; the word beside the symbol carries the meaning without colour. */
const stateSymbol: Record<RowState, string> = {
	unhealthy: healthSymbol.unhealthy,
	critical: healthSymbol.critical,
	error: healthSymbol.unknown,
	unknown: healthSymbol.unknown,
	slow: healthSymbol.warn,
	warn: healthSymbol.warn,
	ok: healthSymbol.ok,
};

const stateTone: Record<RowState, Tone> = {
	unhealthy: 'unhealthy',
	critical: 'critical',
	error: 'error',
	unknown: 'unknown',
	slow: 'warn',
	warn: 'warn',
	ok: 'ok',
};

/** Ages in Go's short form, whole seconds (the gauge's resolution): "1s", "3m7s". */
function age(seconds: number | null): string {
	return seconds === null ? missing : formatGoDuration(Math.floor(seconds));
}

/**
 * "16s ago" (shownReadSeconds: last seen + read + NotReady in add up to the threshold); an age too long for the column
 * with it ("3m20s ago") without "ago", so it is never cut.
 */
function readText(row: OverviewTableRow): string {
	const seconds = shownReadSeconds(row.lastSeenAgeSeconds, row.readAgeSeconds);
	if (seconds === null) return missing;
	const text = age(seconds);
	return text.length <= readWidth - 4 ? `${text} ago` : text;
}

/** "2m53s", "due now" once the estimate is past the threshold, — in the ok band. */
function notReadyText(row: OverviewTableRow): string {
	return row.notReadyLeftSeconds === null ? missing : countdownLeftText(row.notReadyLeftSeconds);
}

const readWidth = 8;

function figure(text: string, row: OverviewTableRow): Segment {
	return seg(text, row.stale || row.gone ? 'dim' : undefined);
}

function statusText(row: OverviewTableRow): string {
	return `${stateSymbol[row.state]} ${row.reason ?? row.word}`;
}

/** The status column is as wide as its longest entry ("? kubelet unreachable"), within these bounds. */
const statusMinWidth = 11;
const statusMaxWidth = 21;

function statusColumn(rows: OverviewTableRow[]): Column {
	// Measured once per distinct text: a fleet has thousands of rows but a handful of statuses.
	const texts = new Set(rows.map(statusText));
	const longest = Math.max(0, ...[...texts].map((text) => cellWidth(text)));
	return {
		id: 'status',
		title: 'status',
		width: Math.min(statusMaxWidth, Math.max(statusMinWidth, longest)),
		right: false,
		cell: (row) => seg(statusText(row), stateTone[row.state]),
	};
}

/** The drop rank of last seen, read and NotReady in, the last columns to go. */
const agesDrop = 7;

// One cell wider than the longest title, so the sort arrow fits beside it. Last seen, read and NotReady in go
// together: last seen + read + NotReady in is the threshold, and without read the other two would not add up.
const optionalColumns: Array<Column & {drop: number}> = [
	{
		id: 'ready',
		title: 'Ready',
		width: 7,
		right: false,
		drop: 5,
		cell: (row) => seg(row.ready ?? missing, row.ready === 'True' || row.ready === null ? undefined : 'warn'),
	},
	{id: 'kubelet', title: 'kubelet', width: 9, right: false, drop: 1, cell: (row) => figure(row.kubeletVersion ?? missing, row)},
	{id: 'last-seen', title: 'last seen', width: 10, right: true, drop: agesDrop, cell: (row) => figure(age(row.lastSeenAgeSeconds), row)},
	// The age above is the kubelet's at the read; this says how old that read is (at the rate bound, many seconds; on
	// --prometheus Prometheus' scrape, minutes once a target is no longer scraped: then "3m20s" without "ago", whole).
	{
		id: 'read',
		title: 'read',
		width: readWidth,
		right: true,
		drop: agesDrop,
		cell: (row) => figure(readText(row), row),
	},
	{
		id: 'notready-in',
		title: 'NotReady in',
		width: 12,
		right: true,
		drop: agesDrop,
		cell: (row) => seg(notReadyText(row), row.notReadyLeftSeconds === null ? 'dim' : row.state === 'critical' ? 'critical' : 'warn'),
	},
	{id: 'mean', title: 'mean', width: 8, right: true, drop: 4, cell: (row) => figure(formatSeconds(row.meanSeconds), row)},
	{
		id: 'p99',
		title: 'p99',
		width: 8,
		right: true,
		drop: 6,
		cell: (row) => seg(formatQuantile(row.p99), row.stale || row.gone ? 'dim' : row.slow ? 'warn' : undefined),
	},
	{id: 'rate', title: 'relists/s', width: 10, right: true, drop: 3, cell: (row) => figure(formatRate(row.ratePerSecond), row)},
	{id: 'discards', title: 'discards', width: 9, right: true, drop: 2, cell: (row) => figure(formatCount(row.discardEvents), row)},
];

const gap = 2;
const marker = 2;
const minNameWidth = 8;
const wantedNameWidth = 20;
/** The name may give up cells down to this to keep the ages: cut in the middle, 16 cells still tell nodes apart. */
const nameWidthBesideAges = 16;

/** A cell of exactly `width` cells: cut with "…" (a name, a version: not a figure) or padded. */
function fit(segment: Segment, width: number, right: boolean): Segment {
	const chars = [...segment.text];
	const text = chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : segment.text;
	const pad = ' '.repeat(Math.max(0, width - cellWidth(text)));
	return {...segment, text: right ? pad + text : text + pad};
}

/**
 * The columns that fit `width`, dropping optional ones (lowest `drop` first), the name column's width, and what the
 * names share (a name too long for its column is cut where it does not tell nodes apart).
 */
function chooseColumns(
	rows: OverviewTableRow[],
	width: number,
): {status: Column; columns: Column[]; nameWidth: number; shared: SharedParts} {
	const longest = Math.max(4, ...rows.map((row) => cellWidth(row.name)));
	const status = statusColumn(rows);
	let optional = [...optionalColumns];
	const used = (columns: Column[]) => marker + status.width + columns.reduce((sum, column) => sum + gap + column.width, 0) + gap;
	// A name cut to a few letters names no node: columns go before the name is cut below wantedNameWidth.
	const wanted = Math.max(minNameWidth, Math.min(longest, wantedNameWidth));
	while (optional.length > 0) {
		const lowest = Math.min(...optional.map((column) => column.drop));
		if (used(optional) + (lowest >= agesDrop ? Math.min(wanted, nameWidthBesideAges) : wanted) <= width) break;
		optional = optional.filter((column) => column.drop !== lowest);
	}

	const nameWidth = Math.max(0, Math.min(longest, 40, width - used(optional)));
	return {status, columns: optional, nameWidth, shared: longest > nameWidth ? sharedParts(rows.map((row) => row.name)) : noSharedParts};
}

type Layout = ReturnType<typeof chooseColumns>;

function rowLine(row: OverviewTableRow, {status, columns, nameWidth, shared}: Layout, selected: boolean): Line {
	const line: Line = [seg(selected ? '› ' : '  ', 'value'), fit(status.cell(row), status.width, false), seg(' '.repeat(gap))];
	line.push(fit(seg(shortName(row.name, nameWidth, shared), selected ? 'value' : row.gone ? 'dim' : undefined), nameWidth, false));
	for (const column of columns) {
		line.push(seg(' '.repeat(gap)), fit(column.cell(row), column.width, column.right));
	}

	return line;
}

/** The column titles; the sorted column's with ↓ (largest value first) or ↑ (smallest first). */
function titleLine({status, columns, nameWidth}: Layout, sort: SortOrder | undefined): Line {
	const title = (column: Pick<Column, 'id' | 'title'>) =>
		sort?.column === column.id ? `${column.title}${sortsDescending(sort) ? '↓' : '↑'}` : column.title;
	const line: Line = [
		seg(' '.repeat(marker)),
		fit(seg(title(status), 'label'), status.width, false),
		seg(' '.repeat(gap)),
		fit(seg(title({id: 'node', title: 'node'}), 'label'), nameWidth, false),
	];
	for (const column of columns) {
		line.push(seg(' '.repeat(gap)), fit(seg(title(column), 'label'), column.width, column.right));
	}

	return line;
}

/**
 * How many nodes are in each state, over every node (the filter hides rows, not trouble). A failing read counts
 * as an error whether or not a good read came before it.
 */
function countsLine(rows: OverviewTableRow[], width: number): Line {
	// One pass over the rows (10,000 of them on a big fleet), not one per state.
	const counts = new Map<RowState, number>();
	let gone = 0;
	for (const row of rows) {
		if (row.gone) gone++;
		else counts.set(row.state, (counts.get(row.state) ?? 0) + 1);
	}

	const count = (state: RowState) => counts.get(state) ?? 0;
	const item = (state: RowState, word: string, plural = word): Item => [
		seg(`${stateSymbol[state]} ${count(state)} ${count(state) === 1 ? word : plural}`, count(state) > 0 ? stateTone[state] : 'dim'),
	];
	// In rank order; unhealthy and warn always (a zero there is news), the others when there are some.
	const items: Item[] = [item('unhealthy', 'unhealthy')];
	if (count('critical') > 0) items.push(item('critical', 'critical'));
	if (count('error') > 0) items.push(item('error', 'error', 'errors'));
	if (count('unknown') > 0) items.push(item('unknown', 'unknown'));
	items.push(item('warn', 'warn'));
	if (count('slow') > 0) items.push(item('slow', 'slow'));
	items.push([seg(`${stateSymbol.ok} ${count('ok')} ok`, 'ok')]);
	if (gone > 0) items.push([seg(`${gone} gone`, 'dim')]);
	return fitItems(items, width);
}

/** The first row to show so that the selected one is visible in `visible` rows. */
function firstShown(index: number, total: number, visible: number): number {
	if (index < visible) return 0;
	return Math.min(Math.max(0, total - visible), index - visible + 1);
}

/** The bottom line: the filter's prompt while it is typed, else the keys. */
function bottomLine(props: OverviewTableProps, hidden: number): Line {
	const {width} = props;
	const filter = props.filter ?? '';
	if (props.typing) {
		return fitLeading([[seg('/', 'value'), seg(filter), seg('▌', 'dim')], [seg('Enter keep')], [seg('Esc clear')]], width, '  ');
	}

	const hints: Item[] = [
		[seg('↑↓ select')],
		[seg('Enter open')],
		[seg('s sort')],
		[seg('S reverse')],
		[seg(filter === '' ? '/ filter' : 'Esc unfilter')],
		[seg('? keys')],
		[seg('q quit')],
	];
	if (hidden > 0) hints.unshift([seg(`${hidden} more`, 'dim')]);
	return fitLeading(hints, width, '  ');
}

export function overviewTableLines(props: OverviewTableProps): Line[] {
	const {width, height} = props;
	const filter = props.filter ?? '';
	const sort = props.sort ?? defaultSort;
	const listed = props.rows.filter((row) => !row.gone).length;
	const rows = filterRows(props.rows, filter);
	const clock = clockTime(props.now);
	const nodes: Item =
		filter === ''
			? [seg(`${listed} nodes`, 'value')]
			: [seg(`${rows.filter((row) => !row.gone).length} of ${listed} nodes`, 'value'), seg(` matching "${filter}"`)];
	const order: Item = sort.column === defaultSort.column && !sort.reversed ? [] : [seg(`sorted by ${sortWords(sort)}`)];
	const header = spread(
		fitItems([[seg('pleg-top', 'title')], nodes, order, [seg(props.sourceLabel, 'dim')]], width - clock.length - 1),
		[seg(clock, 'dim')],
		width,
	);
	// What holds the reads back is said under the cadence, where it is read with it.
	const notes = (props.notes ?? []).flatMap((note) => wrapWords(`${healthSymbol.warn} ${note}`, width, 2, 'warn', 2));
	const top: Line[] = [header, fitItems([[seg(props.cadence, 'dim')]], width), ...notes, countsLine(props.rows, width)];
	const failure = props.listFailure
		? wrapWords(`${healthSymbol.unhealthy} node list: ${props.listFailure.summary}`, width, 1, 'error')
		: [];
	// The layout from every row, so the columns stay put while a filter is typed.
	const layout = chooseColumns(props.rows, width);
	const index = Math.max(
		0,
		rows.findIndex((row) => row.name === props.selected),
	);
	const room = Math.max(0, height - top.length - 1 - failure.length - 1);
	const start = firstShown(index, rows.length, room);
	const shown = rows.slice(start, start + room);
	const empty = props.rows.length === 0 ? 'waiting for the node list …' : `no node name contains "${filter}"`;
	const body =
		rows.length === 0
			? [[seg(empty, 'dim')]]
			: [titleLine(layout, sort), ...shown.map((row, i) => rowLine(row, layout, start + i === index))];
	const lines = [...top, ...body, ...failure, bottomLine(props, rows.length - shown.length)];
	// Never taller nor wider than the terminal (a very narrow one cuts the columns).
	return lines.slice(0, Math.max(1, height)).map((line) => clip(line, width));
}

/** The line cut at `width` cells: only below the narrowest layout (status + a short name). */
function clip(line: Line, width: number): Line {
	const out: Line = [];
	let left = width;
	for (const segment of line) {
		const chars = [...segment.text];
		if (left <= 0) break;
		out.push(chars.length <= left ? segment : {...segment, text: chars.slice(0, left).join('')});
		left -= Math.min(left, chars.length);
	}

	return out;
}

/** The table alone (titles and every row, no marker, clock or hints) for the --once text report. */
export function overviewPlainLines(rows: OverviewTableRow[], width: number): Line[] {
	const layout = chooseColumns(rows, width);
	return [titleLine(layout, undefined), ...rows.map((row) => rowLine(row, layout, false))].map((line) => clip(line, width));
}

export function OverviewTable(props: OverviewTableProps) {
	return (
		<Box flexDirection="column" width={props.width}>
			<Lines lines={overviewTableLines(props)} />
		</Box>
	);
}
