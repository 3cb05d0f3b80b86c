// `?`: every key first (both screens, the demo's, the help's own), then the next steps to paste when PLEG is in
// trouble, then every figure with its formula, rendered from domain/definitions.ts (the same data `--help` and the
// README use, so the three cannot drift apart).
// Taller than its pane, it scrolls: the title stays on top and the last row says which rows show.
import {definitions, keyGroups, type KeyBinding} from '../../domain/definitions.js';
import {nextSteps, onNodeNote, type PasteContext} from '../../domain/incident/next-steps.js';
import {cellWidth, seg, wrapWords, type Line} from '../layout/line.js';
import type {Tone} from '../layout/theme.js';
import {markMatches, rowsText, searchFooter, type HelpSearch} from './help-search.js';
import {breakCommand} from './next-steps-pane.js';

export type HelpScreenProps = {
	width: number;
	/** Rows available; when the text is taller it scrolls (see `offset`). Unlimited when absent. */
	height?: number;
	/** First row of the scrolled text shown, clamped to what the height allows. @default 0 */
	offset?: number;
	/** The node the next steps name; NODE where no node is open (the overview's table). */
	node?: string;
	/** Where the next steps' kubectl lines go, and the node's runtime. */
	paste?: PasteContext;
	/** `/`: the search being typed or done; its row replaces the position row, its matches are marked. */
	search?: HelpSearch | null;
};

const title = 'pleg-top — keys, then what each figure means (? or Esc closes)';

/** Every row of the help below its title, at this width. */
export function helpBodyLines(width: number, node = 'NODE', paste?: PasteContext): Line[] {
	const groups = keyGroups();
	const keysWidth = Math.max(...groups.flatMap((group) => group.bindings.map((binding) => cellWidth(keysText(binding)))));
	// A narrow pane gives the actions room before the key column's alignment.
	const actionColumn = Math.min(2 + keysWidth + 2, Math.floor(width / 2));
	const lines: Line[] = [];
	for (const group of groups) {
		lines.push([seg(`keys · ${group.title}`, 'title')]);
		for (const binding of group.bindings) {
			lines.push(...keyLines(binding, width, actionColumn));
		}
	}

	lines.push(...wrapWords('next steps when PLEG is in trouble (the main view shows them from the critical band on)', width, 2, 'title'));
	let noted = false;
	for (const step of nextSteps({...paste, node, unhealthy: true})) {
		if (step.where === 'on the node' && !noted) {
			lines.push(...indented(onNodeNote, width, 2, 'dim'));
			noted = true;
		}

		lines.push(...breakCommand(step.command, width - 2).map((row): Line => [seg('  '), seg(row, 'value')]));
		lines.push(...indented(step.why, width, 4, 'dim'));
	}

	lines.push([seg('figures', 'title')]);
	for (const {label, formula} of definitions) {
		const wrapped = wrapWords(`${label}: ${formula}`, width, 8, undefined, 2);
		lines.push(...wrapped.map((line, index) => (index === 0 ? boldLabel(line, label) : line)));
	}

	return lines;
}

export type HelpScroll = {
	/** Rows of the body shown at once. */
	page: number;
	/** The highest first row: the last page. */
	maxOffset: number;
};

/** `text` in at most two rows of `width`, every row indented by `indent` cells (within the width, never past it). */
function indented(text: string, width: number, indent: number, tone: Tone): Line[] {
	return wrapWords(text, width - indent, 2, tone).map((line) => [seg(' '.repeat(indent)), ...line]);
}

/** How the help scrolls in `width` × `height`: a title row, then `page` rows of the body, then the position row. */
export function helpScroll({width, height, node, paste}: Omit<HelpScreenProps, 'offset'> & {height: number}): HelpScroll {
	const body = helpBodyLines(width, node, paste).length;
	const titleRows = wrapWords(title, width, 2, 'title').length;
	if (titleRows + body <= height) {
		return {page: body, maxOffset: 0};
	}

	const page = Math.max(1, height - titleRows - 1);
	return {page, maxOffset: Math.max(0, body - page)};
}

