// Wall-clock time of a given instant for the screen ("14:02:10"), in the local time zone.
// Formats the timestamp it is given; it never reads the clock.
// The function's own module: the package index loads all ~250 date-fns functions at start-up.
import {format} from 'date-fns/format';

export function clockTime(ms: number): string {
	return format(ms, 'HH:mm:ss');
}
