// The live screen's signals outside its pane: the terminal title (a tmux status line or a window list shows it
// while the pane is out of sight) and the bell. Both change only on reads of the node, never from a component: the
// runner hands in the figures of each read, this says what to write.
import {bandOf, countdownText} from '../domain/health/health.js';
import {formatAge} from '../domain/text/format.js';
import type {Figures} from '../domain/types.js';

/** The states whose changes are signalled: the bands fold into these four (warn is still healthy). */
type SignalState = 'healthy' | 'critical' | 'unhealthy' | 'unknown';

/**
 * A failed scrape turns the state unknown only once it is not a blip: this many failed reads in a row, or the last
 * good scrape this old (s). Half-failing scrapes then leave the title and bell alone; unhealthy is never delayed.
 */
const unknownAfterFailures = 2;
const unknownAfterSeconds = 5;

/** OSC 2: set the window (tmux: pane) title; ended by ST, so the only BEL written is the bell. */
const setTitle = (title: string) => `\u001B]2;${title}\u001B\\`;
/** XTWINOPS: push the title before the first change, pop it on exit (terminals without a title stack ignore both). */
const pushTitle = '\u001B[22;0t';
const popTitle = '\u001B[23;0t';
const bell = '\u0007';

function signalStateOf(figures: Figures): SignalState {
	const band = bandOf(figures);
	return band === 'ok' || band === 'warn' ? 'healthy' : band;
}

/** How bad a known state is: the bell rings when it gets worse than the last known one. */
const severity: Record<Exclude<SignalState, 'unknown'>, number> = {healthy: 0, critical: 1, unhealthy: 2};

/**
 * "pleg-top NODE: healthy", "pleg-top NODE: NotReady in 1m8s" (the warn band), "pleg-top NODE: critical, NotReady in
 * 8s" (from half the threshold), "pleg-top NODE: UNHEALTHY 1m12s" (≥ when the start is only a bound), "pleg-top
 * NODE: unknown".
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

	const countdown = countdownText(figures)?.replace(/ \(.*$/, '');
	if (!countdown) return `${head}healthy`;
	return state === 'critical' ? `${head}critical, ${countdown}` : head + countdown;
}

export type TerminalSignals = {
	/**
	 * The figures of a read: the title when it changed, the bell on entering critical or unhealthy (from a better
	 * state than the last known one) or unknown. A failed read turns them unknown only when confirmed (see above).
	 * No figures: nothing read yet; `failed` says a read has failed meanwhile, which is unknown (a kubelet never read).
	 */
	read(figures: Figures | null, failed?: boolean): void;
	/** On exit: the title the terminal had, or none. */
	close(): void;
};

export function createTerminalSignals(options: {node: string; bell: boolean; write: (text: string) => void}): TerminalSignals {
	let state: SignalState | null = null;
	/** The last state other than unknown: coming back to it from unknown rings nothing. */
	let known: Exclude<SignalState, 'unknown'> | null = null;
	let title: string | null = null;
	let failedReads = 0;
	return {
		read(figures, failed = false) {
			if (!figures && !failed) return;
			failedReads = !figures || figures.stale ? failedReads + 1 : 0;
			const next = figures ? signalStateOf(figures) : 'unknown';
			// A failed read that is not yet confirmed leaves everything as the last good read set it.
			const confirmed = !figures?.stale || failedReads >= unknownAfterFailures || figures.stale.lastGoodAgeSeconds >= unknownAfterSeconds;
			if (next === 'unknown' && !confirmed && state !== null) return;
			const text = figures ? titleOf(options.node, figures) : `pleg-top ${options.node}: unknown`;
			let out = '';
			if (title === null) out += pushTitle;
			if (text !== title) out += setTitle(text);
			// Once per change, not on the first reading: starting on an unhealthy node is no change.
			const worse = next === 'unknown' ? state !== 'unknown' : next !== 'healthy' && (known === null || severity[next] > severity[known]);
			if (options.bell && state !== null && worse) out += bell;
			state = next;
			if (next !== 'unknown') known = next;
			title = text;
			if (out) options.write(out);
		},
		close() {
			if (title !== null) options.write(setTitle('') + popTitle);
			title = null;
		},
	};
}
