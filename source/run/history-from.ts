// --history-from (and --prometheus NODE): when the node's past is read from Prometheus. Once, beside the first request (so it is usually in
// before the first frame), and never in the way: the first request waits for it at most historyGraceMs, and a read
// that fails or is slower comes in as a note or later (node-engine.ts puts it in when it comes).
import {setTimeout as delay} from 'node:timers/promises';
import type {Prehistory} from '../domain/history/prehistory.js';
import {readPrometheusHistory} from '../sources/prometheus/range-history.js';
import type {HistoryFrom, NodeMode} from './mode.js';
import type {PrometheusFlag} from '../sources/prometheus/envelope.js';

/** The most the screen waits for the history after the first request, ms. */
const historyGraceMs = 500;

export type HistoryRead = {
	/** Starts the read (the first call only); undefined when no history was asked for. */
	begin(): Promise<Prehistory> | undefined;
	/** Resolves when the read is in, or historyGraceMs from now, whichever is first. */
	settled(): Promise<void>;
	cancel(): void;
};

/** Where the node's past is read: --history-from, or --prometheus NODE's own Prometheus; null when nowhere. */
function askedHistory({backend}: NodeMode): (HistoryFrom & {flag: PrometheusFlag; node: string}) | null {
	if (backend.kind === 'prometheus') return {url: backend.url, direct: backend.direct, flag: '--prometheus', node: backend.node};
	if ((backend.kind === 'api-server' || backend.kind === 'kubelet-direct') && backend.history && backend.node !== undefined) {
		return {...backend.history, flag: '--history-from', node: backend.node};
	}

	return null;
}

export function historyFrom(mode: NodeMode, now: () => number): HistoryRead {
	const asked = askedHistory(mode);
	const aborted = new AbortController();
	let read: Promise<Prehistory> | undefined;
	return {
		begin() {
			if (read === undefined && asked !== null) {
				const {url, direct, flag, node} = asked;
				read = readPrometheusHistory(
					{
						url,
						flag,
						node,
						windowSeconds: mode.windowSeconds,
						intervalMs: mode.intervalMs,
						tokenFile: direct.tokenFile,
						caFile: direct.caFile,
						insecureSkipTlsVerify: direct.insecureSkipTlsVerify,
						timeoutMs: mode.timeoutMs,
						maxBodyBytes: mode.maxBodyBytes,
						now,
					},
					aborted.signal,
				);
			}

			return read;
		},
		async settled() {
			if (read === undefined) return;
			const grace = new AbortController();
			await Promise.race([read, delay(historyGraceMs, undefined, {signal: grace.signal, ref: false}).catch(() => undefined)]);
			grace.abort();
		},
		cancel() {
			aborted.abort();
		},
	};
}
