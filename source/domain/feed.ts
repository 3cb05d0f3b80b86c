// The live feed as a pure reducer: scrapes, failures, node info, baseline marks and pause in; state out.
// figuresAt() derives everything the screen and the reports show from that state at a given `now`.
// No clock reads: every time comes in with an action or as `now`.
import type {
	DeltaFigures,
	EventsFigures,
	Failure,
	FeedStatus,
	Figures,
	HistoryPoint,
	KubeletConstants,
	LastSeen,
	NodeEvents,
	NodeClock,
	NodeInfo,
	PlegSample,
	Scrape,
	Verdict,
} from './types.js';
import {appendToLog, dropFromLog, emptyLog, logAt, logLast, logSize, replaceLast, type BoundedLog} from './history/bounded-log.js';
import {relistAnatomy} from './anatomy/anatomy.js';
import {judgeWhileStale, readyPlegWords, ruleAgeSeconds, verdict, type VerdictEvidence, thresholdToMean} from './health/health.js';
import {followReady, followVerdict, incidentAt, noIncident, type IncidentTrack, type Judgement} from './incident/incident.js';
import {constantsFor, eventedFallbackEvidence} from './health/kubelet-constants.js';
import {availabilityNote, families} from './exposition/names.js';
import {
	clockAfterHeartbeat,
	clockAfterScrape,
	clockOffset,
	noClockEvidence,
	offsetToApply,
	type ClockEvidence,
} from './health/clock-offset.js';
import {formatAge, formatCount, timeOfDay} from './text/format.js';
import {historyWith, joined, prehistoryNote, type Prehistory} from './history/prehistory.js';
import {
	correctCounters,
	deltaFigures,
	isCounterReset,
	lifetimeMean,
	noOffsets,
	offsetsAfter,
	type CounterOffsets,
} from './histogram/window.js';

/**
 * History points kept by default: an hour at one scrape a second. The history chart spans twice the threshold in
 * force (over 6 minutes generic, over 20 evented): this covers it at two scrapes a second, or nine for generic.
 */
export const defaultHistoryLimit = 3600;

type Baseline = {
	/** When the mark was set (ms). */
	at: number;
	/** The latest scrape at that moment, counters corrected (FeedState.scrapes): figures since the mark are deltas from it. */
	scrape: Scrape;
	/** The window figures at the mark. */
	atMark: DeltaFigures | null;
};

