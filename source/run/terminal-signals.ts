// The live screen's signals outside its pane: the terminal title (a tmux status line or a window list shows it
// while the pane is out of sight) and the bell. Both change only on reads of the node, never from a component: the
// runner hands in the figures of each read, this says what to write.
import {bandOf, countdownText} from '../domain/health.js';
import {formatAge} from '../domain/format.js';
import type {Figures} from '../domain/types.js';

/** The states whose changes are signalled: the bands fold into these three. */
export type SignalState = 'healthy' | 'unhealthy' | 'unknown';

/** OSC 2: set the window (tmux: pane) title; ended by ST, so the only BEL written is the bell. */
const setTitle = (title: string) => `\u001B]2;${title}\u001B\\`;
/** XTWINOPS: push the title before the first change, pop it on exit (terminals without a title stack ignore both). */
const pushTitle = '\u001B[22;0t';
const popTitle = '\u001B[23;0t';
const bell = '\u0007';

export function signalStateOf(figures: Figures): SignalState {
	const band = bandOf(figures);
	return band === 'unknown' ? 'unknown' : band === 'unhealthy' ? 'unhealthy' : 'healthy';
}

/**
 * "pleg-top NODE: healthy", "pleg-top NODE: NotReady in 8s" (healthy past the ok band), "pleg-top NODE: UNHEALTHY
 * 1m12s" (≥ when the start is only a bound), "pleg-top NODE: unknown".
 */
export function titleOf(node: string, figures: Figures): string {
	const state = signalStateOf(figures);
	const head = `pleg-top ${node}: `;
	if (state === 'unhealthy') {
		const incident = figures.incident;
		const seconds = incident?.unhealthyForSeconds ?? null;
		const span = seconds === null ? '' : ` ${incident?.sinceExact ? '' : '≥'}${formatAge(seconds)}`;
		return `${head}UNHEALTHY${span}`;
	}

	if (state === 'unknown') {
		return `${head}unknown`;
	}

	const countdown = countdownText(figures);
	return head + (countdown ? countdown.replace(/ \(.*$/, '') : 'healthy');
}

export type TerminalSignals = {
	/** The figures of a read: the title when it changed, the bell on a change into unhealthy or unknown. */
	read(figures: Figures | null): void;
	/** On exit: the title the terminal had, or none. */
	close(): void;
};

export function createTerminalSignals(options: {node: string; bell: boolean; write(text: string): void}): TerminalSignals {
	let state: SignalState | null = null;
	let title: string | null = null;
	return {
		read(figures) {
			if (!figures) return;
			const next = signalStateOf(figures);
			const text = titleOf(options.node, figures);
			let out = '';
			if (title === null) out += pushTitle;
			if (text !== title) out += setTitle(text);
			// Once per change, not on the first reading: starting on an unhealthy node is no change.
			if (options.bell && state !== null && next !== state && next !== 'healthy') out += bell;
			state = next;
			title = text;
			if (out) options.write(out);
		},
		close() {
			if (title !== null) options.write(setTitle('') + popTitle);
			title = null;
		},
	};
}
