// The kubelet's own PLEG health rule (GenericPLEG.Healthy() in pkg/kubelet/pleg/generic.go), applied to what
// /metrics shows, with the kubelet's wording so the verdict can be matched against the node's Ready condition.
import {formatGoDuration} from '../text/go-duration.js';
import type {FeedStatus, Figures, KubeletConstants, LastSeen, StaleReading, Verdict} from '../types.js';

/**
 * The one set of bands every screen, report and exit code uses. ok / warn / critical / unhealthy follow the age the
 * rule is applied to (the gauge's, else count unchanged), in whole seconds as it is shown; unknown when the
 * figures cannot be judged (no basis yet, or the last scrape failed).
 */
export type Band = 'ok' | 'warn' | 'critical' | 'unhealthy' | 'unknown';

/** The bands an age can fall in. */
export type AgeBand = Exclude<Band, 'unknown'>;

/** Worst last: --fail-on BAND is reached by that band and every band after it. */
const bandOrder: readonly AgeBand[] = ['ok', 'warn', 'critical', 'unhealthy'];

/**
 * Ages up to this are normal, seconds. Generic PLEG: 5 × 1 s = 5 s, the 1 s period + relist time + 1 s gauge
 * truncation + up to ~1 s health-check cadence. Scaled with the period so the evented PLEG (300 s period) is not
 * "warn" between its relists, and capped at half the threshold so warn comes before critical.
 */
export function warnAfterSeconds(constants: KubeletConstants): number {
	return Math.min(5 * constants.period.seconds, constants.threshold.seconds / 2);
}

/**
 * threshold / mean relist: how many mean relists fit in the time Healthy() allows, the lab's finding. None for no
 * mean, or one of 0 or less (a counter fault), which would read as an endless margin.
 */
export function thresholdToMean(thresholdSeconds: number | null, meanSeconds: number | null): number | null {
	return thresholdSeconds === null || meanSeconds === null || meanSeconds <= 0 ? null : thresholdSeconds / meanSeconds;
}

/** Critical from this age on, seconds: half the threshold in force (90 s generic, 300 s evented). */
export function criticalFromSeconds(constants: KubeletConstants): number {
	return constants.threshold.seconds / 2;
}

/**
 * The band of an age. Whole seconds, as the age is shown ("5s ago" must not read "warn > 5s") and as the rule is
 * applied below: unhealthy is the kubelet's elapsed > threshold on the whole seconds, so no band turns unhealthy
 * before the verdict does.
 */
export function ageBand(ageSeconds: number, constants: KubeletConstants): AgeBand {
	const shown = Math.floor(ageSeconds);
	if (shown > constants.threshold.seconds) {
		return 'unhealthy';
	}

	if (shown >= criticalFromSeconds(constants)) {
		return 'critical';
	}

	return shown > warnAfterSeconds(constants) ? 'warn' : 'ok';
}

/** The age the verdict was judged on: the gauge's, or count unchanged without one; null when there is none. */
export function ruleAgeSeconds(lastSeen: LastSeen): number | null {
	return lastSeen.ageSeconds ?? lastSeen.countUnchangedSeconds;
}

type Judged = Pick<Figures, 'verdict' | 'lastSeen' | 'constants'>;

/**
 * The figures' band: unknown whenever the verdict is (stale, or nothing to judge by), unhealthy whenever the verdict
 * is not healthy (a gauge of 0 too), else the band of the age it was judged on.
 */
export function bandOf(figures: Judged): Band {
	const {healthy} = figures.verdict;
	if (healthy === null) {
		return 'unknown';
	}

	if (!healthy) {
		return 'unhealthy';
	}

	const age = ruleAgeSeconds(figures.lastSeen);
	return age === null ? 'unknown' : ageBand(age, figures.constants);
}

/** Whether `band` is `atLeast` or worse; unknown reaches none (it cannot be judged). */
export function bandReaches(band: Band, atLeast: AgeBand): boolean {
	return band !== 'unknown' && bandOrder.indexOf(band) >= bandOrder.indexOf(atLeast);
}

/**
 * threshold − age, seconds: how far the age is from the threshold, negative once past it. Null when the band is
 * unknown or there is no age (a gauge of 0).
 */
export function secondsToThreshold(figures: Judged): number | null {
	const age = ruleAgeSeconds(figures.lastSeen);
	return bandOf(figures) === 'unknown' || age === null ? null : figures.constants.threshold.seconds - age;
}

/**
 * The countdown's seconds left at an age: the threshold − the whole seconds of the age (as the age is shown), so
 * the age shown and the time left add up to the threshold. 0 or less: NotReady is due now.
 */
export function countdownSecondsLeft(ageSeconds: number, thresholdSeconds: number): number {
	return thresholdSeconds - Math.floor(ageSeconds);
}

/** The countdown's time left in words, after "NotReady in" (a column titled so): "8s", or "due now" once none is left. */
export function countdownLeftText(leftSeconds: number): string {
	return leftSeconds > 0 ? formatGoDuration(leftSeconds) : 'due now';
}