/** Plain data: spreading a state keeps all of it. */
export type FeedState = {
	/** The node name pleg-top was asked for. */
	nodeName: string;
	/** --window, seconds. */
	windowSeconds: number;
	historyLimit: number;
	/**
	 * The scrapes of the current window, their counters corrected for kubelet restarts (window.ts correctCounters):
	 * the first is the window start, the last the latest scrape. A window spans a restart, as increase() does.
	 */
	scrapes: BoundedLog<Scrape>;
	/** The latest scrape as exposed (counters since the kubelet started). */
	latest: Scrape | null;
	/** What each counter series adds to its exposed value: the totals it had before each restart seen. */
	counterOffsets: CounterOffsets;
	/**
	 * One point per scrape, oldest first, at most historyLimit. A log, not an array, so a scrape costs O(1) however
	 * long the history is; logView() reads it without a copy.
	 */
	history: BoundedLog<HistoryPoint>;
	/** When the relist count was last seen to change (ms): the fallback age when there is no last-seen gauge. */
	lastCountChangeAt: number | null;
	/**
	 * Since when (ms) neither the relist count nor the gauge has moved: the first scrape that showed both as they
	 * are now. The last successful relist started before it, whatever the node's clock says.
	 */
	unmovedSince: number | null;
	/** The last scrape (ms) that showed the gauge advance (without one, the count change) from the scrape before. */
	movedAt: number | null;
	/** When the Node object was read (ms; the latest scrape's time when the read gave none); null before a read. */
	nodeReadAt: number | null;
	/** Kubelet restarts (counter resets) seen. */
	restarts: number;
	/** The scrape time (ms) of the latest restart seen; null before one. */
	lastRestartAt: number | null;
	/**
	 * The relist metrics' format changed (the µs summary of kubelet < 1.14 and the seconds histogram, e.g. across
	 * a kubelet upgrade): the time (ms) of the first scrape in the new one, where the window started again, and
	 * the families before and after. Null before a change.
	 */
	formatChange: {at: number; from: string; to: string} | null;
	/** The Evented PLEG connection success counter has risen since the kubelet (re)started. */
	eventedConnected: boolean;
	/**
	 * With the EventedPLEG gate on: the evidence that the kubelet fell back to the Generic PLEG (kubelet-constants.ts
	 * eventedFallbackEvidence). Kept until a restart: the kubelet never returns to evented by itself.
	 */
	eventedFallback: string | null;
	baseline: Baseline | null;
	/** The Node object, when the source can fetch it. */
	node: NodeInfo | null;
	/** Unhealthy spans, transitions and Ready flips seen so far, followed at each scrape and Node object read. */
	incident: IncidentTrack;
	/** The node's Events as last read (their times are their own, so ages are read at `now`); null before a read. */
	nodeEvents: (NodeEvents & {at: number}) | null;
	/** What the scrapes and the Node object say of the node's clock (clock-offset.ts): the ages are read on it. */
	clock: ClockEvidence;
	status: FeedStatus;
	/** What the history from Prometheus gave (--history-from); null when none was asked for or it has not answered. */
	prehistory: Figures['prehistory'];
	/** The window's start from Prometheus, held until the first scrape starts the window on it. */
	windowSeed: Scrape | null;
};

export type FeedAction =
	| {type: 'scrape'; scrape: Scrape}
	| {type: 'failure'; failure: Failure; at: number}
	/** `at`: when the Node object was read (local ms), for the Ready heartbeat's clock bound; without it, no bound. */
	| {type: 'node'; node: NodeInfo; at?: number}
	| {type: 'mark'; at: number}
	| {type: 'pause'; paused: boolean}
	| {type: 'events'; events: NodeEvents; at: number}
	/** The node's past from Prometheus (--history-from), once at start: its points go before the scrapes'. */
	| {type: 'prehistory'; prehistory: Prehistory};

/** The polling status before any read: no failure, nothing good yet. */
export const noReadYet: FeedStatus = {
	failure: null,
	failingSince: null,
	lastGoodAt: null,
	consecutiveFailures: 0,
	lastLatencyMs: null,
	paused: false,
};

export function initialFeedState(options: {node: string; windowSeconds: number; historyLimit?: number}): FeedState {
	return {
		nodeName: options.node,
		windowSeconds: options.windowSeconds,
		historyLimit: options.historyLimit ?? defaultHistoryLimit,
		scrapes: emptyLog(),
		latest: null,
		counterOffsets: noOffsets,
		history: emptyLog(),
		lastCountChangeAt: null,
		unmovedSince: null,
		movedAt: null,
		nodeReadAt: null,
		restarts: 0,
		lastRestartAt: null,
		formatChange: null,
		eventedConnected: false,
		eventedFallback: null,
		baseline: null,
		node: null,
		incident: noIncident,
		nodeEvents: null,
		clock: noClockEvidence,
		status: noReadYet,
		prehistory: null,
		windowSeed: null,
	};
}

