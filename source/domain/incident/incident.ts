// What a session has seen of the kubelet's rule failing: the open unhealthy span, the last one that ended, the
// changes between healthy and unhealthy, and the node's Ready flips. Pure: the feed reducer hands each judged
// scrape and each Node object in; incidentAt() reads it at a given `now`. No clock reads.
import type {Incident, NodeInfo} from '../types.js';

type Span = {
	/** When the rule began to fail, ms (see Incident.unhealthySince). */
	from: number;
	/** `from` is the gauge's, to its second. */
	exact: boolean;
};

export type IncidentTrack = {
	/** The verdict at the last scrape that could be judged; null before one. */
	healthy: boolean | null;
	/** The span still open at that scrape, when it was unhealthy. */
	open: Span | null;
	/** The last span that ended, and the first scrape that saw it healthy again (ms). */
	last: (Span & {to: number}) | null;
	transitions: number;
	flaps: number;
	/** The Ready status at the last Node object read that had one. */
	ready: 'True' | 'False' | 'Unknown' | null;
	readyFlips: number;
};

export const noIncident: IncidentTrack = {
	healthy: null,
	open: null,
	last: null,
	transitions: 0,
	flaps: 0,
	ready: null,
	readyFlips: 0,
};

/** One verdict of the rule, judged at `at` (ms), on an age of `ageSeconds` (null without one: a gauge of 0). */
export type Judgement = {
	healthy: boolean | null;
	at: number;
	ageSeconds: number | null;
	thresholdSeconds: number;
	/** The age is the gauge's (not count unchanged), so the start it gives is exact to the gauge's second. */
	fromGauge: boolean;
};

/**
 * The track after one more verdict. Unhealthy opens a span that began when the age passed the threshold (at −
 * age + threshold), or at `at` itself without an age; healthy again closes it at `at`. A verdict that cannot be
 * judged (null) changes nothing: the span stays as the last judged scrape left it.
 */
export function followVerdict(track: IncidentTrack, judgement: Judgement): IncidentTrack {
	const {healthy, at} = judgement;
	if (healthy === null) {
		return track;
	}

	const changed = track.healthy !== null && track.healthy !== healthy;
	const counted = {
		healthy,
		transitions: track.transitions + (changed ? 1 : 0),
		flaps: track.flaps + (changed && !healthy ? 1 : 0),
	};
	if (!healthy) {
		return {...track, ...counted, open: track.open ?? spanStart(judgement)};
	}

	return {...track, ...counted, open: null, last: track.open ? {...track.open, to: at} : track.last};
}

function spanStart({at, ageSeconds, thresholdSeconds, fromGauge}: Judgement): Span {
	if (ageSeconds === null) {
		return {from: at, exact: false};
	}

	// Never after the scrape that saw it: an age read at `at` is past the threshold already.
	return {from: Math.min(at, at - (ageSeconds - thresholdSeconds) * 1000), exact: fromGauge};
}

/** The track after a Node object read: a Ready status other than the last one seen is one flip. */
export function followReady(track: IncidentTrack, node: NodeInfo): IncidentTrack {
	const status = node.ready?.status ?? null;
	if (status === null || status === track.ready) {
		return track;
	}

	return {...track, ready: status, readyFlips: track.readyFlips + (track.ready === null ? 0 : 1)};
}

/** The track read at `now` (ms). `stale`: the last scrape failed, so whether it is still unhealthy is not known. */
export function incidentAt(track: IncidentTrack, now: number, stale: boolean): Incident {
	const open = stale ? null : track.open;
	const recovered = track.healthy === true && !stale ? track.last : null;
	return {
		unhealthySince: open?.from ?? null,
		unhealthyForSeconds: open ? Math.max(0, (now - open.from) / 1000) : null,
		sinceExact: open?.exact ?? false,
		recovered: recovered && {
			at: recovered.to,
			agoSeconds: Math.max(0, (now - recovered.to) / 1000),
			afterSeconds: (recovered.to - recovered.from) / 1000,
			exact: recovered.exact,
		},
		transitions: track.transitions,
		flaps: track.flaps,
		readyFlips: track.readyFlips,
	};
}
