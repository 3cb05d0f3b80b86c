// A v1 EventList (GET .../events?fieldSelector=involvedObject.kind=Node,...) as the NodeEvents pleg-top shows.
// Checked where it enters (json-boundary.ts). Every string is the cluster's (anyone allowed to create an Event
// writes it): clusterText makes it one visible line here.
import * as v from 'valibot';
import type {NodeEvent} from '../domain/types.js';
import {clusterText as text} from '../domain/text/untrusted-text.js';
import {continueOf, listMeta, maybe, readJson} from './json-boundary.js';

// Times stay strings: one that does not parse is an Event without that time, not a broken list.
const time = maybe(v.string());

/** The fields of a v1 Event that pleg-top shows; events.k8s.io recorders send null for the core/v1 times. */
const eventSchema = v.object({
	type: maybe(v.string()),
	reason: maybe(v.string()),
	message: maybe(v.string()),
	count: maybe(v.number()),
	lastTimestamp: time,
	firstTimestamp: time,
	eventTime: time,
	series: maybe(v.object({count: maybe(v.number()), lastObservedTime: time})),
	source: maybe(v.object({component: maybe(v.string())})),
	reportingController: maybe(v.string()),
	metadata: maybe(v.object({creationTimestamp: time})),
});

const eventListSchema = v.object({items: v.array(eventSchema), metadata: listMeta});

type EventJson = v.InferOutput<typeof eventSchema>;

/** The newest Events kept: more than a screen shows, bounded for a node that floods them. */
const keep = 50;

/** An RFC 3339 time (with or without microseconds) as seconds since the epoch; null when absent or unreadable. */
function seconds(value: string | null | undefined): number | null {
	const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(parsed) ? null : parsed / 1000;
}

/**
 * When it last happened: lastTimestamp (core/v1 recorders: the kubelet, the node controller), else the series'
 * last observation or eventTime (events.k8s.io recorders), else the first time or the object's creation.
 */
function lastSeen(event: EventJson): number | null {
	return (
		seconds(event.lastTimestamp) ??
		seconds(event.series?.lastObservedTime) ??
		seconds(event.eventTime) ??
		seconds(event.firstTimestamp) ??
		seconds(event.metadata?.creationTimestamp)
	);
}

function countOf(event: EventJson): number {
	const count = event.series?.count ?? event.count;
	return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 1;
}

/** One page of an EventList: its Events (in the server's order), the next page's token (null on the last page). */
export type EventPage = {events: NodeEvent[]; continueToken: string | null};

/** A page of a v1 EventList. Throws MalformedJsonError naming the field when the body is not an EventList. */
export function eventPageFromJson(body: string): EventPage {
	const list = readJson(eventListSchema, body);
	const events = list.items.map((event): NodeEvent => ({
		type: text(event.type) ?? 'Normal',
		reason: text(event.reason) ?? '(no reason)',
		message: (text(event.message) ?? '').trim(),
		count: countOf(event),
		lastTimestamp: lastSeen(event),
		source: text(event.source?.component) ?? text(event.reportingController),
	}));
	// The token goes back to the server as it came: it is never shown.
	return {events, continueToken: continueOf(list.metadata)};
}

/** Newest first (unknown times last), at most 50: the API server lists Events by name, not by time. */
export function newestEvents(events: readonly NodeEvent[]): NodeEvent[] {
	return [...events].sort((a, b) => (b.lastTimestamp ?? -Infinity) - (a.lastTimestamp ?? -Infinity)).slice(0, keep);
}
