// Small kubelet /metrics bodies with chosen PLEG totals, and a lab session built from them, for the lab tests.
// Each body has the families a v1.28 kubelet exposes for PLEG, plus noise pleg-top must not record.
import {createLabSession} from '../../source/lab/lab-session.js';
import {createLabRecorder} from '../../source/lab/recorder.js';
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import {recordLines, toRecordLine, type RecordLine} from '../../source/lab/recording.js';
import type {MetricsSource, Scrape} from '../../source/domain/types.js';

/** Bucket bounds of the test histograms, seconds (+Inf = count). */
export const bounds = [0.005, 0.01, 0.1, 1, 10];

export type Totals = {
	count: number;
	sum: number;
	/** Cumulative counts at `bounds`. */
	buckets: number[];
	/** kubelet_pleg_last_seen_seconds, Unix seconds. */
	lastSeen: number;
};

export function plegText(totals: Totals, version = 'v1.28.0'): string {
	const bucketLines = bounds.map((le, index) => `kubelet_pleg_relist_duration_seconds_bucket{le="${le}"} ${totals.buckets[index]}`);
	return [
		'# HELP go_goroutines Number of goroutines that currently exist.',
		'# TYPE go_goroutines gauge',
		'go_goroutines 211',
		'# HELP kubelet_pleg_last_seen_seconds [ALPHA] Timestamp in seconds when PLEG was last seen active.',
		'# TYPE kubelet_pleg_last_seen_seconds gauge',
		`kubelet_pleg_last_seen_seconds ${totals.lastSeen}`,
		'# HELP kubelet_pleg_relist_duration_seconds [ALPHA] Duration in seconds for relisting pods in PLEG.',
		'# TYPE kubelet_pleg_relist_duration_seconds histogram',
		...bucketLines,
		`kubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} ${totals.count}`,
		`kubelet_pleg_relist_duration_seconds_sum ${totals.sum}`,
		`kubelet_pleg_relist_duration_seconds_count ${totals.count}`,
		"# HELP kubernetes_build_info [ALPHA] A metric with a constant '1' value labeled by major, minor, git version.",
		'# TYPE kubernetes_build_info gauge',
		`kubernetes_build_info{git_version="${version}",major="1",minor="28"} 1`,
		'# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.',
		'# TYPE kubernetes_feature_enabled gauge',
		'kubernetes_feature_enabled{name="APIListChunking",stage=""} 1',
		'kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 0',
		'kubernetes_feature_enabled{name="InPlacePodVerticalScaling",stage="ALPHA"} 0',
		'# HELP rest_client_requests_total Number of HTTP requests.',
		'# TYPE rest_client_requests_total counter',
		'rest_client_requests_total{code="200",host="10.0.0.1:6443",method="GET"} 1234',
		'',
	].join('\n');
}

/** 2024-01-15 14:00:00 UTC, ms. */
export const t0 = Date.UTC(2024, 0, 15, 14, 0, 0);

/**
 * The session of the lab tests, one scrape every 10 s, last seen 1 s before each scrape except where noted:
 *   t0        count 100, sum 0.50   (all ≤ 5 ms)
 *   t0+10 s   count 110, sum 0.55   10 relists of 5 ms
 *   t0+20 s   count 120, sum 0.60   10 relists of 5 ms            <- `b` at t0+20.5 s
 *   t0+30 s   count 128, sum 1.40   8 relists of 100 ms (in (0.01, 0.1]), last seen 4 s ago
 *   t0+40 s   count 136, sum 2.20   8 relists of 100 ms
 * Baseline (t0 → t0+20 s): Δcount 20, Δsum 0.1 s -> mean 5 ms, 1 relist/s.
 * Mark 1 (t0+20 s → t0+40 s): Δcount 16, Δsum 1.6 s -> mean 100 ms, 0.8 relists/s, ×20 the baseline.
 */
