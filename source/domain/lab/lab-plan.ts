// `pleg-top lab NODE`: what the lab creates and does, as data. The namespace and the Deployment of pause pods
// pinned to the node, their YAML and the kubectl lines that do the same by hand, the rights it needs, the phases
// it runs (idle, up, hold, down; or a sweep of levels) and the checks made before anything is created (taints,
// room). Pure: the run id and every answer from the cluster come in as arguments.
import {safeJson} from '../text/untrusted-text.js';

/** The label every object the lab creates carries (the recommended app.kubernetes.io labels). */
export const managedByLabel = 'app.kubernetes.io/managed-by';
export const managedByValue = 'pleg-top';
/** The run's own id, on the namespace, the Deployment and its pods. */
const runIdLabel = 'pleg-top.dev/run-id';
/** The Deployment's name and the pods' app label. */
const churnName = 'churn';
const appLabel = 'app.kubernetes.io/name';

export const labDefaults = {pods: 12, cycles: 1, namespace: 'pleg-lab', image: 'registry.k8s.io/pause:3.10', pendingTimeoutMs: 120_000};

/** What `pleg-top lab` was asked to do. */
export type LabSettings = {
	node: string;
	/** --pods: one level (the churn exercise: 0 → N → 0 → N), or several (a sweep: each held a window). */
	levels: number[];
	cycles: number;
	namespace: string;
	image: string;
	dryRun: boolean;
	/** --yes: no question before creating (the demo asks none: it creates nothing in a real cluster). */
	yes: boolean;
	/** --demo: the cluster is the demo's own, simulated in pleg-top. */
	simulated?: boolean;
	/** --tolerate-taints: tolerations for exactly the node's NoSchedule/NoExecute taints. */
	tolerateTaints: boolean;
	/** --pending-timeout: how long pods may stay not Running before the lab gives up, ms. */
	pendingTimeoutMs: number;
	/** --hold: how long each idle or hold phase lasts, seconds (default: one --window). */
	holdSeconds: number;
};

/** A sweep when more than one level is asked for. */
export const isSweep = (settings: Pick<LabSettings, 'levels'>): boolean => settings.levels.length > 1;

/** A node taint (spec.taints[]). */
type Taint = {key: string; value?: string; effect: string};

/** What the lab reads of the Node before it plans: its hostname label, taints and pod capacity. */
export type LabNode = {
	name: string;
	/** metadata.labels["kubernetes.io/hostname"]: the nodeSelector's value (it need not equal the name). */
	hostname: string | null;
	taints: Taint[];
	/** status.allocatable.pods; null when the Node does not say. */
	allocatablePods: number | null;
	kubeletVersion: string | null;
};

/** The labels of everything the run creates. */
function labLabels(runId: string): Record<string, string> {
	return {[managedByLabel]: managedByValue, [runIdLabel]: runId};
}

/** The pods' labels: the Deployment selects on these. */
export function podLabels(runId: string): Record<string, string> {
	return {[appLabel]: churnName, ...labLabels(runId)};
}

/** The taints that keep a pod away (NoSchedule, NoExecute); PreferNoSchedule only prefers. */
function blockingTaints(node: Pick<LabNode, 'taints'>): Taint[] {
	return node.taints.filter((taint) => taint.effect === 'NoSchedule' || taint.effect === 'NoExecute');
}

export function namespaceManifest(namespace: string, runId: string): object {
	return {apiVersion: 'v1', kind: 'Namespace', metadata: {name: namespace, labels: labLabels(runId)}};
}

/** The pause container: tiny requests, and a securityContext the `restricted` Pod Security level admits. */
function pauseContainer(image: string): object {
	return {
		name: 'pause',
		image,
		resources: {requests: {cpu: '1m', memory: '8Mi'}, limits: {memory: '16Mi'}},
		securityContext: {
			runAsNonRoot: true,
			// The pause image runs as 65535; said so the kubelet need not read the image to admit runAsNonRoot.
			runAsUser: 65535,
			allowPrivilegeEscalation: false,
			capabilities: {drop: ['ALL']},
			seccompProfile: {type: 'RuntimeDefault'},
		},
	};
}

/** The Deployment of `replicas` pause pods pinned to the node by its own hostname label. */
export function deploymentManifest(settings: LabSettings, node: LabNode, runId: string, replicas: number): object {
	const tolerations = settings.tolerateTaints
		? blockingTaints(node).map((taint) => ({
				key: taint.key,
				operator: taint.value === undefined ? 'Exists' : 'Equal',
				...(taint.value === undefined ? {} : {value: taint.value}),
				effect: taint.effect,
			}))
		: [];
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: {name: churnName, namespace: settings.namespace, labels: labLabels(runId)},
		spec: {
			replicas,
			selector: {matchLabels: podLabels(runId)},
			template: {
				metadata: {labels: podLabels(runId)},
				spec: {
					nodeSelector: {'kubernetes.io/hostname': node.hostname ?? node.name},
					...(tolerations.length > 0 ? {tolerations} : {}),
					terminationGracePeriodSeconds: 0,
					automountServiceAccountToken: false,
					containers: [pauseContainer(settings.image)],
				},
			},
		},
	};
}

