// --prometheus URL: the PLEG figures of every node from a Prometheus-compatible query API (Prometheus, Thanos,
// Mimir, VictoriaMetrics) that already scrapes the kubelets, so pleg-top touches neither the API server nor the
// nodes. One instant query per figure answers for all nodes at once (GET /api/v1/query, all at the same `time`).
//
// Why a second source shape: a MetricsSource returns kubelet exposition text that pleg-top parses and windows
// itself (domain/feed.ts). Prometheus answers with figures it has already windowed (rate, histogram_quantile), and
// for many nodes at once; turning those back into exposition text would invent counters. So MetricsSource stays as
// it is and this narrow FiguresSource feeds the overview and one-node screens (domain/fleet/prometheus-feed.ts).
//
// Each refresh first asks which scrape jobs hold kubelet PLEG series: a kubelet scraped by two jobs has two of each
// series, which summed would double every rate and count, so one job is read (--job, else the one with most series)
// and the others are named. Then, beside the figures, which nodes Prometheus knows but has no PLEG series of (a
// kubelet that stopped answering): they stay listed with why, never dropped.
import {setMaxListeners} from 'node:events';
import {redactFailure, SourceFailure} from '../failure.js';
import {jobsText, type NodeAbsence, type PrometheusFigures, type ScrapeJobs} from '../../domain/fleet/prometheus-feed.js';
import {absentQuery, jobsQuery, knownByLabel, lastScrapeQuery, plegQueries, type FigureKey} from './queries.js';
import {eachCompactSample, sampleReader, type SampleReader} from './body-scanner.js';
import {readVector} from './envelope.js';
import {createPrometheusApi, type PrometheusAccess, type PrometheusApi} from './client.js';

/** One refresh: the figures of each node with PLEG series, the nodes Prometheus knows without any, and the jobs. */
export type FiguresAnswer = {
	figures: Map<string, PrometheusFigures>;
	absent: Map<string, NodeAbsence>;
	jobs: ScrapeJobs;
};

/** A source that answers with figures for many nodes at once (see the comment at the top). */
export type FiguresSource = {
	/** What the header names: the nodes, the URL, the job read. */
	readonly label: string;
	/** The node asked for (--node), or null for every node. */
	readonly node: string | null;
	readonly windowSeconds: number;
	/** Warnings to say once on stderr at start (e.g. a token sent without TLS); the label carries their short form. */
	readonly notes?: readonly string[];
	fetchFigures(signal: AbortSignal): Promise<FiguresAnswer>;
	close?(): void;
};

export type PrometheusSourceOptions = PrometheusAccess & {
	/** --node: only this node. */
	node?: string;
	/** --job: read this scrape job's series; else the job with most kubelet PLEG series. */
	job?: string;
	windowSeconds: number;
};

/**
 * The jobs of a jobsQuery answer, most series first (ties by name); --job's `asked` chosen whatever they are. The job
 * read so far (`kept`) stays chosen while the answer still holds it, with series or only targets: when every kubelet
 * of a job stops, another job's series outlive its own by a scrape or two, and switching to that job would drop
 * the nodes it does not scrape.
 */
export function chooseJob(
	samples: ReadonlyArray<{metric: Record<string, string>; value: number}>,
	asked: string | null,
	kept: string | null = null,
): ScrapeJobs {
	const jobs = samples
		.filter((sample) => sample.metric['job'] !== undefined)
		.sort((a, b) => b.value - a.value || a.metric['job']!.localeCompare(b.metric['job']!)) // filtered above
		.map((sample) => sample.metric['job']!); // filtered above
	if (asked !== null) return {chosen: asked, others: jobs.filter((job) => job !== asked), asked: true};
	if (kept !== null && jobs.includes(kept)) {
		// A job with targets but no series (0) is no other job to name.
		const withSeries = new Set(samples.filter((sample) => sample.value > 0).map((sample) => sample.metric['job']));
		return {chosen: kept, others: jobs.filter((job) => job !== kept && withSeries.has(job)), asked: false};
	}

	return {chosen: jobs[0] ?? null, others: jobs.slice(1), asked: false};
}

/**
 * A copy of `text` that holds nothing else. A label read by compactVector is a slice of its answer, and V8 keeps a
 * long slice as a view of the whole string: a node name kept in the state would keep its whole answer alive.
 */
function intern(text: string): string {
	return Buffer.from(text, 'utf8').toString('utf8');
}

/** The series' node: its `node` label, else its `instance`; the one node asked for when filtered. */
function nodeOf(sample: SampleReader, only: string | null): string | undefined {
	return only ?? sample.label('node') ?? sample.label('instance');
}

/** Whether the series' node (as nodeOf reads it, unfiltered) is `node`, without making the label's string. */
function namesNode(sample: SampleReader, node: string): boolean {
	return sample.labelIs('node', node) || (sample.label('node') === undefined && sample.labelIs('instance', node));
}

