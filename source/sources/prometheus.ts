// --prometheus URL: the PLEG figures of every node from a Prometheus-compatible query API (Prometheus, Thanos,
// Mimir, VictoriaMetrics) that already scrapes the kubelets, so pleg-top touches neither the API server nor the
// nodes. One instant query per figure answers for all nodes at once (GET /api/v1/query, all at the same `time`).
//
// Why a second source shape: a MetricsSource returns kubelet exposition text that pleg-top parses and windows
// itself (feed.ts). Prometheus answers with figures it has already windowed (rate, histogram_quantile), and for
// many nodes at once; turning those back into exposition text would invent counters. So MetricsSource stays as
// it is and this narrow FiguresSource feeds the overview and one-node screens (overview/prometheus-feed.ts).
import {isAscii} from 'node:buffer';
import {setMaxListeners} from 'node:events';
import {classifyAnswer, type Call, type Peer} from './http/classify.js';
import {flagServerTransport} from './http/flag-auth.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import {parseValue} from '../domain/exposition/parse-value.js';
import type {BodyReader} from './http/body-text.js';
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
/**
 * `fn(metric{matchers}suffix)` narrowed to one node: the union of the two ways a node can be named, its `node` label
 * or an `instance` of that host (any port); every node when `node` is null. `matchers` ends with a comma when given.
 */
export function overNode(node: string | null): (fn: string, metric: string, suffix: string, matchers?: string) => string {
	const quoted = node === null ? '' : JSON.stringify(node);
	const hostPattern = node === null ? '' : JSON.stringify(`${node.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:[0-9]+)?`);
	return (fn, metric, suffix, matchers = '') =>
		node === null
			? `${fn}(${metric}${matchers ? `{${matchers}}` : ''}${suffix})`
			: `(${fn}(${metric}{${matchers}node=${quoted}}${suffix}) or ${fn}(${metric}{${matchers}instance=~${hostPattern}}${suffix}))`;
}

/**
 * The PromQL of each figure: the kubernetes-mixin's forms (its kubelet dashboard's PLEG panels). `node` narrows every selector to one
 * node, matched on the `node` label or on an `instance` of that host.
 */
export function plegQueries(windowSeconds: number, node: string | null = null): Record<FigureKey, string> {
	const range = promDuration(windowSeconds);
	const narrowed = overNode(node);
	const over = (fn: string, metric: string, suffix = range) => narrowed(fn, metric, suffix);
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
		// When Prometheus scraped that gauge: the overview's "read" is its age, not the query's. timestamp() of anything
		// but a selector (an `or` of two) is the evaluation time, so it goes inside each selector's side.
		lastSeenScrapedAt: `max ${by} (${over('timestamp', 'kubelet_pleg_last_seen_seconds', '')})`,
		lifetimeCount: `sum ${by} (${over('', `${duration}_count`, '')})`,
		lifetimeSum: `sum ${by} (${over('', `${duration}_sum`, '')})`,
		kubeletVersion: `max by (node, instance, git_version) (${over('', 'kubernetes_build_info', '')})`,
	};
}

/** One element of an instant vector. */
export type VectorSample = {metric: Record<string, string>; value: number};

/**
 * A range selector of `seconds`, as PromQL reads durations: whole units only, so --window 1500ms is `[1500ms]`
 * (`[1.5s]` is a parse error Prometheus answers with 400).
 */
export function promDuration(seconds: number): string {
	const ms = Math.round(seconds * 1000);
	return ms % 1000 === 0 ? `[${ms / 1000}s]` : `[${ms}ms]`;
}

/** One series of a range answer: its points as [Unix seconds, value]. */
export type MatrixSeries = {metric: Record<string, string>; values: Array<[number, number]>};

type Envelope = {status?: unknown; data?: {resultType?: unknown; result?: unknown}; errorType?: unknown; error?: unknown};

