// `pleg-top lab --demo`: the lab's cluster side played in the process, beside the demo's simulated kubelet. Every
// right is granted, the namespace and the Deployment are kept in memory, and pods come Running a moment after a
// scale-up and go a moment after a scale-down, as a kubelet starts and stops them.
import type {AccessCheck, LabNode} from '../domain/lab/lab-plan.js';
import type {LabPod} from '../domain/lab/lab-pods.js';
import type {LabCluster, PodChange} from '../sources/lab-cluster.js';

const demoNode = 'demo-node';
const node: LabNode = {name: demoNode, hostname: demoNode, taints: [], allocatablePods: 110, kubeletVersion: 'v1.28.4'};
/** How long a pod takes to start or stop in the demo, ms. */
const podStepMs = 150;

export function createDemoLabCluster(onPods: (running: number) => void = () => undefined): LabCluster {
	let namespace: Record<string, string> | null = null;
	let serial = 0;
	const pods = new Map<string, LabPod>();
	const listeners = new Set<(change: PodChange) => void>();
	const timers = new Set<NodeJS.Timeout>();
	const emit = (change: PodChange) => {
		for (const listener of listeners) listener(change);
		onPods([...pods.values()].filter((pod) => pod.phase === 'Running').length);
	};

	const later = (ms: number, step: () => void) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			step();
		}, ms);
		timers.add(timer);
	};

	function scaleTo(replicas: number): void {
		const live = [...pods.values()];
		for (let index = live.length; index < replicas; index++) {
			const pod: LabPod = {
				name: `churn-${(++serial).toString(36)}`,
				nodeName: demoNode,
				phase: 'Pending',
				ready: false,
				deleting: false,
				reason: null,
			};
			pods.set(pod.name, pod);
			emit({type: 'upsert', pod});
			later(podStepMs * (index - live.length + 1), () => {
				if (!pods.has(pod.name)) return;
				const running = {...pod, phase: 'Running', ready: true};
				pods.set(pod.name, running);
				emit({type: 'upsert', pod: running});
			});
		}

		for (const [index, pod] of live.slice(replicas).entries()) {
			later(podStepMs * (index + 1), () => {
				pods.delete(pod.name);
				emit({type: 'delete', name: pod.name});
			});
		}
	}

	return {
		where: "the demo's simulated cluster",
		readNode: async () => node,
		podsOnNode: async () => 14,
		review: async (checks: readonly AccessCheck[]) => checks.map(() => ({allowed: true, reason: null})),
		namespace: async () => (namespace === null ? null : {labels: namespace, phase: 'Active'}),
		async createNamespace(manifest) {
			namespace = (manifest as {metadata: {labels: Record<string, string>}}).metadata.labels; // the lab's own manifest
		},
		createDeployment: async () => undefined,
		scale: async (replicas) => scaleTo(replicas),
		deploymentProblem: async () => null,
		async watchPods(_selector, onChange, signal) {
			onChange({type: 'reset', pods: [...pods.values()]});
			listeners.add(onChange);
			await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), {once: true}));
			listeners.delete(onChange);
		},
		async deleteNamespace() {
			namespace = null;
			pods.clear();
		},
		close() {
			for (const timer of timers) clearTimeout(timer);
		},
	};
}
