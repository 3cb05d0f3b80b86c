// The `--demo` source: a simulated kubelet behind the same MetricsSource interface as a real node, so the demo
// goes through the same parse/derive/render path. The scenario switches are exposed as `controls`.
// It also supplies the clock, as a replay does: the simulated kubelet's own time, which runs `speed` times faster
// than the local one. Scrapes are stamped on it, so windows, rates and ages are all in the kubelet's time: a
// stalled loop shows no relists in its window at any speed.
import type {MetricsSource, NodeEvents, NodeInfo} from '../domain/types.js';
import {SimulatedKubelet, type DemoControls} from './simulated-kubelet.js';

export type {DemoControls} from './simulated-kubelet.js';

export type DemoSourceOptions = {
	/** --demo-speed: simulated seconds per real second. */
	speed: number;
	seed?: number;
	/** The local clock, ms since the epoch (the engine's). */
	now: () => number;
	/** Waits `ms` real milliseconds. Default setTimeout. */
	sleep?: (ms: number) => Promise<void>;
};

/** The container runtime the demo node reports, as a kind node of kubelet v1.28 does. */
const demoRuntimeVersion = 'containerd://1.7.13';

/** The demo kubelet has been up this long when the demo starts, so lifetime and window figures differ. ms. */
const demoUptimeMs = 20 * 60_000;

export type DemoSource = MetricsSource & {
	fetchEvents(signal: AbortSignal): Promise<NodeEvents>;
	controls: DemoControls;
	/** The simulated kubelet's clock, ms since the epoch. Pass it as the feed's `now`. */
	now: () => number;
	/** Waits `ms` of simulated time (ms / speed of real time): `--once` waits its window on the kubelet's clock. */
	sleep(ms: number): Promise<void>;
};

export function createDemoSource(options: DemoSourceOptions): DemoSource {
	const localNow = options.now;
	const sleep = options.sleep ?? (async (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const kubelet = new SimulatedKubelet({
		now: localNow,
		speed: options.speed,
		seed: options.seed,
		startedAt: localNow() - demoUptimeMs,
		timestamps: 'simulated',
	});
	// Between serving a payload and the poller reading the clock for the scrape's time the payload is parsed: the
	// clock answers that first read with the instant the payload describes, so an age is exact at any speed.
	let held: number | null = null;
	return {
		label: 'embedded simulated kubelet',
		sameClock: true,
		node: kubelet.nodeName,
		controls: kubelet,
		now() {
			if (held !== null) {
				const at = held;
				held = null;
				return at;
			}

			return kubelet.now();
		},
		async sleep(ms: number) {
			await sleep(ms / kubelet.speed);
		},
		async fetchMetrics(signal: AbortSignal): Promise<string> {
			signal.throwIfAborted();
			const text = kubelet.metricsText();
			held = kubelet.readAt;
			return text;
		},
		async fetchNode(signal: AbortSignal): Promise<NodeInfo> {
			signal.throwIfAborted();
			return {
				name: kubelet.nodeName,
				kubeletVersion: kubelet.kubeletVersion,
				ready: kubelet.readyCondition(),
				// What a kind node of the same release reports (status.nodeInfo.containerRuntimeVersion).
				containerRuntimeVersion: demoRuntimeVersion,
			};
		},
		async fetchEvents(signal: AbortSignal): Promise<NodeEvents> {
			signal.throwIfAborted();
			// As the API server serves them: whole seconds, on the simulated kubelet's clock like every other demo time.
			const events = kubelet.events().map(({type, reason, message, count, lastMs, source}) => ({
				type,
				reason,
				message,
				count,
				lastTimestamp: Math.floor(lastMs / 1000),
				source,
			}));
			return {events, error: null};
		},
	};
}

/** Real ms between two scrapes at most this often, however fast the simulation runs: about 4 frames a second. */
const fastestPollMs = 250;

export type DemoCadence = {
	/** Real ms between scrapes: --interval of simulated time, or fastestPollMs when that is shorter. */
	pollMs: number;
	/** The same cadence on the simulated clock, for the status line, ms. */
	shownMs: number;
	/** Real ms between reads of the Node object: the kubelet posts its status every 10 s of its own time. */
	nodeRefreshMs: number;
};

export function demoCadence(intervalMs: number, speed: number): DemoCadence {
	const pollMs = Math.max(fastestPollMs, intervalMs / speed);
	return {pollMs, shownMs: pollMs * speed, nodeRefreshMs: Math.max(fastestPollMs, 10_000 / speed)};
}
