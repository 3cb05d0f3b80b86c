// Unit formatting shared by the screen and the plain-text report, so both print a figure the same way.
// Every duration is written as Go's time.Duration prints it ("4.2ms", "1.3s", "3m7s"), the style of the kubelet's
// own messages, so one style is read everywhere. A value that is not finite prints as missing, never "NaN".
// The function's own module: the package index loads all ~250 date-fns functions at start-up.
import {format} from 'date-fns/format';
import {formatGoDuration} from './go-duration.js';
import type {Quantile} from '../types.js';

// One formatter for the counts groupThousands does not group by hand (toLocaleString with options builds a new one
// on each call). Made on first use: creating it maps ICU's number data, resident for the rest of the run, and the
// live screen's counts never need it.
let countFormat: Intl.NumberFormat | null = null;

/** Printed for a figure that cannot be computed. */
export const missing = '—';

/** A number that can be printed: not null, NaN or ±Infinity. */
function printable(value: number | null): value is number {
	return value !== null && Number.isFinite(value);
}

/** `seconds` rounded to `decimals` decimal places, decimally (0.0042 stays 0.0042). */
function roundTo(seconds: number, decimals: number): number {
	return Number(seconds.toFixed(decimals));
}

/**
 * A measured duration at a readable precision, in Go's style: "850µs", "4.2ms", "250ms", "1.3s", "12.5s", "3m7s"
 * (three significant digits up to 100 s, then whole seconds).
 */
export function formatSeconds(seconds: number | null): string {
	if (!printable(seconds)) {
		return missing;
	}

	const magnitude = Math.abs(seconds);
	const decimals = magnitude < 1e-3 ? 6 : magnitude < 0.1 ? 4 : magnitude < 1 ? 3 : magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0;
	return formatGoDuration(roundTo(seconds, decimals));
}

/**
 * A histogram quantile. `atLeast` (the rank fell in the +Inf bucket) prints the bucket bound as a lower bound,
 * "≥ 10s": the histogram cannot say more, and "10s" alone would read as a measurement.
 */
export function formatQuantile(quantile: Quantile | null): string {
	if (!quantile) {
		return missing;
	}

	if (quantile.atLeast) return `≥ ${formatBound(quantile.seconds)}`;
	return quantile.atMost ? `≤ ${formatBound(quantile.seconds)}` : formatSeconds(quantile.seconds);
}

/**
 * A bucket bound as written in the exposition: "10s", "2.5s", "250ms". Exponential CRI buckets have bounds like
 * 745.0580596923828: six significant digits say all a lower bound can.
 */
function formatBound(seconds: number): string {
	return printable(seconds) ? formatGoDuration(Number(seconds.toPrecision(6))) : missing;
}

/**
 * An age in whole seconds (the last-seen gauge has a resolution of one second), rounded down: "12s", "3m7s",
 * "1h1m40s".
 */
export function formatAge(seconds: number | null): string {
	if (!printable(seconds)) {
		return missing;
	}

	return formatGoDuration(Math.floor(Math.max(0, seconds)));
}

/**
 * A span between two scrapes (measured to the millisecond): "203ms" under a second, "2.5s" under ten, whole
 * seconds above ("10s", "1m0s").
 */
export function formatSpan(seconds: number | null): string {
	if (!printable(seconds)) {
		return missing;
	}

	const span = Math.max(0, seconds);
	return formatGoDuration(roundTo(span, span < 1 ? 3 : span < 10 ? 1 : 0));
}

/** Events per second: "0.97/s", "0/s". */
export function formatRate(perSecond: number | null): string {
	if (!printable(perSecond)) {
		return missing;
	}

	if (perSecond === 0) {
		return '0/s';
	}

	return `${perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(2)}/s`;
}

/** A ratio: "×180", "×8.5", "×2". */
export function formatRatio(ratio: number | null): string {
	if (!printable(ratio)) {
		return missing;
	}

	return `×${ratio >= 10 ? groupThousands(Math.round(ratio)) : Number(ratio.toFixed(1))}`;
}

/** A count with thousands separators: "1,671,950". */
export function formatCount(count: number | null): string {
	return printable(count) ? groupThousands(count) : missing;
}

/**
 * en-US digit grouping ("27,386"), as countFormat gives it. Whole counts, every one a frame shows, are grouped by
 * hand: Intl's format showed in the profile of every tick of the live screen. Anything else goes to Intl.
 */
function groupThousands(count: number): string {
	if (!Number.isSafeInteger(count) || count < 0 || Object.is(count, -0)) {
		countFormat ??= new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});
		return countFormat.format(count);
	}

	const digits = String(count);
	let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
	for (let index = grouped.length; index < digits.length; index += 3) {
		grouped += `,${digits.slice(index, index + 3)}`;
	}

	return grouped;
}

/** "1 error", "3 errors": a count and its noun, singular for one. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
	return `${formatCount(count)} ${count === 1 ? noun : plural}`;
}

const byteUnits: Array<[suffix: string, bytes: number]> = [
	['GiB', 1024 ** 3],
	['MiB', 1024 ** 2],
	['KiB', 1024],
];

/** A size limit as given: "64 MiB", "1.5 GiB", "512 KiB", else in bytes ("1000 bytes"). */
export function formatByteSize(bytes: number): string {
	for (const [suffix, size] of byteUnits) {
		// Whole tenths of the unit only: a limit is read back as it was written (96Mi, 1.5Gi).
		if (bytes >= size && Number.isInteger((bytes * 10) / size)) return `${(bytes / size).toString()} ${suffix}`;
	}

	return `${bytes} bytes`;
}

/** The local time of day of an instant (ms), "14:02:10", for a note that says when something was seen. */
export function timeOfDay(ms: number): string {
	return format(ms, 'HH:mm:ss');
}
