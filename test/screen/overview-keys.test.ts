// The overview's keys as a pure reducer: a chunk of several keys ("ss", "jjj", "/work\r") is applied key by key;
// s / S sort, / filters (letters go into the filter, even q), Enter keeps it, Esc clears it; ? and Esc for help;
// Enter and Esc between the table and the one-node screen.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	applyPresses,
	initialOverviewUi,
	pressesOf,
	type InkKey,
	type OverviewUi,
	type ScrollMove,
} from '../../source/screen/overview-keys.js';

const none: InkKey = {
	upArrow: false,
	downArrow: false,
	return: false,
	escape: false,
	backspace: false,
	delete: false,
	ctrl: false,
	meta: false,
};

/** What ink's useInput hands over for `input` (as parsed by ink 6: a special key alone, text as one chunk). */
function key(input: string): [string, InkKey] {
	if (input === '\u001B[A') return ['', {...none, upArrow: true}];
	if (input === '\u001B[B') return ['', {...none, downArrow: true}];
	if (input === '\u001B[6~') return ['', {...none, pageDown: true}];
	if (input === '\u001B[F') return ['', {...none, end: true}];
	if (input === '\u001B[H') return ['', {...none, home: true}];
	if (input === '\u001B') return ['', {...none, escape: true, meta: true}];
	if (input === '\u007F') return ['', {...none, delete: true}];
	if (input === '\r') return ['\r', {...none, return: true}];
	return [input, none];
}

const nodes = ['worker-1', 'worker-2', 'worker-3', 'control-plane'];

/** The node names shown for a UI state: sorted by name when the sort is node (reversed Z → A), filtered by name. */
function shownFor(ui: OverviewUi): string[] {
	const sorted = ui.sort.column === 'node' ? [...nodes].sort() : [...nodes];
	if (ui.sort.column === 'node' && ui.sort.reversed) sorted.reverse();
	return sorted.filter((name) => name.toLowerCase().includes(ui.filter.toLowerCase()));
}

/** The UI after each chunk in turn. */
/** A help of 20 rows with 5 shown at once: the first row goes from 0 to 15. */
function scrollHelp(offset: number, move: ScrollMove): number {
	const steps: Record<ScrollMove, number> = {up: -1, down: 1, pageUp: -5, pageDown: 5, home: -Infinity, end: Infinity};
	return Math.max(0, Math.min(15, offset + steps[move]));
}

function after(chunks: string[], start: OverviewUi = initialOverviewUi(), only?: string): OverviewUi | 'quit' {
	let ui: OverviewUi | 'quit' = start;
	for (const chunk of chunks) {
		if (ui === 'quit') break;
		ui = applyPresses(ui, pressesOf(...key(chunk)), shownFor, {only, scrollHelp});
	}

	return ui;
}

function ui(chunks: string[], start?: OverviewUi, only?: string): OverviewUi {
	const result = after(chunks, start, only);
	assert.notEqual(result, 'quit');
	return result as OverviewUi;
}

describe('a chunk of several keys is each applied', () => {
	test('pressesOf splits text into one press per character; Enter and DEL inside text are keys', () => {
		assert.deepEqual(pressesOf(...key('ss')), [{char: 's'}, {char: 's'}]);
		assert.deepEqual(pressesOf(...key('/wo\r')), [{char: '/'}, {char: 'w'}, {char: 'o'}, {special: 'return'}]);
		assert.deepEqual(pressesOf('ab\u007F', none), [{char: 'a'}, {char: 'b'}, {special: 'backspace'}]);
		assert.deepEqual(pressesOf(...key('\u001B[B')), [{special: 'down'}]);
	});

	test('"ss" steps two columns (status → node → Ready); "s" then "s" does the same', () => {
		assert.deepEqual(ui(['ss']).sort, {column: 'ready', reversed: false});
		assert.deepEqual(ui(['s', 's']).sort, {column: 'ready', reversed: false});
	});

	test('"jjj" moves three rows down, as three ↓ do; "k" and ↑ move up', () => {
		assert.equal(ui(['jjj']).selected, 'control-plane');
		assert.equal(ui(['\u001B[B', '\u001B[B', '\u001B[B']).selected, 'control-plane');
		assert.equal(ui(['jjjk']).selected, 'worker-3');
		assert.equal(ui(['jjjjjjj']).selected, 'control-plane', 'stops at the last row');
		assert.equal(ui(['\u001B[A']).selected, 'worker-1', 'stops at the first row');
	});

	test('"sj" sorts by name, then moves in the new order', () => {
		// By name: control-plane, worker-1, worker-2, worker-3; one down from the top is worker-1.
		assert.equal(ui(['sj']).selected, 'worker-1');
	});
});

describe('sort', () => {
	test('S reverses the column, s moves on in its usual order', () => {
		assert.deepEqual(ui(['S']).sort, {column: 'status', reversed: true});
		assert.deepEqual(ui(['SS']).sort, {column: 'status', reversed: false});
		assert.deepEqual(ui(['sS']).sort, {column: 'node', reversed: true});
		assert.deepEqual(ui(['sSs']).sort, {column: 'ready', reversed: false});
	});
});

