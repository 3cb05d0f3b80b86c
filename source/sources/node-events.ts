// A v1 EventList (GET .../events?fieldSelector=involvedObject.kind=Node,...) as the NodeEvents pleg-top shows.
// Every string is the cluster's (anyone allowed to create an Event writes it): clusterText makes it one visible line here.
import type {NodeEvent} from '../domain/types.js';
import {clusterText as text} from '../domain/untrusted-text.js';

type EventJson = {
	type?: unknown;
	reason?: unknown;
	message?: unknown;
	count?: unknown;
	lastTimestamp?: unknown;
	firstTimestamp?: unknown;
	eventTime?: unknown;
	series?: {count?: unknown; lastObservedTime?: unknown};
	source?: {component?: unknown};
	reportingController?: unknown;
	metadata?: {creationTimestamp?: unknown};
};

/** The newest Events kept: more than a screen shows, bounded for a node that floods them. */
const keep = 50;

/** An RFC 3339 time (with or without microseconds) as seconds since the epoch; null when absent or unreadable. */
function seconds(value: unknown): number | null {
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
	const count = typeof event.series?.count === 'number' ? event.series.count : event.count;
	return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 1;
}

/** One page of an EventList: its Events (in the server's order), the next page's token (null on the last page). */
export type EventPage = {events: NodeEvent[]; continueToken: string | null};

/** A page of a v1 EventList. Throws on a body that is not an EventList. */
export function eventPageFromJson(body: string): EventPage {
	const value = JSON.parse(body) as {items?: unknown; metadata?: {continue?: unknown}};
	if (typeof value !== 'object' || value === null || !Array.isArray(value.items)) {
		throw new TypeError('not an EventList');
	}

	const events = (value.items as EventJson[]).map((event): NodeEvent => ({
		type: text(event?.type) ?? 'Normal',
		reason: text(event?.reason) ?? '(no reason)',
		message: (text(event?.message) ?? '').trim(),
		count: countOf(event ?? {}),
		lastTimestamp: lastSeen(event ?? {}),
		source: text(event?.source?.component) ?? text(event?.reportingController),
	}));
	// The token goes back to the server as it came: it is never shown.
	const token = value.metadata?.continue;
	return {events, continueToken: typeof token === 'string' && token !== '' ? token : null};
}

/** Newest first (unknown times last), at most 50: the API server lists Events by name, not by time. */
export function newestEvents(events: readonly NodeEvent[]): NodeEvent[] {
	return [...events].sort((a, b) => (b.lastTimestamp ?? -Infinity) - (a.lastTimestamp ?? -Infinity)).slice(0, keep);
}
