// `pleg-top lab NODE`: the node read, the plan shown (or, with --dry-run, printed as YAML and kubectl lines), the
// rights asked for before anything is created, y/N, then the namespace and the Deployment, the phases on the live
// screen (or said line by line on stderr without a terminal), the teardown, and the write-down of each phase.
import {randomBytes} from 'node:crypto';
import {createInterface} from 'node:readline';
import {
	accessChecks,
	canILine,
	deploymentManifest,
	kubectlLines,
	managedByLabel,
	managedByValue,
	namespaceManifest,
	planLines,
	roomProblem,
	toYaml,
	type KubectlTarget,
	type LabNode,
	type LabSettings,
} from '../domain/lab/lab-plan.js';
import {systemNow} from '../engine/engine.js';
import {createLabCluster, type LabCluster} from '../sources/lab-cluster.js';
import {SourceFailure} from '../sources/failure.js';
import type {NodeMode} from './mode.js';
import {kubeconfig} from './plan/kube.js';
import {wrap} from './lab.js';
import {runLabSession} from './lab-session-run.js';
import {teardown, waitGone, type LabIo, type LabRun} from './lab-teardown.js';

/** Exit codes: 0 done, 1 the lab stopped (pods stuck, the API server gone), 2 refused (usage, namespace, room), 3 no rights or no contact. */
export async function runLabCommand(mode: {settings: LabSettings; watch: NodeMode}, env: NodeJS.ProcessEnv, io: LabIo): Promise<number> {
	const {settings, watch} = mode;
	const runId = randomBytes(4).toString('hex');
	let cluster: LabCluster;
	let target: KubectlTarget = {};
	const demoPods: LabRun['demoPods'] = {};
	try {
		if (watch.backend.kind === 'demo') {
			const {createDemoLabCluster} = await import('./demo-lab-cluster.js');
			// The simulated kubelet is made with the plan; the lab's pods reach it once it exists.
			cluster = createDemoLabCluster((count) => demoPods.set?.(count));
		} else {
			const access = watch.backend.kind === 'api-server' ? watch.backend.access : {kubeconfig: undefined, context: undefined};
			const loaded = kubeconfig(access, env);
			target = {kubeconfig: loaded.kubeconfigFlag ?? access.kubeconfig, context: access.context ?? loaded.contextName};
			cluster = createLabCluster({loaded, node: settings.node, namespace: settings.namespace, timeoutMs: watch.timeoutMs, now: systemNow});
		}
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		io.stderr(`pleg-top lab: ${error.message}\n`);
		return error.failure.kind === 'config' ? 2 : 3;
	}

	try {
		return await labSteps({settings, runId, cluster, target, io, watch, env, demoPods});
	} finally {
		cluster.close();
	}
}

async function labSteps(run: LabRun): Promise<number> {
	const {settings, cluster, io} = run;
	const signal = new AbortController().signal;
	let node: LabNode;
	try {
		node = await cluster.readNode(signal);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		if (settings.dryRun)
			return dryRun(
				run,
				{name: settings.node, hostname: null, taints: [], allocatablePods: null, kubeletVersion: null},
				error.failure.summary,
			);
		const notFound = error.failure.kind === 'not-found';
		io.stderr(
			`pleg-top lab: ${notFound ? `node "${settings.node}" not found on ${cluster.where} (kubectl get nodes lists them)` : error.failure.summary}\nNothing was created.\n`,
		);
		return 3;
	}

	if (settings.dryRun) return dryRun(run, node, null);
	// Broken at spaces to the terminal's width: the terminal itself would cut "kubernetes.io" mid-word.
	io.stderr(wrap(planLines(settings, node, run.runId).join('\n'), process.stderr.isTTY ? process.stderr.columns : undefined, 2) + '\n');
	const refused = await preflight(run, node, signal);
	if (refused !== null) return refused;
	if (!(await ask(run, 'Create it and run the lab? [y/N] '))) {
		io.stderr('pleg-top lab: nothing created.\n');
		// No answer possible (not a terminal, no --yes) is a usage problem; a "no" is the user's choice.
		return process.stdin.isTTY === true ? 0 : 2;
	}

	let created = false;
	try {
		await cluster.createNamespace(namespaceManifest(settings.namespace, run.runId), signal);
		created = true;
		await cluster.createDeployment(deploymentManifest(settings, node, run.runId, 0), signal);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		io.stderr(`pleg-top lab: could not create the lab: ${error.failure.summary}\n`);
		// A namespace that someone made in the meantime (409) is not the lab's to delete.
		if (created) await teardown(run);
		return 1;
	}

	return runLabSession(run, node);
}

