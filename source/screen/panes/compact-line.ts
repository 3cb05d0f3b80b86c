// One row for tiny panes (a tmux corner): the verdict symbol and the last-seen age always
// first, then whatever else fits, whole: "✓ demo-node last seen 1 s · mean 4.2 ms · p99 9 ms".
import {formatAge, formatQuantile, formatSeconds} from '../../domain/text/format.js';
import type {FeedStatus, Figures} from '../../domain/types.js';
import {ageBand} from '../../domain/health/health.js';
import {cellWidth, fitItems, seg, type Item, type Line} from '../layout/line.js';
import {healthSymbol, verdictHealth, type Health} from '../layout/theme.js';

export type CompactLineProps = {
	figures: Figures | null;
	status: FeedStatus;
	sourceLabel: string;
	width: number;
};

export function compactLine({figures, status, sourceLabel, width}: CompactLineProps): Line {
	if (!figures) {
		const failed = status.failure ? [`${healthSymbol.unhealthy} ${status.failure.summary}`] : [];
		const text = [...failed, `… connecting to ${sourceLabel}`, '… connecting'].find((candidate) => cellWidth(candidate) <= width);
		return text ? [seg(text, status.failure ? 'error' : 'dim')] : [];
	}

	const {health, age} = reading(figures);
	const symbol = healthSymbol[health];
	// Symbol and age always; the node name goes before STALE does.
	const stale = status.failure ? ' STALE' : '';
	const heads = [`${symbol} ${figures.node} ${age}${stale}`, `${symbol} ${age}${stale}`, `${symbol} ${age}`];
	const head = heads.find((text) => cellWidth(text) <= width) ?? heads.at(-1)!; // non-empty
	const items: Item[] = [[seg(head, health)]];
	if (status.paused) {
		items.push([seg('PAUSED', 'paused')]);
	}

	const {window} = figures;
	if (window?.count === 0) {
		items.push([seg('no relist in window', 'warn')]);
	} else if (window) {
		if (window.meanSeconds !== null) {
			items.push([seg('mean ', 'label'), seg(formatSeconds(window.meanSeconds), 'value')]);
		}

		if (window.p99) {
			items.push([seg('p99 ', 'label'), seg(formatQuantile(window.p99), 'value')]);
		}
	}

	return fitItems(items, width);
}

/**
 * The symbol follows the gauge band when the age is known (it shows warn), else the verdict; while stale it is the
 * verdict's unknown, and the age an upper bound.
 */
function reading(figures: Figures): {health: Health; age: string} {
	const {lastSeen, constants, verdict} = figures;
	if (figures.stale && lastSeen.ageSeconds !== null) {
		return {health: 'unknown', age: `last seen ≤ ${formatAge(lastSeen.ageSeconds)}`};
	}

	if (lastSeen.ageSeconds !== null) {
		return {health: ageBand(lastSeen.ageSeconds, constants), age: `last seen ${formatAge(lastSeen.ageSeconds)}`};
	}

	if (lastSeen.neverSucceeded) {
		return {health: 'unhealthy', age: 'no successful relist yet'};
	}

	if (lastSeen.countUnchangedSeconds !== null) {
		const seconds = lastSeen.countUnchangedSeconds;
		return {health: figures.stale ? 'unknown' : ageBand(seconds, constants), age: `count unchanged ${formatAge(seconds)}`};
	}

	return {health: verdictHealth(verdict.healthy), age: 'last seen unknown'};
}
