// One node's feed when the figures come from Prometheus: the latest answer, the history of its window means, and
// the polling status. figuresFromPrometheus() maps an answer onto the Figures every screen shows; the windowing
// itself was done by Prometheus (rate, histogram_quantile), so nothing is derived twice. Pure: times come in.
import {judgeWhileStale, verdict, thresholdToMean} from '../health/health.js';
import {constantsFor} from '../health/kubelet-constants.js';
import {appendColumns, columnsAfter, columnsView, emptyColumns, type HistoryColumns} from '../history/history-columns.js';
import {defaultHistoryLimit, noReadYet} from '../feed.js';
import type {DeltaFigures, Failure, FeedStatus, Figures, HistoryPoint, LastSeen, NodeInfo, Quantile} from '../types.js';
import type {FeedKind, RowFigures} from './overview-state.js';
import {prehistoryNote, type Prehistory} from '../history/prehistory.js';
import {timeOfDay} from '../text/format.js';
import {lifetimeMean} from '../histogram/window.js';

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

/** How Prometheus knows a node it has no PLEG series of (a kubelet that stopped answering, or never scraped). */
export type NodeAbsence = {
	/** A target of the job (`up`), a kubelet with PLEG series in another job only, or a Node of kube-state-metrics. */
	knownBy: 'up' | 'other_job' | 'kube_node_info';
	/** The job that has the node's PLEG series, when knownBy is other_job. */
	otherJob?: string;
	/** `up` of the node's targets (the lowest): 0 when Prometheus' last scrape of the kubelet failed; null when not a target. */
	up: number | null;
	/** When the job last scraped the kubelet well, Unix s; null when not within the last hour (or not a target). */
	lastScrapeAt: number | null;
	/** The scrape job read. */
	job: string;
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
	/** The fetch succeeded but Prometheus has no series for this node (any more); `absence`: what it knows of it. */
	| {type: 'absent'; at: number; absence?: NodeAbsence}
	| {type: 'failure'; failure: Failure; at: number}
	/** The node's last 15 minutes, read once at start: its points go before the answers'. */
	| {type: 'prehistory'; prehistory: Prehistory};

/**
 * History points kept for the whole fleet together (24 bytes each, and a quarter of room): twice as many let the
 * largest overview's RSS grow well past its target once every node's history was full (bench/README.md).
 */
const fleetHistoryPoints = 1_000_000;

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
			// by a spread kept part of its fields in a separate array, memory for every node of a large fleet.
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
			return failed(feed, absenceFailure(feed.name, action.absence), action.at);
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

/** Which scrape job's series are read, and which other jobs hold kubelet PLEG series (not read). */
export type ScrapeJobs = {
	/** null while no PLEG series names a job: every series is read as it comes. */
	chosen: string | null;
	others: readonly string[];
	/** --job named it (it is read whether or not it holds series). */
	asked: boolean;
};

/**
 * The jobs in words: "job kubelet (also seen: kubelet-dup)" for the header, with "not read; --job to choose" added
 * for the --once text (`hint`); '' while none is known.
 */
export function jobsText(jobs: ScrapeJobs | null, hint = false): string {
	if (jobs === null || jobs.chosen === null) return '';
	if (jobs.others.length === 0) return `job ${jobs.chosen}`;
	return `job ${jobs.chosen} (also seen: ${jobs.others.join(', ')}${hint ? ', not read; --job to choose' : ''})`;
}

/** Why a node Prometheus knows has no PLEG series, in words: "kubelet not scraped since 06:11:02, up=0". */
export function absenceWhy(absence: NodeAbsence): string {
	if (absence.knownBy === 'kube_node_info') return `kube_node_info lists it, but job ${absence.job} has no target for it`;
	if (absence.knownBy === 'other_job')
		return `PLEG series only in job ${absence.otherJob ?? '?'}, not read (--job ${absence.otherJob ?? '?'})`;
	const up = `up=${absence.up ?? '?'}`;
	if (absence.up === 1) return `kubelet scraped (${up}) but no PLEG series in job ${absence.job}`;
	return absence.lastScrapeAt === null
		? `kubelet not scraped in the last hour, ${up}`
		: `kubelet not scraped since ${timeOfDay(absence.lastScrapeAt * 1000)}, ${up}`;
}

/** The failure a node without PLEG series reads as: unknown, with why when Prometheus knows the node. */
function absenceFailure(name: string, absence: NodeAbsence | undefined): Failure {
	if (absence === undefined) {
		return {
			kind: 'not-found',
			summary: `Prometheus has no PLEG series for node "${name}" now`,
			details: ['the kubelet is no longer scraped, or its series went stale (5 minutes without a sample)'],
		};
	}

	return {
		kind: 'not-found',
		summary: `Prometheus has no PLEG series for node "${name}": ${absenceWhy(absence)}`,
		details: [
			absence.knownBy === 'up'
				? `its target in job ${absence.job} answers up=${absence.up ?? '?'}: check the kubelet (systemctl status kubelet) and the path from Prometheus to it`
				: `job ${absence.job} scrapes no kubelet of that name: check its targets (Prometheus: Status → Targets)`,
		],
	};
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
function rowFiguresFromPrometheus(figures: PrometheusFigures, node: NodeInfo | null = null): RowFigures & {lastSeen: LastSeen} {
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
function figuresFromPrometheus(
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
		thresholdToMeanRatio: thresholdToMean(constants.threshold.seconds, mean),
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
