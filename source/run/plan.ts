// Mode -> Plan: the sources a run reads, its first request, and the engine that polls them. The only place that
// picks a backend; the runners (once, JSON lines, live) take any plan, one node or the whole cluster.
import {homedir} from 'node:os';
import type {DemoControls} from '../demo/demo-source.js';
import {createDemoSource, demoCadence} from '../demo/demo-source.js';
import type {Failure, MetricsSource, NodeInfo} from '../domain/types.js';
import {systemNow, type Engine} from '../engine/engine.js';
import {startNodeEngine, type NodeEngineOptions} from '../engine/node-engine.js';
import {startPrometheusOverview, startProxyOverview} from '../engine/overview-engine.js';
import {createLabRecorder, readRecording, type LabRecorder} from '../lab/recorder.js';
import type {DirectAccess, KubeAccess, Mode, NodeMode, OverviewMode} from './mode.js';
import {createApiServerSource} from '../sources/api-server.js';
import {createKubeletDirectSource} from '../sources/kubelet-direct.js';
import {loadKubeconfig, type LoadedKubeconfig} from '../sources/kube/kubeconfig.js';
import {createPrometheusSource} from '../sources/prometheus.js';
import {createReplaySource, recordedIntervalMs, type ReplaySource} from '../lab/replay.js';
import {toFailure} from '../sources/to-failure.js';

/** What an engine is started for: to watch (live or JSON lines), or for one --once report. */
export type Purpose = 'watch' | 'once';

export type Plan = {
	/**
	 * The first request, made before anything else (and on the normal screen): an exec plugin's prompt stays
	 * readable, and a fault that retrying will not mend ends the run at once. Null when it went through.
	 */
	contact(): Promise<Failure | null>;
	start(purpose: Purpose): Engine;
	/** Reads of each node that make a --once report: 2 from /metrics text (a window is two scrapes), 1 from Prometheus. */
	readonly onceReads: number;
	/** Said once on stderr at the start (a token sent without TLS, certificates not verified). */
	readonly notes: readonly string[];
	/** --demo: the keys that steer the simulated kubelet. */
	readonly demo?: DemoControls;
	/** --replay: the recording (for --once, its whole summary). */
	readonly replay?: ReplaySource;
	/** A one-node run over /metrics text: the lab session (write-down, --record, --summary, --plot). */
	readonly recorder?: LabRecorder;
	/** What the screen's header names besides the source: the kubeconfig context and cluster, or the replay. */
	readonly header?: {
		kube?: {context: string; cluster: string; kubeconfig?: string; inCluster?: boolean};
		replay?: {file: string; speed: number};
	};
	close(): void;
};

/** Builds the plan; throws SourceFailure for what is wrong before any request (kubeconfig, --record file, recording). */
export function planFor(mode: Exclude<Mode, {kind: 'help'} | {kind: 'version'}>, env: NodeJS.ProcessEnv): Plan {
	if (mode.kind === 'overview') return overviewPlan(mode, env);
	if (mode.backend.kind === 'prometheus') return prometheusPlan(mode, mode.backend, mode.backend.node);
	return nodePlan(mode, env);
}

function kubeconfig(access: KubeAccess, env: NodeJS.ProcessEnv) {
	return loadKubeconfig({kubeconfig: access.kubeconfig, context: access.context, env, homeDir: env['HOME'] ?? homedir()});
}

/** The context and cluster read, and --kubeconfig when given: the header names them, pasted kubectl lines carry them. */
function kubeHeader(loaded: LoadedKubeconfig): NonNullable<Plan['header']>['kube'] {
	return {
		context: loaded.contextName,
		cluster: loaded.clusterName,
		...(loaded.kubeconfigFlag ? {kubeconfig: loaded.kubeconfigFlag} : {}),
		...(loaded.inCluster ? {inCluster: true} : {}),
	};
}

/** How the node engine is paced: real ms between scrapes, the cadence shown, Node reads, its clock and its end. */
type Pacing = Pick<NodeEngineOptions, 'pollMs' | 'shownIntervalMs' | 'nodeRefreshMs' | 'now' | 'ended' | 'marks'>;

