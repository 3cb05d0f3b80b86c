// Every node (or one node) from a Prometheus-compatible API: one fetch per interval, windowed by Prometheus.
import {systemNow} from '../../engine/engine.js';
import {startPrometheusOverview} from '../../engine/overview-engine.js';
import {createPrometheusSource} from '../../sources/prometheus/source.js';
import {toFailure} from '../../sources/to-failure.js';
import type {DirectAccess, NodeMode, OverviewMode} from '../mode.js';
import type {Plan} from './types.js';
import {historyFrom} from '../history-from.js';

/** `node`: the one node asked for (its engine is that node's); undefined for every node. */
export function prometheusPlan(
	mode: NodeMode | OverviewMode,
	{url, direct, job}: {url: string; direct: DirectAccess; job?: string},
	node: string | undefined,
): Plan {
	const {tokenFile, caFile, insecureSkipTlsVerify} = direct;
	const source = createPrometheusSource({
		url,
		node,
		...(job === undefined ? {} : {job}),
		windowSeconds: mode.windowSeconds,
		tokenFile,
		caFile,
		insecureSkipTlsVerify,
		timeoutMs: mode.timeoutMs,
		maxBodyBytes: mode.maxBodyBytes,
		now: systemNow,
	});
	// One node: its last 15 minutes from the same Prometheus, as --history-from reads them.
	const history = mode.kind === 'node' ? historyFrom(mode, systemNow) : undefined;
	return {
		async contact() {
			// Started here, waited for below (settled); the engine picks the same promise up at start.
			void history?.begin();
			try {
				await source.fetchFigures(new AbortController().signal);
				return null;
			} catch (error) {
				return toFailure(error, source);
			} finally {
				await history?.settled();
			}
		},
		start: (purpose) =>
			startPrometheusOverview({
				source,
				intervalMs: mode.intervalMs,
				...(purpose === 'watch' ? {prehistory: history?.begin()} : {}),
			}),
		onceReads: 1,
		notes: source.notes ?? [],
		close() {
			history?.cancel();
			source.close?.();
		},
	};
}
