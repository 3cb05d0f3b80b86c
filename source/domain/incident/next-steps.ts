// What to run next when PLEG is in trouble, ready to paste: the screen shows it from the critical band on, the
// --once text report when unhealthy, `?` always (with NODE when no node is named). Every kubectl line carries the
// --kubeconfig and --context pleg-top read, so a pasted line reaches the same cluster as pleg-top did, not whatever
// the current context is by then; every word from the cluster or the command line is quoted for the shell.
import {bandOf} from '../health/health.js';
import type {Figures} from '../types.js';

export type NextStep = {
	command: string;
	/** Where it runs: the kubectl lines anywhere the kubeconfig works, the others in a shell on the node. */
	where: 'kubectl' | 'on the node';
	/** What it shows, a few words. */
	why: string;
};

/** The kubeconfig pleg-top read: --kubeconfig when given, and the context it used (the flag's, else the current one). */
export type KubectlTarget = {kubeconfig?: string | undefined; context?: string | undefined};

/** The target of a run's pasted commands: its --kubeconfig and context; in a pod's service account, none (kubectl takes it alone). */
export function pasteTarget(kube: {context: string; kubeconfig?: string; inCluster?: boolean}): KubectlTarget {
	return kube.inCluster ? {} : {context: kube.context, kubeconfig: kube.kubeconfig};
}

/** What the steps are filled in with. */
export type StepsFor = {
	node: string;
	/** null: no kubeconfig was read (--demo, --prometheus, --replay): plain `kubectl`, the current context. */
	target?: KubectlTarget | null;
	/** The Node's status.nodeInfo.containerRuntimeVersion ("containerd://1.7.2"); null when not read. */
	runtimeVersion?: string | null;
	/** Past the kubelet's rule: cordoning is then the step after looking. */
	unhealthy?: boolean;
};

/** Why the node-side steps need a shell on the node, said once above them. */
export const onNodeNote = 'on the node (ssh: kubectl debug node/… needs this same runtime to start its pod)';

/** Characters a POSIX shell takes literally in a word. */
const plainWord = /^[\w@%+=:,./-]+$/;

/** One word for a POSIX shell: as it is when nothing in it is special, else in single quotes (a ' becomes '\''). */
export function shellQuote(word: string): string {
	if (plainWord.test(word)) {
		return word;
	}

	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `kubectl [--kubeconfig FILE] [--context NAME] ARGS…`, each word quoted for the shell. */
export function kubectlCommand(target: KubectlTarget | null | undefined, args: readonly string[]): string {
	const flags: string[] = [];
	if (target?.kubeconfig) flags.push('--kubeconfig', target.kubeconfig);
	if (target?.context) flags.push('--context', target.context);
	return ['kubectl', ...flags, ...args].map((word) => shellQuote(word)).join(' ');
}

/** The container runtime's systemd unit and name, from containerRuntimeVersion's scheme. */
export type Runtime = {unit: string; name: string; known: boolean};

/** containerd:// → containerd, cri-o:// → crio, docker:// → docker; unknown or unread: containerd, the usual one, said so. */
export function runtimeOf(version: string | null | undefined): Runtime {
	const scheme = /^([a-z][\w.+-]*):\/\//i.exec(version ?? '')?.[1]?.toLowerCase();
	if (scheme === 'cri-o') return {unit: 'crio', name: 'cri-o', known: true};
	if (scheme === 'docker') return {unit: 'docker', name: 'docker', known: true};
	if (scheme === 'containerd') return {unit: 'containerd', name: 'containerd', known: true};
	return {unit: 'containerd', name: 'containerd', known: false};
}

/**
 * The node's conditions and Events, then on the node: the runtime's service and log, whether it answers the CRI at
 * all, the sandboxes that are not ready and the kubelet's own PLEG lines; once unhealthy, cordoning the node.
 */
export function nextSteps({node, target, runtimeVersion, unhealthy = false}: StepsFor): NextStep[] {
	const runtime = runtimeOf(runtimeVersion);
	const assumed = runtime.known ? '' : ` (assumed: the Node's runtime was not read)`;
	const kubectl = (why: string, ...args: string[]): NextStep => ({command: kubectlCommand(target, args), where: 'kubectl', why});
	const onNode = (command: string, why: string): NextStep => ({command, where: 'on the node', why});
	return [
		kubectl('conditions, Events', 'describe', 'node', node),
		...(unhealthy ? [kubectl('once unhealthy: no new pods are placed on it', 'cordon', node)] : []),
		onNode(`systemctl status ${runtime.unit}`, `is ${runtime.name} running${assumed}`),
		onNode(`journalctl -u ${runtime.unit} --since -15m`, `${runtime.name}'s last 15 minutes`),
		onNode('crictl --timeout 5s info', 'does the runtime answer the CRI at all'),
		onNode('crictl pods --state notready', 'sandboxes not ready'),
		onNode('journalctl -u kubelet --since -30m | grep -i pleg', "the kubelet's PLEG lines"),
	];
}

/** Where pasted commands go and what runs on the node, besides the node: the same for every node of a run. */
export type PasteContext = Omit<StepsFor, 'node' | 'unhealthy'>;

/** The steps' fill for these figures: cordoning is added once unhealthy. */
export function stepsFor(figures: Figures, paste: PasteContext | undefined): StepsFor {
	return {...paste, node: figures.node, unhealthy: bandOf(figures) === 'unhealthy'};
}

/** The screen shows the next steps in these bands: the age has passed half the threshold, or cannot be judged. */
export function showsNextSteps(figures: Figures): boolean {
	const band = bandOf(figures);
	return band === 'critical' || band === 'unhealthy' || band === 'unknown';
}
