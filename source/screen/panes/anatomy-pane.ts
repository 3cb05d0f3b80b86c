// Relist anatomy pane (`a`): why is the relist slow? The reading in words, then the four CRI calls a relist makes
// over the same window (rate, mean, p99, errors; every kubelet caller counted), status calls per relist, the list
// calls' share of the mean relist, and what the relist walks (running pods and containers).
import {containersText, operationKeys, operationLabels, shareText, spanText} from '../../domain/anatomy/anatomy-text.js';
import {countOf, formatQuantile, formatRate, formatSeconds} from '../../domain/text/format.js';
import {formatCalls} from '../../domain/anatomy/anatomy-reading.js';
import type {AnatomyReading, CriOperationFigures, RelistAnatomy} from '../../domain/types.js';
import {flowItems, seg, wrapWords, type Item, type Line} from '../layout/line.js';
import type {Tone} from '../layout/theme.js';

export type AnatomyPaneProps = {
	/** null before the first scrape. */
	anatomy: RelistAnatomy | null;
	width: number;
};

/** Wide enough for "PodSandboxStatus" and a blank. */
const labelWidth = 17;
/** The reading is prose: it wraps over as many rows as it needs (the dashboard drops the pane whole if short of room). */
const readingRows = 8;

export function anatomyPaneLines({anatomy, width}: AnatomyPaneProps): Line[] {
	const title = flowItems([[seg('relist anatomy', 'title')], [seg(`CRI calls ${spanText(anatomy?.spanSeconds ?? null)}`, 'dim')]], width);
	if (!anatomy) {
		return title;
	}

	const lines: Line[] = [...title, ...wrapWords(anatomy.reading.text, width, readingRows, readingTone(anatomy.reading))];
	// Two blanks between the figures of a call (not " · "): a row then fits in 60 columns.
	const operationRows = (label: string, op: CriOperationFigures | null) =>
		flowItems(operationItems(label, op), width, {separator: '  ', indent: labelWidth});
	for (const key of operationKeys) {
		lines.push(...operationRows(operationLabels[key], anatomy.operations[key]));
	}

	if (anatomy.docker) {
		lines.push(
			...operationRows('docker list', anatomy.docker.listContainers),
			...operationRows('docker inspect', anatomy.docker.inspectContainer),
		);
	}

	lines.push(...flowItems(perRelistItems(anatomy), width));
	lines.push(...flowItems(runningItems(anatomy), width));
	for (const text of anatomy.unavailable) {
		lines.push(...wrapWords(text, width, 3, 'dim', 2));
	}

	return lines;
}

function readingTone({kind}: AnatomyReading): Tone | undefined {
	if (kind === 'list-slow' || kind === 'status' || kind === 'no-relist') {
		return 'warn';
	}

	return kind === 'idle' ? 'ok' : undefined;
}

/** "ListPodSandbox   1.00/s  mean 3.2 ms  p99 11.4 ms  0 errors": the label and rate stay together. */
function operationItems(label: string, op: CriOperationFigures | null): Item[] {
	const name = seg(label.padEnd(labelWidth), 'label');
	if (!op) {
		return [[name, seg('not exposed', 'dim')]];
	}

	if (op.calls === 0) {
		return [[name, seg('no call in the window', 'dim')], errorsItem(op.errors)];
	}

	return [
		[name, seg(formatRate(op.ratePerSecond), 'value')],
		[seg('mean ', 'label'), seg(formatSeconds(op.windowMeanSeconds), 'value')],
		[seg('p99 ', 'label'), seg(formatQuantile(op.windowP99), 'value')],
		errorsItem(op.errors),
	];
}

function errorsItem(errors: number): Item {
	return [seg(countOf(errors, 'error'), errors > 0 ? 'warn' : 'label')];
}

function perRelistItems({statusCallsPerRelist, listShareOfRelist, relistSecondsPerContainer}: RelistAnatomy): Item[] {
	return [
		[seg('status calls/relist ', 'label'), seg(statusCallsText(statusCallsPerRelist), 'value')],
		[seg('list share ', 'label'), seg(shareText(listShareOfRelist), 'value')],
		[seg('per container ', 'label'), seg(formatSeconds(relistSecondsPerContainer), 'value')],
	];
}

function runningItems({runningPods, runningContainers}: RelistAnatomy): Item[] {
	return [
		[seg('running ', 'label'), seg(runningPods === null ? '—' : `${runningPods} pods`, 'value')],
		[seg('containers ', 'label'), seg(runningContainers === null ? '—' : containersText(runningContainers), 'value')],
	];
}

/** An upper bound ("≤ 2.2": other kubelet loops call too), except that none is exactly none. */
function statusCallsText(perRelist: number | null): string {
	if (perRelist === null) return '—';
	return perRelist === 0 ? '0' : `≤ ${formatCalls(perRelist)}`;
}
