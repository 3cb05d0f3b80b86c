// The kubelet's own PLEG health rule (GenericPLEG.Healthy(), pleg-facts.md §2), applied to what /metrics shows,
// with the kubelet's wording so the verdict can be matched against the node's Ready condition.
import {formatGoDuration} from './go-duration.js';
import type {KubeletConstants, LastSeen, Verdict} from './types.js';

/**
 * The kubelet's verdict for the age of the last successful relist: unhealthy when it is strictly greater
 * than the threshold. The gauge is Unix seconds truncated, so the true age lies within one second below ours;
 * the rule is applied to the whole seconds (the age printed in the message), so pleg-top never calls a node
 * unhealthy before its kubelet does.
 */
export function verdict(lastSeen: LastSeen, constants: KubeletConstants): Verdict {
	if (lastSeen.gaugeSeconds !== null) {
		if (lastSeen.neverSucceeded) {
			return {healthy: false, message: 'PLEG is not healthy: pleg has yet to be successful', basis: 'last-seen'};
		}

		return judgeAge(lastSeen.ageSeconds ?? 0, constants, 'last-seen');
	}

	if (lastSeen.countUnchangedSeconds !== null) {
		return judgeAge(lastSeen.countUnchangedSeconds, constants, 'count-unchanged');
	}

	return {healthy: null, message: 'cannot judge yet', basis: 'none'};
}

function judgeAge(ageSeconds: number, constants: KubeletConstants, basis: Verdict['basis']): Verdict {
	const age = Math.floor(ageSeconds);
	const threshold = constants.threshold.seconds;
	if (age > threshold) {
		return {
			healthy: false,
			message: `PLEG is not healthy: pleg was last seen active ${formatGoDuration(age)} ago; threshold is ${formatGoDuration(threshold)}`,
			basis,
		};
	}

	return {healthy: true, message: 'PLEG is healthy', basis};
}