/** A new state: `state` with `changes`. */
function update(state: FeedState, changes: Partial<FeedState>): FeedState {
	return {...state, ...changes};
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
	switch (action.type) {
		case 'scrape': {
			return onScrape(state, action.scrape);
		}

		case 'failure': {
			// The figures stay as they were (stale); only the status changes.
			const {status} = state;
			return update(state, {
				status: {
					...status,
					failure: action.failure,
					failingSince: status.failingSince ?? action.at,
					consecutiveFailures: status.consecutiveFailures + 1,
				},
			});
		}

		case 'node': {
			const base = isAnotherNode(state.node, action.node) ? anotherLife(state, action.at ?? null) : state;
			return update(base, {
				node: action.node,
				nodeReadAt: action.at ?? state.latest?.at ?? null,
				incident: followReady(state.incident, action.node),
				clock:
					action.at === undefined ? state.clock : clockAfterHeartbeat(state.clock, action.node.ready?.heartbeatSeconds ?? null, action.at),
			});
		}

		case 'mark': {
			return onMark(state, action.at);
		}

		case 'pause': {
			return update(state, {status: {...state.status, paused: action.paused}});
		}

		case 'events': {
			return update(state, {nodeEvents: eventsAfter(state.nodeEvents, action.events, action.at)});
		}

		case 'prehistory': {
			return withPrehistory(state, action.prehistory);
		}
	}
}

/** A Node of another uid under the same name: deleted and made again, so another kubelet with counters of its own. */
function isAnotherNode(before: NodeInfo | null, after: NodeInfo): boolean {
	return before?.uid !== undefined && after.uid !== undefined && before.uid !== after.uid;
}

/**
 * The feed of a node made again: a counter restart whose counters cannot be carried over (the old node's last
 * read is of another machine), so the window and the clock evidence start again at the next scrape.
 */
function anotherLife(state: FeedState, at: number | null): FeedState {
	return update(state, {
		scrapes: emptyLog(),
		latest: null,
		counterOffsets: noOffsets,
		lastCountChangeAt: null,
		restarts: state.restarts + 1,
		lastRestartAt: at ?? state.lastRestartAt,
		eventedConnected: false,
		eventedFallback: null,
		clock: noClockEvidence,
	});
}

/**
 * The history from Prometheus put before the scrapes': its points older than the first scrape's (the newest kept
 * within historyLimit), and its window start under the scrapes' window while that spans less than --window.
 */
function withPrehistory(state: FeedState, prehistory: Prehistory): FeedState {
	const {history: points, windowStart, ...info} = prehistory;
	const history = historyWith(points, state.history, state.historyLimit);
	const first = logAt(state.scrapes, 0);
	const latest = logLast(state.scrapes);
	if (windowStart === null || !first || !latest) {
		return update(state, {prehistory: info, history, windowSeed: windowStart});
	}

	const short = latest.at - first.at < state.windowSeconds * 1000;
	const seeded = short && state.restarts === 0 && seedFits(windowStart, first);
	return update(state, {
		prehistory: info,
		history,
		scrapes: seeded ? trimWindow(joined([windowStart], state.scrapes), state.windowSeconds) : state.scrapes,
	});
}

/**
 * The window may start at `seed` (counters from Prometheus) before `first`: it is older, in the same format, and no
 * counter went down between them (a kubelet restart there would have the window count from a total of another life).
 */
function seedFits(seed: Scrape, first: Scrape): boolean {
	return seed.at < first.at && relistFamily(seed.sample) === relistFamily(first.sample) && !isCounterReset(seed.sample, first.sample);
}

/**
 * A failed read keeps the Events of the last good one (each still true, its age read from its own time) beside the
 * error; a refused or failed first read leaves none.
 */
function eventsAfter(previous: FeedState['nodeEvents'], read: NodeEvents, at: number): FeedState['nodeEvents'] {
	return read.error && previous ? {...previous, error: read.error, at} : {...read, at};
}

/** The Events at `now` (ms): each with its age; null before the first read. */
export function eventsAt(state: FeedState, now: number): EventsFigures | null {
	const read = state.nodeEvents;
	if (!read) {
		return null;
	}

	const items = read.events.map((event) => ({
		...event,
		ageSeconds: event.lastTimestamp === null ? null : Math.max(0, now / 1000 - event.lastTimestamp),
	}));
	return read.total === undefined ? {items, error: read.error} : {items, error: read.error, total: read.total};
}

