// Wall-clock time of a given instant for the screen ("14:02:10"), in the local time zone.
// Formats the timestamp it is given; it never reads the clock.
import {format} from 'date-fns';

export function clockTime(ms: number): string {
	return format(ms, 'HH:mm:ss');
}
