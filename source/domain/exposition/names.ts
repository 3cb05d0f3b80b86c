// The kubelet metric families pleg-top reads, and which kubelet versions expose each one
// (from the kubelet's pkg/kubelet/metrics/metrics.go of each release), so a missing figure can say why it is missing.

export const families = {
	/** Histogram, seconds. */
	relistDuration: 'kubelet_pleg_relist_duration_seconds',
	/** Histogram, seconds. */
	relistInterval: 'kubelet_pleg_relist_interval_seconds',
	/** Summary, microseconds (deprecated 1.14, off 1.18). */
	legacyRelistLatency: 'kubelet_pleg_relist_latency_microseconds',
	/** Summary, microseconds (deprecated 1.14, off 1.18). */
	legacyRelistInterval: 'kubelet_pleg_relist_interval_microseconds',
	/** Gauge, Unix seconds. */
	lastSeen: 'kubelet_pleg_last_seen_seconds',
	/** Counter without the `_total` suffix. */
	discardEvents: 'kubelet_pleg_discard_events',
	/** Gauge 1 with the version in a label (gitVersion up to 1.18, git_version from 1.19). */
	buildInfo: 'kubernetes_build_info',
	/** Gauge per feature gate, label `name`. */
	featureEnabled: 'kubernetes_feature_enabled',
	/** Counter. */
	eventedConnectionSuccess: 'kubelet_evented_pleg_connection_success_count',
	/** Counter. */
	eventedConnectionError: 'kubelet_evented_pleg_connection_error_count',
} as const;

export type FamilyKey = keyof typeof families;

/** The label of kubernetes_feature_enabled that names the Evented PLEG gate. */
export const eventedPlegGateName = 'EventedPLEG';

/** Which kubelet versions expose each family (metrics.go of each release). */
const familyVersions: Record<FamilyKey, string> = {
	relistDuration: 'exists from kubelet 1.14',
	relistInterval: 'exists from kubelet 1.14',
	legacyRelistLatency: 'exists before kubelet 1.18 (deprecated in 1.14)',
	legacyRelistInterval: 'exists before kubelet 1.18 (deprecated in 1.14)',
	lastSeen: 'exists from kubelet 1.18',
	discardEvents: 'exists from kubelet 1.14 (in 1.14-1.17 only after the first discarded event)',
	buildInfo: 'exists in every kubelet',
	featureEnabled: 'exists from kubelet 1.26',
	eventedConnectionSuccess: 'exists from kubelet 1.27',
	eventedConnectionError: 'exists from kubelet 1.27',
};

/**
 * The 1.x minor from which a kubelet always exposes each family. A kubelet at least that new whose body lacks it
 * is not "too old": the series is simply not in its /metrics (filtered, disabled, or a proxy in the way).
 */
const alwaysFromMinor: Partial<Record<FamilyKey, number>> = {
	relistDuration: 14,
	relistInterval: 14,
	lastSeen: 18,
	// In 1.14-1.17 a CounterVec child, absent until the first discard; a plain counter from 1.18.
	discardEvents: 18,
	featureEnabled: 26,
	eventedConnectionSuccess: 27,
	eventedConnectionError: 27,
};

/** The minor of a 1.x kubelet version ("v1.31.4-eks" -> 31); null when unknown. */
function kubeletMinor(kubeletVersion: string | null): number | null {
	const match = /^v?1\.(\d+)/.exec(kubeletVersion?.trim() ?? '');
	return match ? Number(match[1]) : null;
}

/** "… is not in this kubelet's /metrics" when the kubelet is new enough to expose it, else null. */
function absentFromBody(family: string, sinceMinor: number | undefined, kubeletVersion: string | null): string | null {
	const minor = kubeletMinor(kubeletVersion);
	return minor !== null && sinceMinor !== undefined && minor >= sinceMinor ? `${family} is not in this kubelet's /metrics` : null;
}

/**
 * "kubelet_pleg_last_seen_seconds exists from kubelet 1.18" for an older or unknown kubelet; for one that should
 * expose it, "kubelet_pleg_last_seen_seconds is not in this kubelet's /metrics".
 */
export function availabilityNote(key: FamilyKey, kubeletVersion: string | null = null): string {
	return absentFromBody(families[key], alwaysFromMinor[key], kubeletVersion) ?? `${families[key]} ${familyVersions[key]}`;
}