function emptyFigures(node: string, at: number, windowSeconds: number): PrometheusFigures {
	return {
		node,
		at,
		windowSeconds,
		kubeletVersion: null,
		lastSeenAgeSeconds: null,
		lastSeenScrapedAt: null,
		meanSeconds: null,
		p50: null,
		p90: null,
		p99: null,
		ratePerSecond: null,
		intervalMeanSeconds: null,
		discardEvents: null,
		lifetimeCount: null,
		lifetimeSum: null,
	};
}

/** The strings kept from refresh to refresh, each of its own (see intern): node names and kubelet versions. */
type KeptNames = {
	/** The node names of the last answer. */
	names: Map<string, string>;
	/** The kubelet versions seen: a fleet has a handful. */
	ownVersion(version: string): string;
};

function keptNames(): KeptNames {
	const versions = new Map<string, string>();
	return {
		names: new Map(),
		ownVersion(version) {
			const kept = versions.get(version);
			if (kept !== undefined) return kept;
			const own = intern(version);
			if (versions.size < 1000) versions.set(own, own);
			return own;
		},
	};
}

/** One signal for many requests at once, with room for their abort listeners, aborted with `signal`. */
function sharedSignal(signal: AbortSignal, requests: number): {signal: AbortSignal; release(): void} {
	const all = new AbortController();
	setMaxListeners(requests + 1, all.signal);
	const onAbort = () => all.abort(signal.reason);
	signal.addEventListener('abort', onAbort, {once: true});
	return {signal: all.signal, release: () => signal.removeEventListener('abort', onAbort)};
}

/** The samples of one small instant query's answer (a handful of jobs or absent nodes). */
async function smallQuery(api: PrometheusApi, promql: string, time: string, signal: AbortSignal) {
	return readVector(await api.get('/api/v1/query', `query=${encodeURIComponent(promql)}&time=${time}`, signal), api.base);
}

/**
 * Merges each figure's answer into one PrometheusFigures per node. The entries are kept in the order of the first
 * answer read: Prometheus answers every query in the same order, so a sample is matched by its place, and looked up
 * by name only when its place holds another node.
 */
function figuresMerger(at: number, windowSeconds: number, only: string | null, kept: KeptNames) {
	const figures = new Map<string, PrometheusFigures>();
	const fresh = new Map<string, string>();
	const order: PrometheusFigures[] = [];
	const entryOf = (sample: SampleReader, place: number): PrometheusFigures | undefined => {
		const placed = order[place];
		if (placed !== undefined && (only === null ? namesNode(sample, placed.node) : placed.node === only)) return placed;
		const label = nodeOf(sample, only);
		if (label === undefined) return undefined;
		let entry = figures.get(label);
		if (entry === undefined) {
			const node = kept.names.get(label) ?? intern(label);
			fresh.set(node, node);
			entry = emptyFigures(node, at, windowSeconds);
			figures.set(node, entry);
			if (order.length === place) order.push(entry);
		}

		return entry;
	};

	const mergeOf = (key: FigureKey) => (sample: SampleReader, place: number) => {
		const entry = entryOf(sample, place);
		if (entry === undefined) return;
		if (key === 'kubeletVersion') {
			const version = sample.label('git_version');
			if (version !== undefined) entry.kubeletVersion = kept.ownVersion(version);
		} else if (!Number.isNaN(sample.value)) {
			entry[key] = sample.value;
		}
	};

	return {figures, fresh, mergeOf};
}

/**
 * Every figure's query at once, merged per node. A compact answer is read where it lies, in the bytes received, as
 * it arrives; any other is decoded and read after (readVector). The figures of a fetch that then fails go with it.
 */
async function readFigures(
	api: PrometheusApi,
	queries: Record<FigureKey, string>,
	time: string,
	signal: AbortSignal,
	merger: ReturnType<typeof figuresMerger>,
): Promise<Map<string, PrometheusFigures>> {
	const keys = Object.keys(queries) as FigureKey[]; // keys of the literal
	const shared = sharedSignal(signal, keys.length);
	const readInPlace = keys.map(() => false);
	const answers = await Promise.all(
		keys.map(async (key, index) =>
			api.get('/api/v1/query', `query=${encodeURIComponent(queries[key])}&time=${time}`, shared.signal, (bytes) => {
				readInPlace[index] = eachCompactSample(bytes, merger.mergeOf(key));
				return readInPlace[index] ? '' : null;
			}),
		),
	).finally(() => shared.release());
	keys.forEach((key, index) => {
		if (readInPlace[index]) return;
		const merge = merger.mergeOf(key);
		readVector(answers[index]!, api.base).forEach((sample, place) => merge(sampleReader(sample), place)); // one answer per key
	});
	// A node is a kubelet with PLEG series; kubernetes_build_info alone (another component) is not one.
	for (const [node, entry] of merger.figures) {
		if (entry.lastSeenAgeSeconds === null && entry.lifetimeCount === null) merger.figures.delete(node);
	}

	return merger.figures;
}