function onScrape(state: FeedState, scrape: Scrape): FeedState {
	const previous = state.latest;
	const restarted = previous !== null && isCounterReset(previous.sample, scrape.sample);
	// After a restart the counters start again from 0; the corrected ones continue, so the window spans it.
	const counterOffsets = previous === null ? state.counterOffsets : offsetsAfter(state.counterOffsets, previous.sample, scrape.sample);
	const corrected: Scrape = {...scrape, sample: correctCounters(scrape.sample, counterOffsets)};
	// The two formats cannot be differenced into one another: the window starts again at the new one.
	const from = previous && relistFamily(previous.sample);
	const to = relistFamily(scrape.sample);
	const formatChange = from && to && from !== to ? {at: scrape.at, from, to} : state.formatChange;
	const seed = previous === null && state.windowSeed !== null && seedFits(state.windowSeed, scrape) ? state.windowSeed : null;
	const windowBefore =
		formatChange !== state.formatChange ? emptyLog<Scrape>() : seed ? appendToLog(emptyLog<Scrape>(), seed) : state.scrapes;
	const scrapes = trimWindow(appendToLog(windowBefore, corrected), state.windowSeconds);
	const countNow = relistCount(scrape.sample);
	const countChanged = previous === null || restarted || countNow !== relistCount(previous.sample);
	const moved = previous !== null && (restarted || movedBetween(previous.sample, scrape.sample));
	const gaugeChanged = previous !== null && usableGauge(previous.sample) !== usableGauge(scrape.sample);
	const connectionsBefore = previous?.sample.eventedConnectionSuccess ?? null;
	const connectionsNow = scrape.sample.eventedConnectionSuccess;
	const risen = connectionsBefore !== null && connectionsNow !== null && connectionsNow > connectionsBefore;
	const window = windowOf(scrapes);
	const eventedConnected = (state.eventedConnected && !restarted) || risen;
	const lastRestartAt = restarted ? scrape.at : state.lastRestartAt;
	const clock = scrape.sameClock
		? {...state.clock, sameClock: true}
		: clockAfterScrape(state.clock, {
				at: scrape.at,
				sentAt: scrape.at - scrape.latencyMs,
				lastSeenSeconds: unusableGauge(scrape.sample.lastSeenSeconds) === null ? scrape.sample.lastSeenSeconds || null : null,
				relistCount: countNow,
				dateSeconds: scrape.dateSeconds ?? null,
			});
	const point: HistoryPoint = {
		at: scrape.at,
		windowMeanSeconds: window?.meanSeconds ?? null,
		lastSeenAgeSeconds: readLastSeen(scrape.sample, scrape.at, null, offsetToApply(clockOffset(clock))).ageSeconds,
		event: restarted ? 'restart' : null,
	};
	const next = update(state, {
		scrapes,
		latest: scrape,
		counterOffsets,
		history: appendToLog(state.history, point, state.historyLimit),
		lastCountChangeAt: countNow === null ? null : countChanged ? scrape.at : state.lastCountChangeAt,
		unmovedSince: countNow === null ? null : countChanged || gaugeChanged || state.unmovedSince === null ? scrape.at : state.unmovedSince,
		movedAt: moved ? scrape.at : state.movedAt,
		restarts: state.restarts + (restarted ? 1 : 0),
		lastRestartAt,
		formatChange,
		eventedConnected,
		clock,
		windowSeed: null,
		eventedFallback: gateOn(scrape.sample, eventedConnected)
			? (fallbackEvidence(scrape.sample, scrapes, lastRestartAt) ?? (restarted ? null : state.eventedFallback))
			: null,
		status: {
			...state.status,
			failure: null,
			failingSince: null,
			lastGoodAt: scrape.at,
			consecutiveFailures: 0,
			lastLatencyMs: scrape.latencyMs,
		},
	});
	// The rule at the scrape's own time, as the screen showed it then: the incident follows each scrape's verdict.
	const rule = ruleAt(next, scrape.at);
	return rule ? update(next, {incident: followVerdict(next.incident, judgementOf(rule, scrape.at))}) : next;
}

