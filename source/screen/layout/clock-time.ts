// Wall-clock time of a given instant for the screen ("14:02:10"), in the local time zone.
// Formats the timestamp it is given; it never reads the clock.
// The function's own module: the package index loads all ~250 date-fns functions at start-up.
import {format} from 'date-fns/format';

/** The last second formatted: a frame drawn every 100 ms would otherwise format the same second ten times. */
let last = {second: Number.NaN, text: ''};

export function clockTime(ms: number): string {
	const second = Math.floor(ms / 1000);
	if (second !== last.second) last = {second, text: format(ms, 'HH:mm:ss')};
	return last.text;
}
