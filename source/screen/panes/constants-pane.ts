// "kubelet source" side pane: the two constants behind the verdict, where they are written
// for the node's version row, and the ratios that make the 3-minute threshold so forgiving.
import {formatRatio} from '../../domain/text/format.js';
import type {KubeletConstants, SourceConstant} from '../../domain/types.js';
import {cellWidth, fitItems, flowItems, lineWidth, seg, wrapWords, type Item, type Line} from '../layout/line.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import {eventedPeriodSeconds, eventedThresholdSeconds} from '../../domain/health/kubelet-constants.js';

export type ConstantsPaneProps = {
	constants: KubeletConstants;
	/** threshold / period (Figures.thresholdToPeriodRatio), 180 for the generic PLEG. */
	thresholdToPeriodRatio: number;
	/** threshold / window mean (Figures.thresholdToMeanRatio); null when there is no mean. */
	thresholdToMeanRatio: number | null;
	width: number;
};

export function constantsPaneLines({constants, thresholdToPeriodRatio, thresholdToMeanRatio, width}: ConstantsPaneProps): Line[] {
	const flow = (items: Item[]) => flowItems(items, width, {indent: 2});
	return [
		...flow([[seg('kubelet source', 'title')], [seg('as of ', 'dim'), seg(constants.row, 'value')]]),
		...constantLines('relist period', constants.period, width),
		...constantLines('health threshold', constants.threshold, width),
		...flow([
			[seg('Healthy()', 'label')],
			[seg(constants.healthyLocation ?? 'not read for this version', constants.healthyLocation ? undefined : 'dim')],
		]),
		...flow([[seg('threshold/period ', 'label'), seg(formatRatio(thresholdToPeriodRatio), 'value')]]),
		...flow(meanRatioItems(thresholdToMeanRatio)),
		...eventedLines(constants, width),
	];
}

/** One constant: its items flowed, and a caveat too long to be an item word-wrapped below them (never dropped). */
function constantLines(label: string, constant: SourceConstant, width: number): Line[] {
	const note = constant.note ?? (constant.location ? null : 'not read for this version');
	const items = constantItems(label, constant);
	if (note && cellWidth(note) <= width - 2) {
		return flowItems([...items, [seg(note, 'warn')]], width, {indent: 2});
	}

	const noteLines = note ? wrapWords(note, width - 2, 3, 'warn').map((line) => [seg('  '), ...line]) : [];
	return [...flowItems(items, width, {indent: 2}), ...noteLines];
}

/**
 * The pane folded into one row, for short terminals: "kubelet source v1.28.0 · threshold 3m0s · relist 1s ·
 * evented off · threshold/mean ×42,857 · k details". Items that do not fit are left out whole, the threshold
 * last; a caveat on either constant turns the hint into a warning, so a doubtful value never looks settled.
 */
export function constantsSummaryLine({constants, thresholdToMeanRatio, width}: ConstantsPaneProps): Line {
	const caveat = [constants.period, constants.threshold].some((constant) => constant.note !== null || constant.location === null);
	// The key that opens the pane keeps its place at the end of the row: without it the fold cannot be undone.
	const hint: Item = caveat ? [seg('k', 'value'), seg(' details and caveats', 'warn')] : [seg('k', 'value'), seg(' details', 'dim')];
	const title: Item = [seg('kubelet source ', 'title'), seg(constants.row, 'value')];
	const threshold: Item = [seg('threshold ', 'label'), seg(formatGoDuration(constants.threshold.seconds), 'value')];
	const relist: Item = [seg('relist ', 'label'), seg(formatGoDuration(constants.period.seconds), 'value')];
	// On, the evented PLEG explains a 10-minute threshold, and a fallback the generic one with the gate on: either
	// outranks the relist period.
	const notable = constants.evented || constants.eventedFallback !== null;
	const evented: Item = constants.eventedFallback
		? [seg('evented fell back to generic', 'warn')]
		: constants.evented
			? [seg('evented on', 'warn')]
			: [seg('evented off', 'dim')];
	const ratio: Item = [
		seg('threshold/mean ', 'label'),
		seg(formatRatio(thresholdToMeanRatio), thresholdToMeanRatio === null ? 'dim' : 'value'),
	];
	const dropOrder = notable ? [ratio, relist, evented, title] : [ratio, evented, relist, title];
	let kept = [title, threshold, relist, evented, ratio];
	const budget = width - lineWidth(hint) - 3;
	for (const item of dropOrder) {
		if (lineWidth(fitItems(kept, Infinity)) <= budget) {
			break;
		}

		kept = kept.filter((other) => other !== item);
	}

	return fitItems([fitItems(kept, budget), hint], width);
}

/** "relist period 1s · pkg/kubelet/kubelet.go:178 · genericPlegRelistPeriod" (values as Go prints them). */
function constantItems(label: string, constant: SourceConstant): Item[] {
	const items: Item[] = [[seg(`${label} `, 'label'), seg(formatGoDuration(constant.seconds), 'value')]];
	if (constant.location) {
		items.push([seg(constant.location)]);
	}

	items.push([seg(constant.name, 'dim')]);
	return items;
}

function meanRatioItems(ratio: number | null): Item[] {
	if (ratio === null) {
		return [[seg('threshold/mean ', 'label'), seg('—', 'dim')], [seg('no mean in the window', 'dim')]];
	}

	return [[seg('threshold/mean ', 'label'), seg(formatRatio(ratio), 'value')], [seg("the lab's finding, live", 'dim')]];
}

function eventedLines(constants: KubeletConstants, width: number): Line[] {
	const flow = (items: Item[]) => flowItems(items, width, {indent: 2});
	if (constants.eventedFallback) {
		// The gate is on, yet the generic durations are in force again: say so, with the evidence, never dropped.
		return [
			...flow([[seg('evented PLEG ', 'label'), seg('gate on', 'warn')]]),
			...wrapWords(constants.eventedFallback, width - 2, 3, 'warn').map((line) => [seg('  '), ...line]),
			...flowItems(
				[
					[seg(`relist ${formatGoDuration(constants.period.seconds)}, threshold ${formatGoDuration(constants.threshold.seconds)}`)],
					[seg('last seen = check time', 'warn')],
				],
				width - 2,
				{indent: 0},
			).map((line) => [seg('  '), ...line]),
		];
	}

	if (constants.evented) {
		return flow([
			[seg('evented PLEG ', 'label'), seg('on', 'warn')],
			[seg(`relist ${formatGoDuration(constants.period.seconds)}, threshold ${formatGoDuration(constants.threshold.seconds)}`)],
			[seg('last seen = check time', 'warn')],
		]);
	}

	return flow([
		[seg('evented PLEG ', 'label'), seg('off', 'value')],
		[seg(`if on: ${formatGoDuration(eventedPeriodSeconds)} / ${formatGoDuration(eventedThresholdSeconds)}`, 'dim')],
		[seg('last seen = check time', 'dim')],
	]);
}