/** The EventedPLEG gate is on: exposed as a feature gate, or seen through a rising connection counter. */
function gateOn(sample: PlegSample, eventedConnected: boolean): boolean {
	return sample.eventedPlegGate === true || eventedConnected;
}

/**
 * The fallback evidence in this scrape. The relist rate counts only over a window that starts after the last
 * restart and in which no event stream was obtained (a stream obtained means the Evented PLEG is running then).
 */
function fallbackEvidence(sample: PlegSample, scrapes: BoundedLog<Scrape>, lastRestartAt: number | null): string | null {
	const first = logAt(scrapes, 0);
	const streamObtained = (sample.eventedConnectionSuccess ?? 0) > (first?.sample.eventedConnectionSuccess ?? 0);
	const window = first && !streamObtained && (lastRestartAt === null || first.at >= lastRestartAt) ? windowOf(scrapes) : null;
	return eventedFallbackEvidence(sample, window);
}

/** Keeps the newest scrape at least windowSeconds older than the latest as the window start; drops older ones. */
function trimWindow(scrapes: BoundedLog<Scrape>, windowSeconds: number): BoundedLog<Scrape> {
	const latestAt = logLast(scrapes)?.at ?? 0;
	const startBy = latestAt - windowSeconds * 1000;
	let drop = 0;
	while (drop + 1 < logSize(scrapes) - 1 && (logAt(scrapes, drop + 1)?.at ?? Infinity) <= startBy) {
		drop++;
	}

	return dropFromLog(scrapes, drop);
}

function onMark(state: FeedState, at: number): FeedState {
	const latest = logLast(state.scrapes);
	if (!latest) {
		return state;
	}

	const last = logLast(state.history);
	return update(state, {
		baseline: {at, scrape: latest, atMark: windowOf(state.scrapes)},
		// The mark shows on the latest point (copying the history once per key press, not per scrape).
		history: last ? replaceLast(state.history, {...last, event: last.event ?? 'mark'}) : state.history,
	});
}

/** The window's first scrape when it is not also the latest (one scrape spans nothing). */
function windowStart(scrapes: BoundedLog<Scrape>): Scrape | null {
	const first = logAt(scrapes, 0);
	return first && first !== logLast(scrapes) ? first : null;
}

/** figuresAt()'s `window` (it does not depend on `now`): null until the window spans two scrapes. */
export function windowFigures(state: FeedState): DeltaFigures | null {
	return windowOf(state.scrapes);
}

function windowOf(scrapes: BoundedLog<Scrape>): DeltaFigures | null {
	const first = logAt(scrapes, 0);
	const last = logLast(scrapes);
	return first && last && first !== last ? deltaFigures(first, last) : null;
}

/** The family the relist figures come from: the seconds histogram, else the µs summary; null with neither. */
function relistFamily(sample: PlegSample): string | null {
	return sample.relistDuration ? families.relistDuration : sample.legacyRelistLatency ? families.legacyRelistLatency : null;
}

/**
 * A relist succeeded between two scrapes of one kubelet life: the gauge advanced, or without a usable gauge the
 * count changed (the best there is on a kubelet < 1.18).
 */
function movedBetween(before: PlegSample, after: PlegSample): boolean {
	const [was, now] = [usableGauge(before), usableGauge(after)];
	if (was !== null && now !== null) return now > was;
	return relistCount(after) !== relistCount(before);
}

/** The gauge when it is a time; null when absent or unusable. */
function usableGauge(sample: PlegSample): number | null {
	return unusableGauge(sample.lastSeenSeconds) === null ? sample.lastSeenSeconds : null;
}

