// Scripted /metrics bodies at the edges of the text format (not a test file): a relist histogram in two series
// that differ by an extra label, a real dump roughened with tabs, exemplars, a family without TYPE and a duplicate
// family, and a cAdvisor-like body without any PLEG series. Used by the unit tests and the CLI tests.

const duration = 'kubelet_pleg_relist_duration_seconds';

/** Cumulative bucket counts at le 0.005, 0.01, 0.025 and +Inf, then _sum and _count. */
type Series = {buckets: [number, number, number, number]; sum: number; count: number};

/**
 * Two series of the relist histogram per scrape, `instance="a"` and `instance="b"` (the label written before `le`
 * in one, after it in the other):
 *   scrape 1  a: 100 150 180 200, sum 2,    count 200   b: 50 60 70 80, sum 1,    count 80
 *   scrape 2  a: 110 165 195 215, sum 2.25, count 215   b: 52 64 75 85, sum 1.25, count 85
 * Added up: scrape 1 150 210 250 280, sum 3, count 280; scrape 2 162 229 270 300, sum 3.5, count 300.
 * Between them: 20 relists, Δsum 0.5 s (mean 25 ms), bucket deltas 12, 19, 20, 20.
 */
const instanceSeries: Record<1 | 2, {a: Series; b: Series}> = {
	1: {a: {buckets: [100, 150, 180, 200], sum: 2, count: 200}, b: {buckets: [50, 60, 70, 80], sum: 1, count: 80}},
	2: {a: {buckets: [110, 165, 195, 215], sum: 2.25, count: 215}, b: {buckets: [52, 64, 75, 85], sum: 1.25, count: 85}},
};

const bounds = ['0.005', '0.01', '0.025', '+Inf'];

/** A 1.28-like body whose relist histogram comes in the two series of `instanceSeries[scrape]`. */
export function twoInstanceBody(scrape: 1 | 2, lastSeenSeconds: number): string {
	const {a, b} = instanceSeries[scrape];
	return [
		'# HELP go_goroutines Number of goroutines that currently exist.',
		'# TYPE go_goroutines gauge',
		'go_goroutines 211',
		'# HELP kubelet_pleg_discard_events [ALPHA] The number of discard events in PLEG.',
		'# TYPE kubelet_pleg_discard_events counter',
		'kubelet_pleg_discard_events 0',
		'# HELP kubelet_pleg_last_seen_seconds [ALPHA] Timestamp in seconds when PLEG was last seen active.',
		'# TYPE kubelet_pleg_last_seen_seconds gauge',
		`kubelet_pleg_last_seen_seconds ${lastSeenSeconds}`,
		`# HELP ${duration} [ALPHA] Duration in seconds for relisting pods in PLEG.`,
		`# TYPE ${duration} histogram`,
		...bounds.map((le, index) => `${duration}_bucket{instance="a",le="${le}"} ${a.buckets[index]}`),
		`${duration}_sum{instance="a"} ${a.sum}`,
		`${duration}_count{instance="a"} ${a.count}`,
		...bounds.map((le, index) => `${duration}_bucket{le="${le}",instance="b"} ${b.buckets[index]}`),
		`${duration}_sum{instance="b"} ${b.sum}`,
		`${duration}_count{instance="b"} ${b.count}`,
		'# HELP kubelet_pleg_relist_interval_seconds [ALPHA] Interval in seconds between relisting in PLEG.',
		'# TYPE kubelet_pleg_relist_interval_seconds histogram',
		`kubelet_pleg_relist_interval_seconds_bucket{le="1"} 0`,
		`kubelet_pleg_relist_interval_seconds_bucket{le="+Inf"} ${a.count + b.count - 1}`,
		`kubelet_pleg_relist_interval_seconds_sum ${1.5 * (a.count + b.count - 1)}`,
		`kubelet_pleg_relist_interval_seconds_count ${a.count + b.count - 1}`,
		"# HELP kubernetes_build_info [ALPHA] A metric with a constant '1' value labeled by major, minor, git version.",
		'# TYPE kubernetes_build_info gauge',
		'kubernetes_build_info{git_version="v1.28.4",major="1",minor="28"} 1',
		'',
	].join('\n');
}

/** The note the reader adds for the two series of twoInstanceBody. */
export const instanceNote = `relist duration: 2 series of ${duration} that differ by label instance, added up`;

/** The note the reader adds for the duplicate discard family of roughen. */
export const duplicateDiscardNote = 'discard events: kubelet_pleg_discard_events appears more than once in the body; the first one is read';

/**
 * A kubelet body with what the text format allows and the kubelet never writes, same figures: the relist duration
 * family without its TYPE line (untyped), an exemplar after each of its bucket values, the interval's TYPE line
 * with tabs between its tokens, a tab before the value of its _sum, blanks between the last-seen gauge's name and
 * an empty label set, and a second copy of the discard family (with another value) at the end.
 */
export function roughen(text: string): string {
	const lines = text
		.trimEnd()
		.split('\n')
		.flatMap((line) => {
			if (line === `# TYPE ${duration} histogram`) {
				return [];
			}

			if (line.startsWith(`${duration}_bucket{`)) {
				return [`${line} # {trace_id="4bf92f3577b34da6a3ce929d0e0e4736"} 0.0042 1.6e+09`];
			}

			if (line === '# TYPE kubelet_pleg_relist_interval_seconds histogram') {
				return ['#\tTYPE\tkubelet_pleg_relist_interval_seconds\thistogram'];
			}

			if (line.startsWith('kubelet_pleg_relist_interval_seconds_sum ')) {
				return [line.replace(' ', '\t')];
			}

			if (line.startsWith('kubelet_pleg_last_seen_seconds ')) {
				return [line.replace(' ', ' \t{} ')];
			}

			return [line];
		});
	return [
		...lines,
		'# HELP kubelet_pleg_discard_events [ALPHA] The number of discard events in PLEG.',
		'# TYPE kubelet_pleg_discard_events counter',
		'kubelet_pleg_discard_events 999',
		'',
	].join('\n');
}

/** What cAdvisor's /metrics/cadvisor serves on a kubelet port: valid text, not one PLEG series. */
export const cadvisorBody = [
	"# HELP cadvisor_version_info A metric with a constant '1' value labeled by kernel version, OS version, docker version, cadvisor version & cadvisor revision.",
	'# TYPE cadvisor_version_info gauge',
	'cadvisor_version_info{cadvisorRevision="",cadvisorVersion="",dockerVersion="",kernelVersion="5.15.0-1057-azure",osVersion="Ubuntu 22.04.4 LTS"} 1',
	'# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
	'# TYPE container_cpu_usage_seconds_total counter',
	'container_cpu_usage_seconds_total{container="",cpu="total",id="/",image="",name="",namespace="",pod=""} 4.1358625e+06 1700000000000',
	'# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes',
	'# TYPE container_memory_working_set_bytes gauge',
	'container_memory_working_set_bytes{container="",id="/",image="",name="",namespace="",pod=""} 5.968904192e+09 1700000000000',
	'# HELP machine_cpu_cores Number of logical CPU cores.',
	'# TYPE machine_cpu_cores gauge',
	'machine_cpu_cores{boot_id="3c8e8c1b",machine_id="",system_uuid="ec2d3e5a"} 8',
	'',
].join('\n');
