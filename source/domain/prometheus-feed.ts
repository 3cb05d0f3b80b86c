// One node's feed when the figures come from Prometheus: the latest answer, the history of its window means, and
// the polling status. figuresFromPrometheus() maps an answer onto the Figures every screen shows; the windowing
// itself was done by Prometheus (rate, histogram_quantile), so nothing is derived twice. Pure: times come in.
import {judgeWhileStale, verdict} from './health.js';
import {constantsFor} from './kubelet-constants.js';
import {appendColumns, columnsAfter, columnsView, emptyColumns, type HistoryColumns} from './history-columns.js';
import {defaultHistoryLimit, noReadYet} from './feed.js';
import type {DeltaFigures, Failure, FeedStatus, Figures, HistoryPoint, LastSeen, NodeInfo, Quantile} from './types.js';
import type {FeedKind, RowFigures} from './overview-state.js';
import {prehistoryNote, type Prehistory} from './prometheus-history.js';
import {lifetimeMean} from './window.js';

/** One node's figures as Prometheus computed them over the window. NaN answers (no relist in the window) are null. */
export type PrometheusFigures = {
	/** The `node` label of the kubelet's series, else its `instance`. */
	node: string;
	/** Prometheus' evaluation time of every query of the fetch (the `time` parameter), ms. */
	at: number;
	windowSeconds: number;
	/** git_version of kubernetes_build_info. */
	kubeletVersion: string | null;
	/** time() - kubelet_pleg_last_seen_seconds at `at`, s. */
	lastSeenAgeSeconds: number | null;
	/** timestamp(kubelet_pleg_last_seen_seconds): when Prometheus scraped that gauge, Unix s. */
	lastSeenScrapedAt: number | null;
	/** rate(_sum[W]) / rate(_count[W]), s. */
	meanSeconds: number | null;
	/** histogram_quantile over the bucket rates, s; the top finite bound (10 s) when the rank is in +Inf. */
	p50: number | null;
	p90: number | null;
	p99: number | null;
	/** rate(_count[W]), relists/s (extrapolated to the window edges by Prometheus). */
	ratePerSecond: number | null;
	/** Mean of kubelet_pleg_relist_interval_seconds over the window, s. */
	intervalMeanSeconds: number | null;
	/** increase(kubelet_pleg_discard_events[W]). */
	discardEvents: number | null;
	/** kubelet_pleg_relist_duration_seconds_count / _sum now (since kubelet start). */
	lifetimeCount: number | null;
	lifetimeSum: number | null;
};

/**
 * The top finite bucket bound of kubelet_pleg_relist_duration_seconds (Prometheus DefBuckets end at 10 s).
 * histogram_quantile answers that bound when the rank falls in +Inf, so an answer of 10 s is a lower bound.
 */
const topFiniteBoundSeconds = 10;

export type PrometheusFeed = {
	name: string;
	windowSeconds: number;
	latest: PrometheusFigures | null;
	history: HistoryColumns;
	node: NodeInfo | null;
	status: FeedStatus;
	/** What the history read at start gave (--prometheus NODE); null before it is in, and for the fleet. */
	prehistory: Figures['prehistory'];
	/** When the last point of that history was, ms: the chart marks it; null without one. */
	historyEndAt: number | null;
	/** The time between the last two scrapes of the node Prometheus answered with, ms; null until two were seen. */
	scrapeGapMs: number | null;
};

export type PrometheusFeedAction =
	/** historyLimit: history points kept (fleetHistoryLimit: fewer per node the bigger the fleet). */
	| {type: 'figures'; figures: PrometheusFigures; latencyMs: number; historyLimit?: number}
	/** The fetch succeeded but Prometheus has no series for this node (any more). */
	| {type: 'absent'; at: number}
	| {type: 'failure'; failure: Failure; at: number}
	/** The node's last 15 minutes, read once at start: its points go before the answers'. */
	| {type: 'prehistory'; prehistory: Prehistory};

/**
 * History points kept for the whole fleet together: about 30 MiB of points (24 bytes each, and a quarter of room).
 * At 2,000,000 the 10,000-node overview's RSS peaked at 337 MiB once every node's history was full (bench/README.md).
 */
export const fleetHistoryPoints = 1_000_000;

/**
 * History points kept per node in a fleet of `nodes`: an hour at one refresh a second up to 277 nodes, then fewer
 * (100 at 10,000 nodes: as many as a 120-column chart shows), never under 60, so memory stays bounded as the fleet grows.
 */