/** The relist count used to notice progress: the seconds histogram, else the µs summary. */
function relistCount(sample: PlegSample): number | null {
	return sample.relistDuration?.count ?? sample.legacyRelistLatency?.count ?? null;
}

/**
 * Why a last-seen gauge value cannot be a time, or null when it can: NaN, ±Inf and negative values are not Unix
 * seconds. Such a gauge is read as absent (the count fallback takes over), and the unavailable line says why.
 */
function unusableGauge(gauge: number | null): string | null {
	if (gauge === null || (Number.isFinite(gauge) && gauge >= 0)) {
		return null;
	}

	// In words: pleg-top never prints NaN or Infinity.
	return Number.isNaN(gauge) ? 'not a number' : Number.isFinite(gauge) ? 'negative' : 'infinite';
}

/**
 * The last-seen gauge read at `now` (ms, local). The gauge is node time: the age is (now + offsetSeconds) − gauge,
 * on the node's clock as the kubelet judges it; a gauge still ahead of that reads as age 0 plus skew.
 */
function readLastSeen(sample: PlegSample, now: number, countUnchangedSeconds: number | null, offsetSeconds: number): LastSeen {
	const gauge = unusableGauge(sample.lastSeenSeconds) === null ? sample.lastSeenSeconds : null;
	if (gauge === null || gauge === 0) {
		return {
			gaugeSeconds: gauge,
			ageSeconds: null,
			skewSeconds: null,
			neverSucceeded: gauge === 0,
			countUnchangedSeconds: gauge === null ? countUnchangedSeconds : null,
		};
	}

	const age = (now - gauge * 1000) / 1000 + offsetSeconds;
	return {
		gaugeSeconds: gauge,
		ageSeconds: Math.max(age, 0),
		// Read with an offset, a second or less ahead is the Date header's truncation, not a clock ahead of the node's.
		skewSeconds: age < 0 && (offsetSeconds === 0 || age < -1) ? -age : null,
		neverSucceeded: false,
		countUnchangedSeconds: null,
	};
}

export type Rule = {constants: KubeletConstants; lastSeen: LastSeen; verdict: Verdict};

/**
 * The kubelet's rule applied to the latest scrape at `at` (ms), as figuresAt() applies it; null before a scrape.
 * Its constants and lastSeen are figuresAt(state, at)'s; so is its verdict unless the last read failed (stale).
 */
export function ruleAt(state: FeedState, at: number): Rule | null {
	const latest = state.latest;
	if (!latest) {
		return null;
	}

	const {sample} = latest;
	const kubeletVersion = state.node?.kubeletVersion ?? sample.kubeletVersion;
	const constants = constantsFor(kubeletVersion, gateOn(sample, state.eventedConnected), state.eventedFallback);
	const countUnchanged = state.lastCountChangeAt === null ? null : Math.max(0, (at - state.lastCountChangeAt) / 1000);
	const clock = clockOffset(state.clock);
	const lastSeen = readLastSeen(sample, at, countUnchanged, offsetToApply(clock));
	return {constants, lastSeen, verdict: verdict(lastSeen, constants, evidenceAt(state, at, clock))};
}

/** What the verdict weighs besides the age at `at` (ms): the node's Ready words, the unmoved time, the clock. */
function evidenceAt(state: FeedState, at: number, clock: NodeClock): VerdictEvidence {
	return {
		readyPleg: readyPlegNow(state),
		unmovedSeconds: state.unmovedSince === null ? null : Math.max(0, (at - state.unmovedSince) / 1000),
		clockUnknown: clock.offsetSeconds === null,
	};
}

/**
 * The Ready condition's "PLEG is not healthy: …" while it still stands: Ready False and no relist seen to succeed
 * since the Node object was read (one that did makes it old news until the next read).
 */
