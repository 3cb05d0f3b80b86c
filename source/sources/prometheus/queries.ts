// The PromQL pleg-top asks a Prometheus-compatible query API: the kubernetes-mixin's forms of the PLEG figures,
// which scrape jobs hold kubelet PLEG series, and which nodes Prometheus knows but has no PLEG series of.
import type {PrometheusFigures} from '../../domain/fleet/prometheus-feed.js';

export type FigureKey = Exclude<keyof PrometheusFigures, 'node' | 'at' | 'windowSeconds' | 'kubeletVersion'> | 'kubeletVersion';

const duration = 'kubelet_pleg_relist_duration_seconds';
const interval = 'kubelet_pleg_relist_interval_seconds';
const by = 'by (node, instance)';

/** `job="NAME"`: one job's series only. */
function jobLabel(job: string): string {
	return `job=${JSON.stringify(job)}`;
}

/** `job="NAME",` to lead a selector's matchers; '' for every job. */
function jobMatcher(job: string | null): string {
	return job === null ? '' : `${jobLabel(job)},`;
}

/**
 * `fn(metric{matchers}suffix)` narrowed to one node: the union of the two ways a node can be named, its `node` label
 * or an `instance` of that host (any port); every node when `node` is null. `matchers` ends with a comma when given.
 */
export function overNode(node: string | null): (fn: string, metric: string, suffix: string, matchers?: string) => string {
	const quoted = node === null ? '' : JSON.stringify(node);
	const hostPattern = node === null ? '' : JSON.stringify(`${node.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:[0-9]+)?`);
	return (fn, metric, suffix, matchers = '') =>
		node === null
			? `${fn}(${metric}${matchers ? `{${matchers.replace(/,$/, '')}}` : ''}${suffix})`
			: `(${fn}(${metric}{${matchers}node=${quoted}}${suffix}) or ${fn}(${metric}{${matchers}instance=~${hostPattern}}${suffix}))`;
}

/**
 * The PromQL of each figure: the kubernetes-mixin's forms (its kubelet dashboard's PLEG panels). `node` narrows every
 * selector to one node, matched on the `node` label or on an `instance` of that host; `job` to one scrape job, so a
 * kubelet scraped by two jobs is never counted twice.
 */
export function plegQueries(windowSeconds: number, node: string | null = null, job: string | null = null): Record<FigureKey, string> {
	const range = promDuration(windowSeconds);
	const narrowed = overNode(node);
	const matchers = jobMatcher(job);
	const over = (fn: string, metric: string, suffix = range) => narrowed(fn, metric, suffix, matchers);
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

/**
 * The scrape jobs that hold kubelet PLEG series now, each with its count of series (of `node`, when given); and
 * `kept`, the job read so far, with 0 when Prometheus still has targets of it (`up`) but no PLEG series.
 */
export function jobsQuery(node: string | null = null, kept: string | null = null): string {
	const withSeries = `count by (job) (${overNode(node)('', `${duration}_count`, '')})`;
	return kept === null ? withSeries : `${withSeries} or (count by (job) (up{${jobLabel(kept)}}) * 0)`;
}

/** The label that says how Prometheus knows a node it has no PLEG series of (absentQuery). */
export const knownByLabel = 'pleg_top_known_by';

/**
 * The nodes Prometheus knows but has no PLEG series of in `job`: a target of the job (`up`, its value: 0 when the
 * last scrape failed), a kubelet with PLEG series in another job only (its `job` label says which) or, where the
 * job's targets carry a `node` label, a Node kube-state-metrics lists (kube_node_info). Each says which by
 * knownByLabel. Empty while every known node has series in `job`: a tiny answer.
 */
export function absentQuery(job: string): string {
	const matchers = jobLabel(job);
	const live = `(kubelet_pleg_last_seen_seconds{${matchers}} or ${duration}_count{${matchers}})`;
	const known = (expression: string, by: string) => `label_replace(${expression}, "${knownByLabel}", "${by}", "", "")`;
	const targets = known(`min by (node, instance) (up{${matchers}})`, 'up');
	const elsewhere = known(`max by (node, instance, job) (${duration}_count{job!=${JSON.stringify(job)}})`, 'other_job');
	// kube_node_info names nodes by `node` only: used where the job's targets are named so too, else it would list
	// every node a second time under its other name.
	const listed = known(`max by (node) (kube_node_info) and on () (count(up{${matchers},node!=""}) > 0)`, 'kube_node_info');
	const byTarget = `(${targets} or on (node, instance) ${elsewhere}) unless on (node, instance) ${live}`;
	return `(${byTarget}) or on (node) (${listed} unless on (node) ${live})`;
}

/** How far back lastScrapeQuery looks, seconds. */
const lastScrapeLookbackSeconds = 3600;

/**
 * When each target of `job` at these `instances` was last scraped well (Unix s): the newest `up` sample of 1 within
 * the lookback. A subquery step of 1 s (no scrape is more frequent) visits every sample, so the answer is exact.
 */
export function lastScrapeQuery(job: string, instances: readonly string[]): string {
	const pattern = instances.map((instance) => instance.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
	const selector = `up{${jobMatcher(job)}instance=~${JSON.stringify(pattern)}}`;
	return `max by (node, instance) (max_over_time((timestamp(${selector}) and ${selector} == 1)[${lastScrapeLookbackSeconds}s:1s]))`;
}

/**
 * A range selector of `seconds`, as PromQL reads durations: whole units only, so --window 1500ms is `[1500ms]`
 * (`[1.5s]` is a parse error Prometheus answers with 400).
 */
export function promDuration(seconds: number): string {
	const ms = Math.round(seconds * 1000);
	return ms % 1000 === 0 ? `[${ms / 1000}s]` : `[${ms}ms]`;
}