/** One node over its /metrics text. */
function nodePlan(mode: NodeMode, env: NodeJS.ProcessEnv): Plan {
	const {backend} = mode;
	const windowMs = mode.windowSeconds * 1000;
	let source: MetricsSource;
	let demo: DemoControls | undefined;
	let replay: ReplaySource | undefined;
	let header: Plan['header'];
	// A real node: one request an --interval after the last ended; for --once, the two one window apart.
	const steady = (purpose: Purpose): Pacing => {
		const ms = purpose === 'once' ? windowMs : mode.intervalMs;
		return {pollMs: ms, shownIntervalMs: ms};
	};

	let pace: (purpose: Purpose) => Pacing;
	switch (backend.kind) {
		case 'replay': {
			const records = readRecording(backend.file);
			const recording = createReplaySource({records, speed: backend.speed, file: backend.file, realNow: systemNow});
			replay = recording;
			source = recording;
			header = {replay: {file: backend.file, speed: backend.speed}};
			// A replay paces itself on its recorded times; the status line shows the recorded cadence.
			pace = () => ({
				pollMs: 0,
				shownIntervalMs: recordedIntervalMs(records),
				now: recording.now,
				ended: recording.ended,
				marks: recording.onMark,
			});
			break;
		}

		case 'demo': {
			// Every figure in the simulated kubelet's own time: scrapes are stamped on its clock, which runs --demo-speed
			// times faster; --once's window is a window of that time.
			const simulated = createDemoSource({speed: backend.speed, now: systemNow});
			const cadence = demoCadence(mode.intervalMs, backend.speed);
			source = simulated;
			demo = simulated.controls;
			pace = (purpose) => ({
				...(purpose === 'once'
					? {pollMs: windowMs / backend.speed, shownIntervalMs: windowMs}
					: {pollMs: cadence.pollMs, shownIntervalMs: cadence.shownMs}),
				nodeRefreshMs: cadence.nodeRefreshMs,
				now: simulated.now,
			});
			break;
		}

		case 'kubelet-direct': {
			const {url, node, access, direct} = backend;
			// --token-file alone needs no kubeconfig; without it the kubeconfig user authenticates to the kubelet.
			const loaded = direct.tokenFile === undefined ? kubeconfig(access, env) : undefined;
			header = loaded && {kube: kubeHeader(loaded)};
			source = createKubeletDirectSource({
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
			pace = steady;
			break;
		}

		case 'api-server': {
			const loaded = kubeconfig(backend.access, env);
			header = {kube: kubeHeader(loaded)};
			source = createApiServerSource({
				loaded,
				node: backend.node,
				timeoutMs: mode.timeoutMs,
				maxBodyBytes: mode.maxBodyBytes,
				now: systemNow,
			});
			pace = steady;
			break;
		}

		case 'prometheus': {
			throw new Error('a --prometheus node has a plan of its own (prometheusPlan)');
		}
	}

	let recorder: LabRecorder;
	try {
		recorder = createLabRecorder({source, windowSeconds: mode.windowSeconds, file: mode.lab.record});
	} catch (error) {
		source.close?.();
		throw error;
	}

	const observed = recorder.source;
	let contacted: NodeInfo | null = null;
	return {
		async contact() {
			if (!observed.fetchNode) return null;
			try {
				contacted = await observed.fetchNode(new AbortController().signal);
				return null;
			} catch (error) {
				return toFailure(error, observed);
			}
		},
		start: (purpose) =>
			startNodeEngine({
				source: observed,
				windowSeconds: mode.windowSeconds,
				node: contacted,
				onPayload: recorder.payload,
				onMark: recorder.mark,
				...pace(purpose),
			}),
		onceReads: 2,
		notes: source.notes ?? [],
		demo,
		replay,
		recorder,
		header,
		close() {
			recorder.close();
			source.close?.();
		},
	};
}

/** Every node (or one node) from a Prometheus-compatible API: one fetch per interval, windowed by Prometheus. */
function prometheusPlan(mode: NodeMode | OverviewMode, {url, direct}: {url: string; direct: DirectAccess}, node: string | undefined): Plan {
	const {tokenFile, caFile, insecureSkipTlsVerify} = direct;
	const source = createPrometheusSource({
		url,
		node,
		windowSeconds: mode.windowSeconds,
		tokenFile,
		caFile,
		insecureSkipTlsVerify,
		timeoutMs: mode.timeoutMs,
		maxBodyBytes: mode.maxBodyBytes,
		now: systemNow,
	});
	return {
		async contact() {
			try {
				await source.fetchFigures(new AbortController().signal);
				return null;
			} catch (error) {
				return toFailure(error, {label: source.label, node: source.node ?? '(all nodes)'});
			}
		},
		start: () => startPrometheusOverview({source, intervalMs: mode.intervalMs}),
		onceReads: 1,
		notes: (source as {notes?: readonly string[]}).notes ?? [],
		close() {
			source.close?.();
		},
	};
}

function overviewPlan(mode: OverviewMode, env: NodeJS.ProcessEnv): Plan {
	const {backend} = mode;
	if (backend.kind === 'prometheus') return prometheusPlan(mode, backend, undefined);
	const loaded = kubeconfig(backend.access, env);
	const api = createApiServerSource({
		loaded,
		node: '(all nodes)',
		timeoutMs: mode.timeoutMs,
		maxBodyBytes: mode.maxBodyBytes,
		now: systemNow,
	});
	const {selector, names} = backend;
	const which = names !== undefined ? names.join(', ') : selector !== undefined ? `nodes with -l ${selector}` : 'all nodes';
	// Named nodes are the listed ones of those names (the list says which exist); -l is the API server's labelSelector.
	const listNodes = async (signal: AbortSignal) => {
		const nodes = await api.listNodes(signal, selector);
		return names === undefined ? nodes : nodes.filter((node) => names.includes(node.name));
	};

	const fleet = {label: `${which} via ${api.label.replace(/^\(all nodes\) via /, '')}`, listNodes, forNode: api.forNode};
	return {
		// The one-node screens the table opens name the context, and their pasted commands carry it.
		header: {kube: kubeHeader(loaded)},
		async contact() {
			try {
				const listed = await listNodes(new AbortController().signal);
				const missing = names?.filter((name) => !listed.some((node) => node.name === name)) ?? [];
				if (missing.length > 0) {
					return {
						kind: 'not-found',
						summary: `no node named ${missing.map((name) => `"${name}"`).join(', ')} in the node list of ${api.label.replace(/^\(all nodes\) via /, '')}`,
						details: ['kubectl get nodes lists them'],
					};
				}

				return null;
			} catch (error) {
				const failure = toFailure(error, {label: fleet.label, node: '(all nodes)'});
				if (failure.kind === 'forbidden') {
					failure.details.push(
						'the overview lists nodes first; without that right, watch one node: pleg-top NODE (kubectl get nodes lists them)',
					);
				}

				return failure;
			}
		},
		// Through the API server a window needs two scrapes one window apart.
		start: (purpose) =>
			startProxyOverview({
				fleet,
				intervalMs: purpose === 'once' ? mode.windowSeconds * 1000 : mode.intervalMs,
				windowSeconds: mode.windowSeconds,
				maxInflight: backend.maxInflight,
				maxRps: backend.maxRps,
			}),
		onceReads: 2,
		notes: api.notes ?? [],
		close() {
			api.close();
		},
	};
}
