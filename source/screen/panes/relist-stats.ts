// Relist duration figures: the window (mean, quantiles, count, rate, interval mean and p99), discards,
// and the lifetime mean kept apart and labelled "since kubelet start" (it hides recent trouble).
import {formatCount, formatQuantile, formatRate, formatSeconds, formatSpan} from '../../domain/text/format.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import type {DeltaFigures, Figures} from '../../domain/types.js';
import {flowItems, seg, wrapWords, type Item, type Line} from '../layout/line.js';

export type RelistStatsProps = {
	figures: Figures;
	width: number;
};

export function relistStatsLines({figures, width}: RelistStatsProps): Line[] {
	const {window} = figures;
	const lines: Line[] = [...flowItems(title(figures), width)];
	lines.push(...windowLines(window, width));
	lines.push(...flowItems(discardItems(figures), width));
	lines.push(...flowItems(lifetimeItems(figures), width));
	for (const text of figures.unavailable) {
		lines.push(...wrapWords(text, width, 2, 'dim', 2));
	}

	return lines;
}

function labelled(label: string, value: string, suffix = ''): Item {
	const item: Item = [seg(`${label} `, 'label'), seg(value, 'value')];
	if (suffix) {
		item.push(seg(suffix, 'label'));
	}

	return item;
}

function title({windowTargetSeconds, window, legacy}: Figures): Item[] {
	const span = window && window.spanSeconds < windowTargetSeconds - 0.5 ? ` (${formatSpan(window.spanSeconds)} so far)` : '';
	const items: Item[] = [[seg(`relist duration · window ${formatGoDuration(windowTargetSeconds)}${span}`, 'title')]];
	if (legacy) {
		items.push([seg('from the pre-1.18 µs summaries', 'dim')]);
	}

	return items;
}

function windowLines(window: DeltaFigures | null, width: number): Line[] {
	if (!window) {
		return flowItems([[seg('window opens at the second scrape', 'dim')]], width);
	}

	const span = formatSpan(window.spanSeconds);
	if (window.count === 0) {
		// Δcount = 0: there is no mean or quantile; never "0 ms".
		return flowItems([[seg(`no relist completed in the last ${span}`, 'warn')]], width);
	}

	const lines = flowItems(
		[
			labelled('mean', window.meanSeconds === null ? '—' : formatSeconds(window.meanSeconds)),
			labelled('p50', formatQuantile(window.p50)),
			labelled('p90', formatQuantile(window.p90)),
			labelled('p99', formatQuantile(window.p99)),
		],
		width,
	);
	const rate = window.ratePerSecond === null ? [] : [labelled('rate', formatRate(window.ratePerSecond))];
	lines.push(...flowItems([relistsItem(window, span), ...rate], width));
	// The interval p99 beside its mean, as the Grafana kubelet dashboard plots it: ≈ period + duration p99 when healthy.
	const interval: Item[] = [];
	if (window.intervalMeanSeconds !== null) {
		interval.push(labelled('interval mean', formatSeconds(window.intervalMeanSeconds)));
	}

	if (window.intervalP99) {
		interval.push(labelled('interval p99', formatQuantile(window.intervalP99)));
	}

	lines.push(...flowItems(interval, width));

	return lines;
}

function relistsItem(window: DeltaFigures, span: string): Item {
	return labelled('relists', String(window.count), ` in ${span}`);
}

function discardItems({window, discardEventsTotal}: Figures): Item[] {
	const total = discardEventsTotal ?? null;
	const inWindow = window?.discardEvents ?? null;
	if (total === null && inWindow === null) {
		return [];
	}

	const items: Item[] = [labelled('discard events', total === null ? '—' : formatCount(total), total === null ? '' : ' total')];
	if (inWindow !== null) {
		items.push([seg(`+${inWindow} in window`, inWindow > 0 ? 'warn' : 'label')]);
	}

	return items;
}

function lifetimeItems({lifetime}: Figures): Item[] {
	if (!lifetime) {
		return [];
	}

	const mean = lifetime.meanSeconds === null ? 'no relists yet' : formatSeconds(lifetime.meanSeconds);
	return [labelled('lifetime mean', mean), [seg('since kubelet start', 'label')], labelled('relists', formatCount(lifetime.count))];
}
