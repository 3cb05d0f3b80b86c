// Unit formatting shared by the screen and the plain-text report, so both print a figure the same way.
// Each function's own module: the package index loads all ~250 date-fns functions at start-up.
import {formatDuration} from 'date-fns/formatDuration';
import {intervalToDuration} from 'date-fns/intervalToDuration';
import type {Quantile} from './types.js';

/** Printed for a figure that cannot be computed. */
export const missing = '—';

/** A duration in seconds at a readable precision: "850 µs", "4.2 ms", "250 ms", "1.30 s", "12.5 s", "187 s". */
export function formatSeconds(seconds: number | null): string {
	if (seconds === null || Number.isNaN(seconds)) {
		return missing;
	}

	const magnitude = Math.abs(seconds);
	if (magnitude === 0) {
		return '0 s';
	}

	if (magnitude < 1e-3) {
		return `${Math.round(seconds * 1e6)} µs`;
	}

	if (magnitude < 1) {
		const ms = seconds * 1e3;
		return `${Math.abs(ms) < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
	}

	return `${seconds.toFixed(magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0)} s`;
}

/**
 * A histogram quantile. `atLeast` (the rank fell in the +Inf bucket) prints the bucket bound as a lower bound,
 * "≥ 10 s": the histogram cannot say more, and "10.0 s" would read as a measurement.
 */
export function formatQuantile(quantile: Quantile | null): string {
	if (!quantile) {
		return missing;
	}

	return quantile.atLeast ? `≥ ${formatBound(quantile.seconds)}` : formatSeconds(quantile.seconds);
}

/**
 * A bucket bound as written in the exposition: "10 s", "2.5 s", "250 ms". Exponential CRI buckets
 * have bounds like 745.0580596923828: six significant digits say all a lower bound can.
 */
function formatBound(seconds: number): string {
	return seconds >= 1 ? `${Number(seconds.toPrecision(6))} s` : `${Number((seconds * 1e3).toPrecision(6))} ms`;
}

/**
 * An age: "12 s" under a minute, else words from date-fns ("3 minutes 7 seconds"), whole seconds
 * (the last-seen gauge has a resolution of one second).
 */
export function formatAge(seconds: number | null): string {
	if (seconds === null || Number.isNaN(seconds)) {
		return missing;
	}

	const whole = Math.floor(Math.max(0, seconds));
	if (whole < 60) {
		return `${whole} s`;
	}

	return formatDuration(intervalToDuration({start: 0, end: whole * 1000}));
}

/** Events per second: "0.97/s", "0/s". */
export function formatRate(perSecond: number | null): string {
	if (perSecond === null || Number.isNaN(perSecond)) {
		return missing;
	}

	if (perSecond === 0) {
		return '0/s';
	}

	return `${perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(2)}/s`;
}

/** A ratio: "×180", "×8.5", "×2". */
export function formatRatio(ratio: number | null): string {
	if (ratio === null || !Number.isFinite(ratio)) {
		return missing;
	}

	return `×${ratio >= 10 ? Math.round(ratio).toLocaleString('en-US') : Number(ratio.toFixed(1))}`;
}

/** A count with thousands separators: "1,671,950". */
export function formatCount(count: number | null): string {
	return count === null ? missing : count.toLocaleString('en-US', {maximumFractionDigits: 0});
}
