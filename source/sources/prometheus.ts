// --prometheus URL: the PLEG figures of every node from a Prometheus-compatible query API (Prometheus, Thanos,
// Mimir, VictoriaMetrics) that already scrapes the kubelets, so pleg-top touches neither the API server nor the
// nodes. One instant query per figure answers for all nodes at once (GET /api/v1/query, all at the same `time`).
//
// Why a second source shape: a MetricsSource returns kubelet exposition text that pleg-top parses and windows
// itself (feed.ts). Prometheus answers with figures it has already windowed (rate, histogram_quantile), and for
// many nodes at once; turning those back into exposition text would invent counters. So MetricsSource stays as
// it is and this narrow FiguresSource feeds the overview and one-node screens (overview/prometheus-feed.ts).
import {setMaxListeners} from 'node:events';
import {classifyAnswer, type Call, type Peer} from './http/classify.js';
import {flagServerAuth, sendsToken} from './http/flag-auth.js';
import {createTransport, transportWarnings} from './http/transport.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import {parseValue} from '../domain/exposition/parse-value.js';
import {visibleLine} from '../domain/untrusted-text.js';
import type {PrometheusFigures} from '../domain/prometheus-feed.js';

/** A source that answers with figures for many nodes at once (see the comment at the top). */
export type FiguresSource = {
	readonly label: string;
	/** The node asked for (--node), or null for every node. */
	readonly node: string | null;
	readonly windowSeconds: number;
	/** Warnings to say once on stderr at start (e.g. a token sent without TLS); the label carries their short form. */
	readonly notes?: readonly string[];
	fetchFigures(signal: AbortSignal): Promise<Map<string, PrometheusFigures>>;
	close?(): void;
};

export type FigureKey = Exclude<keyof PrometheusFigures, 'node' | 'at' | 'windowSeconds' | 'kubeletVersion'> | 'kubeletVersion';

const duration = 'kubelet_pleg_relist_duration_seconds';
const interval = 'kubelet_pleg_relist_interval_seconds';
const by = 'by (node, instance)';

/**
 * The PromQL of each figure: the kubernetes-mixin's forms (its kubelet dashboard's PLEG panels). `node` narrows every selector to one
 * node, matched on the `node` label or on an `instance` of that host.
 */
export function plegQueries(windowSeconds: number, node: string | null = null): Record<FigureKey, string> {
	const range = `[${windowSeconds}s]`;
	const quoted = node === null ? '' : JSON.stringify(node);
	const hostPattern = node === null ? '' : JSON.stringify(`${node.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:[0-9]+)?`);
	// One selector, or the union of the two ways a node can be named.
	const over = (fn: string, metric: string, suffix = range) =>
		node === null
			? `${fn}(${metric}${suffix})`
			: `(${fn}(${metric}{node=${quoted}}${suffix}) or ${fn}(${metric}{instance=~${hostPattern}}${suffix}))`;
	const rate = (metric: string) => `sum ${by} (${over('rate', metric)})`;
	const quantile = (q: number) => `histogram_quantile(${q}, sum by (node, instance, le) (${over('rate', `${duration}_bucket`)}))`;
	return {
		meanSeconds: `${rate(`${duration}_sum`)} / ${rate(`${duration}_count`)}`,
		p50: quantile(0.5),
		p90: quantile(0.9),
		p99: quantile(0.99),
		ratePerSecond: rate(`${duration}_count`),
		intervalMeanSeconds: `${rate(`${interval}_sum`)} / ${rate(`${interval}_count`)}`,
		discardEvents: `sum ${by} (${over('increase', 'kubelet_pleg_discard_events')})`,
		lastSeenAgeSeconds: `max ${by} (time() - ${over('', 'kubelet_pleg_last_seen_seconds', '')})`,
		lifetimeCount: `sum ${by} (${over('', `${duration}_count`, '')})`,
		lifetimeSum: `sum ${by} (${over('', `${duration}_sum`, '')})`,
		kubeletVersion: `max by (node, instance, git_version) (${over('', 'kubernetes_build_info', '')})`,
	};
}

/** One element of an instant vector. */
export type VectorSample = {metric: Record<string, string>; value: number};

/** The `data.result` of a vector answer; throws a SourceFailure for an error envelope or another shape. */
export function readVector(body: string, url: string): VectorSample[] {
	let value: {status?: unknown; data?: {resultType?: unknown; result?: unknown}; errorType?: unknown; error?: unknown};
	try {
		value = JSON.parse(body) as typeof value;
	} catch {
		throw sourceFailure('parse', `the answer of ${url} is not JSON`, [
			'is --prometheus the base URL of a Prometheus query API (e.g. http://prometheus:9090)?',
		]);
	}

	if (value?.status === 'error') {
		/* eslint-disable @typescript-eslint/no-base-to-string -- Prometheus's answer as it came, shown as text */
		throw sourceFailure('http', `Prometheus at ${url} could not run the query: ${String(value.error ?? value.errorType ?? 'error')}`, [
			`errorType: ${String(value.errorType ?? '(none)')}`,
		]);
		/* eslint-enable @typescript-eslint/no-base-to-string */
	}

	const result = value?.data?.result;
	if (value?.status !== 'success' || value.data?.resultType !== 'vector' || !Array.isArray(result)) {
		throw sourceFailure('parse', `the answer of ${url} is not an instant vector`, [
			'expected {status: "success", data: {resultType: "vector", result: [...]}}',
		]);
	}

	return (result as Array<{metric?: Record<string, string>; value?: [unknown, unknown]}>).map((sample) => ({
		// Label values (node names, versions) are the scraped targets' to choose: shown visible.
		metric: Object.fromEntries(Object.entries(sample.metric ?? {}).map(([name, text]) => [name, visibleLine(String(text))])),
		// eslint-disable-next-line @typescript-eslint/no-base-to-string -- the sample's value as it came, parsed as text
		value: parseValue(String(sample.value?.[1] ?? '')) ?? Number.NaN,
	}));
}

