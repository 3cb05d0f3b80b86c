// Pure arithmetic for the last-seen gauge: a log scale of age onto N cells. The bands it is coloured by are
// health.ts's (ageBand). Written out in words in definitions.ts ("gauge-scale"); keep the two in step.
import type {KubeletConstants} from '../types.js';

/** Left end of the scale, seconds: the gauge has 1 s resolution, so finer ages carry no information. */
const gaugeMinSeconds = 0.5;

/** Right end of the scale, seconds: twice the threshold, so "past the threshold" has room to show. */
export function gaugeMaxSeconds(constants: KubeletConstants): number {
	return 2 * constants.threshold.seconds;
}

/** Where `seconds` falls on the scale, 0 … 1 (clamped). */
function gaugeFraction(seconds: number, constants: KubeletConstants): number {
	if (!(seconds > gaugeMinSeconds)) {
		return 0;
	}

	const fraction = Math.log(seconds / gaugeMinSeconds) / Math.log(gaugeMaxSeconds(constants) / gaugeMinSeconds);
	return Math.min(1, fraction);
}

/** How many of `cells` cells an age fills; 0 for ages ≤ 0.5 s (and for negative ones: skew is shown elsewhere). */
export function filledCells(ageSeconds: number, cells: number, constants: KubeletConstants): number {
	return Math.round(gaugeFraction(ageSeconds, constants) * cells);
}

/** The cell index that marks `seconds`: the last cell an age of exactly `seconds` fills. */
export function tickCell(seconds: number, cells: number, constants: KubeletConstants): number {
	return Math.max(0, Math.min(cells - 1, filledCells(seconds, cells, constants) - 1));
}

/** Short tick labels in Go-like units: 1 → "1s", 180 → "3m", 600 → "10m", 90 → "90s". */
export function tickLabel(seconds: number): string {
	if (seconds >= 60 && seconds % 60 === 0) {
		return `${seconds / 60}m`;
	}

	return `${seconds}s`;
}
