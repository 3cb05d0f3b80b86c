// After `b`: the window as it was at the mark beside the deltas since the mark, so a
// before/after (idle vs churn) reads off one screen: "mean 4.2 ms → 26.5 ms ×6.3 since mark".
import {formatAge, formatQuantile, formatRate, formatRatio, formatSeconds, formatSpan} from '../../domain/text/format.js';
import type {DeltaFigures, Figures} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {cellWidth, fitItems, seg, type Line} from '../layout/line.js';

export type BaselinePaneProps = {
	baseline: NonNullable<Figures['baseline']>;
	now: number;
	width: number;
};

type Row = {label: string; value: (figures: DeltaFigures) => string};

const rows: Row[] = [
	{label: 'mean', value: (figures) => (figures.meanSeconds === null ? 'no relist' : formatSeconds(figures.meanSeconds))},
	{label: 'p99', value: (figures) => (figures.count === 0 ? 'no relist' : formatQuantile(figures.p99))},
	{label: 'rate', value: (figures) => (figures.ratePerSecond === null ? '—' : formatRate(figures.ratePerSecond))},
	{
		label: 'interval',
		value: (figures) => (figures.intervalMeanSeconds === null ? '—' : formatSeconds(figures.intervalMeanSeconds)),
	},
	{label: 'relists', value: (figures) => `${figures.count} in ${formatSpan(figures.spanSeconds)}`},
];

export function baselinePaneLines({baseline, now, width}: BaselinePaneProps): Line[] {
	const ago = formatAge(Math.max(0, (now - baseline.markedAt) / 1000));
	const ratio = baseline.meanRatio === null ? [] : [[seg(`${formatRatio(baseline.meanRatio)} since mark`, 'value')]];
	const title = fitItems([[seg('baseline', 'title')], ...ratio, [seg(`marked ${clockTime(baseline.markedAt)}, ${ago} ago`, 'dim')]], width);
	const {atMark, sinceMark} = baseline;
	const cell = (figures: DeltaFigures | null, row: Row) => (figures ? row.value(figures) : '—');
	const table = [['', 'at mark', 'since mark'], ...rows.map((row) => [row.label, cell(atMark, row), cell(sinceMark, row)])];
	// Column widths from the widest cell, two spaces apart; a table too wide for the pane is left out whole.
	const widths = [0, 1, 2].map((column) => Math.max(...table.map((cells) => cellWidth(cells[column]!)))); // in bounds
	const tableWidth = widths[0]! + widths[1]! + widths[2]! + 4; // non-empty
	if (tableWidth > width) {
		return [title];
	}

	return [
		title,
		...table.map((cells, index) => {
			const tone = index === 0 ? 'label' : 'value';
			return [
				seg(`${cells[0]!.padEnd(widths[0]!)}  `, 'label'), // non-empty
				seg(`${cells[1]!.padEnd(widths[1]!)}  `, tone), // in bounds
				seg(cells[2]!, tone), // in bounds
			] satisfies Line;
		}),
	];
}
