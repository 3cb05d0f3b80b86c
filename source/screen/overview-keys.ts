// The overview's keys as a pure reducer: what is selected, open, sorted and filtered after each key. ink hands
// useInput a whole chunk of plain text at once ("ss" from tmux send-keys or a fast typist, "/work\r" pasted), so
// a chunk is split into one press per character first and every press is applied in order.
import {defaultSort, nextSort, type SortOrder} from './overview-rows.js';
import {searchKey, type HelpSearch} from './panes/help-search.js';

export type OverviewUi = {
	/** The selected node; null, or a name no longer shown: the first row shown. */
	selected: string | null;
	/** The node whose one-node screen is open. */
	open: string | null;
	help: boolean;
	/** The first row of the help shown (it scrolls when taller than the screen). */
	helpOffset: number;
	/** `/` while the help shows: the search typed or done. */
	helpSearch: HelpSearch | null;
	/** `k` on the one-node screen: its kubelet source pane shows the other way (Dashboard toggleConstants). */
	constantsToggled: boolean;
	sort: SortOrder;
	/** Part of a node name typed after `/`. */
	filter: string;
	/** The filter is being typed: letters go into it instead of being keys. */
	typing: boolean;
};

export function initialOverviewUi(only?: string): OverviewUi {
	return {
		selected: null,
		open: only ?? null,
		help: false,
		helpOffset: 0,
		helpSearch: null,
		constantsToggled: false,
		sort: defaultSort,
		filter: '',
		typing: false,
	};
}

/** A key that scrolls the help. */
export type ScrollMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

export type Press = {char: string} | {special: ScrollMove | 'return' | 'escape' | 'backspace'};

/** The parts of ink's Key this reads (the page keys are optional: older callers leave them out). */
export type InkKey = {
	upArrow: boolean;
	downArrow: boolean;
	pageUp?: boolean;
	pageDown?: boolean;
	home?: boolean;
	end?: boolean;
	return: boolean;
	escape: boolean;
	backspace: boolean;
	delete: boolean;
	ctrl: boolean;
	meta: boolean;
};

/** One press per key in an ink input event: a special key alone, or each character of a chunk of text. */
export function pressesOf(input: string, key: InkKey): Press[] {
	if (key.upArrow) return [{special: 'up'}];
	if (key.downArrow) return [{special: 'down'}];
	if (key.pageUp) return [{special: 'pageUp'}];
	if (key.pageDown) return [{special: 'pageDown'}];
	if (key.home) return [{special: 'home'}];
	if (key.end) return [{special: 'end'}];
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
	/** The help's first row after a scroll key, kept within its text (the help screen knows its height). */
	scrollHelp?: (offset: number, move: ScrollMove) => number;
	/** The help's rows as text, for its search. */
	helpRows?: () => readonly string[];
};

const scrollMoves: ReadonlySet<string> = new Set<ScrollMove>(['up', 'down', 'pageUp', 'pageDown', 'home', 'end']);

/** The UI after one press, or 'quit'. */
function applyPress(ui: OverviewUi, press: Press, context: PressContext): OverviewUi | 'quit' {
	const char = 'char' in press ? press.char : null;
	const special = 'special' in press ? press.special : null;
	if (ui.typing) return typed(ui, press);
	const searched = ui.help ? searchKey(ui.helpSearch, ui.helpOffset, searchKeyOf(press), context.helpRows ?? (() => [])) : undefined;
	if (searched) return {...ui, helpSearch: searched.search, helpOffset: searched.offset};
	// On a node opened from the table, q goes back to the table as Esc does (as leaving `pleg-top NODE` would
	// leave the program); with the node given on the command line, and on the table, q quits.
	if (char === 'q')
		return ui.open !== null && context.only === undefined ? {...ui, open: null, help: false, helpOffset: 0, helpSearch: null} : 'quit';
	if (ui.help || ui.open !== null) {
		if (char === '?') return {...ui, help: !ui.help, helpOffset: 0, helpSearch: null};
		if (special === 'escape' && ui.help) return {...ui, help: false, helpOffset: 0, helpSearch: null};
		if (ui.help && special !== null && scrollMoves.has(special)) {
			return {...ui, helpOffset: context.scrollHelp?.(ui.helpOffset, special as ScrollMove) ?? ui.helpOffset}; // checked by scrollMoves
		}

		if (special === 'escape' && context.only === undefined) return {...ui, open: null};
		if (char === 'k' && !ui.help && ui.open !== null) return {...ui, constantsToggled: !ui.constantsToggled};
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
	if (special === 'home' || special === 'end') return {...ui, selected: (special === 'home' ? shown[0] : shown.at(-1)) ?? null};
	if (char === 's') return {...ui, sort: nextSort(ui.sort)};
	if (char === 'S') return {...ui, sort: {...ui.sort, reversed: !ui.sort.reversed}};
	if (char === '/') return {...ui, typing: true};
	if (char === '?') return {...ui, help: true, helpOffset: 0};
	if (special === 'escape' && ui.filter !== '') return {...ui, filter: ''};
	return ui;
}

/** A press as the help's search reads a key. */
function searchKeyOf(press: Press) {
	const special = 'special' in press ? press.special : null;
	return {
		input: 'char' in press ? press.char : '',
		return: special === 'return',
		escape: special === 'escape',
		backspace: special === 'backspace',
		delete: false,
		ctrl: false,
		meta: false,
	};
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

		// Moving in the table waits until the filter is kept.
		case 'up':
		case 'down':
		case 'pageUp':
		case 'pageDown':
		case 'home':
		case 'end': {
			return ui;
		}
	}
}

/** Every press of one input event in order; the names shown are re-read after each (a filter changes them). */
export function applyPresses(
	ui: OverviewUi,
	presses: readonly Press[],
	shownFor: (ui: OverviewUi) => readonly string[],
	context: Omit<PressContext, 'shown'> = {},
): OverviewUi | 'quit' {
	let next = ui;
	for (const press of presses) {
		const after = applyPress(next, press, {...context, shown: shownFor(next)});
		if (after === 'quit') return 'quit';
		next = after;
	}

	return next;
}