export function fleetHistoryLimit(nodes: number): number {
	return Math.max(60, Math.min(defaultHistoryLimit, Math.floor(fleetHistoryPoints / Math.max(1, nodes))));
}

export function initialPrometheusFeed(name: string, windowSeconds: number): PrometheusFeed {
	return {
		name,
		windowSeconds,
		latest: null,
		history: emptyColumns(),
		node: null,
		status: noReadYet,
		prehistory: null,
		historyEndAt: null,
		scrapeGapMs: null,
	};
}

function failed(feed: PrometheusFeed, failure: Failure, at: number): PrometheusFeed {
	const {status} = feed;
	return {
		...feed,
		status: {...status, failure, failingSince: status.failingSince ?? at, consecutiveFailures: status.consecutiveFailures + 1},
	};
}

export function prometheusFeedReducer(feed: PrometheusFeed, action: PrometheusFeedAction): PrometheusFeed {
	switch (action.type) {
		case 'figures': {
			const {figures} = action;
			const point: HistoryPoint = {
				at: figures.at,
				windowMeanSeconds: figures.meanSeconds,
				lastSeenAgeSeconds: figures.lastSeenAgeSeconds,
				event: null,
			};
			const before = feed.latest?.lastSeenScrapedAt ?? null;
			const scraped = figures.lastSeenScrapedAt;
			// Every field written out, no spread: every node takes this path on every refresh, and an object copied
			// by a spread kept part of its fields in a separate array (3 MiB more at 10,000 nodes).
			return {
				name: feed.name,
				windowSeconds: feed.windowSeconds,
				latest: figures,
				history: appendColumns(feed.history, point, action.historyLimit ?? defaultHistoryLimit),
				node: feed.node,
				status: {
					failure: null,
					failingSince: null,
					lastGoodAt: figures.at,
					consecutiveFailures: 0,
					lastLatencyMs: action.latencyMs,
					paused: feed.status.paused,
				},
				prehistory: feed.prehistory,
				historyEndAt: feed.historyEndAt,
				// A new scrape since the last answer: the gap between the two (most answers repeat the last scrape).
				scrapeGapMs: before !== null && scraped !== null && scraped > before ? (scraped - before) * 1000 : feed.scrapeGapMs,
			};
		}

		case 'absent': {
			return failed(
				feed,
				{
					kind: 'not-found',
					summary: `Prometheus has no PLEG series for node "${feed.name}" now`,
					details: ['the kubelet is no longer scraped, or its series went stale (5 minutes without a sample)'],
				},
				action.at,
			);
		}

		case 'failure': {
			return failed(feed, action.failure, action.at);
		}

		case 'prehistory': {
			// Prometheus windows every answer itself: the chart is all the history adds.
			const {history, windowStart: _start, ...info} = action.prehistory;
			const joined = columnsAfter(history, feed.history, defaultHistoryLimit);
			return {...feed, history: joined.columns, historyEndAt: joined.lastAt, prehistory: info};
		}
	}
}

function quantile(seconds: number | null): Quantile | null {
	return seconds === null ? null : {seconds, atLeast: seconds >= topFiniteBoundSeconds};
}

/** The last-seen gauge at `now`: Prometheus' age at its evaluation time, aged by the time since. */
function lastSeenOf(figures: PrometheusFigures, now: number): LastSeen {
	const age = figures.lastSeenAgeSeconds;
	if (age === null) {
		return {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: null};
	}

	const gaugeSeconds = figures.at / 1000 - age;
	// A gauge of 0 (no successful relist yet) reads as an age of about the whole Unix time.
	if (gaugeSeconds < 1) {
		return {gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null};
	}

	const ageNow = age + (now - figures.at) / 1000;
	return {
		gaugeSeconds,
		ageSeconds: Math.max(0, ageNow),
		skewSeconds: ageNow < 0 ? -ageNow : null,
		neverSucceeded: false,
		countUnchangedSeconds: null,
	};
}

function windowOf(figures: PrometheusFigures): DeltaFigures | null {
	if (figures.ratePerSecond === null) {
		return null;
	}

	return {
		spanSeconds: figures.windowSeconds,
		// increase() = rate × window: Prometheus extrapolates to the window edges, so this need not be whole.
		count: figures.ratePerSecond * figures.windowSeconds,
		meanSeconds: figures.meanSeconds,
		p50: quantile(figures.p50),
		p90: quantile(figures.p90),
		p99: quantile(figures.p99),
		ratePerSecond: figures.ratePerSecond,
		intervalMeanSeconds: figures.intervalMeanSeconds,
		discardEvents: figures.discardEvents,
	};
}

