// The cluster overview: one row per node, worst first, the selected row marked. Built as Line[] at a known width
// (ui/line.ts): columns are dropped whole, least useful first, when the terminal is narrow; no row is ever wider
// than the width and none wraps. Props only: the rows come sorted from the overview app.
import React from 'react';
import {Box} from 'ink';
import {formatCount, formatQuantile, formatRate, formatSeconds, missing} from '../../domain/format.js';
import {formatGoDuration} from '../../domain/go-duration.js';
import type {Failure, Quantile} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {cellWidth, fitItems, fitLeading, seg, spread, wrapWords, type Item, type Line, type Segment} from '../layout/line.js';
import {Lines} from '../layout/line-view.js';
import {healthSymbol, type Health, type Tone} from '../layout/theme.js';

/** What the table shows of one node (built by overview/rows.ts). */
export type OverviewTableRow = {
	name: string;
	ready: 'True' | 'False' | 'Unknown' | null;
	kubeletVersion: string | null;
	lastSeenAgeSeconds: number | null;
	meanSeconds: number | null;
	p99: Quantile | null;
	ratePerSecond: number | null;
	discardEvents: number | null;
	health: Health;
	word: string;
	stale: boolean;
	gone: boolean;
};

export type OverviewTableProps = {
	rows: OverviewTableRow[];
	/** Name of the selected node; null = the first row. */
	selected: string | null;
	/** e.g. "all nodes via https://10.0.0.1:6443". */
	sourceLabel: string;
	/** e.g. "each node every 2.5 s (50 nodes, --max-rps 20)". */
	cadence: string;
	/** Why the node list could not be read (the table then shows the last list). */
	listFailure: Failure | null;
	now: number;
	width: number;
	height: number;
};

type Column = {
	title: string;
	width: number;
	/** Right-aligned (figures) or left-aligned (words). */
	right: boolean;
	cell(row: OverviewTableRow): Segment;
};

const healthTone: Record<Health, Tone> = {ok: 'ok', warn: 'warn', unhealthy: 'unhealthy', unknown: 'unknown'};

/** Ages in Go's short form, whole seconds (the gauge's resolution): "1s", "3m7s". */
function age(seconds: number | null): string {
	return seconds === null ? missing : formatGoDuration(Math.floor(seconds));
}

function figure(text: string, row: OverviewTableRow): Segment {
	return seg(text, row.stale || row.gone ? 'dim' : undefined);
}

const statusColumn: Column = {
	title: 'status',
	width: 11,
	right: false,
	cell: row => seg(`${healthSymbol[row.health]} ${row.word}`, healthTone[row.health]),
};

const optionalColumns: Array<Column & {drop: number}> = [
	{title: 'Ready', width: 7, right: false, drop: 4, cell: row => seg(row.ready ?? missing, row.ready === 'True' || row.ready === null ? undefined : 'warn')},
	{title: 'kubelet', width: 9, right: false, drop: 1, cell: row => figure(row.kubeletVersion ?? missing, row)},
	{title: 'last seen', width: 9, right: true, drop: 7, cell: row => figure(age(row.lastSeenAgeSeconds), row)},
	{title: 'mean', width: 8, right: true, drop: 5, cell: row => figure(formatSeconds(row.meanSeconds), row)},
	{title: 'p99', width: 8, right: true, drop: 6, cell: row => figure(formatQuantile(row.p99), row)},
	{title: 'relists/s', width: 9, right: true, drop: 3, cell: row => figure(formatRate(row.ratePerSecond), row)},
	{title: 'discards', width: 8, right: true, drop: 2, cell: row => figure(formatCount(row.discardEvents), row)},
];

const gap = 2;
const marker = 2;
const minNameWidth = 8;

/** A cell of exactly `width` cells: cut with "…" (a name, a version: not a figure) or padded. */
function fit(segment: Segment, width: number, right: boolean): Segment {
	const chars = [...segment.text];
	const text = chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : segment.text;
	const pad = ' '.repeat(Math.max(0, width - cellWidth(text)));
	return {...segment, text: right ? pad + text : text + pad};
}

/** The columns that fit `width`, dropping optional ones (lowest `drop` first), and the name column's width. */
export function chooseColumns(rows: OverviewTableRow[], width: number): {columns: Column[]; nameWidth: number} {
	const longest = Math.max(4, ...rows.map(row => cellWidth(row.name)));
	let optional = [...optionalColumns];
	const used = (columns: Column[]) => marker + statusColumn.width + columns.reduce((sum, column) => sum + gap + column.width, 0) + gap;
	while (optional.length > 0 && used(optional) + minNameWidth > width) {
		const lowest = Math.min(...optional.map(column => column.drop));
		optional = optional.filter(column => column.drop !== lowest);
	}

	const nameWidth = Math.max(0, Math.min(longest, 40, width - used(optional)));
	return {columns: optional, nameWidth};
}

