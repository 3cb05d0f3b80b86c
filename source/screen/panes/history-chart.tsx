// Sparklines of the windowed mean duration and the last-seen age, one column per scrape,
// log-scaled (relist times span 1 ms … 10 s), with restarts (R) and baseline marks (B) below.
import React from 'react';
import {formatAge, formatSeconds} from '../../domain/format.js';
import type {HistoryPoint} from '../../domain/types.js';
import {cellWidth, seg, spread, type Line} from '../layout/line.js';
import {Lines} from '../layout/line-view.js';
import {sparkBlocks} from '../layout/theme.js';

export type HistoryChartProps = {
	history: HistoryPoint[];
	width: number;
};

/** Floors of the log scales: values at or under them draw as the lowest block. */
export const meanFloorSeconds = 0.001;
export const ageFloorSeconds = 1;

const labelWidth = 5; // "mean " / "age  "

/** Level 0 … 7 of `value` on a log scale from `floor` to `max`; null → no block. */
export function sparkLevel(value: number | null, floor: number, max: number): number | null {
	if (value === null) {
		return null;
	}

	if (value <= floor || max <= floor) {
		return 0;
	}

	const level = Math.round((Math.log(value / floor) / Math.log(max / floor)) * (sparkBlocks.length - 1));
	return Math.max(0, Math.min(sparkBlocks.length - 1, level));
}

export function sparkline(values: Array<number | null>, floor: number): string {
	const max = Math.max(floor, ...values.filter((value): value is number => value !== null));
	return values
		.map(value => {
			const level = sparkLevel(value, floor, max);
			return level === null ? ' ' : sparkBlocks[level];
		})
		.join('');
}

export function historyChartLines({history, width}: HistoryChartProps): Line[] {
	if (history.length === 0) {
		return [[seg('history: no scrapes yet', 'dim')]];
	}

	// One column per scrape, the newest on the right; the axis labels quote the maxima of the
	// points shown, so shrink until points + labels fit (a lower max can print longer: "999 ms").
	let columns = width - labelWidth - 1 - Math.max(cellWidth(meanAxis(history)), cellWidth(ageAxis(history)));
	let shown = history.slice(-Math.max(1, columns));
	while (columns >= 4 && labelWidth + columns + 1 + Math.max(cellWidth(meanAxis(shown)), cellWidth(ageAxis(shown))) > width) {
		columns--;
		shown = history.slice(-columns);
	}

	if (columns < 4) {
		return [];
	}

	const spanSeconds = (shown.at(-1)!.at - shown[0]!.at) / 1000;
	const lines: Line[] = [
		spread(
			[seg(`history · last ${formatAge(spanSeconds)}`, 'title')],
			[seg('log scale · R restart · B mark', 'dim')],
			width,
		),
		seriesLine('mean', sparkline(shown.map(point => point.windowMeanSeconds), meanFloorSeconds), meanAxis(shown), columns),
		seriesLine('age', sparkline(shown.map(point => point.lastSeenAgeSeconds), ageFloorSeconds), ageAxis(shown), columns),
	];
	const markers = shown.map(point => (point.event === 'restart' ? 'R' : point.event === 'mark' ? 'B' : ' ')).join('');
	if (markers.trim()) {
		lines.push([seg(' '.repeat(labelWidth)), seg(markers.trimEnd(), 'warn')]);
	}

	return lines;
}

export function HistoryChart(props: HistoryChartProps) {
	return <Lines lines={historyChartLines(props)} width={props.width} />;
}

function meanAxis(points: HistoryPoint[]): string {
	return axisLabel(points.map(point => point.windowMeanSeconds), formatSeconds);
}

function ageAxis(points: HistoryPoint[]): string {
	return axisLabel(points.map(point => point.lastSeenAgeSeconds), formatAge);
}

function axisLabel(values: Array<number | null>, format: (seconds: number) => string): string {
	const present = values.filter((value): value is number => value !== null);
	return present.length === 0 ? 'max —' : `max ${format(Math.max(...present))}`;
}

function seriesLine(label: string, spark: string, axis: string, columns: number): Line {
	return [
		seg(label.padEnd(labelWidth), 'label'),
		seg(spark.padEnd(columns), 'value'),
		seg(' '),
		seg(axis, 'dim'),
	];
}