/** A small YAML writer for the manifests (maps, lists, strings, numbers, booleans): what `kubectl apply -f` reads. */
export function toYaml(value: unknown, indent = ''): string {
	if (Array.isArray(value)) {
		if (value.length === 0) return `${indent}[]\n`;
		return value
			.map((item) => {
				const body = toYaml(item, indent + '  ');
				return `${indent}- ${body.slice(indent.length + 2)}`;
			})
			.join('');
	}

	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>); // checked object
		if (entries.length === 0) return `${indent}{}\n`;
		return entries
			.map(([key, item]) => {
				if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
					return `${indent}${yamlScalar(key)}:\n${toYaml(item, Array.isArray(item) ? indent : indent + '  ')}`;
				}

				return `${indent}${yamlScalar(key)}: ${toYaml(item, '').trimEnd()}\n`;
			})
			.join('');
	}

	return `${indent}${yamlScalar(value)}\n`;
}

function yamlScalar(value: unknown): string {
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (value === null || value === undefined) return 'null';
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	// Quoted when YAML would read it as something else (a number, a boolean, a null) or it holds special characters;
	// a control (a typed node name's U+009B) is escaped as YAML's double quotes allow, never written raw.
	const plain = /^[A-Za-z_./][\w./-]*$/.test(text) && !/^(?:true|false|yes|no|on|off|null|~)$/i.test(text);
	return plain ? text : safeJson(text);
}

/** Where pasted kubectl commands go: the --kubeconfig and --context the run was given. */
export type KubectlTarget = {kubeconfig?: string; context?: string};