/**
 * The container-runtime (CRI) families behind a relist. All labelled by `operation_type` (the running
 * containers gauge by `container_state`), so parse.ts reads them with its own line reader (cri-parse.ts): the
 * library collapses a labelled histogram or summary into its last series.
 */
export const criFamilies = {
	/** Histogram per operation_type, seconds (1.14+). */
	duration: 'kubelet_runtime_operations_duration_seconds',
	/** Summary per operation_type, microseconds (before 1.14; deprecated 1.14, off 1.18). */
	legacyLatency: 'kubelet_runtime_operations_latency_microseconds',
	/** Counter per operation_type (1.14+). */
	total: 'kubelet_runtime_operations_total',
	/** Counter per operation_type, the name before 1.14 (deprecated 1.14). */
	legacyTotal: 'kubelet_runtime_operations',
	/** Counter per operation_type (1.14+); a child appears at the operation's first error. */
	errors: 'kubelet_runtime_operations_errors_total',
	/** Counter per operation_type, the name before 1.14 (deprecated 1.14). */
	legacyErrors: 'kubelet_runtime_operations_errors',
	/** Gauge, pods with a running sandbox, set by every relist (1.19+). */
	runningPods: 'kubelet_running_pods',
	/** Gauge, the name before 1.19. */
	legacyRunningPods: 'kubelet_running_pod_count',
	/** Gauge per container_state, set by every relist (1.19+). */
	runningContainers: 'kubelet_running_containers',
	/** Gauge, the name before 1.19 (running containers; label-less before 1.17). */
	legacyRunningContainers: 'kubelet_running_container_count',
	/** dockershim -> docker calls, per operation_type: histogram, seconds (1.14+). */
	dockerDuration: 'kubelet_docker_operations_duration_seconds',
	/** Summary, microseconds (before 1.14). */
	dockerLegacyLatency: 'kubelet_docker_operations_latency_microseconds',
	dockerTotal: 'kubelet_docker_operations_total',
	dockerLegacyTotal: 'kubelet_docker_operations',
	dockerErrors: 'kubelet_docker_operations_errors_total',
	dockerLegacyErrors: 'kubelet_docker_operations_errors',
} as const;

export type CriFamilyKey = keyof typeof criFamilies;

/** The operation_type values a relist makes (kuberuntime GetPods, then GetPodStatus per changed pod). */
export const relistOperationTypes = {
	list_podsandbox: 'listPodSandbox',
	list_containers: 'listContainers',
	podsandbox_status: 'podSandboxStatus',
	container_status: 'containerStatus',
} as const;

/** What dockershim turns those calls into: ListPodSandbox/ListContainers -> list_containers, *Status -> inspect_container. */
export const dockerOperationTypes = {
	list_containers: 'listContainers',
	inspect_container: 'inspectContainer',
} as const;

/** Which kubelet versions expose the CRI figures, for the lines that say why one is missing. */
export const criAvailability = {
	histograms: `${criFamilies.duration} exists from kubelet 1.14 (before: ${criFamilies.legacyLatency}, whose quantiles cannot be windowed)`,
	operations: `runtime operation series (${criFamilies.duration}, ${criFamilies.legacyLatency}) exist in every kubelet with a CRI runtime (dockershim before 1.24)`,
	runningPods: `${criFamilies.runningPods} exists from kubelet 1.19 (${criFamilies.legacyRunningPods} before)`,
	runningContainers: `${criFamilies.runningContainers}{container_state} exists from kubelet 1.19 (${criFamilies.legacyRunningContainers} before)`,
} as const;

/** The CRI families' minors behind criAvailability, for the same old-or-absent distinction. */
const criFromMinor: Partial<Record<keyof typeof criAvailability, {family: string; minor: number}>> = {
	histograms: {family: criFamilies.duration, minor: 14},
	runningPods: {family: criFamilies.runningPods, minor: 19},
	runningContainers: {family: criFamilies.runningContainers, minor: 19},
};

/** criAvailability[key], or "… is not in this kubelet's /metrics" when the kubelet is new enough to expose it. */
export function criAvailabilityNote(key: keyof typeof criAvailability, kubeletVersion: string | null = null): string {
	const since = criFromMinor[key];
	return (since && absentFromBody(since.family, since.minor, kubeletVersion)) ?? criAvailability[key];
}
