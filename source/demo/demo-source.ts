// The `--demo` source: a simulated kubelet behind the same MetricsSource interface as a real node, so the demo
// goes through the same parse/derive/render path. The scenario switches are exposed as `controls`.
import type {MetricsSource, NodeInfo} from '../domain/types.js';
import {SimulatedKubelet, type DemoControls} from './simulated-kubelet.js';

export type {DemoControls, DemoScenario} from './simulated-kubelet.js';

export type DemoSourceOptions = {
	/** --demo-speed: simulated seconds per real second. */
	speed: number;
	seed?: number;
	/** The local clock, ms since the epoch. Default Date.now. */
	now?: () => number;
};

/** The demo kubelet has been up this long when the demo starts, so lifetime and window figures differ. ms. */
const demoUptimeMs = 20 * 60_000;

export type DemoSource = MetricsSource & {controls: DemoControls};

export function createDemoSource(options: DemoSourceOptions): DemoSource {
	const now = options.now ?? Date.now;
	const kubelet = new SimulatedKubelet({now, speed: options.speed, seed: options.seed, startedAt: now() - demoUptimeMs});
	return {
		label: 'embedded simulated kubelet',
		node: kubelet.nodeName,
		controls: kubelet,
		async fetchMetrics(signal: AbortSignal): Promise<string> {
			signal.throwIfAborted();
			return kubelet.metricsText();
		},
		async fetchNode(signal: AbortSignal): Promise<NodeInfo> {
			signal.throwIfAborted();
			return {name: kubelet.nodeName, kubeletVersion: kubelet.kubeletVersion, ready: kubelet.readyCondition()};
		},
	};
}
