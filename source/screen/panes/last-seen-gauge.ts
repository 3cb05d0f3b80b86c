// The live gauge: how long ago the PLEG last relisted successfully, on a log scale with
// the relist period and the health threshold marked. Three rows, always.
import {formatAge} from '../../domain/text/format.js';
import type {KubeletConstants, LastSeen} from '../../domain/types.js';
import {filledCells, tickCell, tickLabel} from '../../domain/health/gauge-scale.js';
import {ageBand, criticalFromSeconds, warnAfterSeconds, type AgeBand} from '../../domain/health/health.js';
import {firstFitting, fitItems, seg, type Item, type Line} from '../layout/line.js';
import {barEmpty, barFilled, healthSymbol, tickMark, type Health} from '../layout/theme.js';

export type LastSeenGaugeProps = {
	lastSeen: LastSeen;
	constants: KubeletConstants;
	/** Columns available; the bar spans all of them. */
	width: number;
	/** The node's clock is only bounded (at least so far ahead): the gauge's age is a lower bound, "at least". */
	atLeast?: boolean;
	/**
	 * The figures are from an older scrape (the last one failed): the age is then pleg-top's extrapolation of the
	 * old gauge, an upper bound, and the symbol is "?" whatever the band.
	 */
	stale?: boolean;
};

/** What the gauge shows: an age (from the gauge or the count fallback) or a reason there is none. */
type Reading = {age: number | null; health: Health; head: Item[]; extra: Item[]};

export function lastSeenGaugeLines({lastSeen, constants, width, stale = false, atLeast = false}: LastSeenGaugeProps): Line[] {
	const reading = readGauge(lastSeen, constants, stale, atLeast);
	const staleItem: Item[] = stale ? [[seg('STALE', 'stale')]] : [];
	const head = firstFitting(reading.head, width) ?? [];
	const first = fitItems([head, ...staleItem, ...reading.extra], width);
	return [first, barLine(reading, constants, width), tickLine(constants, width)];
}

function readGauge(lastSeen: LastSeen, constants: KubeletConstants, stale: boolean, atLeast: boolean): Reading {
	if (lastSeen.neverSucceeded) {
		return {
			age: null,
			health: 'unhealthy',
			head: [
				[seg(`${healthSymbol.unhealthy} no successful relist yet`, 'unhealthy')],
				[seg(`${healthSymbol.unhealthy} never relisted`, 'unhealthy')],
			],
			extra: [[seg('last_seen gauge = 0', 'dim')]],
		};
	}

	if (lastSeen.ageSeconds !== null) {
		const age = lastSeen.ageSeconds;
		const band = ageBand(age, constants);
		const extra: Item[] = [bandItem(band, constants)];
		if (lastSeen.skewSeconds !== null) {
			extra.unshift([seg(`node clock ahead by ${formatAge(lastSeen.skewSeconds)}`, 'warn')]);
		}

		return stale
			? {age, health: 'unknown', head: ageHeads('last seen up to', age, 'unknown', ' ago'), extra}
			: {age, health: band, head: ageHeads(atLeast ? 'last seen at least' : 'last seen', age, band, ' ago'), extra};
	}

	if (lastSeen.countUnchangedSeconds !== null) {
		const age = lastSeen.countUnchangedSeconds;
		const band = ageBand(age, constants);
		return {
			age,
			health: stale ? 'unknown' : band,
			head: ageHeads(stale ? 'count unchanged up to' : 'count unchanged for', age, stale ? 'unknown' : band, ''),
			extra: [[seg('no gauge before 1.18', 'dim')], bandItem(band, constants)],
		};
	}

	return {
		age: null,
		health: 'unknown',
		head: [[seg(`${healthSymbol.unknown} last seen: not known yet`, 'unknown')]],
		extra: [[seg('no last-seen gauge; waiting for the relist count to move', 'dim')]],
	};
}

/** The age item in decreasing length, so a narrow pane still shows the symbol and the age. */
function ageHeads(words: string, age: number, band: Health, suffix: string): Item[] {
	const symbol = healthSymbol[band];
	const text = formatAge(age);
	return [
		[seg(`${symbol} ${words} `, band), seg(text, 'value'), seg(suffix, band)],
		[seg(`${symbol} `, band), seg(text, 'value')],
	];
}

function bandItem(band: AgeBand, constants: KubeletConstants): Item {
	const warnAfter = tickLabel(warnAfterSeconds(constants));
	const threshold = tickLabel(constants.threshold.seconds);
	const text = {
		ok: `ok ≤ ${warnAfter}`,
		warn: `warn > ${warnAfter}`,
		critical: `critical ≥ ${tickLabel(criticalFromSeconds(constants))}`,
		unhealthy: `unhealthy > ${threshold}`,
	}[band];
	return [seg(text, band)];
}

function barLine(reading: Reading, constants: KubeletConstants, width: number): Line {
	const filled = reading.age === null ? 0 : filledCells(reading.age, width, constants);
	const tone = reading.health === 'unknown' ? 'unknown' : reading.health;
	return [seg(barFilled.repeat(filled), tone), seg(barEmpty.repeat(width - filled), 'empty')];
}

/** Cells `from` up to `to` (clipped to the row) hold nothing yet. */
function blank(row: string[], from: number, to: number): boolean {
	for (let cell = Math.max(0, from); cell < Math.min(row.length, to); cell++) {
		if (row[cell] !== ' ') {
			return false;
		}
	}

	return true;
}

/** "╵1s" under the period's cell and "╵3m" under the threshold's; a label that would run off the end goes left of its mark. */
function tickLine(constants: KubeletConstants, width: number): Line {
	const row: string[] = new Array<string>(width).fill(' ');
	const place = (seconds: number): boolean => {
		const label = tickLabel(seconds);
		const cell = tickCell(seconds, width, constants);
		const text = cell + 1 + label.length <= width ? `${tickMark}${label}` : `${label}${tickMark}`;
		const start = text.startsWith(tickMark) ? cell : cell - label.length;
		if (start < 0 || !blank(row, start - 1, start + text.length + 1)) {
			return false;
		}

		let index = start;
		for (const char of text) {
			row[index++] = char;
		}

		return true;
	};

	// The threshold first: it is the one that matters when space is short.
	place(constants.threshold.seconds);
	place(constants.period.seconds);
	return [seg(row.join('').trimEnd(), 'dim')];
}
