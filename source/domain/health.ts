// The kubelet's own PLEG health rule (GenericPLEG.Healthy() in pkg/kubelet/pleg/generic.go), applied to what
// /metrics shows, with the kubelet's wording so the verdict can be matched against the node's Ready condition.
import {formatGoDuration} from './go-duration.js';
import type {FeedStatus, KubeletConstants, LastSeen, StaleReading, Verdict} from './types.js';

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

/**
 * The verdict while the last scrape failed: unknown, whatever the last good scrape said, because the kubelet may
 * have gone either way since. The message gives the age of the last good scrape and its verdict; an age that has
 * since passed the threshold is pleg-top's estimate (the kubelet may have relisted meanwhile), said as such.
 * `estimate` is the rule applied at `now` to the last good scrape's gauge, `then` at that scrape's time.
 * Not stale (no failure, or no good scrape yet): `estimate` itself and no StaleReading.
 */
export function judgeWhileStale(
	status: FeedStatus,
	now: number,
	then: Verdict,
	estimate: Verdict,
	ageNowSeconds: number | null,
	constants: KubeletConstants,
): {verdict: Verdict; stale: StaleReading | null} {
	if (!status.failure || status.lastGoodAt === null) {
		return {verdict: estimate, stale: null};
	}

	const lastGoodAgeSeconds = Math.max(0, (now - status.lastGoodAt) / 1000);
	const estimatePastThreshold = estimate.healthy === false && then.healthy !== false && ageNowSeconds !== null;
	const age = formatGoDuration(Math.floor(ageNowSeconds ?? 0));
	const what = estimate.basis === 'count-unchanged' ? `relist count unchanged for up to ${age}` : `last seen up to ${age} ago`;
	const estimateText = estimatePastThreshold
		? `; pleg-top's estimate: ${what}, past the ${formatGoDuration(constants.threshold.seconds)} threshold`
		: '';
	return {
		verdict: {
			healthy: null,
			message: `verdict unknown: the last good scrape is ${formatGoDuration(Math.floor(lastGoodAgeSeconds))} old (then: ${then.message})${estimateText}`,
			basis: 'none',
		},
		stale: {failure: status.failure.summary, lastGoodAt: status.lastGoodAt, lastGoodAgeSeconds, verdictThen: then, estimatePastThreshold},
	};
}