/** What Prometheus cannot give, one line each (as Figures.unavailable). */
function unavailableOf(figures: PrometheusFigures, window: DeltaFigures | null): string[] {
	const lines: string[] = [];
	if (figures.lastSeenAgeSeconds === null) {
		lines.push('last seen: no kubelet_pleg_last_seen_seconds series in Prometheus for this node (kubelet < 1.18?)');
	}

	if (window === null) {
		lines.push(
			`window: no two samples within [${figures.windowSeconds}s]: Prometheus scrapes the kubelet less often than --window; try --window 2m`,
		);
	}

	if (figures.kubeletVersion === null) {
		lines.push('kubelet version: no kubernetes_build_info series for this node');
	}

	return lines;
}

/** What an overview row reads of one Prometheus answer, at its evaluation time: the start of its Figures. */
export function rowFiguresFromPrometheus(figures: PrometheusFigures, node: NodeInfo | null = null): RowFigures & {lastSeen: LastSeen} {
	const kubeletVersion = node?.kubeletVersion ?? figures.kubeletVersion;
	return {
		now: figures.at,
		kubeletVersion,
		constants: constantsFor(kubeletVersion, false),
		lastSeen: lastSeenOf(figures, figures.at),
		window: windowOf(figures),
		ready: node?.ready ?? null,
	};
}

/** The Figures of one Prometheus answer at `now`. */
export function figuresFromPrometheus(
	figures: PrometheusFigures,
	now: number,
	node: NodeInfo | null = null,
	status: FeedStatus | null = null,
	prehistory: Figures['prehistory'] = null,
): Figures {
	const atAnswer = rowFiguresFromPrometheus(figures, node);
	const {kubeletVersion, constants, window, ready} = atAnswer;
	const lastSeen = lastSeenOf(figures, now);
	// While the last query failed the verdict is unknown (health.ts judgeWhileStale), as for a scraped node.
	const then = verdict(atAnswer.lastSeen, constants);
	const judged = status
		? judgeWhileStale(status, now, then, verdict(lastSeen, constants), lastSeen.ageSeconds, constants)
		: {verdict: verdict(lastSeen, constants), stale: null};
	const mean = figures.meanSeconds;
	const {lifetimeCount: count, lifetimeSum: sum} = figures;
	return {
		now,
		node: figures.node,
		kubeletVersion,
		constants,
		lastSeen,
		discardEventsTotal: null,
		lifetime: count === null || sum === null ? null : {count, sum, meanSeconds: lifetimeMean(sum, count)},
		window,
		windowTargetSeconds: figures.windowSeconds,
		verdict: judged.verdict,
		stale: judged.stale,
		thresholdToMeanRatio: mean !== null && mean > 0 ? constants.threshold.seconds / mean : null,
		thresholdToPeriodRatio: constants.threshold.seconds / constants.period.seconds,
		legacy: false,
		unavailable: [...unavailableOf(figures, window), ...prehistoryNote(prehistory)],
		baseline: null,
		ready,
		// Prometheus answers with figures: there are no kubelet lines to show.
		raw: null,
		prehistory,
	};
}

/**
 * How often a node is taken to be scraped before two scrapes were seen, ms: Prometheus' default scrape_interval
 * (1m). Until then a read older than 2 × 1m + 5 s makes a node stale.
 */
export const assumedScrapeGapMs = 60_000;

/** When Prometheus scraped the node's last-seen gauge, ms (the query's time when it did not say). */
function readAtOf(feed: PrometheusFeed): number | null {
	const figures = feed.latest;
	if (figures === null) return null;
	return figures.lastSeenScrapedAt === null ? figures.at : figures.lastSeenScrapedAt * 1000;
}

export const prometheusFeedKind: FeedKind<PrometheusFeed, PrometheusFeedAction> = {
	initial: initialPrometheusFeed,
	reduce: prometheusFeedReducer,
	withNode: (feed, node) => ({...feed, node}),
	figures: (feed, now) => (feed.latest === null ? null : figuresFromPrometheus(feed.latest, now, feed.node, feed.status, feed.prehistory)),
	rowFigures: (feed) => (feed.latest === null ? null : rowFiguresFromPrometheus(feed.latest, feed.node)),
	status: (feed) => feed.status,
	history: (feed) => columnsView(feed.history, feed.historyEndAt),
	readAt: readAtOf,
	readEveryMs: (feed) => feed.scrapeGapMs ?? assumedScrapeGapMs,
};
