// The lab's pods as the watch shows them: which are Running on the node, which are still to come or go, and why a
// pod is not Running in the pod's own words (Unschedulable and its message, ErrImagePull, ...). Pure.

/** What the lab keeps of one pod (sources/lab-cluster.ts reads it from the pod JSON). */
export type LabPod = {
	name: string;
	/** spec.nodeName; null while unscheduled. */
	nodeName: string | null;
	/** status.phase. */
	phase: string;
	/** The Ready condition is True. */
	ready: boolean;
	/** metadata.deletionTimestamp is set: on its way out. */
	deleting: boolean;
	/** Why it is not Running: the PodScheduled=False reason and message, or a container's waiting reason and message. */
	reason: string | null;
};

/** The pods of the Deployment, by name. */
export type LabPods = ReadonlyMap<string, LabPod>;

/** Running = phase Running and Ready, on the node, not being deleted. */
export function runningOn(pods: LabPods, node: string): number {
	let count = 0;
	for (const pod of pods.values()) if (isRunningOn(pod, node)) count++;
	return count;
}

function isRunningOn(pod: LabPod, node: string): boolean {
	return pod.phase === 'Running' && pod.ready && !pod.deleting && pod.nodeName === node;
}

/** The pods that hold up a scale-up: not Running on the node, not being deleted. */
export function notRunning(pods: LabPods, node: string): LabPod[] {
	return [...pods.values()].filter((pod) => !pod.deleting && !isRunningOn(pod, node));
}

/**
 * "3 of 12 pods not Running after 2m0s: churn-abc (Unschedulable: 0/2 nodes are available: …), …": the distinct
 * reasons, each with one pod that has it and how many more.
 */
export function pendingText(stuck: readonly LabPod[], wanted: number, waited: string): string {
	const byReason = new Map<string, LabPod[]>();
	for (const pod of stuck) {
		const reason = pod.reason ?? `phase ${pod.phase}${pod.nodeName === null ? ', not scheduled yet' : ''}`;
		byReason.set(reason, [...(byReason.get(reason) ?? []), pod]);
	}

	const reasons = [...byReason].map(
		([reason, pods]) => `${pods[0]!.name}${pods.length > 1 ? ` and ${pods.length - 1} more` : ''}: ${reason}`, // non-empty
	);
	return `${stuck.length} of ${wanted} pods not Running after ${waited}: ${reasons.join('; ')}`;
}

/** A pod as the watch or the list gives it. */
type PodJson = {
	metadata?: {name?: string; deletionTimestamp?: string};
	spec?: {nodeName?: string};
	status?: {
		phase?: string;
		conditions?: Array<{type?: string; status?: string; reason?: string; message?: string}>;
		containerStatuses?: Array<{state?: {waiting?: {reason?: string; message?: string}}}>;
	};
};

/** The pod JSON (already checked to be an object with a name) as the lab keeps it. */
export function labPodOf(json: unknown): LabPod | null {
	const pod = json as PodJson; // checked by the caller
	const name = pod.metadata?.name;
	if (typeof name !== 'string') return null;
	const conditions = Array.isArray(pod.status?.conditions) ? pod.status.conditions : [];
	const ready = conditions.some((condition) => condition.type === 'Ready' && condition.status === 'True');
	const scheduled = conditions.find((condition) => condition.type === 'PodScheduled' && condition.status === 'False');
	const waiting = (Array.isArray(pod.status?.containerStatuses) ? pod.status.containerStatuses : [])
		.map((status) => status.state?.waiting)
		.find((each) => typeof each?.reason === 'string');
	const words = (reason: string | undefined, message: string | undefined) =>
		reason === undefined ? null : message ? `${reason}: ${message}` : reason;
	return {
		name,
		nodeName: typeof pod.spec?.nodeName === 'string' ? pod.spec.nodeName : null,
		phase: typeof pod.status?.phase === 'string' ? pod.status.phase : 'Unknown',
		ready,
		deleting: typeof pod.metadata?.deletionTimestamp === 'string',
		reason: scheduled ? words(scheduled.reason, scheduled.message) : waiting ? words(waiting.reason, waiting.message) : null,
	};
}

/** Least squares y = intercept + slope · x; null with fewer than two distinct x. */
export function fitLine(points: ReadonlyArray<{x: number; y: number}>): {intercept: number; slope: number} | null {
	const n = points.length;
	if (n < 2) return null;
	const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
	const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
	const sxx = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
	if (sxx === 0) return null;
	const sxy = points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0);
	const slope = sxy / sxx;
	return {intercept: meanY - slope * meanX, slope};
}