function readyPlegNow(state: FeedState): string | null {
	const ready = state.node?.ready;
	if (ready?.status !== 'False') return null;
	const since = state.movedAt !== null && (state.nodeReadAt === null || state.movedAt > state.nodeReadAt);
	return since ? null : readyPlegWords(ready.message);
}

function judgementOf({constants, lastSeen, verdict: judged}: Rule, at: number): Judgement {
	// Judged by the node's own words or the unmoved count, the age says nothing of when the rule tripped.
	const byAge = judged.basis === 'last-seen' || judged.basis === 'count-unchanged' || judged.healthy !== false;
	return {
		healthy: judged.healthy,
		at,
		ageSeconds: byAge ? ruleAgeSeconds(lastSeen) : null,
		thresholdSeconds: constants.threshold.seconds,
		fromGauge: byAge && lastSeen.ageSeconds !== null,
	};
}

/**
 * The incident at `now`: the track as the scrapes left it, followed by the verdict at `now` (between scrapes the
 * age grows past the threshold before the next scrape sees it). While stale nothing is followed.
 */
function incidentNow(state: FeedState, rule: Rule, now: number, stale: boolean): Figures['incident'] {
	const track = stale ? state.incident : followVerdict(state.incident, judgementOf(rule, now));
	return incidentAt(track, now, stale);
}

/** Everything the screen shows, at `now` (ms); null before the first scrape. */
export function figuresAt(state: FeedState, now: number): Figures | null {
	const latest = state.latest;
	if (!latest) {
		return null;
	}

	const sample = latest.sample;
	const kubeletVersion = state.node?.kubeletVersion ?? sample.kubeletVersion;
	const constants = constantsFor(kubeletVersion, gateOn(sample, state.eventedConnected), state.eventedFallback);
	const countUnchangedAt = (at: number) => (state.lastCountChangeAt === null ? null : Math.max(0, (at - state.lastCountChangeAt) / 1000));
	const countUnchanged = countUnchangedAt(now);
	const clock = clockOffset(state.clock);
	const offset = offsetToApply(clock);
	const lastSeen = readLastSeen(sample, now, countUnchanged, offset);
	// The rule at the last good scrape and at `now`; while the last scrape fails, the verdict is unknown.
	const then = verdict(
		readLastSeen(sample, latest.at, countUnchangedAt(latest.at), offset),
		constants,
		evidenceAt(state, latest.at, clock),
	);
	const judgedNow = verdict(lastSeen, constants, evidenceAt(state, now, clock));
	const judged = judgeWhileStale(state.status, now, then, judgedNow, lastSeen.ageSeconds ?? lastSeen.countUnchangedSeconds, constants);
	const window = windowOf(state.scrapes);
	const mean = window?.meanSeconds ?? null;
	return {
		now,
		node: state.nodeName,
		kubeletVersion,
		constants,
		lastSeen,
		clock,
		lifetime: lifetimeOf(sample),
		window,
		windowTargetSeconds: state.windowSeconds,
		verdict: judged.verdict,
		stale: judged.stale,
		thresholdToMeanRatio: thresholdToMean(constants.threshold.seconds, mean),
		thresholdToPeriodRatio: constants.threshold.seconds / constants.period.seconds,
		legacy: sample.relistDuration === null && sample.legacyRelistLatency !== null,
		// What the window is doing now first: the pane cuts the last lines when it runs out of rows.
		unavailable: [
			...windowNotes(state, window),
			...unavailableLines(sample, kubeletVersion, countUnchanged),
			...prehistoryNote(state.prehistory),
		],
		baseline: baselineFigures(state),
		ready: state.node?.ready ?? null,
		pods: state.node?.pods ?? null,
		discardEventsTotal: sample.discardEvents,
		// The corrected latest scrape: its CRI counters continue across a restart like the relist ones.
		anatomy: relistAnatomy(windowStart(state.scrapes), logLast(state.scrapes) ?? latest, window, kubeletVersion),
		events: eventsAt(state, now),
		incident: incidentNow(state, {constants, lastSeen, verdict: judgedNow}, now, judged.stale !== null),
		raw: sample.raw ? {...sample.raw, at: latest.at} : null,
		prehistory: state.prehistory,
	};
}

