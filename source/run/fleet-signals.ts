// The overview's signals outside its pane, as the one-node screen's (terminal-signals.ts): the terminal title says
// the fleet's trouble in a few words ("pleg-top: 2 unhealthy, 1 NotReady in 40s") and the bell rings when more
// nodes are unhealthy than at the last look. The runner hands in the rows; this says what to write.
import {notReadyWhenText} from '../domain/health/health.js';
import type {OverviewRow} from '../screen/overview-rows.js';

const setTitle = (title: string) => `\u001B]2;${title}\u001B\\`;
const pushTitle = '\u001B[22;0t';
const popTitle = '\u001B[23;0t';
const bell = '\u0007';

/**
 * "pleg-top: 2 unhealthy, 1 NotReady in 40s, 3 errors, 5 unknown" (the soonest countdown of the critical nodes,
 * "NotReady due now" once it has run out),
 * or "pleg-top: 300 nodes healthy"; gone nodes do not count. A node that cannot be judged now (stale, never read)
 * is unknown, never healthy: the title is read at a glance, without the table's `?` beside it.
 */
export function fleetTitleOf(rows: readonly OverviewRow[]): string {
	let unhealthy = 0;
	let critical = 0;
	let errors = 0;
	let unknown = 0;
	let listed = 0;
	let soonest = Infinity;
	for (const row of rows) {
		if (row.gone) continue;
		listed++;
		if (row.state === 'unhealthy') unhealthy++;
		else if (row.state === 'error') errors++;
		else if (row.state === 'unknown') unknown++;
		else if (row.state === 'critical') {
			critical++;
			soonest = Math.min(soonest, row.notReadyLeftSeconds ?? Infinity);
		}
	}

	const parts: string[] = [];
	if (unhealthy > 0) parts.push(`${unhealthy} unhealthy`);
	// The soonest as the table shows it: "NotReady in 40s", or "NotReady due now" once one has run out.
	if (critical > 0) parts.push(`${critical} ${Number.isFinite(soonest) ? notReadyWhenText(soonest) : 'NotReady'}`);
	if (errors > 0) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
	if (unknown > 0) parts.push(`${unknown} unknown`);
	return `pleg-top: ${parts.length > 0 ? parts.join(', ') : `${listed} ${listed === 1 ? 'node' : 'nodes'} healthy`}`;
}

export type FleetSignals = {
	/** The rows at a look: the title when it changed, the bell when more nodes are unhealthy than at the last. */
	look(rows: readonly OverviewRow[]): void;
	close(): void;
};

export function createFleetSignals(options: {bell: boolean; write: (text: string) => void}): FleetSignals {
	let title: string | null = null;
	let unhealthy: number | null = null;
	return {
		look(rows) {
			const text = fleetTitleOf(rows);
			const now = rows.filter((row) => !row.gone && row.state === 'unhealthy').length;
			let out = '';
			if (title === null) out += pushTitle;
			if (text !== title) out += setTitle(text);
			// Not on the first look: starting with unhealthy nodes is no change.
			if (options.bell && unhealthy !== null && now > unhealthy) out += bell;
			title = text;
			unhealthy = now;
			if (out) options.write(out);
		},
		close() {
			if (title !== null) options.write(setTitle('') + popTitle);
			title = null;
		},
	};
}
