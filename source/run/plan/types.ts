// What a plan is: the contract between the plan of each mode (node-plan, prometheus-plan, fleet-plan) and the
// runners (once, JSON lines, live), which take any plan, one node or the whole cluster.
import type {DemoControls} from '../../demo/demo-source.js';
import type {Failure} from '../../domain/types.js';
import type {Engine} from '../../engine/engine.js';
import type {LabRecorder} from '../../lab/recorder.js';
import type {ReplaySource} from '../../lab/replay.js';

/** What an engine is started for: to watch (live or JSON lines), or for one --once report. */
export type Purpose = 'watch' | 'once';

/** What the screen's header names besides the source: the kubeconfig context and cluster, or the replay. */
export type PlanHeader = {
	/** `proxy`: the proxy requests go through, as messages name it (LoadedKubeconfig.proxy.said). */
	kube?: {context: string; cluster: string; kubeconfig?: string; inCluster?: boolean; proxy?: string};
	/** `reachedSpeed`: the replay's measured speed (ReplaySource.reachedSpeed), for a header that says what it reaches. */
	replay?: {file: string; speed: number; reachedSpeed?: () => number | null};
};

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
	readonly header?: PlanHeader;
	close(): void;
};
