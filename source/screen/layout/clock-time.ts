// Wall-clock time of a given instant for the screen ("14:02:10"), in the local time zone.
// Formats the timestamp it is given; it never reads the clock.
import {timeOfDay} from '../../domain/text/format.js';

/**
 * The seconds formatted lately. One frame formats several instants (the header's clock, the Ready condition's
 * "since", a stale banner's last good scrape), and a frame drawn every 100 ms formats the same seconds ten times:
 * one remembered second was formatted anew twice a frame.
 */
const recent = new Map<number, string>();
const recentLimit = 16;

export function clockTime(ms: number): string {
	const second = Math.floor(ms / 1000);
	let text = recent.get(second);
	if (text === undefined) {
		text = timeOfDay(ms);
		if (recent.size >= recentLimit) recent.clear();
		recent.set(second, text);
	}

	return text;
}
