// The node's recent Events, as `kubectl describe node` lists them: newest first, each with its age and count, a
// Warning's reason in the warning colour. A refused read is one dim row naming the RBAC rule that is missing: the
// Events are extra context, so their absence never turns into an error of the whole screen.
import {humanAge} from '../../domain/incident/event-age.js';
import type {EventsFigures, NodeEventAt} from '../../domain/types.js';
import {cellWidth, seg, wrapWords, type Line} from '../layout/line.js';

export type EventsPaneProps = {
	/** null: not read (the source has none, or no answer yet): nothing to show. */
	events: EventsFigures | null;
	width: number;
	/** At most this many Events (the newest); a last row says how many more there are. */
	maxEvents: number;
};

/** The reason column stops here: longer reasons are rare and keep their width. */
const reasonWidth = 18;
const indent = '  ';

export function eventsPaneLines({events, width, maxEvents}: EventsPaneProps): Line[] {
	if (!events) {
		return [];
	}

	if (events.items.length === 0) {
		// Nothing to list: a refusal or failure is one dim row; none at all needs no row.
		return events.error ? wrapWords(`events: ${errorText(events)}`, width, 1, 'dim') : [];
	}

	const shown = events.items.slice(0, Math.max(1, maxEvents));
	// The count the API server holds, not the newest kept: "at least" when the read stopped at its bound.
	const total = events.total ?? {count: events.items.length, atLeast: false};
	const more = total.count - shown.length;
	const atLeast = total.atLeast ? 'at least ' : '';
	const title = `events · ${atLeast}${countText(total.count)}, newest first${more > 0 ? ` (${atLeast}${more} more: kubectl describe node)` : ''}`;
	const lines: Line[] = [...wrapWords(title, width, 1, 'title')];
	// Every column as wide as its widest cell, so the messages start in one column: a reason past reasonWidth is cut.
	const columns: Columns = {
		reasons: Math.min(reasonWidth, Math.max(...shown.map((event) => cellWidth(event.reason)))),
		ages: Math.max(...shown.map((event) => cellWidth(ageText(event)))),
		counts: Math.max(...shown.map((event) => cellWidth(countCell(event)))),
	};
	for (const event of shown) {
		lines.push(eventLine(event, columns, width));
	}

	if (events.error) {
		lines.push(...wrapWords(`as last read; ${errorText(events)}`, width, 1, 'dim', 2));
	}

	return lines;
}

/**
 * Rows the pane takes for `maxEvents` at most (title and error rows included), counted without building them: the
 * layout tries several counts and shows one. The title and the error are one row each (prose cut to one row, given
 * any width), every Event one row.
 */
export function eventsPaneRows(events: EventsFigures | null, width: number, maxEvents: number): number {
	if (!events) {
		return 0;
	}

	const prose = width > 0 ? 1 : 0;
	if (events.items.length === 0) {
		return events.error ? prose : 0;
	}

	return prose + Math.min(events.items.length, Math.max(1, maxEvents)) + (events.error ? prose : 0);
}

function countText(count: number): string {
	return count === 1 ? '1 Event' : `${count} Events`;
}

function ageText(event: NodeEventAt): string {
	return `${humanAge(event.ageSeconds)} ago`;
}

/** The widths of the reason, age and count columns, in cells. */
type Columns = {reasons: number; ages: number; counts: number};

function countCell(event: NodeEventAt): string {
	return `×${event.count}`;
}

/** `text` cut to `width` cells with "…", or padded to them. */
function fitCell(text: string, width: number): string {
	if (cellWidth(text) <= width) return text + ' '.repeat(width - cellWidth(text));
	let cut = text;
	while (cut && cellWidth(`${cut}…`) > width) cut = cut.slice(0, -1);
	return `${cut}…`;
}

/** "  NodeNotReady       2m ago  ×1  Node demo-node status is now: NodeNotReady", the message cut to the row. */
function eventLine(event: NodeEventAt, columns: Columns, width: number): Line {
	const reason = fitCell(event.reason, columns.reasons);
	const age = `  ${ageText(event).padStart(columns.ages)}`;
	const count = `  ${fitCell(countCell(event), columns.counts)}`;
	const line: Line = [seg(indent), seg(reason, event.type === 'Warning' ? 'warn' : 'value'), seg(age, 'label'), seg(count, 'label')];
	const room = width - cellWidth(indent + reason + age + count) - 2;
	const message = event.message.replaceAll('\n', ' ');
	if (room >= 8 && message) {
		line.push(seg('  '), ...(wrapWords(message, room, 1)[0] ?? []));
	}

	return line;
}

/**
 * A refusal in the words of the rule: "not allowed: needs list on events in namespace default"; any other failure
 * by its summary.
 */
function errorText({error}: EventsFigures): string {
	if (!error) {
		return '';
	}

	const needed = error.details.find((detail) => detail.startsWith('needed: '));
	if (error.kind === 'forbidden' && needed) {
		return `not allowed, needs ${needed.slice('needed: '.length).replace(/ \(.*$/, '')}`;
	}

	return `not read: ${error.summary}`;
}