export const labTotals: Array<{at: number; totals: Totals}> = [
	{at: t0, totals: {count: 100, sum: 0.5, buckets: [100, 100, 100, 100, 100], lastSeen: t0 / 1000 - 1}},
	{at: t0 + 10_000, totals: {count: 110, sum: 0.55, buckets: [110, 110, 110, 110, 110], lastSeen: t0 / 1000 + 9}},
	{at: t0 + 20_000, totals: {count: 120, sum: 0.6, buckets: [120, 120, 120, 120, 120], lastSeen: t0 / 1000 + 19}},
	{at: t0 + 30_000, totals: {count: 128, sum: 1.4, buckets: [120, 120, 128, 128, 128], lastSeen: t0 / 1000 + 26}},
	{at: t0 + 40_000, totals: {count: 136, sum: 2.2, buckets: [120, 120, 136, 136, 136], lastSeen: t0 / 1000 + 39}},
];

export const markAt = t0 + 20_500;

export function scrapeAt(at: number, totals: Totals): Scrape {
	// The answer's Date on this machine's clock: a node with no clock offset.
	return {at, sample: parsePlegSample(plegText(totals)), latencyMs: 0, dateSeconds: Math.floor(at / 1000)};
}

/** The lab session of labTotals with `b` at markAt (after the third scrape), window 10 s. */
export function labSession(options: {mark?: boolean} = {}) {
	const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
	for (const [index, {at, totals}] of labTotals.entries()) {
		if (index === 3 && options.mark !== false) lab.mark(markAt);
		lab.scrape(scrapeAt(at, totals));
	}

	return lab;
}

/** labTotals as --record writes them: the lines kept, the session's figures at each scrape, the mark on the 4th line. */
export function labRecords(): RecordLine[] {
	const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
	return labTotals.map(({at, totals}, index) => {
		if (index === 3) lab.mark(markAt);
		const text = plegText(totals);
		const scrape = scrapeAt(at, totals);
		const {figures, markAt: pending} = lab.scrape(scrape);
		// As --record writes them: each line carries its answer's Date.
		return toRecordLine(recordLines(text), figures, pending, {dateSeconds: scrape.dateSeconds});
	});
}

export function assertClose(actual: number | null | undefined, expected: number, tolerance = 1e-9): void {
	if (typeof actual !== 'number' || Math.abs(actual - expected) > tolerance) {
		throw new Error(`${actual} is not within ${tolerance} of ${expected}`);
	}
}

/**
 * A stall past the threshold, one scrape a minute, `b` at t0+60.5 s (after the second scrape):
 *   t0        count 100, sum 0.50     last seen t0-1 s       age 1 s
 *   t0+60 s   count 160, sum 0.80     last seen t0+59 s      60 relists of 5 ms            <- `b` at t0+60.5 s
 *   t0+120 s  count 170, sum 0.85     last seen t0+69 s      10 more; the relist started at t0+70 s hangs
 *   t0+180 s  unchanged                                      age 111 s
 *   t0+240 s  unchanged                                      age 171 s: still healthy
 *   t0+300 s  unchanged                                      age 231 s: not healthy since t0+69 s + 180 s = t0+249 s
 *   t0+360 s  unchanged                                      age 291 s
 *   t0+420 s  count 175, sum 344.87   last seen t0+415 s     the hung relist returned after 344 s (+Inf bucket),
 *                                                            then 4 of 5 ms; the one that started at t0+415 s ended it
 */
export const stallTotals: Array<{at: number; totals: Totals}> = [
	{at: t0, totals: {count: 100, sum: 0.5, buckets: [100, 100, 100, 100, 100], lastSeen: t0 / 1000 - 1}},
	{at: t0 + 60_000, totals: {count: 160, sum: 0.8, buckets: [160, 160, 160, 160, 160], lastSeen: t0 / 1000 + 59}},
	...[120, 180, 240, 300, 360].map((seconds) => ({
		at: t0 + seconds * 1000,
		totals: {count: 170, sum: 0.85, buckets: [170, 170, 170, 170, 170], lastSeen: t0 / 1000 + 69},
	})),
	{at: t0 + 420_000, totals: {count: 175, sum: 344.87, buckets: [174, 174, 174, 174, 174], lastSeen: t0 / 1000 + 415}},
];

