// The node's clock offset (node clock − local clock, seconds), estimated from what each scrape carries. The kubelet
// judges Healthy() on its own clock and kubelet_pleg_last_seen_seconds is a time on that clock, so an age read on the
// local clock is wrong by the offset: 200 s behind reads a relisting node as unhealthy, 60 s ahead hides a stall.
// Pure: every local time comes in with its evidence; nothing here reads a clock.

import {formatGoDuration} from '../text/go-duration.js';
import {ageBand} from './health.js';
import type {Figures, NodeClock} from '../types.js';

/** The estimate in force: offsetSeconds (node − local, null when unknown), its source, and atLeast for a bound. */
export type ClockOffset = NodeClock;

/** Offsets up to this are noise (the gauge's and the Date header's 1 s truncation, the scrape's own time): not shown. */
const clockNoiseSeconds = 2;

/** The relist estimate comes down only when this many samples in a row lie more than the noise below it. */
const lowerAfterSamples = 5;

/** What one scrape says about the node's clock. */
export type ClockScrape = {
	/** Local time the answer was complete, ms. */
	at: number;
	/** Local time the request was sent, ms. */
	sentAt: number;
	/** kubelet_pleg_last_seen_seconds when it is a time (> 0); null otherwise. */
	lastSeenSeconds: number | null;
	/** The relist count (seconds histogram, else µs summary); null without one. */
	relistCount: number | null;
	/** The answer's Date header, Unix seconds (node clock through the proxy, 1 s resolution); null without one. */
	dateSeconds: number | null;
};

/** The estimator's state: plain data, kept in the feed. */
export type ClockEvidence = {
	/**
	 * The last lowerAfterSamples scrapes whose gauge advanced with the count: gauge − local time, seconds. A relist
	 * that succeeded started at the gauge, on the node's clock, before the answer: each value is at most the offset,
	 * and within about one period + relist time + health-check cadence + truncation of it while relists run.
	 */
	relist: number[];
	/** The relist estimate in force: kept through a stall (no new evidence), so a stall is never learnt as an offset. */
	relistEstimate: number | null;
	/** Intersection of the Date headers' intervals [Date − at, Date + 1 − sentAt], seconds; null without one. */
	date: {low: number; high: number} | null;
	/** The Ready heartbeat's lower bound: lastHeartbeatTime − local read time, seconds (the node is at least this ahead). */
	heartbeatLowSeconds: number | null;
	/** The node's clock is pleg-top's own (the demo): the offset is 0 by construction, nothing to learn. */
	sameClock: boolean;
	/** The previous scrape's gauge and count, to see both advance. */
	previous: {lastSeenSeconds: number | null; relistCount: number | null} | null;
};

export const noClockEvidence: ClockEvidence = {
	relist: [],
	relistEstimate: null,
	date: null,
	heartbeatLowSeconds: null,
	sameClock: false,
	previous: null,
};

/** The evidence with one more scrape. */
export function clockAfterScrape(evidence: ClockEvidence, scrape: ClockScrape): ClockEvidence {
	const previous = evidence.previous;
	// The gauge advanced (a relist succeeded since the last scrape) and the count rose with it; failed relists raise
	// the count alone, and a stalled loop neither: those say nothing about the clock.
	const advanced =
		previous !== null &&
		scrape.lastSeenSeconds !== null &&
		previous.lastSeenSeconds !== null &&
		scrape.lastSeenSeconds > previous.lastSeenSeconds &&
		(scrape.relistCount === null || previous.relistCount === null || scrape.relistCount !== previous.relistCount);
	const relist = advanced ? [...evidence.relist.slice(1 - lowerAfterSamples), scrape.lastSeenSeconds! - scrape.at / 1000] : evidence.relist; // advanced: not null
	return {
		relist,
		relistEstimate: advanced ? relistEstimate(evidence.relistEstimate, relist) : evidence.relistEstimate,
		date: scrape.dateSeconds === null ? evidence.date : dateAfter(evidence.date, scrape),
		heartbeatLowSeconds: evidence.heartbeatLowSeconds,
		sameClock: evidence.sameClock,
		previous: {lastSeenSeconds: scrape.lastSeenSeconds, relistCount: scrape.relistCount},
	};
}

/**
 * The relist estimate: the highest gauge − local time seen (each is at most the offset; the highest is the relist
 * that had just started), so it does not jitter from scrape to scrape. Raised at once by a higher value (proof the
 * estimate was low); lowered only when the last samples all lie more than the noise below it (a clock stepped
 * back), never by one late sample such as the recovery relist after a hang, whose gauge is the hung relist's start.
 */
