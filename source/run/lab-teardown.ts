// The lab's teardown: the namespace deleted (tried again while the API server may mend) and waited for until it is
// gone; when it cannot be, what may be left and the kubectl line, with --kubeconfig and --context, that removes it.
import type {KubectlTarget, LabSettings} from '../domain/lab/lab-plan.js';
import {systemNow} from '../engine/engine.js';
import {SourceFailure} from '../sources/failure.js';
import {LabRequestError, type LabCluster} from '../sources/lab-cluster.js';
import {pause} from './lab-phases.js';
import type {NodeMode} from './mode.js';

/** `terminal`: the stream the lab's screen is drawn on (ASCII on a locale that is not UTF-8). */
export type LabIo = {stdout: (text: string) => void; stderr: (text: string) => void; terminal: NodeJS.WriteStream};

export type LabRun = {
	settings: LabSettings;
	runId: string;
	cluster: LabCluster;
	target: KubectlTarget;
	io: LabIo;
	watch: NodeMode;
	env: NodeJS.ProcessEnv;
	/** --demo: where the lab's Running pods go (the simulated kubelet's labPods, once the plan made it). */
	demoPods: {set?: (count: number) => void};
};

/** Polls the namespace until it is gone or `timeoutMs` passed; true when gone. */
export async function waitGone(run: LabRun, timeoutMs: number): Promise<boolean> {
	const started = systemNow();
	const signal = new AbortController().signal;
	for (;;) {
		const existing = await run.cluster.namespace(signal).catch(() => undefined);
		if (existing === null) return true;
		if (systemNow() - started > timeoutMs) return false;
		await pause(250, signal);
	}
}

/** Deletes the namespace and waits for it to go; says what may be left when it cannot. True when gone. */
export async function teardown(run: LabRun, say: (text: string) => void = run.io.stderr): Promise<boolean> {
	const {settings, cluster} = run;
	say(`pleg-top lab: deleting namespace ${settings.namespace} and waiting for it to go…\n`);
	const signal = new AbortController().signal;
	let lastError: string | null = null;
	for (let attempt = 0; attempt < 4; attempt++) {
		try {
			await cluster.deleteNamespace(signal);
			lastError = null;
			break;
		} catch (error) {
			if (!(error instanceof SourceFailure)) throw error;
			lastError = error.failure.summary;
			if (error instanceof LabRequestError && !error.transient) break;
			await pause(500 * 2 ** attempt, signal);
		}
	}

	const gone = lastError === null && (await waitGone(run, 120_000));
	if (gone) say(`pleg-top lab: namespace ${settings.namespace} deleted.\n`);
	else say(leftText(run, lastError));
	return gone;
}

/** What may be left on the cluster, and the line that removes it. */
export function leftText(run: LabRun, why: string | null): string {
	const {settings} = run;
	const flags = [run.target.kubeconfig && `--kubeconfig ${run.target.kubeconfig}`, run.target.context && `--context ${run.target.context}`]
		.filter(Boolean)
		.join(' ');
	return (
		`pleg-top lab: the namespace ${settings.namespace} may be left on the cluster (the deployment churn and its pods with it)${why ? `: ${why}` : ''}.\n` +
		`Delete it with: kubectl ${flags ? `${flags} ` : ''}delete ns ${settings.namespace}\n`
	);
}
