// --history-from URL (or --prometheus): one node's last 15 minutes from Prometheus, read once at start. A range
// query per figure the chart draws (the windowed mean, the last-seen age) at the chart's step, and the kubelet's
// counters one --window ago for the window's start; domain/history/prehistory.ts turns the answers into the feed's
// own history. Never rejects: a failure is the reason the screen gives for having no history.
import {setMaxListeners} from 'node:events';
import {prehistoryFailed, prehistoryFrom, type HistoryAnswers, type Prehistory} from '../../domain/history/prehistory.js';
import {bucketSteps} from '../../domain/history/history-buckets.js';
import {visibleLine} from '../../domain/text/untrusted-text.js';
import {families} from '../../domain/exposition/names.js';
import {redact, SourceFailure} from '../failure.js';
import {createPrometheusApi, type PrometheusAccess} from './client.js';
import {readMatrix, type PrometheusFlag} from './envelope.js';
import {overNode, promDuration} from './queries.js';
import {messageOf} from '../../domain/text/thrown.js';

/** How far back the history reaches, seconds: the chart spans 6 minutes (generic PLEG) to 20 (evented). */
const historySpanSeconds = 15 * 60;

/**
 * The range of the history's rate(), seconds: --window, at least a minute. rate() needs two samples in its range, and
 * Prometheus scrapes a kubelet every 15 to 60 s, where a 10 s range holds none.
 */
function historyRangeSeconds(windowSeconds: number): number {
	return Math.max(windowSeconds, 60);
}

/**
 * The step, seconds: the chart's narrowest column (a 6-minute chart 200 columns wide takes 2 s columns), never
 * shorter than --interval, as the chart's columns are not.
 */
function historyStepSeconds(intervalMs: number): number {
	const needed = Math.max(2, intervalMs / 1000);
	return bucketSteps.find((step) => step >= needed) ?? Math.ceil(needed);
}

const duration = families.relistDuration;
const counterNames = [
	`${duration}_(bucket|sum|count)`,
	`${families.relistInterval}_(bucket|sum|count)`,
	families.discardEvents,
	'kubelet_runtime_operations_(duration_seconds_(bucket|sum|count)|total|errors_total)',
].join('|');
// Only the four CRI calls the anatomy reads (an absent operation_type matches too: the PLEG series have none).
const criCalls = 'operation_type=~"(list_podsandbox|list_containers|podsandbox_status|container_status)?"';

/** The PromQL of each answer, narrowed to the node as --prometheus narrows it (its `node` label or an `instance` of it). */
function historyQueries(node: string, windowSeconds: number): Record<keyof HistoryAnswers, string> {
	const over = overNode(node);
	const range = promDuration(historyRangeSeconds(windowSeconds));
	const gauge = families.lastSeen;
	return {
		mean: `sum(${over('rate', `${duration}_sum`, range)}) / sum(${over('rate', `${duration}_count`, range)})`,
		// The age at Prometheus' scrape, not at the step: between scrapes time() − gauge would climb by the scrape interval.
		age: `max(${over('timestamp', gauge, '')} - ${over('', gauge, '')})`,
		counters: over('', '', '', `__name__=~${JSON.stringify(counterNames)},${criCalls},`),
		countersAt: over('timestamp', `${duration}_count`, ''),
	};
}

export type HistoryReadOptions = PrometheusAccess & {
	flag: PrometheusFlag;
	node: string;
	windowSeconds: number;
	intervalMs: number;
};

/** The node's history, read now (`now()`), or why there is none. */
export async function readPrometheusHistory(options: HistoryReadOptions, signal: AbortSignal): Promise<Prehistory> {
	const api = createPrometheusApi(options, options.flag);
	const url = api.base;
	const queries = historyQueries(options.node, options.windowSeconds);
	const step = historyStepSeconds(options.intervalMs);
	const end = options.now() / 1000;
	const range = (start: number) => `&start=${start.toFixed(3)}&end=${end.toFixed(3)}&step=${step}`;
	// The window's start is one --window ago: one step, there.
	const windowStart = (end - options.windowSeconds).toFixed(3);
	const parameters: Record<keyof HistoryAnswers, string> = {
		mean: range(end - historySpanSeconds),
		age: range(end - historySpanSeconds),
		counters: `&start=${windowStart}&end=${windowStart}&step=${step}`,
		countersAt: `&start=${windowStart}&end=${windowStart}&step=${step}`,
	};
	const keys = ['mean', 'age', 'counters', 'countersAt'] as const;
	const all = new AbortController();
	setMaxListeners(keys.length + 1, all.signal);
	const onAbort = () => all.abort(signal.reason);
	signal.addEventListener('abort', onAbort, {once: true});
	try {
		const bodies = await Promise.all(
			keys.map(async (key) => api.get('/api/v1/query_range', `query=${encodeURIComponent(queries[key])}${parameters[key]}`, all.signal)),
		);
		const [mean, age, counters, countersAt] = bodies.map((body) => readMatrix(body, url, options.flag));
		return prehistoryFrom({mean: mean!, age: age!, counters: counters!, countersAt: countersAt!}, {url, node: options.node}); // one body per key
	} catch (error) {
		all.abort();
		// The summary names the URL and the status; a token in it is cut out.
		const why = error instanceof SourceFailure ? error.failure.summary : visibleLine(messageOf(error));
		return prehistoryFailed(url, redact(why, api.secrets()));
	} finally {
		signal.removeEventListener('abort', onAbort);
		api.close();
	}
}
