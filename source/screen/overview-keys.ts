// The overview's keys as a pure reducer: what is selected, open, sorted and filtered after each key. ink hands
// useInput a whole chunk of plain text at once ("ss" from tmux send-keys or a fast typist, "/work\r" pasted), so
// a chunk is split into one press per character first and every press is applied in order.
import {defaultSort, nextSort, type SortOrder} from './overview-rows.js';

export type OverviewUi = {
	/** The selected node; null, or a name no longer shown: the first row shown. */
	selected: string | null;
	/** The node whose one-node screen is open. */
	open: string | null;
	help: boolean;
	sort: SortOrder;
	/** Part of a node name typed after `/`. */
	filter: string;
	/** The filter is being typed: letters go into it instead of being keys. */
	typing: boolean;
};

export function initialOverviewUi(only?: string): OverviewUi {
	return {selected: null, open: only ?? null, help: false, sort: defaultSort, filter: '', typing: false};
}

export type Press = {char: string} | {special: 'up' | 'down' | 'return' | 'escape' | 'backspace'};

/** The parts of ink's Key this reads. */
export type InkKey = {upArrow: boolean; downArrow: boolean; return: boolean; escape: boolean; backspace: boolean; delete: boolean; ctrl: boolean; meta: boolean};

/** One press per key in an ink input event: a special key alone, or each character of a chunk of text. */
export function pressesOf(input: string, key: InkKey): Press[] {
	if (key.upArrow) return [{special: 'up'}];
	if (key.downArrow) return [{special: 'down'}];
	if (key.escape) return [{special: 'escape'}];
	// Terminals send DEL (0x7f) for the Backspace key; ink names that `delete`.
	if (key.backspace || key.delete) return [{special: 'backspace'}];
	if (key.ctrl) return [];
	const presses: Press[] = [];
	for (const char of input) {
		if (char === '\r' || char === '\n') presses.push({special: 'return'});
		else if (char === '\u007F' || char === '\b') presses.push({special: 'backspace'});
		else if (char >= ' ') presses.push({char});
	}

	return presses;
}

/** What one press needs to know besides the UI state. */
export type PressContext = {
	/** The names of the rows shown (sorted, filtered), top to bottom. */
	shown: readonly string[];
	/** The node given on the command line: its screen stays open. */
	only?: string;
};

/** The UI after one press, or 'quit'. */
export function applyPress(ui: OverviewUi, press: Press, context: PressContext): OverviewUi | 'quit' {
	const char = 'char' in press ? press.char : null;
	const special = 'special' in press ? press.special : null;
	if (ui.typing) return typed(ui, press);
	if (char === 'q') return 'quit';
	if (ui.help || ui.open !== null) {
		if (char === '?') return {...ui, help: !ui.help};
		if (special === 'escape' && ui.help) return {...ui, help: false};
		if (special === 'escape' && context.only === undefined) return {...ui, open: null};
		return ui;
	}

	const {shown} = context;
	const current = ui.selected !== null && shown.includes(ui.selected) ? ui.selected : (shown[0] ?? null);
	const step = special === 'up' || char === 'k' ? -1 : special === 'down' || char === 'j' ? 1 : 0;
	if (step !== 0) {
		const index = Math.max(0, current === null ? 0 : shown.indexOf(current));
		return {...ui, selected: shown[Math.min(shown.length - 1, Math.max(0, index + step))] ?? null};
	}

	if (special === 'return') return current === null ? ui : {...ui, selected: current, open: current};
	if (char === 's') return {...ui, sort: nextSort(ui.sort)};
	if (char === 'S') return {...ui, sort: {...ui.sort, reversed: !ui.sort.reversed}};
	if (char === '/') return {...ui, typing: true};
	if (char === '?') return {...ui, help: true};
	if (special === 'escape' && ui.filter !== '') return {...ui, filter: ''};
	return ui;
}

/** While the filter is typed: letters (q, s and / too) go into it, Enter keeps it, Esc clears it. */
function typed(ui: OverviewUi, press: Press): OverviewUi {
	if ('char' in press) return {...ui, filter: ui.filter + press.char};
	switch (press.special) {
		case 'return': {
			return {...ui, typing: false};
		}

		case 'escape': {
			return {...ui, typing: false, filter: ''};
		}

		case 'backspace': {
			return {...ui, filter: [...ui.filter].slice(0, -1).join('')};
		}

		default: {
			return ui;
		}
	}
}

/** Every press of one input event in order; the names shown are re-read after each (a filter changes them). */
export function applyPresses(ui: OverviewUi, presses: readonly Press[], shownFor: (ui: OverviewUi) => readonly string[], only?: string): OverviewUi | 'quit' {
	let next = ui;
	for (const press of presses) {
		const after = applyPress(next, press, {shown: shownFor(next), only});
		if (after === 'quit') return 'quit';
		next = after;
	}

	return next;
}