export const stallMarkAt = t0 + 60_500;

/** The session of stallTotals, `b` after the second scrape, window 10 s. */
export function stallSession() {
	const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
	for (const [index, {at, totals}] of stallTotals.entries()) {
		if (index === 2) lab.mark(stallMarkAt);
		lab.scrape(scrapeAt(at, totals));
	}

	return lab;
}

/** stallTotals as --record writes them, the mark on the third line; `upTo` keeps the first lines only. */
export function stallRecords(upTo = stallTotals.length): RecordLine[] {
	const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
	return stallTotals.slice(0, upTo).map(({at, totals}, index) => {
		if (index === 2) lab.mark(stallMarkAt);
		const text = plegText(totals);
		const scrape = scrapeAt(at, totals);
		const {figures, markAt: pending} = lab.scrape(scrape);
		// As --record writes them: each line carries its answer's Date.
		return toRecordLine(recordLines(text), figures, pending, {dateSeconds: scrape.dateSeconds});
	});
}

/** Scrapes as --record writes them (the lines kept, the session's figures at each scrape), window 10 s, no mark. */
export function recordsOf(scrapes: ReadonlyArray<{at: number; totals: Totals}>): RecordLine[] {
	const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
	return scrapes.map(({at, totals}) => {
		const text = plegText(totals);
		return toRecordLine(recordLines(text), lab.scrape({at, sample: parsePlegSample(text), latencyMs: 0}).figures, null);
	});
}

/** A recording file's text: one JSON line per record. */
export function recordingText(records: readonly RecordLine[]): string {
	return records.map((record) => JSON.stringify(record) + '\n').join('');
}

/**
 * A kubelet restart, one scrape a second:
 *   t0, t0+1 s      count 100, 101; last seen 1 s ago     healthy
 *   t0+2 s … t0+5 s count 0, gauge 0                      restarted, no relist succeeded yet: "pleg has yet to be successful"
 *   t0+6 s          count 1, sum 5 ms; last seen t0+5 s   the first relist after the start, healthy again
 * Not healthy from the first scrape that saw it (t0+2 s, no gauge to date it by) for at least 3 s (to t0+5 s, the last
 * scrape that saw it, which is also the start of the relist that ended it), at most 4 s (to the healthy scrape).
 */
export const restartTotals: Array<{at: number; totals: Totals}> = [
	{at: t0, totals: {count: 100, sum: 0.5, buckets: [100, 100, 100, 100, 100], lastSeen: t0 / 1000 - 1}},
	{at: t0 + 1000, totals: {count: 101, sum: 0.505, buckets: [101, 101, 101, 101, 101], lastSeen: t0 / 1000}},
	...[2, 3, 4, 5].map((seconds) => ({at: t0 + seconds * 1000, totals: {count: 0, sum: 0, buckets: [0, 0, 0, 0, 0], lastSeen: 0}})),
	{at: t0 + 6000, totals: {count: 1, sum: 0.005, buckets: [1, 1, 1, 1, 1], lastSeen: t0 / 1000 + 5}},
];

/**
 * A steady node written to `file` by the --record recorder itself: `lines` scrapes one second apart from t0, one
 * relist of 5 ms between two (count 100 + i, sum 0.5 + 0.005 i at scrape i, every relist ≤ 5 ms), last seen 1 s
 * before each scrape. Over the whole recording: lines − 1 relists in lines − 1 seconds, mean 5 ms, 1 relist/s.
 */
export function writeSteadyRecording(file: string, lines: number): void {
	let at = t0;
	const source: MetricsSource = {label: 'steady', node: 'worker-1', fetchMetrics: async () => ''};
	const recorder = createLabRecorder({source, windowSeconds: 10, file});
	try {
		for (let i = 0; i < lines; i++, at += 1000) {
			const count = 100 + i;
			const text = plegText({count, sum: 0.5 + 0.005 * i, buckets: bounds.map(() => count), lastSeen: at / 1000 - 1});
			recorder.payload(text, {at, sample: parsePlegSample(text), latencyMs: 0});
		}
	} finally {
		recorder.close();
	}
}