/** --dry-run: the manifests as YAML and the kubectl lines on stdout; nothing created. */
function dryRun(run: LabRun, node: LabNode, unread: string | null): number {
	const {settings, runId, io} = run;
	const note = unread === null ? '' : `# the Node could not be read (${unread}): its hostname label is taken to be its name\n`;
	const manifests = [namespaceManifest(settings.namespace, runId), deploymentManifest(settings, node, runId, 0)];
	io.stdout(`${note}${manifests.map((manifest) => toYaml(manifest)).join('---\n')}`);
	io.stdout(
		`\n# the same by hand:\n${kubectlLines(settings, run.target)
			.map((line) => `# ${line}`)
			.join('\n')}\n`,
	);
	return 0;
}

/** Rights, room and the namespace, before anything is created; an exit code when the lab cannot go on, else null. */
async function preflight(run: LabRun, node: LabNode, signal: AbortSignal): Promise<number | null> {
	const {settings, cluster, io} = run;
	try {
		const checks = accessChecks(settings.namespace);
		const answers = await cluster.review(checks, signal);
		const missing = checks.filter((_, index) => !answers[index]!.allowed); // in bounds
		if (missing.length > 0) {
			const lines = missing.map((check) => `  ${canILine(check, run.target)}`);
			io.stderr(
				`pleg-top lab: missing rights (${missing.length} of ${checks.length}); nothing was created. Each of these answers "no":\n${lines.join('\n')}\n`,
			);
			return 3;
		}

		const room = roomProblem(node, await cluster.podsOnNode(signal), settings);
		if (room !== null) return (io.stderr(`pleg-top lab: ${room}. Nothing was created.\n`), 2);
		return await existingNamespace(run, signal);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		io.stderr(`pleg-top lab: ${error.failure.summary}\nNothing was created.\n`);
		return 3;
	}
}

/** An existing namespace: one an earlier lab left is offered for deletion; one without the lab's label is refused. */
async function existingNamespace(run: LabRun, signal: AbortSignal): Promise<number | null> {
	const {settings, cluster, io} = run;
	const existing = await cluster.namespace(signal);
	if (existing === null) return null;
	if (existing.labels[managedByLabel] !== managedByValue) {
		io.stderr(
			`pleg-top lab: namespace ${settings.namespace} already exists and was not made by pleg-top (no ${managedByLabel}=${managedByValue} label): ` +
				`pleg-top never touches what it did not create. Pick another with --namespace.\n`,
		);
		return 2;
	}

	io.stderr(
		`pleg-top lab: namespace ${settings.namespace} was left by an earlier lab run${existing.phase === 'Terminating' ? ' and is being deleted' : ''}.\n`,
	);
	if (existing.phase !== 'Terminating' && !(await ask(run, `Delete namespace ${settings.namespace} first? [y/N] `))) {
		io.stderr('pleg-top lab: left as it is; nothing created.\n');
		return 2;
	}

	if (existing.phase !== 'Terminating') await cluster.deleteNamespace(signal);
	return (await waitGone(run, 120_000))
		? null
		: (io.stderr(`pleg-top lab: namespace ${settings.namespace} is still there; try again later.\n`), 3);
}

/** y/N on the terminal; --yes says yes; without a terminal and --yes, no. */
async function ask(run: LabRun, question: string): Promise<boolean> {
	const {io, settings} = run;
	if (settings.yes) return true;
	if (process.stdin.isTTY !== true) {
		io.stderr('pleg-top lab: not on a terminal, so nobody can answer y/N: add --yes to go ahead.\n');
		return false;
	}

	const reader = createInterface({input: process.stdin, output: process.stderr});
	try {
		const answer = await new Promise<string>((resolve) => reader.question(question, resolve));
		return /^y(es)?$/i.test(answer.trim());
	} finally {
		reader.close();
	}
}