/** "NotReady in 8s", or "NotReady due now" once no whole second is left: the one-node verdict's and the overview's. */
export function notReadyWhenText(leftSeconds: number): string {
	return `NotReady ${leftSeconds > 0 ? 'in ' : ''}${countdownLeftText(leftSeconds)}`;
}

/**
 * While healthy past the ok band: when the rule will trip if no relist succeeds meanwhile, pleg-top's estimate
 * from the whole seconds shown: "NotReady in 8s (last seen 2m52s ago; threshold 3m0s)". Null in the ok band and
 * whenever the band is not warn or critical.
 */
export function countdownText(figures: Judged): string | null {
	const band = bandOf(figures);
	const age = ruleAgeSeconds(figures.lastSeen);
	if ((band !== 'warn' && band !== 'critical') || age === null) {
		return null;
	}

	const shown = Math.floor(age);
	const threshold = figures.constants.threshold.seconds;
	const when = notReadyWhenText(countdownSecondsLeft(age, threshold));
	const what =
		figures.verdict.basis === 'count-unchanged'
			? `relist count unchanged for ${formatGoDuration(shown)}`
			: `last seen ${formatGoDuration(shown)} ago`;
	return `${when} (${what}; threshold ${formatGoDuration(threshold)})`;
}

/**
 * What else the verdict weighs besides the gauge's age, each clock-free or said to be unsure (feed.ts gathers them).
 * Every field may be left out: the age alone is then judged as before.
 */
export type VerdictEvidence = {
	/**
	 * The node's Ready condition says PLEG is not healthy (readyPlegWords) and no relist was seen to succeed since it
	 * was read: the kubelet's own words. Null when it says nothing of PLEG, or a relist succeeded since.
	 */
	readyPleg?: string | null;
	/**
	 * Seconds of this machine's clock for which neither the relist count nor the gauge moved: a relist ending moves
	 * the count, one succeeding moves the gauge, so the last successful relist started at least that long ago, on any
	 * clock. Null without a count.
	 */
	unmovedSeconds?: number | null;
	/** The node's clock offset is not known (no Date header, no relist seen to complete): the age is this machine's. */
	clockUnknown?: boolean;
};

/**
 * The kubelet's verdict for the age of the last successful relist: unhealthy when it is strictly greater
 * than the threshold. The gauge is Unix seconds truncated, so the true age lies within one second below ours;
 * the rule is applied to the whole seconds (the age printed in the message), so pleg-top never calls a node
 * unhealthy before its kubelet does. Then the evidence: the node's own "PLEG is not healthy" is never read as
 * healthy; a count and gauge unmoved past the threshold is a stall whatever the clocks; and an age past the
 * threshold on this machine's clock alone, with the node's clock unknown, is not judged (it may be the offset).
 */
export function verdict(lastSeen: LastSeen, constants: KubeletConstants, evidence: VerdictEvidence = {}): Verdict {
	const byAge = ageVerdict(lastSeen, constants);
	if (byAge.healthy === false && byAge.basis === 'last-seen' && !lastSeen.neverSucceeded && evidence.clockUnknown) {
		const age = formatGoDuration(Math.floor(lastSeen.ageSeconds ?? 0));
		const held: Verdict = {
			healthy: null,
			message: `cannot judge yet: last seen ${age} ago by this machine's clock, and the node's clock is not known yet`,
			basis: 'none',
		};
		return evidenceVerdict(held, constants, evidence) ?? held;
	}

	return byAge.healthy === false ? byAge : (evidenceVerdict(byAge, constants, evidence) ?? byAge);
}

/** The verdict of the evidence when it says not healthy where the age did not; null when it adds nothing. */
function evidenceVerdict(byAge: Verdict, constants: KubeletConstants, evidence: VerdictEvidence): Verdict | null {
	if (evidence.readyPleg) {
		return {healthy: false, message: evidence.readyPleg, basis: 'ready-condition'};
	}

	const unmoved = evidence.unmovedSeconds ?? null;
	const threshold = constants.threshold.seconds;
	if (byAge.basis !== 'count-unchanged' && unmoved !== null && Math.floor(unmoved) > threshold) {
		return {
			healthy: false,
			message: `PLEG is not healthy: no relist has ended and the last-seen gauge has not moved for ${formatGoDuration(Math.floor(unmoved))}; threshold is ${formatGoDuration(threshold)}`,
			basis: 'unmoved',
		};
	}

	return null;
}

/**
 * "PLEG is not healthy: pleg was last seen active 3m6s ago; threshold is 3m0s" out of a Ready message, which may
 * aggregate several errors as "[a, b]" (apimachinery's errors.Aggregate); null when it says nothing of PLEG.
 */
export function readyPlegWords(message: string | null): string | null {
	return /PLEG is not healthy: [^,\]]*/.exec(message ?? '')?.[0].trim() ?? null;
}

function ageVerdict(lastSeen: LastSeen, constants: KubeletConstants): Verdict {
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