export type PrometheusSourceOptions = {
	/** --prometheus, e.g. http://prometheus:9090 (a path prefix is kept: Thanos and Mimir serve under one). */
	url: string;
	/** --node: only this node. */
	node?: string;
	windowSeconds: number;
	tokenFile?: string;
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** The engine's clock, ms: the evaluation time sent with the queries. */
	now: () => number;
};

/** What a query is, for the classifier: a 403 from a proxy in front of Prometheus, a 404 for a URL that is not a query API. */
function queryCall(url: string): Call {
	return {
		path: '/api/v1/query',
		action: 'query',
		forbiddenNotes: ['behind kube-rbac-proxy or an OAuth proxy the token needs the right that proxy checks'],
		notFound: {
			summary: `${url} has no query API at /api/v1/query`,
			hint: 'give the base URL that serves /api/v1/query, e.g. http://prometheus:9090 (Thanos/Mimir: with their path prefix)',
		},
	};
}

/** The series' node: its `node` label, else its `instance`; the one node asked for when filtered. */
function nodeOf(metric: Record<string, string>, only: string | null): string | null {
	return only ?? metric['node'] ?? metric['instance'] ?? null;
}

function emptyFigures(node: string, at: number, windowSeconds: number): PrometheusFigures {
	return {
		node,
		at,
		windowSeconds,
		kubeletVersion: null,
		lastSeenAgeSeconds: null,
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

export function createPrometheusSource(options: PrometheusSourceOptions): FiguresSource {
	const {now} = options;
	const only = options.node ?? null;
	const queries = plegQueries(options.windowSeconds, only);
	const base = options.url.replace(/\/$/, '');
	const peer: Peer = {kind: 'prometheus', url: base, flag: '--prometheus', caFile: options.caFile, tokenFile: options.tokenFile};
	const transport = createTransport({
		peer,
		auth: flagServerAuth(options),
		timeoutMs: options.timeoutMs,
		maxBodyBytes: options.maxBodyBytes,
	});
	const warnings = transportWarnings(base, {insecureSkipTlsVerify: options.insecureSkipTlsVerify, sendsToken: sendsToken(options)});
	const call = queryCall(base);

	async function query(promql: string, time: string, signal: AbortSignal): Promise<VectorSample[]> {
		const path = `/api/v1/query?query=${encodeURIComponent(promql)}&time=${time}`;
		const answer = await transport.get(path, {Accept: 'application/json'}, signal);
		// 400/422/503 carry the JSON error envelope, which says more than the status; 401/403/404 and the rest do not.
		const envelope =
			/application\/json/.test(String(answer.headers['content-type'] ?? '')) && ![401, 403, 404, 429].includes(answer.status);
		if (answer.status !== 200 && !envelope) {
			throw classifyAnswer(answer, peer, call, transport.secrets());
		}

		return readVector(answer.body, base);
	}

	return {
		label: `${only === null ? 'all nodes' : only} via Prometheus ${base}${warnings.labelSuffix}`,
		node: only,
		windowSeconds: options.windowSeconds,
		notes: warnings.notes,
		async fetchFigures(signal) {
			const at = now();
			const time = (at / 1000).toFixed(3);
			try {
				const keys = Object.keys(queries) as FigureKey[];
				// All queries at once: one signal of our own with room for their abort listeners.
				const all = new AbortController();
				setMaxListeners(keys.length + 1, all.signal);
				const onAbort = () => all.abort(signal.reason);
				signal.addEventListener('abort', onAbort, {once: true});
				const answers = await Promise.all(keys.map(async (key) => query(queries[key], time, all.signal))).finally(() =>
					signal.removeEventListener('abort', onAbort),
				);
				const figures = new Map<string, PrometheusFigures>();
				keys.forEach((key, index) => {
					for (const sample of answers[index]!) {
						const node = nodeOf(sample.metric, only);
						if (node === null) {
							continue;
						}

						const entry = figures.get(node) ?? emptyFigures(node, at, options.windowSeconds);
						figures.set(node, entry);
						if (key === 'kubeletVersion') {
							entry.kubeletVersion = sample.metric['git_version'] ?? entry.kubeletVersion;
						} else if (!Number.isNaN(sample.value)) {
							entry[key] = sample.value;
						}
					}
				});
				// A node is a kubelet with PLEG series; kubernetes_build_info alone (another component) is not one.
				for (const [node, entry] of figures) {
					if (entry.lastSeenAgeSeconds === null && entry.lifetimeCount === null) {
						figures.delete(node);
					}
				}

				return figures;
			} catch (error) {
				throw error instanceof SourceFailure ? new SourceFailure(redactFailure(error.failure, transport.secrets())) : error;
			}
		},
		close() {
			transport.close();
		},
	};
}
