// Where one node's /metrics text comes from, one step per backend: each makes the source, says how the engine is
// paced on it, and what the screen shows of it (header, demo keys, the recording).
import type {DemoControls} from '../../demo/demo-source.js';
import {createDemoSource, demoCadence} from '../../demo/demo-source.js';
import type {MetricsSource} from '../../domain/types.js';
import {systemNow} from '../../engine/engine.js';
import type {NodeEngineOptions} from '../../engine/node-engine.js';
import {readRecording} from '../../lab/recorder.js';
import {createReplaySource, recordedIntervalMs, type ReplaySource} from '../../lab/replay.js';
import {createApiServerSource} from '../../sources/api-server.js';
import {createKubeletDirectSource} from '../../sources/kubelet-direct.js';
import {onceGapMs, type NodeBackend, type NodeMode} from '../mode.js';
import {kubeconfig, kubeHeader} from './kube.js';
import type {PlanHeader, Purpose} from './types.js';

/** Where one node's /metrics text comes from: every node backend but Prometheus, which answers with figures. */
export type TextBackend = Exclude<NodeBackend, {kind: 'prometheus'}>;

/** How the node engine is paced: real ms between scrapes, the cadence shown, Node reads, its clock and its end. */
type Pacing = Pick<NodeEngineOptions, 'pollMs' | 'shownIntervalMs' | 'nodeRefreshMs' | 'now' | 'ended' | 'marks'>;

/** What a backend of /metrics text gives the node plan. */
export type NodeSourcing = {
	source: MetricsSource;
	pace: (purpose: Purpose) => Pacing;
	header?: PlanHeader;
	demo?: DemoControls;
	replay?: ReplaySource;
	/** The window the figures use when it is not --window's: a replay's recorded one. */
	windowSeconds?: number;
};

type Backend<K extends TextBackend['kind']> = Extract<TextBackend, {kind: K}>;

export function sourcingFor(mode: NodeMode, backend: TextBackend, env: NodeJS.ProcessEnv): NodeSourcing {
	switch (backend.kind) {
		case 'replay':
			return replaySourcing(mode, backend);
		case 'demo':
			return demoSourcing(mode, backend);
		case 'kubelet-direct':
			return kubeletDirectSourcing(mode, backend, env);
		case 'api-server':
			return apiServerSourcing(mode, backend, env);
	}
}

/** A real node: one request an --interval after the last ended; for --once, the two one window apart. */
function steady(mode: NodeMode): (purpose: Purpose) => Pacing {
	return (purpose) => {
		const ms = purpose === 'once' ? onceGapMs(mode) : mode.intervalMs;
		return {pollMs: ms, shownIntervalMs: ms};
	};
}

function replaySourcing(mode: NodeMode, {file, speed, typed}: Backend<'replay'>): NodeSourcing {
	const records = readRecording(file);
	const recording = createReplaySource({records, speed, file, realNow: systemNow});
	return {
		source: recording,
		replay: recording,
		windowSeconds: replayWindowSeconds(mode, recording),
		header: {replay: {file, speed, reachedSpeed: recording.reachedSpeed}},
		// A replay paces itself on its recorded times; the status line shows the recorded cadence.
		pace: () => ({
			pollMs: 0,
			shownIntervalMs: typed?.interval ? mode.intervalMs : (recording.recordedIntervalMs ?? recordedIntervalMs(records)),
			now: recording.now,
			ended: recording.ended,
			marks: recording.onMark,
		}),
	};
}

/** The window a replay's figures use: --window when it was typed, else the recording's, else --window's default. */
export function replayWindowSeconds(mode: NodeMode, replay: ReplaySource): number {
	const typed = mode.backend.kind === 'replay' && mode.backend.typed?.window === true;
	return typed ? mode.windowSeconds : (replay.recordedWindowSeconds ?? mode.windowSeconds);
}

/**
 * Every figure in the simulated kubelet's own time: scrapes are stamped on its clock, which runs --demo-speed times
 * faster; --once's window is a window of that time.
 */
function demoSourcing(mode: NodeMode, {speed}: Backend<'demo'>): NodeSourcing {
	const simulated = createDemoSource({speed, now: systemNow});
	const cadence = demoCadence(mode.intervalMs, speed);
	return {
		source: simulated,
		demo: simulated.controls,
		pace: (purpose) => ({
			...(purpose === 'once'
				? {pollMs: onceGapMs(mode) / speed, shownIntervalMs: onceGapMs(mode)}
				: {pollMs: cadence.pollMs, shownIntervalMs: cadence.shownMs}),
			nodeRefreshMs: cadence.nodeRefreshMs,
			now: simulated.now,
		}),
	};
}

function kubeletDirectSourcing(
	mode: NodeMode,
	{url, node, access, direct}: Backend<'kubelet-direct'>,
	env: NodeJS.ProcessEnv,
): NodeSourcing {
	// --token-file alone needs no kubeconfig; without it the kubeconfig user authenticates to the kubelet.
	const loaded = direct.tokenFile === undefined ? kubeconfig(access, env) : undefined;
	const source = createKubeletDirectSource({
		url,
		node,
		tokenFile: direct.tokenFile,
		caFile: direct.caFile,
		insecureSkipTlsVerify: direct.insecureSkipTlsVerify,
		timeoutMs: mode.timeoutMs,
		maxBodyBytes: mode.maxBodyBytes,
		loaded,
		now: systemNow,
	});
	return {source, pace: steady(mode), header: loaded && {kube: kubeHeader(loaded)}};
}

function apiServerSourcing(mode: NodeMode, {node, access}: Backend<'api-server'>, env: NodeJS.ProcessEnv): NodeSourcing {
	const loaded = kubeconfig(access, env);
	const source = createApiServerSource({loaded, node, timeoutMs: mode.timeoutMs, maxBodyBytes: mode.maxBodyBytes, now: systemNow});
	return {source, pace: steady(mode), header: {kube: kubeHeader(loaded)}};
}
