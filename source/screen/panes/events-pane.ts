// The node's recent Events, as `kubectl describe node` lists them: newest first, each with its age and count, a
// Warning's reason in the warning colour. A refused read is one dim row naming the RBAC rule that is missing: the
// Events are extra context, so their absence never turns into an error of the whole screen.
import {humanAge} from '../../domain/event-age.js';
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
	const reasons = Math.min(reasonWidth, Math.max(...shown.map((event) => cellWidth(event.reason))));
	const ages = Math.max(...shown.map((event) => cellWidth(ageText(event))));
	for (const event of shown) {
		lines.push(eventLine(event, reasons, ages, width));
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

/** "  NodeNotReady       2m ago  ×1  Node demo-node status is now: NodeNotReady", the message cut to the row. */
function eventLine(event: NodeEventAt, reasons: number, ages: number, width: number): Line {
	const reason = event.reason.padEnd(reasons);
	const head = `${indent}${reason}  ${ageText(event).padStart(ages)}  ×${event.count}`;
	const line: Line = [
		seg(indent),
		seg(reason, event.type === 'Warning' ? 'warn' : 'value'),
		seg(`  ${ageText(event).padStart(ages)}`, 'label'),
		seg(`  ×${event.count}`, 'label'),
	];
	const room = width - cellWidth(head) - 2;
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
