// Which signals the live screen gives outside its pane: the one node's title and bell (terminal-signals.ts) while a
// node's screen shows (`pleg-top NODE`, or a node opened from the overview's table, the same screen), else the
// fleet's (fleet-signals.ts). Opening a node ends the fleet's title and starts the node's; back at the table, the
// fleet's starts again, its bell counting from then (what changed meanwhile was the opened node's to ring).
import type {Figures} from '../domain/types.js';
import type {OverviewRow} from '../screen/overview-rows.js';
import {createFleetSignals, type FleetSignals} from './fleet-signals.js';
import {createTerminalSignals, type TerminalSignals} from './terminal-signals.js';

export type ScreenSignals = {
	/** The node whose screen shows, whose reads set the title and bell; null: the table, the fleet's. */
	readonly node: string | null;
	/** The figures of a read of that node; `failed`: its read failed (also before any good one). */
	read(figures: Figures | null, failed: boolean): void;
	/** The table's rows at a look, while no node shows. */
	look(rows: readonly OverviewRow[]): void;
	/** A node opened from the table (null: back to the table). Without a table (`pleg-top NODE`) nothing changes. */
	open(node: string | null): void;
	close(): void;
};

export function createScreenSignals(options: {single: string | null; bell: boolean; write: (text: string) => void}): ScreenSignals {
	const {bell, write} = options;
	let node = options.single;
	let nodeSignals: TerminalSignals | null = node === null ? null : createTerminalSignals({node, bell, write});
	let fleet: FleetSignals | null = node === null ? createFleetSignals({bell, write}) : null;
	return {
		get node() {
			return node;
		},
		read(figures, failed) {
			nodeSignals?.read(figures, failed);
		},
		look(rows) {
			fleet?.look(rows);
		},
		open(next) {
			if (options.single !== null || next === node) return;
			// Each closes its own title (and pops the title stack it pushed) before the other writes one.
			nodeSignals?.close();
			fleet?.close();
			node = next;
			nodeSignals = next === null ? null : createTerminalSignals({node: next, bell, write});
			fleet = next === null ? createFleetSignals({bell, write}) : null;
		},
		close() {
			nodeSignals?.close();
			fleet?.close();
		},
	};
}
