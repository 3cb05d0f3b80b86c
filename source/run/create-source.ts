// Options -> the one MetricsSource the run reads from. The only place that picks a backend.
import {homedir} from 'node:os';
import {createApiServerSource} from '../sources/api-server.js';
import {createDemoSource, demoCadence, type DemoControls} from '../demo/demo-source.js';
import {createKubeletDirectSource} from '../sources/kubelet-direct.js';
import {loadKubeconfig} from '../sources/kube/kubeconfig.js';
import {createReplaySource, type ReplaySource} from '../sources/replay.js';
import type {MetricsSource} from '../domain/types.js';
import type {Options} from '../cli/options.js';
import {readRecording} from '../lab/recorder.js';

/** A source with a clock of its own (the demo's simulated kubelet): scrapes are stamped on it, and its cadence. */
export type SourceClock = {
	now(): number;
	/** Waits `ms` on this clock (--once's window). */
	sleep(ms: number): Promise<void>;
	/** Real ms between scrapes, the same cadence on this clock (for the status line), real ms between Node reads. */
	pollMs: number;
	shownMs: number;
	nodeRefreshMs: number;
};

export type SourceChoice = {source: MetricsSource; demo?: DemoControls; replay?: ReplaySource; clock?: SourceClock};

export function createSource(options: Options, env: NodeJS.ProcessEnv): SourceChoice {
	if (options.replay !== undefined) {
		const replay = createReplaySource({records: readRecording(options.replay), speed: options.replaySpeed, file: options.replay});
		return {source: replay, replay};
	}

	if (options.demo) {
		const demo = createDemoSource({speed: options.demoSpeed});
		const clock = {now: demo.now, sleep: demo.sleep, ...demoCadence(options.intervalMs, options.demoSpeed)};
		return {source: demo, demo: demo.controls, clock};
	}

	if (options.kubeletUrl !== undefined) {
		// --token-file alone needs no kubeconfig; without it the kubeconfig user authenticates to the kubelet.
		const loaded = options.tokenFile === undefined ? loadKubeconfig({kubeconfig: options.kubeconfig, context: options.context, env, homeDir: env['HOME'] ?? homedir()}) : undefined;
		const source = createKubeletDirectSource({url: options.kubeletUrl, node: options.node, tokenFile: options.tokenFile, caFile: options.kubeletCa, insecureSkipTlsVerify: options.insecureSkipTlsVerify, timeoutMs: options.timeoutMs, loaded});
		return {source};
	}

	const loaded = loadKubeconfig({kubeconfig: options.kubeconfig, context: options.context, env, homeDir: env['HOME'] ?? homedir()});
	return {source: createApiServerSource({loaded, node: options.node!, timeoutMs: options.timeoutMs})};
}
