// Shared set-up of the integration tests (not a test file): a fake API server with real kubelet dumps, a
// kubeconfig for it in a temp HOME, and payload builders that keep kubelet_pleg_last_seen_seconds at a chosen
// age on the local clock (the dumps' own gauge is from 2022).
import net from 'node:net';
import {startFakeApiServer, type FakeApiServer, type FakeNode} from '../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext, type KubeconfigSpec, type TempDir, type UserSpec} from '../helpers/kubeconfig-files.js';
import {readDump, setSamples, v121OneMinuteLater} from '../domain/dump.js';

export const testToken = 'pleg-top-integration-token-5c1d9e7a0b2f';
export const tokenUser: UserSpec = {name: 'token-user', token: testToken};

export type Cluster = {
	fake: FakeApiServer;
	temp: TempDir;
	/** The kubeconfig with one context "fake-ctx" (token user). */
	kubeconfig: string;
	/** HOME = the temp dir, KUBECONFIG = kubeconfig. */
	env: Record<string, string>;
	/** Writes another kubeconfig and returns an env pointing at it. */
	envFor(name: string, spec: KubeconfigSpec): Record<string, string>;
	close(): Promise<void>;
};

/** Nodes: worker-1 (v1.21.2), worker-2, old-110 (v1.10.0), old-114 (v1.14.10), new-128 (v1.28.4). */
export async function startCluster(nodes: FakeNode[] = defaultNodes()): Promise<Cluster> {
	const fake = await startFakeApiServer({nodes, tokens: {[testToken]: 'alice'}});
	const temp = makeTempDir('pleg-top-integration-');
	const envFor = (name: string, spec: KubeconfigSpec) => ({HOME: temp.dir, KUBECONFIG: temp.write(name, kubeconfigYaml(spec))});
	const env = envFor('kubeconfig.yaml', singleContext(fake.url, tokenUser));
	return {
		fake,
		temp,
		kubeconfig: env.KUBECONFIG,
		env,
		envFor,
		async close() {
			await fake.close();
			temp.remove();
		},
	};
}

function defaultNodes(): FakeNode[] {
	return [
		{name: 'worker-1', kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(readDump('1.21.2'), 1)},
		{name: 'worker-2', kubeletVersion: 'v1.21.2'},
		{name: 'old-110', kubeletVersion: 'v1.10.0', metrics: () => readDump('1.10.0')},
		{name: 'old-114', kubeletVersion: 'v1.14.10', metrics: () => readDump('1.14.10')},
		{name: 'new-128', kubeletVersion: 'v1.28.4', metrics: () => withLastSeen(readDump('1.21.2'), 1)},
	];
}

/** The dump with kubelet_pleg_last_seen_seconds set `ageSeconds` before now (negative: in the future), whole seconds as the kubelet writes it. */
export function withLastSeen(text: string, ageSeconds: number): string {
	return setSamples(text, {kubelet_pleg_last_seen_seconds: String(Math.floor(Date.now() / 1000) - ageSeconds)});
}

/**
 * A /metrics provider: the v1.21.2 dump on odd requests, the same kubelet one minute later (dump.ts) on even ones,
 * last seen `ageSeconds` before each answer. Above 2 s the gauge stays where the first answer put it: one that kept
 * a constant age while the count rises would be a node clock that far off (domain/health/clock-offset.ts).
 */
export function dumpThenMinuteLater(ageSeconds = 1): (request: number) => string {
	const first = readDump('1.21.2');
	const later = v121OneMinuteLater();
	let calls = 0;
	let pinned: number | null = null;
	return () => {
		const text = ++calls % 2 === 1 ? first : later;
		if (ageSeconds <= 2) {
			return withLastSeen(text, ageSeconds);
		}

		pinned ??= Math.floor(Date.now() / 1000) - ageSeconds;
		return setSamples(text, {kubelet_pleg_last_seen_seconds: String(pinned)});
	};
}

/** The EventedPLEG feature gate line a 1.26+ kubelet exposes, appended to a dump. */
export function withEventedGate(text: string): string {
	return `${text.trimEnd()}\n# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.\n# TYPE kubernetes_feature_enabled gauge\nkubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 1\n`;
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** The standard fast flags: a 200 ms window of 100 ms scrapes. */
export const fast = ['--window', '200ms', '--interval', '100ms'];

const duration = 'kubelet_pleg_relist_duration_seconds';
const interval = 'kubelet_pleg_relist_interval_seconds';
/** The bounds of the duration buckets and the one-minute deltas of dump.ts v121OneMinuteLater, per bucket. */
const durationBuckets: Array<[le: string, base: number, perMinute: number]> = [
	['0.005', 88_778, 10],
	['0.01', 112_188, 40],
	['0.025', 1_325_443, 55],
	['0.05', 1_599_946, 60],
	['0.1', 1_670_263, 60],
	['0.25', 1_671_945, 60],
	['0.5', 1_671_946, 60],
	['1', 1_671_947, 60],
	['2.5', 1_671_948, 60],
	['5', 1_671_949, 60],
	['10', 1_671_949, 60],
	['+Inf', 1_671_950, 60],
];

/**
 * The v1.21.2 kubelet `minutes` minutes of dump.ts's one-minute deltas after the dump (60 relists, Δsum 0.6 s,
 * 60 intervals of Δsum 61.2 s, 2 discards per minute); with `restarted`, a kubelet restarted that long ago:
 * the same deltas counted from 0.
 */
export function v121After(minutes: number, options: {restarted?: boolean; lastSeenAge?: number} = {}): string {
	const from = (base: number) => (options.restarted ? 0 : base);
	const values: Record<string, string> = {};
	for (const [le, base, perMinute] of durationBuckets) {
		values[`${duration}_bucket{le="${le}"}`] = String(from(base) + perMinute * minutes);
	}

	values[`${duration}_sum`] = String(from(35_470.975_487_110_02) + 0.6 * minutes);
	values[`${duration}_count`] = String(from(1_671_950) + 60 * minutes);
	for (const [le, base] of [
		['2.5', 1_671_947],
		['5', 1_671_948],
		['10', 1_671_948],
		['+Inf', 1_671_949],
	] as const) {
		values[`${interval}_bucket{le="${le}"}`] = String(from(base) + 60 * minutes);
	}

	values[`${interval}_sum`] = String(from(1_708_686.683_543_537_3) + 61.2 * minutes);
	values[`${interval}_count`] = String(from(1_671_949) + 60 * minutes);
	values['kubelet_pleg_discard_events'] = String(2 * minutes);
	return withLastSeen(setSamples(readDump('1.21.2'), values), options.lastSeenAge ?? 1);
}