function knownByOf(label: string | undefined): NodeAbsence['knownBy'] {
	return label === 'up' || label === 'other_job' ? label : 'kube_node_info';
}

/** The most instances one lastScrapeQuery asks about: a regex of them is in its URL. */
const lastScrapeBatch = 50;

/**
 * The nodes Prometheus knows in `job` without PLEG series, with when each target was last scraped well. That time
 * does not change while the node stays absent: it is asked once per absence (`lastScrapes` keeps it).
 */
async function readAbsent(
	api: PrometheusApi,
	job: string,
	time: string,
	signal: AbortSignal,
	lastScrapes: Map<string, number | null>,
): Promise<Map<string, NodeAbsence>> {
	const absent = new Map<string, NodeAbsence>();
	const instances = new Map<string, string>();
	for (const sample of await smallQuery(api, absentQuery(job), time, signal)) {
		const name = sample.metric['node'] ?? sample.metric['instance'];
		if (name === undefined || name === '') continue;
		const knownBy = knownByOf(sample.metric[knownByLabel]);
		const instance = sample.metric['instance'];
		if (knownBy === 'up' && instance !== undefined && !lastScrapes.has(name)) instances.set(name, instance);
		const otherJob = knownBy === 'other_job' ? {otherJob: sample.metric['job'] ?? '?'} : {};
		absent.set(intern(name), {knownBy, ...otherJob, up: knownBy === 'up' ? sample.value : null, lastScrapeAt: null, job});
	}

	for (const name of lastScrapes.keys()) if (!absent.has(name)) lastScrapes.delete(name);
	const asked = [...instances].slice(0, lastScrapeBatch);
	if (asked.length > 0) {
		const answer = await smallQuery(
			api,
			lastScrapeQuery(
				job,
				asked.map(([, instance]) => instance),
			),
			time,
			signal,
		);
		for (const [name] of asked) lastScrapes.set(name, null);
		for (const sample of answer) {
			const name = sample.metric['node'] ?? sample.metric['instance'];
			if (name !== undefined && lastScrapes.has(name) && Number.isFinite(sample.value)) lastScrapes.set(name, sample.value);
		}
	}

	for (const [name, absence] of absent) absence.lastScrapeAt = lastScrapes.get(name) ?? null;
	return absent;
}

export function createPrometheusSource(options: PrometheusSourceOptions): FiguresSource {
	const {now, windowSeconds} = options;
	const only = options.node ?? null;
	const api = createPrometheusApi(options, '--prometheus');
	const kept = keptNames();
	const lastScrapes = new Map<string, number | null>();
	const queriesByJob = new Map<string | null, Record<FigureKey, string>>();
	const queriesFor = (job: string | null) => {
		let queries = queriesByJob.get(job);
		if (queries === undefined) {
			queries = plegQueries(windowSeconds, only, job);
			if (queriesByJob.size < 16) queriesByJob.set(job, queries);
		}

		return queries;
	};

	let jobs: ScrapeJobs | null = null;
	const place = `${only === null ? 'all nodes' : only} via Prometheus ${api.base}${api.labelSuffix}`;
	return {
		get label() {
			const text = jobsText(jobs);
			return text === '' ? place : `${place} · ${text}`;
		},
		node: only,
		windowSeconds,
		notes: api.notes,
		async fetchFigures(signal) {
			const at = now();
			const time = (at / 1000).toFixed(3);
			try {
				const keptJob = options.job === undefined ? (jobs?.chosen ?? null) : null;
				const found = chooseJob(await smallQuery(api, jobsQuery(only, keptJob), time, signal), options.job ?? null, keptJob);
				// When every kubelet of the job stopped answering, no job has series: the one read before still knows them.
				const seen = found.chosen === null && jobs?.chosen != null ? {chosen: jobs.chosen, others: [], asked: false} : found;
				const merger = figuresMerger(at, windowSeconds, only, kept);
				const [figures, absent] = await Promise.all([
					// The chosen job's matcher even when it is the only job with series now: a rate reads a range, and a
					// job whose series went stale a moment ago still has samples in it, which would be summed in.
					readFigures(api, queriesFor(seen.chosen), time, signal, merger),
					only === null && seen.chosen !== null ? readAbsent(api, seen.chosen, time, signal, lastScrapes) : new Map<string, NodeAbsence>(),
				]);
				kept.names = merger.fresh;
				jobs = seen;
				for (const name of figures.keys()) absent.delete(name);
				return {figures, absent, jobs: seen};
			} catch (error) {
				throw error instanceof SourceFailure ? new SourceFailure(redactFailure(error.failure, api.secrets())) : error;
			}
		},
		close() {
			api.close();
		},
	};
}