export type HelpMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

/** The first row after a scroll key, kept within the text (pure: the screens keep the number in their state). */
export function scrollHelp(offset: number, move: HelpMove, {page, maxOffset}: HelpScroll): number {
	const steps: Record<HelpMove, number> = {up: -1, down: 1, pageUp: -page, pageDown: page, home: -Infinity, end: Infinity};
	return Math.max(0, Math.min(maxOffset, Math.min(offset, maxOffset) + steps[move]));
}

export function helpScreenLines({width, height, offset = 0, node, paste, search = null}: HelpScreenProps): Line[] {
	const head = wrapWords(title, width, 2, 'title');
	const body = helpBodyLines(width, node, paste);
	const footerRows = search ? 1 : 0;
	if (height === undefined || head.length + body.length + footerRows <= height) {
		return [...head, ...marked(body, search), ...(search ? [searchRow(search, body, width)] : [])];
	}

	const {page, maxOffset} = helpScroll({width, height, node, paste});
	const first = Math.max(0, Math.min(offset, maxOffset));
	const shown = body.slice(first, first + page);
	const position = `line ${first + 1}–${first + shown.length} of ${body.length}`;
	const keys = first === 0 ? '↓ PgDn for more' : first === maxOffset ? '↑ PgUp back' : '↑↓ PgUp PgDn scroll';
	const footer =
		[`${position} · ${keys} · / search`, `${position} · ${keys}`, position].find((text) => cellWidth(text) <= width) ?? position;
	const last = search ? searchRow(search, body, width) : [seg(footer, 'dim')];
	return [...head, ...marked(shown, search), last].slice(0, Math.max(1, height));
}

/** The rows with what a finished search found marked. */
function marked(rows: Line[], search: HelpSearch | null): Line[] {
	return search && !search.typing ? rows.map((row) => markMatches(row, search.query)) : rows;
}

function searchRow(search: HelpSearch, body: Line[], width: number): Line {
	const text = searchFooter(search, rowsText(body));
	return [seg(cellWidth(text) <= width ? text : text.slice(0, width), search.typing ? 'value' : 'dim')];
}

function keysText(binding: KeyBinding): string {
	return binding.keys.join(' / ');
}

/** "  q / Ctrl-C    quit": the keys, then the action word-wrapped in its column. */
function keyLines(binding: KeyBinding, width: number, actionColumn: number): Line[] {
	const keys = `  ${keysText(binding)}`;
	const pad = Math.max(actionColumn, cellWidth(keys) + 2);
	const wrapped = wrapWords(binding.action, Math.max(1, width - pad), 8);
	if (wrapped.length === 0 || pad >= width) {
		return [[seg(keys, 'value')]];
	}

	return wrapped.map((line, index) =>
		index === 0 ? [seg(keys, 'value'), seg(' '.repeat(pad - cellWidth(keys))), ...line] : [seg(' '.repeat(pad)), ...line],
	);
}

/** The first row of an entry starts with its label: show the label bold. */
function boldLabel(line: Line, label: string): Line {
	const text = line.map((segment) => segment.text).join('');
	if (!text.startsWith(`${label}:`)) {
		return line;
	}

	return [seg(label, 'title'), seg(text.slice(label.length))];
}

/** The scroll move of a key as ink reports it (arrows, PgUp/PgDn, Home/End), or undefined for any other key. */
export function helpMoveOf(key: {
	upArrow: boolean;
	downArrow: boolean;
	pageUp: boolean;
	pageDown: boolean;
	home: boolean;
	end: boolean;
}): HelpMove | undefined {
	if (key.upArrow) return 'up';
	if (key.downArrow) return 'down';
	if (key.pageUp) return 'pageUp';
	if (key.pageDown) return 'pageDown';
	if (key.home) return 'home';
	if (key.end) return 'end';
	return undefined;
}