/** The `data.result` array of an answer of `resultType`; throws a SourceFailure for an error envelope or another shape. */
function readResult(body: string, url: string, resultType: 'vector' | 'matrix', flag: PrometheusFlag): unknown[] {
	let value: Envelope;
	try {
		value = JSON.parse(body) as Envelope;
	} catch {
		throw sourceFailure('parse', `the answer of ${url} is not JSON`, [
			`is ${flag} the base URL of a Prometheus query API (e.g. http://prometheus:9090)?`,
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
	if (value?.status !== 'success' || value.data?.resultType !== resultType || !Array.isArray(result)) {
		const shape = resultType === 'vector' ? 'an instant vector' : 'a range matrix';
		throw sourceFailure('parse', `the answer of ${url} is not ${shape}`, [
			`expected {status: "success", data: {resultType: "${resultType}", result: [...]}}`,
		]);
	}

	return result;
}

/** Label values (node names, versions) are the scraped targets' to choose: shown visible. */
function visibleLabels(metric: Record<string, string> | undefined): Record<string, string> {
	return Object.fromEntries(Object.entries(metric ?? {}).map(([name, text]) => [name, visibleLine(String(text))]));
}

/** The `data.result` of a vector answer; throws a SourceFailure for an error envelope or another shape. */
export function readVector(body: string, url: string): VectorSample[] {
	return compactVector(body) ?? parsedVector(body, url);
}

/** Any answer, through JSON.parse: the general path of readVector. */
function parsedVector(body: string, url: string): VectorSample[] {
	return (readResult(body, url, 'vector', '--prometheus') as Array<{metric?: Record<string, string>; value?: [unknown, unknown]}>).map(
		(sample) => ({
			metric: visibleLabels(sample.metric),
			// eslint-disable-next-line @typescript-eslint/no-base-to-string -- Prometheus's answer as it came, read as text
			value: parseValue(String(sample.value?.[1] ?? '')) ?? Number.NaN,
		}),
	);
}

/** One sample as the figures read it: its labels by name and its value. */
export type SampleReader = {
	label(name: string): string | undefined;
	/** label(name) === text, without making the label's string. */
	labelIs(name: string, text: string): boolean;
	readonly value: number;
};

/** A sample of the general path, read through the same door as a compact one. */
export function sampleReader(sample: VectorSample): SampleReader {
	return {
		label: (name) => sample.metric[name],
		labelIs: (name, text) => sample.metric[name] === text,
		value: sample.value,
	};
}

/** Prometheus' own answer up to the samples, compact and in its key order (api/v1 writes it so). */
const vectorHead = '{"status":"success","data":{"resultType":"vector","result":[';
const backslash = 0x5c;
const quote = 0x22;
const comma = 0x2c;
const digit0 = 0x30;
const dot = 0x2e;
const minus = 0x2d;
const plus = 0x2b;

/** Whether `code` may be part of a JSON number (the sample's timestamp). */
function numberChar(code: number): boolean {
	return (code >= digit0 && code <= 0x39) || code === dot || code === plus || code === minus || code === 0x65 || code === 0x45;
}

/** Whether `bytes` hold the ASCII `text` at `at`. */
function holds(bytes: Buffer, text: string, at: number): boolean {
	if (at + text.length > bytes.length) return false;
	for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

/** Whether bytes [start, end) are printable ASCII: a label visibleLine would leave as it is. */
function printable(bytes: Buffer, start: number, end: number): boolean {
	for (let at = start; at < end; at++) {
		const code = bytes[at]!;
		if (code < 0x20 || code > 0x7e) return false;
	}

	return true;
}

/**
 * The number written in `bytes` from `start` to `end` (ASCII), as parseValue reads it (NaN for what it does not).
 * Plain decimals of up to 15 digits are read in place: their digits as an integer (exact below 2^53) over a power of
 * ten (exact up to 10^22) is one correctly rounded division, the same double Number() gives; anything else is sliced.
 */
export function numberAt(bytes: Buffer, start: number, end: number): number {
	let at = start;
	const sign = bytes[at] === minus ? -1 : 1;
	if (sign < 0 || bytes[at] === plus) at++;
	let digits = 0;
	let mantissa = 0;
	let fraction = -1;
	for (; at < end; at++) {
		const code = bytes[at]!;
		if (code === dot && fraction < 0) {
			fraction = 0;
		} else if (code >= digit0 && code <= 0x39 && digits < 15) {
			mantissa = mantissa * 10 + (code - digit0);
			digits++;
			if (fraction >= 0) fraction++;
		} else {
			return parseValue(bytes.toString('latin1', start, end)) ?? Number.NaN;
		}
	}

	if (digits === 0) return parseValue(bytes.toString('latin1', start, end)) ?? Number.NaN;
	return (sign * mantissa) / 10 ** Math.max(0, fraction);
}

/**
 * A sample of a compact answer while it is visited: offsets into the answer's bytes, so reading a refresh of
 * 10,000 nodes makes no label strings and no objects per sample (only the labels asked for become strings).
 */
export class CompactSample implements SampleReader {
	/** Per label: name start, name end, value start, value end. */
	readonly offsets: number[] = [];
	labels = 0;
	value = Number.NaN;

	constructor(private readonly bytes: Buffer) {}

	#find(name: string): number {
		for (let i = 0; i < this.labels * 4; i += 4) {
			const start = this.offsets[i]!;
			if (this.offsets[i + 1]! - start === name.length && holds(this.bytes, name, start)) return i;
		}

		return -1;
	}

	label(name: string): string | undefined {
		const i = this.#find(name);
		return i < 0 ? undefined : this.bytes.toString('latin1', this.offsets[i + 2], this.offsets[i + 3]);
	}

	labelIs(name: string, text: string): boolean {
		const i = this.#find(name);
		return i >= 0 && this.offsets[i + 3]! - this.offsets[i + 2]! === text.length && holds(this.bytes, text, this.offsets[i + 2]!);
	}

	/** Each label as [name, value] strings (compactVector's records). */
	*entries(): Generator<[string, string]> {
		for (let i = 0; i < this.labels * 4; i += 4) {
			yield [
				this.bytes.toString('latin1', this.offsets[i], this.offsets[i + 1]),
				this.bytes.toString('latin1', this.offsets[i + 2], this.offsets[i + 3]),
			];
		}
	}
}

/**
 * Visits each sample of Prometheus' own compact answer in one pass over its bytes, without decoding or JSON.parse;
 * the reader given to `visit` is the same object for every sample and valid only during the call. False for any
 * other answer (an envelope with warnings, whitespace, an escape, a byte beyond printable ASCII in a label, another
 * order), which the general path reads; the samples visited before it was found out were read right and are read
 * again there. Why: at 10,000 nodes a refresh is 12 answers of about 1 MB; parsing them into objects, then copying
 * the labels, took most of the CPU and made most of a refresh's garbage, and even decoded once they were 12 MB of
 * strings a second that only a full collection frees (bench/README.md). ASCII without a backslash means every JSON
 * string is its raw bytes; printable labels are ones visibleLine would leave as they are.
 */
export function eachCompactSample(body: Buffer, visit: (sample: CompactSample, place: number) => void): boolean {
	if (!holds(body, vectorHead, 0) || !isAscii(body) || body.includes(backslash)) return false;
	const sample = new CompactSample(body);
	let at = vectorHead.length;
	if (holds(body, ']}}', at)) return body.length === at + 3;
	for (let place = 0; ; place++) {
		if (!holds(body, '{"metric":{', at)) return false;
		at += 11;
		sample.labels = 0;
		while (body[at] === quote) {
			const nameEnd = body.indexOf(quote, at + 1);
			if (nameEnd < 0 || !holds(body, ':"', nameEnd + 1)) return false;
			const valueEnd = body.indexOf(quote, nameEnd + 3);
			if (valueEnd < 0 || !printable(body, at + 1, valueEnd)) return false;
			const i = sample.labels++ * 4;
			sample.offsets[i] = at + 1;
			sample.offsets[i + 1] = nameEnd;
			sample.offsets[i + 2] = nameEnd + 3;
			sample.offsets[i + 3] = valueEnd;
			at = valueEnd + 1;
			if (body[at] === comma && body[at + 1] === quote) at++;
		}

		if (!holds(body, '},"value":[', at)) return false;
		at += 11;
		const stamp = at;
		while (numberChar(body[at]!)) at++;
		if (at === stamp || !holds(body, ',"', at)) return false;
		const valueEnd = body.indexOf(quote, at + 2);
		if (valueEnd < 0 || !holds(body, ']}', valueEnd + 1) || !printable(body, at + 2, valueEnd)) return false;
		sample.value = numberAt(body, at + 2, valueEnd);
		visit(sample, place);
		at = valueEnd + 3;
		if (body[at] === comma) {
			at++;
			continue;
		}

		return holds(body, ']}}', at) && body.length === at + 3;
	}
}

/** The samples of Prometheus' own compact answer (eachCompactSample) as objects; null for any other text. */
export function compactVector(body: string): VectorSample[] | null {
	const samples: VectorSample[] = [];
	const compact = eachCompactSample(Buffer.from(body, 'utf8'), (sample) => {
		samples.push({metric: Object.fromEntries(sample.entries()), value: sample.value});
	});
	return compact ? samples : null;
}

/** The `data.result` of a range answer (/api/v1/query_range); points whose time or value is not a number are left out. */
export function readMatrix(body: string, url: string, flag: PrometheusFlag = '--prometheus'): MatrixSeries[] {
	return (readResult(body, url, 'matrix', flag) as Array<{metric?: Record<string, string>; values?: unknown}>).map((series) => ({
		metric: visibleLabels(series.metric),
		values: (Array.isArray(series.values) ? (series.values as Array<[unknown, unknown]>) : [])
			.map(([time, text]): [number, number] => [Number(time), parseValue(String(text)) ?? Number.NaN])
			.filter(([time, value]) => Number.isFinite(time) && !Number.isNaN(value)),
	}));
}

/** The flag that named a Prometheus: failures say which. */
export type PrometheusFlag = '--prometheus' | '--history-from';

/** How to reach a Prometheus query API: --prometheus or --history-from, with --token-file, --kubelet-ca. */
export type PrometheusAccess = {
	/** e.g. http://prometheus:9090 (a path prefix is kept: Thanos and Mimir serve under one). */
	url: string;
	tokenFile?: string;
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** The local clock, ms (the credential cache). */
	now: () => number;
};

/** One Prometheus query API: GETs of its query endpoints, failures classified and redacted. */
export type PrometheusApi = {
	readonly base: string;
	/** What the label adds for a token sent without TLS or certificates not verified; notes: the same, said once. */
	readonly labelSuffix: string;
	readonly notes: readonly string[];
	/**
	 * The body of a 200 answer (or of an error envelope, which says more than its status); else a SourceFailure.
	 * `readBody` is handed the body's bytes first (http/body-text.ts BodyReader).
	 */
	get(endpoint: '/api/v1/query' | '/api/v1/query_range', parameters: string, signal: AbortSignal, readBody?: BodyReader): Promise<string>;
	secrets(): string[];
	close(): void;
};

export function createPrometheusApi(access: PrometheusAccess, flag: PrometheusFlag): PrometheusApi {
	const base = access.url.replace(/\/$/, '');
	const peer: Peer = {kind: 'prometheus', url: base, flag, caFile: access.caFile, tokenFile: access.tokenFile};
	const {transport, warnings} = flagServerTransport(peer, access);
	return {
		base,
		labelSuffix: warnings.labelSuffix,
		notes: warnings.notes,
		async get(endpoint, parameters, signal, readBody) {
			const answer = await transport.get(`${endpoint}?${parameters}`, {Accept: 'application/json'}, signal, readBody);
			// 400/422/503 carry the JSON error envelope, which says more than the status; 401/403/404 and the rest do not.
			const envelope =
				/application\/json/.test(String(answer.headers['content-type'] ?? '')) && ![401, 403, 404, 429].includes(answer.status);
			if (answer.status !== 200 && !envelope) {
				throw classifyAnswer(answer, peer, queryCall(base, endpoint), transport.secrets());
			}

			return answer.body;
		},
		secrets: () => transport.secrets(),
		close: () => transport.close(),
	};
}

export type PrometheusSourceOptions = PrometheusAccess & {
	/** --node: only this node. */
	node?: string;
	windowSeconds: number;
};

/** What a query is, for the classifier: a 403 from a proxy in front of Prometheus, a 404 for a URL that is not a query API. */
function queryCall(url: string, endpoint: string): Call {
	return {
		path: endpoint,
		action: 'query',
		forbiddenNotes: ['behind kube-rbac-proxy or an OAuth proxy the token needs the right that proxy checks'],
		notFound: {
			summary: `${url} has no query API at ${endpoint}`,
			hint: 'give the base URL that serves /api/v1/query, e.g. http://prometheus:9090 (Thanos/Mimir: with their path prefix)',
		},
	};
}

/**
 * A copy of `text` that holds nothing else. A label read by compactVector is a slice of its answer, and V8 keeps a
 * long slice as a view of the whole string: a node name kept in the state would keep its 1 MB answer alive.
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

export function createPrometheusSource(options: PrometheusSourceOptions): FiguresSource {
	const {now} = options;
	const only = options.node ?? null;
	const queries = plegQueries(options.windowSeconds, only);
	const api = createPrometheusApi(options, '--prometheus');
	const {base} = api;
	// The node names of the last answer, each a string of its own (see intern).
	let names = new Map<string, string>();
	// The kubelet versions seen, each a string of its own: a fleet has a handful.
	const versions = new Map<string, string>();
	const ownVersion = (version: string) => {
		const kept = versions.get(version);
		if (kept !== undefined) return kept;
		const own = intern(version);
		if (versions.size < 1000) versions.set(own, own);
		return own;
	};

	return {
		label: `${only === null ? 'all nodes' : only} via Prometheus ${base}${api.labelSuffix}`,
		node: only,
		windowSeconds: options.windowSeconds,
		notes: api.notes,
		async fetchFigures(signal) {
			const at = now();
			const time = (at / 1000).toFixed(3);
			const figures = new Map<string, PrometheusFigures>();
			const fresh = new Map<string, string>();
			// The entries in the order of the first answer read: Prometheus answers every query in the same order, so a
			// sample is matched by its place, and looked up by name only when its place holds another node.
			const order: PrometheusFigures[] = [];
			const entryOf = (sample: SampleReader, place: number): PrometheusFigures | undefined => {
				const placed = order[place];
				if (placed !== undefined && (only === null ? namesNode(sample, placed.node) : placed.node === only)) return placed;
				const label = nodeOf(sample, only);
				if (label === undefined) return undefined;
				let entry = figures.get(label);
				if (entry === undefined) {
					const node = names.get(label) ?? intern(label);
					fresh.set(node, node);
					entry = emptyFigures(node, at, options.windowSeconds);
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
					if (version !== undefined) entry.kubeletVersion = ownVersion(version);
				} else if (!Number.isNaN(sample.value)) {
					entry[key] = sample.value;
				}
			};

			try {
				const keys = Object.keys(queries) as FigureKey[];
				// All queries at once: one signal of our own with room for their abort listeners.
				const all = new AbortController();
				setMaxListeners(keys.length + 1, all.signal);
				const onAbort = () => all.abort(signal.reason);
				signal.addEventListener('abort', onAbort, {once: true});
				// A compact answer is read where it lies, in the bytes received, as it arrives; any other is decoded and
				// read after (readVector). The figures of a fetch that then fails are dropped with it.
				const readInPlace = keys.map(() => false);
				const answers = await Promise.all(
					keys.map(async (key, index) =>
						api.get('/api/v1/query', `query=${encodeURIComponent(queries[key])}&time=${time}`, all.signal, (bytes) => {
							readInPlace[index] = eachCompactSample(bytes, mergeOf(key));
							return readInPlace[index] ? '' : null;
						}),
					),
				).finally(() => signal.removeEventListener('abort', onAbort));
				keys.forEach((key, index) => {
					if (readInPlace[index]) return;
					const merge = mergeOf(key);
					readVector(answers[index]!, base).forEach((sample, place) => merge(sampleReader(sample), place));
				});
				names = fresh;
				// A node is a kubelet with PLEG series; kubernetes_build_info alone (another component) is not one.
				for (const [node, entry] of figures) {
					if (entry.lastSeenAgeSeconds === null && entry.lifetimeCount === null) {
						figures.delete(node);
					}
				}

				return figures;
			} catch (error) {
				throw error instanceof SourceFailure ? new SourceFailure(redactFailure(error.failure, api.secrets())) : error;
			}
		},
		close() {
			api.close();
		},
	};
}