function kubectlFlags(target: KubectlTarget): string {
	const quote = (text: string) => (/^[\w./:@-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
	return [
		...(target.kubeconfig === undefined ? [] : [`--kubeconfig ${quote(target.kubeconfig)}`]),
		...(target.context === undefined ? [] : [`--context ${quote(target.context)}`]),
	]
		.map((flag) => ` ${flag}`)
		.join('');
}

/** The lines that do the lab by hand: apply the manifests, scale, delete. */
export function kubectlLines(settings: LabSettings, target: KubectlTarget): string[] {
	const flags = kubectlFlags(target);
	const scale = (replicas: number) => `kubectl${flags} -n ${settings.namespace} scale deployment ${churnName} --replicas=${replicas}`;
	const ups = isSweep(settings)
		? settings.levels.filter((level) => level > 0).map(scale)
		: [scale(settings.levels[0]!), scale(0), scale(settings.levels[0]!)]; // non-empty
	return [
		`kubectl${flags} apply -f lab.yaml   # the manifests above, the Deployment at 0 replicas`,
		...ups,
		`kubectl${flags} delete ns ${settings.namespace}`,
	];
}

/** One SelfSubjectAccessReview's resourceAttributes. */
export type AccessCheck = {verb: string; group: string; resource: string; subresource?: string; namespace?: string};

/** Every right the lab uses, asked before anything is created. */
export function accessChecks(namespace: string): AccessCheck[] {
	const inNs = (verb: string, group: string, resource: string, subresource?: string): AccessCheck => ({
		verb,
		group,
		resource,
		...(subresource === undefined ? {} : {subresource}),
		namespace,
	});
	return [
		{verb: 'get', group: '', resource: 'namespaces'},
		{verb: 'create', group: '', resource: 'namespaces'},
		{verb: 'delete', group: '', resource: 'namespaces'},
		inNs('create', 'apps', 'deployments'),
		// Why no pods come (a quota): the Deployment's conditions.
		inNs('get', 'apps', 'deployments'),
		inNs('patch', 'apps', 'deployments', 'scale'),
		inNs('delete', 'apps', 'deployments'),
		inNs('list', '', 'pods'),
		inNs('watch', '', 'pods'),
		{verb: 'get', group: '', resource: 'nodes'},
		// The node's /metrics through the API server, as `pleg-top NODE` reads them.
		{verb: 'get', group: '', resource: 'nodes', subresource: 'proxy'},
		{verb: 'list', group: '', resource: 'pods'},
	];
}

/** The `kubectl auth can-i` line that asks the same question. */
export function canILine(check: AccessCheck, target: KubectlTarget): string {
	const resource = check.group === '' ? check.resource : `${check.resource}.${check.group}`;
	const sub = check.subresource === undefined ? '' : ` --subresource=${check.subresource}`;
	const ns = check.namespace === undefined ? '' : ` -n ${check.namespace}`;
	return `kubectl${kubectlFlags(target)} auth can-i ${check.verb} ${resource}${sub}${ns}`;
}

/** One step of the lab: the pods it aims at, and the name its mark carries. */
export type LabPhase = {
	kind: 'idle' | 'up' | 'down' | 'hold';
	/** Pods of the Deployment at the start and the end of the phase. */
	from: number;
	to: number;
	/** "idle", "up 0→12", "hold 12", "down 12→0" (a repeat adds " #2"). */
	name: string;
};

function phase(kind: LabPhase['kind'], from: number, to: number): Omit<LabPhase, 'name'> {
	return {kind, from, to};
}

function baseName(step: Omit<LabPhase, 'name'>): string {
	if (step.kind === 'idle') return 'idle';
	if (step.kind === 'hold') return `hold ${step.to}`;
	return `${step.kind} ${step.from}→${step.to}`;
}

/**
 * The churn exercise (one level N): idle, then per cycle up 0→N, hold, down N→0, hold, and a last up and hold.
 * A sweep: idle at 0, then each level in rising order reached and held.
 */
export function labPhases(settings: Pick<LabSettings, 'levels' | 'cycles'>): LabPhase[] {
	const steps: Array<Omit<LabPhase, 'name'>> = [phase('idle', 0, 0)];
	if (isSweep(settings)) {
		let at = 0;
		for (const level of [...new Set(settings.levels)].sort((a, b) => a - b).filter((each) => each > 0)) {
			steps.push(phase('up', at, level), phase('hold', level, level));
			at = level;
		}
	} else {
		const n = settings.levels[0]!; // non-empty
		for (let cycle = 0; cycle < settings.cycles; cycle++) {
			steps.push(phase('up', 0, n), phase('hold', n, n), phase('down', n, 0), phase('hold', 0, 0));
		}

		steps.push(phase('up', 0, n), phase('hold', n, n));
	}

	const seen = new Map<string, number>();
	return steps.map((step) => {
		const base = baseName(step);
		const count = (seen.get(base) ?? 0) + 1;
		seen.set(base, count);
		return {...step, name: count === 1 ? base : `${base} #${count}`};
	});
}

/** Why the node cannot hold the pods, or null when it can: allocatable pods less those already bound to it. */
export function roomProblem(node: LabNode, podsOnNode: number, settings: Pick<LabSettings, 'levels'>): string | null {
	if (node.allocatablePods === null) return null;
	const room = node.allocatablePods - podsOnNode;
	const beyond = settings.levels.filter((level) => level > room);
	if (beyond.length === 0) return null;
	const levels = beyond.join(', ');
	return (
		`${node.name} has room for ${Math.max(0, room)} more pod${room === 1 ? '' : 's'} (allocatable ${node.allocatablePods}, ${podsOnNode} bound): ` +
		`${beyond.length === 1 ? 'the level' : 'the levels'} ${levels} cannot be reached; ask for at most ${Math.max(0, room)} with --pods`
	);
}

/** The plan as the user reads it before saying yes. */
export function planLines(settings: LabSettings, node: LabNode, runId: string): string[] {
	const taints = blockingTaints(node);
	const taintText = taints.map((taint) => `${taint.key}${taint.value === undefined ? '' : `=${taint.value}`}:${taint.effect}`).join(', ');
	const phases = labPhases(settings);
	const lines = [
		`pleg-top lab will create, ${settings.simulated ? "in the demo's simulated cluster" : 'on the cluster'}, for node ${node.name} (run ${runId}):`,
		`  namespace ${settings.namespace}, labelled ${managedByLabel}=${managedByValue}, ${runIdLabel}=${runId}`,
		`  deployment ${settings.namespace}/${churnName}: ${settings.image} pods pinned to the node (nodeSelector kubernetes.io/hostname=${node.hostname ?? node.name}),`,
		'    requests cpu 1m, memory 8Mi; runAsNonRoot, no privilege escalation, all capabilities dropped, seccomp RuntimeDefault',
		`  phases: ${phases.map((each) => each.name).join(', ')}; each idle or hold lasts ${settings.holdSeconds}s`,
		`  at the end (or on q, Ctrl-C, SIGTERM, SIGHUP) the namespace ${settings.namespace} is deleted`,
	];
	if (taints.length > 0) {
		lines.push(
			settings.tolerateTaints
				? `  the node is tainted (${taintText}): the pods tolerate exactly these (--tolerate-taints)`
				: `  the node is tainted (${taintText}): the pods would stay Pending; add --tolerate-taints to tolerate exactly these`,
		);
	}

	return lines;
}