function rowLine(row: OverviewTableRow, columns: Column[], nameWidth: number, selected: boolean): Line {
	const line: Line = [seg(selected ? '› ' : '  ', 'value'), fit(statusColumn.cell(row), statusColumn.width, false), seg(' '.repeat(gap))];
	line.push(fit(seg(row.name, selected ? 'value' : row.gone ? 'dim' : undefined), nameWidth, false));
	for (const column of columns) {
		line.push(seg(' '.repeat(gap)), fit(column.cell(row), column.width, column.right));
	}

	return line;
}

function titleLine(columns: Column[], nameWidth: number): Line {
	const line: Line = [seg(' '.repeat(marker)), fit(seg(statusColumn.title, 'label'), statusColumn.width, false), seg(' '.repeat(gap)), fit(seg('node', 'label'), nameWidth, false)];
	for (const column of columns) {
		line.push(seg(' '.repeat(gap)), fit(seg(column.title, 'label'), column.width, column.right));
	}

	return line;
}

function countsLine(rows: OverviewTableRow[], width: number): Line {
	const count = (health: Health) => rows.filter(row => !row.gone && row.health === health).length;
	const gone = rows.filter(row => row.gone).length;
	const items: Item[] = [
		[seg(`${healthSymbol.unhealthy} ${count('unhealthy')} unhealthy`, count('unhealthy') > 0 ? 'unhealthy' : 'dim')],
		[seg(`${healthSymbol.warn} ${count('warn')} warn`, count('warn') > 0 ? 'warn' : 'dim')],
		[seg(`${healthSymbol.ok} ${count('ok')} ok`, 'ok')],
	];
	if (count('unknown') > 0) items.push([seg(`${healthSymbol.unknown} ${count('unknown')} waiting`, 'unknown')]);
	if (gone > 0) items.push([seg(`${gone} gone`, 'dim')]);
	return fitItems(items, width);
}

/** The first row to show so that the selected one is visible in `visible` rows. */
function firstShown(index: number, total: number, visible: number): number {
	if (index < visible) return 0;
	return Math.min(Math.max(0, total - visible), index - visible + 1);
}

export function overviewTableLines(props: OverviewTableProps): Line[] {
	const {rows, width, height} = props;
	const clock = clockTime(props.now);
	const header = spread(
		fitItems([[seg('pleg-top', 'title')], [seg(`${rows.filter(row => !row.gone).length} nodes`, 'value')], [seg(props.sourceLabel, 'dim')]], width - clock.length - 1),
		[seg(clock, 'dim')],
		width,
	);
	const top: Line[] = [header, fitItems([[seg(props.cadence, 'dim')]], width), countsLine(rows, width)];
	const failure = props.listFailure ? wrapWords(`${healthSymbol.unhealthy} node list: ${props.listFailure.summary}`, width, 1, 'error') : [];
	const {columns, nameWidth} = chooseColumns(rows, width);
	const index = Math.max(0, rows.findIndex(row => row.name === props.selected));
	const room = Math.max(0, height - top.length - 1 - failure.length - 1);
	const start = firstShown(index, rows.length, room);
	const shown = rows.slice(start, start + room);
	const hidden = rows.length - shown.length;
	const hints: Item[] = [[seg('↑↓ select')], [seg('Enter open')], [seg('q quit')]];
	if (hidden > 0) hints.unshift([seg(`${hidden} more`, 'dim')]);
	const body = rows.length === 0 ? [[seg('waiting for the node list …', 'dim')]] : [titleLine(columns, nameWidth), ...shown.map((row, i) => rowLine(row, columns, nameWidth, start + i === index))];
	const lines = [...top, ...body, ...failure, fitLeading(hints, width, '  ')];
	// Never taller nor wider than the terminal (a very narrow one cuts the columns).
	return lines.slice(0, Math.max(1, height)).map(line => clip(line, width));
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
	const {columns, nameWidth} = chooseColumns(rows, width);
	return [titleLine(columns, nameWidth), ...rows.map(row => rowLine(row, columns, nameWidth, false))].map(line => clip(line, width));
}

export function OverviewTable(props: OverviewTableProps) {
	return (
		<Box flexDirection="column" width={props.width}>
			<Lines lines={overviewTableLines(props)} />
		</Box>
	);
}
