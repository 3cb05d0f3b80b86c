// The CRI calls one simulated relist makes, and how long each takes, per scenario.
// A relist is GetPods (ListPodSandbox + ListContainers), then for every pod whose containers changed one
// PodSandboxStatus, one filtered ListContainers and one ContainerStatus per container (kuberuntime GetPodStatus).
// The relist's duration is the sum of these latencies plus a little Go-side work, so the CRI anatomy adds up.
import type {Random} from './simulated-random.js';

/** The operation_type label values a relist produces, in the order the kubelet exposes them (sorted). */
export const RELIST_OPERATION_TYPES = ['container_status', 'list_containers', 'list_podsandbox', 'podsandbox_status'] as const;

export type RelistOperationType = (typeof RELIST_OPERATION_TYPES)[number];

type CriCall = {
	op: RelistOperationType;
	/** Latency, simulated ms. */
	ms: number;
	/** The runtime returned an error (counted in kubelet_runtime_operations_errors_total). */
	failed: boolean;
};

export type RuntimeConditions = {
	/** Pods are being created and deleted: several pods change per relist and the runtime is busy. */
	churn: boolean;
	/** The runtime itself is slow: the two list calls take hundreds of ms, few pods change. */
	slowRuntime: boolean;
	/** Pods beyond the steady ones (`pleg-top lab --demo`): each adds to both list calls, as a real runtime's listing grows. */
	extraPods?: number;
};

/** What one more pod (a sandbox and its container) adds to ListPodSandbox and ListContainers, ms. */
const perPodListMs = {sandboxes: 0.12, containers: 0.15};

export type RelistPlan = {
	calls: CriCall[];
	/** calls[0 .. listCalls) are GetPods; once they return the relist counts as successful (relistTime is set). */
	listCalls: number;
	/** GetPods failed: the relist ends after the failing call, without updating relistTime. */
	failed: boolean;
	changedPods: number;
};

/** Go-side work between calls (diffing, cache updates): small, and capped so a hung call is not inflated. ms. */
export function relistOverheadMs(callsMs: number): number {
	return Math.min(20, 0.2 + 0.03 * callsMs);
}

/** Draws the calls of one relist. `allowFailure` is false for a hung relist that is being resumed. */
export function drawRelistPlan(conditions: RuntimeConditions, random: Random, allowFailure = true): RelistPlan {
	const {churn, slowRuntime} = conditions;
	let sandboxesMs = slowRuntime ? random.between(200, 900) : churn ? random.between(8, 40) : random.between(1.8, 3.5);
	let containersMs = slowRuntime ? random.between(250, 1000) : churn ? random.between(10, 50) : random.between(2, 4);
	if (!churn && !slowRuntime && random.chance(0.03)) {
		// The idle tail: a GC pause or a busy runtime now and then.
		const factor = random.between(2, 5);
		sandboxesMs *= factor;
		containersMs *= factor;
	}

	// Added after the draws, so a seeded demo without lab pods replays the same relists.
	sandboxesMs += (conditions.extraPods ?? 0) * perPodListMs.sandboxes;
	containersMs += (conditions.extraPods ?? 0) * perPodListMs.containers;
	if (slowRuntime && allowFailure && random.chance(0.03)) {
		return {calls: [{op: 'list_podsandbox', ms: sandboxesMs, failed: true}], listCalls: 1, failed: true, changedPods: 0};
	}

	const calls: CriCall[] = [
		{op: 'list_podsandbox', ms: sandboxesMs, failed: false},
		{op: 'list_containers', ms: containersMs, failed: false},
	];
	const changedPods = churn ? random.integer(3, 5) : random.chance(0.02) ? 1 : 0;
	const statusMs = (): number => (churn ? random.between(5, 25) : slowRuntime ? random.between(40, 150) : random.between(0.5, 1.5));
	for (let pod = 0; pod < changedPods; pod++) {
		calls.push(
			{op: 'podsandbox_status', ms: statusMs(), failed: false},
			{
				op: 'list_containers',
				ms: churn ? random.between(5, 20) : slowRuntime ? random.between(100, 400) : random.between(0.8, 2),
				failed: false,
			},
		);
		const containers = random.chance(0.4) ? 2 : 1;
		for (let container = 0; container < containers; container++) {
			calls.push({op: 'container_status', ms: statusMs(), failed: false});
		}
	}

	if (churn) {
		addChurnSpike(calls, random);
	}

	return {calls, listCalls: 2, failed: false, changedPods};
}

/**
 * Under churn the per-pod inspection occasionally stalls: 4 % of relists take 5-12x longer (1-3 s),
 * 0.6 % have one ContainerStatus of 2.6-8 s (past the 2.5 s bucket), 0.15 % one of 10.5-15 s (the +Inf bucket).
 */
function addChurnSpike(calls: CriCall[], random: Random): void {
	const roll = random.next();
	// Everything after the two GetPods list calls is per-pod inspection.
	const inspection = calls.slice(2);
	const containerStatus = calls.find((call) => call.op === 'container_status');
	if (roll < 0.0015 && containerStatus) {
		containerStatus.ms = random.between(10_500, 15_000);
	} else if (roll < 0.0075 && containerStatus) {
		containerStatus.ms = random.between(2600, 8000);
	} else if (roll < 0.0475) {
		const factor = random.between(5, 12);
		for (const call of inspection) {
			call.ms *= factor;
		}
	}
}
