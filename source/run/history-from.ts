// --history-from: when the node's past is read from Prometheus. Once, beside the first request (so it is usually in
// before the first frame), and never in the way: the first request waits for it at most historyGraceMs, and a read
// that fails or is slower comes in as a note or later (node-engine.ts puts it in when it comes).
import {setTimeout as delay} from 'node:timers/promises';
import type {Prehistory} from '../domain/prometheus-history.js';
import {readPrometheusHistory} from '../sources/prometheus-history.js';
import type {NodeMode} from './mode.js';

/** The most the screen waits for the history after the first request, ms. */
export const historyGraceMs = 500;

export type HistoryRead = {
	/** Starts the read (the first call only); undefined when no history was asked for. */
	begin(): Promise<Prehistory> | undefined;
	/** Resolves when the read is in, or historyGraceMs from now, whichever is first. */
	settled(): Promise<void>;
	cancel(): void;
};

export function historyFrom(mode: NodeMode, now: () => number): HistoryRead {
	const {backend} = mode;
	const asked = (backend.kind === 'api-server' || backend.kind === 'kubelet-direct') && backend.node !== undefined ? backend : null;
	const aborted = new AbortController();
	let read: Promise<Prehistory> | undefined;
	return {
		begin() {
			if (read === undefined && asked?.history !== undefined && asked.node !== undefined) {
				const {url, direct} = asked.history;
				read = readPrometheusHistory(
					{
						url,
						flag: '--history-from',
						node: asked.node,
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