function relistEstimate(current: number | null, relist: number[]): number {
	const latest = relist.at(-1)!; // non-empty
	if (current === null || latest >= current) {
		return latest;
	}

	const stepped = relist.length === lowerAfterSamples && relist.every((seconds) => seconds < current - clockNoiseSeconds);
	return stepped ? Math.max(...relist) : current;
}

/**
 * The Date header was written on the node's clock, truncated to the second, while the request was in flight: the
 * offset lies in [Date − at, Date + 1 − sentAt]. Intersected over the scrapes it narrows; an empty intersection (a
 * clock stepped) starts again from this scrape.
 */
function dateAfter(date: ClockEvidence['date'], scrape: ClockScrape): ClockEvidence['date'] {
	const low = scrape.dateSeconds! - scrape.at / 1000; // checked by the caller
	const high = scrape.dateSeconds! + 1 - scrape.sentAt / 1000; // checked by the caller
	if (date === null) {
		return {low, high};
	}

	const narrowed = {low: Math.max(date.low, low), high: Math.min(date.high, high)};
	return narrowed.low <= narrowed.high ? narrowed : {low, high};
}

/**
 * The Ready condition's lastHeartbeatTime (node clock) read at local `readAt` (ms): the heartbeat was written
 * before the read, so node clock ≥ heartbeat then, and the offset ≥ heartbeat − readAt. The kubelet rewrites it
 * every 10 s to 5 min (nodeStatusUpdateFrequency / nodeStatusReportFrequency), so it bounds, never estimates.
 */
export function clockAfterHeartbeat(evidence: ClockEvidence, heartbeatSeconds: number | null, readAt: number): ClockEvidence {
	return heartbeatSeconds === null ? evidence : {...evidence, heartbeatLowSeconds: heartbeatSeconds - readAt / 1000};
}

/**
 * The estimate in force, best source first: the relist loop (the kubelet's own gauge), else the Date header
 * (the midpoint of its interval), else the heartbeat's bound when it proves the node ahead by more than the noise,
 * else unknown (no relist seen to complete, no Date, e.g. a stall from the start).
 */
export function clockOffset(evidence: ClockEvidence): ClockOffset {
	if (evidence.sameClock) return {offsetSeconds: 0, source: 'same-clock', atLeast: false};
	if (evidence.relistEstimate !== null) {
		return {offsetSeconds: evidence.relistEstimate, source: 'relist', atLeast: false};
	}

	if (evidence.date !== null) {
		return {offsetSeconds: (evidence.date.low + evidence.date.high) / 2, source: 'date-header', atLeast: false};
	}

	if (evidence.heartbeatLowSeconds !== null && evidence.heartbeatLowSeconds > clockNoiseSeconds) {
		return {offsetSeconds: evidence.heartbeatLowSeconds, source: 'heartbeat', atLeast: true};
	}

	return {offsetSeconds: null, source: 'unknown', atLeast: false};
}

/** Whether the offset counts: known and beyond the noise. Only then is it shown and are ages read with it. */
export function clockOffsetShown(offset: ClockOffset): boolean {
	return offset.offsetSeconds !== null && Math.abs(offset.offsetSeconds) > clockNoiseSeconds;
}

/**
 * The offset the ages are read with, seconds: 0 when unknown (the local clock is all there is, and that is said)
 * or within the noise (a healthy node's relist evidence lies up to ~2 s below a true 0: no correction there).
 */
export function offsetToApply(offset: ClockOffset): number {
	return clockOffsetShown(offset) ? offset.offsetSeconds! : 0; // shown: known
}

/**
 * The offset in words where it matters, once: "node clock 3m20s behind", "… 1m0s ahead", "… at least 40s ahead"
 * (the heartbeat's bound), or "node clock unknown" while the gauge's age, read on the local clock with nothing to
 * tell the node's by, is past the ok band (a fresh gauge is its own evidence as soon as the count moves). Null
 * within the noise, and without a gauge (the count fallback runs on the local clock alone).
 */
export function clockOffsetText({clock, lastSeen, constants}: Pick<Figures, 'clock' | 'lastSeen' | 'constants'>): string | null {
	if (!clock || lastSeen.gaugeSeconds === null || lastSeen.neverSucceeded) {
		return null;
	}

	if (clock.offsetSeconds === null) {
		return ageBand(lastSeen.ageSeconds ?? 0, constants) === 'ok' ? null : 'node clock unknown';
	}

	if (!clockOffsetShown(clock)) {
		return null;
	}

	const whole = formatGoDuration(Math.abs(Math.round(clock.offsetSeconds)));
	return `node clock ${clock.atLeast ? 'at least ' : ''}${whole} ${clock.offsetSeconds < 0 ? 'behind' : 'ahead'}`;
}