function lifetimeOf(sample: PlegSample): Figures['lifetime'] {
	const totals = sample.relistDuration ?? sample.legacyRelistLatency;
	return totals && {count: totals.count, sum: totals.sum, meanSeconds: lifetimeMean(totals.sum, totals.count)};
}

function baselineFigures(state: FeedState): Figures['baseline'] {
	const {baseline} = state;
	const latest = logLast(state.scrapes);
	if (!baseline || !latest) {
		return null;
	}

	// Corrected counters: the figures since the mark span a kubelet restart, as the window does.
	const sinceMark = deltaFigures(baseline.scrape, latest);
	const before = baseline.atMark?.meanSeconds ?? null;
	const after = sinceMark?.meanSeconds ?? null;
	return {
		markedAt: baseline.at,
		atMark: baseline.atMark,
		sinceMark,
		meanRatio: before !== null && after !== null && before > 0 ? after / before : null,
	};
}

/**
 * What the window could not use, one line each: a format change it started again at (said while the window
 * still starts there), a _sum that fell while its _count did not.
 */
function windowNotes(state: FeedState, window: DeltaFigures | null): string[] {
	const notes: string[] = [];
	const change = state.formatChange;
	if (change && logAt(state.scrapes, 0)?.at === change.at) {
		notes.push(
			`metric format changed at ${timeOfDay(change.at)}: window restarted (${formatName(change.from)} → ${formatName(change.to)})`,
		);
	}

	// Short, the words that matter first: the pane beside the source column has about 50 columns.
	if (window?.sumFell) {
		const count = window.count > 0 ? `_count rose by ${formatCount(window.count)}` : '_count did not move';
		notes.push(`relist duration: _sum fell while ${count}: inconsistent series, no window mean`);
	}

	return notes;
}

/** A relist family in words. */
function formatName(family: string): string {
	return family === families.legacyRelistLatency ? 'µs summary' : 'seconds histogram';
}

/** Why figures are missing, one line each, e.g. "last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1.18; …". */
function unavailableLines(sample: PlegSample, kubeletVersion: string | null, countUnchanged: number | null): string[] {
	const lines: string[] = [];
	const unusable = unusableGauge(sample.lastSeenSeconds);
	if (sample.lastSeenSeconds === null || unusable !== null) {
		const fallback =
			countUnchanged === null ? 'no relist count to fall back on' : `using 'count unchanged for ${formatAge(countUnchanged)}'`;
		const why = unusable === null ? availabilityNote('lastSeen', kubeletVersion) : `${families.lastSeen} is ${unusable}, not a time`;
		lines.push(`last seen: ${why}; ${fallback}`);
	}

	if (sample.relistDuration === null) {
		lines.push(
			sample.legacyRelistLatency === null
				? `relist duration: ${availabilityNote('relistDuration', kubeletVersion)}; ${availabilityNote('legacyRelistLatency', kubeletVersion)}`
				: 'quantiles: the µs summaries of kubelet < 1.14 cannot be windowed',
		);
	}

	if (sample.relistInterval === null && sample.legacyRelistInterval === null) {
		lines.push(`interval: ${availabilityNote('relistInterval', kubeletVersion)}`);
	}

	if (sample.discardEvents === null) {
		lines.push(`discard events: ${availabilityNote('discardEvents', kubeletVersion)}`);
	}

	if (kubeletVersion === null) {
		lines.push('kubelet version: neither the Node object nor kubernetes_build_info gives it');
	}

	// How the reader put the series together (added up, a second copy left out), beside what is missing.
	lines.push(...(sample.notes ?? []));
	return lines;
}