describe('filter', () => {
	test('/ then text filters as it is typed; Enter keeps it; letters that are keys go into it', () => {
		const typing = ui(['/', 'w', 'o', 'r', 'k', 'e', 'r', '-', '2']);
		assert.deepEqual([typing.filter, typing.typing], ['worker-2', true]);
		const kept = ui(['/qs\r']);
		assert.deepEqual([kept.filter, kept.typing, kept.sort.column], ['qs', false, 'status']);
	});

	test('one chunk "/wor\\r" then "j": filtered to the workers, the second one selected', () => {
		const state = ui(['/wor\r', 'j']);
		assert.deepEqual([state.filter, state.typing, state.selected], ['wor', false, 'worker-2']);
	});

	test('Backspace (DEL) takes a character off; Esc while typing clears it; Esc after Enter clears it', () => {
		assert.equal(ui(['/work', '\u007F']).filter, 'wor');
		assert.deepEqual([ui(['/work', '\u001B']).filter, ui(['/work', '\u001B']).typing], ['', false]);
		assert.equal(ui(['/work\r', '\u001B']).filter, '');
	});

	test('q quits unless a filter is being typed', () => {
		assert.equal(after(['q']), 'quit');
		assert.equal(after(['jq']), 'quit');
		assert.equal(ui(['/q']).filter, 'q');
		assert.equal(after(['/q\rq']), 'quit');
	});
});

describe('help and the one-node screen', () => {
	test('? shows the help; ? or Esc closes it; keys of the table do nothing meanwhile', () => {
		assert.equal(ui(['?']).help, true);
		assert.equal(ui(['??']).help, false);
		assert.equal(ui(['?', '\u001B']).help, false);
		assert.deepEqual(ui(['?s']).sort, {column: 'status', reversed: false});
	});

	test('↓ PgDn End scroll the help, within its text; closing and opening it starts at the top again', () => {
		assert.equal(ui(['?', '\u001B[B', '\u001B[B']).helpOffset, 2);
		assert.equal(ui(['?', '\u001B[6~', '\u001B[6~', '\u001B[6~', '\u001B[6~']).helpOffset, 15);
		assert.equal(ui(['?', '\u001B[F']).helpOffset, 15);
		assert.equal(ui(['?', '\u001B[F', '\u001B[H']).helpOffset, 0);
		assert.equal(ui(['?', '\u001B[F', '??']).helpOffset, 0);
		// Meanwhile the selection below does not move.
		assert.equal(ui(['?', '\u001B[B', '\u001B']).selected, null);
	});

	test('Home and End select the first and the last row of the table', () => {
		assert.equal(ui(['\u001B[F']).selected, 'control-plane');
		assert.equal(ui(['\u001B[F', '\u001B[H']).selected, 'worker-1');
	});

	test('Enter opens the selected node; Esc goes back with the selection kept; with a node given, Esc stays', () => {
		const opened = ui(['j', '\r']);
		assert.deepEqual([opened.open, opened.selected], ['worker-2', 'worker-2']);
		const back = ui(['\u001B'], opened);
		assert.deepEqual([back.open, back.selected], [null, 'worker-2']);
		assert.equal(ui(['\u001B'], initialOverviewUi('worker-3'), 'worker-3').open, 'worker-3');
		// On the one-node screen ? is its help, and Esc closes that first.
		const help = ui(['?'], opened);
		assert.deepEqual([help.open, help.help], ['worker-2', true]);
		assert.deepEqual([ui(['\u001B'], help).open, ui(['\u001B'], help).help], ['worker-2', false]);
	});

	test('q on a node opened from the table goes back to the table (its help closed too); q there quits; with a node given, q quits', () => {
		const opened = ui(['j', '\r']);
		const back = ui(['q'], opened);
		assert.deepEqual([back.open, back.selected], [null, 'worker-2']);
		assert.deepEqual([ui(['?q'], opened).open, ui(['?q'], opened).help], [null, false]);
		assert.equal(after(['q', 'q'], opened), 'quit');
		assert.equal(after(['q'], initialOverviewUi('worker-3'), 'worker-3'), 'quit');
	});

	test('k on the one-node screen shows its kubelet source pane the other way, and again; on the table it selects', () => {
		const opened = ui(['j', '\r']);
		assert.equal(opened.constantsToggled, false);
		assert.equal(ui(['k'], opened).constantsToggled, true);
		assert.equal(ui(['kk'], opened).constantsToggled, false);
		assert.deepEqual([ui(['k'], opened).open, ui(['k'], opened).selected], ['worker-2', 'worker-2']);
		const table = ui(['jj', 'k']);
		assert.deepEqual([table.selected, table.constantsToggled], ['worker-2', false]);
	});
});
