// The kubelet metric families pleg-top reads, and which kubelet versions expose each one
// (pleg-facts.md §4), so a missing figure can say why it is missing.

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

/** Families whose samples carry `_bucket`/`_sum`/`_count` suffixes. */
export const suffixedFamilies: ReadonlySet<string> = new Set([
	families.relistDuration,
	families.relistInterval,
	families.legacyRelistLatency,
	families.legacyRelistInterval,
]);

/** The label of kubernetes_feature_enabled that names the Evented PLEG gate. */
export const eventedPlegGateName = 'EventedPLEG';

/** Which kubelet versions expose each family (pleg-facts.md §4, metric table). */
export const familyVersions: Record<FamilyKey, string> = {
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

/** "kubelet_pleg_last_seen_seconds exists from kubelet 1.18" */
export function availabilityNote(key: FamilyKey): string {
	return `${families[key]} ${familyVersions[key]}`;
}
