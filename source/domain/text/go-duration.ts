// Go's time.Duration.String(), so pleg-top quotes durations exactly as the kubelet's messages print them.

const nanosPerSecond = 1e9;

/**
 * `seconds` as Go's time.Duration.String() prints it: "3m7s", "3m0.5s", "1h1m40s", "12.3ms", "0s".
 * Rounded to whole nanoseconds first, as a Duration holds them. Not finite: "—".
 */
export function formatGoDuration(seconds: number): string {
	// A Duration is a finite int64: NaN or ±Infinity has no Go spelling, and pleg-top never prints them.
	if (!Number.isFinite(seconds)) {
		return '—';
	}

	const nanos = Math.round(Math.abs(seconds) * nanosPerSecond);
	const sign = seconds < 0 && nanos > 0 ? '-' : '';
	return sign + formatNanos(nanos);
}

function formatNanos(nanos: number): string {
	if (nanos === 0) {
		return '0s';
	}

	// Below one second Go picks the largest unit that keeps an integer part: ns, µs or ms.
	if (nanos < 1e3) {
		return `${nanos}ns`;
	}

	if (nanos < 1e6) {
		return `${withFraction(nanos, 3)}µs`;
	}

	if (nanos < nanosPerSecond) {
		return `${withFraction(nanos, 6)}ms`;
	}

	const wholeSeconds = Math.floor(nanos / nanosPerSecond);
	const secondsText = `${withFraction(nanos % nanosPerSecond, 9, wholeSeconds % 60)}s`;
	const minutes = Math.floor(wholeSeconds / 60);
	if (minutes === 0) {
		return secondsText;
	}

	const hours = Math.floor(minutes / 60);
	// Once there are hours, Go always prints the minutes, even 0 ("1h0m0s").
	return `${hours > 0 ? `${hours}h` : ''}${minutes % 60}m${secondsText}`;
}

/**
 * Go's fmtFrac + fmtInt: the integer part then up to `digits` fractional digits, trailing zeros dropped.
 * `value` is in units of 10^-digits; `integer` overrides the integer part (used for seconds modulo 60).
 */
function withFraction(value: number, digits: number, integer?: number): string {
	const scale = 10 ** digits;
	const whole = integer ?? Math.floor(value / scale);
	const fraction = String(value % scale)
		.padStart(digits, '0')
		.replace(/0+$/, '');
	return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}
