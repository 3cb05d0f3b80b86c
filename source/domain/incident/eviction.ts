// The eviction horizon: once the Node is NotReady, the node controller taints it not-ready:NoExecute, and every pod
// that tolerates the taint only for the default 300 s (the DefaultTolerationSeconds admission plugin adds that to
// each pod that sets none) is evicted that long after. Counted from the Ready condition's lastTransitionTime: the
// API server's clock against the local one, and the taint lands a little after the condition, hence "~".
import {formatAge} from '../text/format.js';
import type {NodeInfo, PodCount} from '../types.js';

/** DefaultTolerationSeconds: --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
const defaultTolerationSeconds = 300;

/**
 * Seconds until pods with the default toleration are evicted, at `now` (ms): negative once it has passed; null while
 * the Node is Ready (or its condition or the time it changed was not read).
 */
export function evictionInSeconds(ready: NodeInfo['ready'] | undefined, now: number): number | null {
	if (!ready || ready.status === 'True' || ready.since === null) {
		return null;
	}

	return (ready.since - now) / 1000 + defaultTolerationSeconds;
}

/** "pods evicted in ~4m12s (default tolerationSeconds)", or once passed "pods being evicted for ~1m3s (…)". */
export function evictionText(seconds: number): string {
	return seconds >= 0
		? `pods evicted in ~${formatAge(seconds)} (default tolerationSeconds)`
		: `pods being evicted for ~${formatAge(-seconds)} (default tolerationSeconds)`;
}

/** "23 pods on the node", or why they were not counted. */
export function podsText(pods: PodCount): string {
	if (pods.count === null) return `pods not counted: ${pods.error}`;
	return pods.count === 1 ? '1 pod on the node' : `${pods.count} pods on the node`;
}
