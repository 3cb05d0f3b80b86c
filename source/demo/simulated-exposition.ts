// Renders the simulated kubelet's state as Prometheus text exposition 0.0.4, shaped like a real kubelet's /metrics:
// families sorted by name, "[ALPHA] " HELP prefixes, label-less PLEG series, values formatted as Go's expfmt does.
import type {HistogramView} from './simulated-histogram.js';

type RuntimeOperationView = {
	/** operation_type label, e.g. "list_podsandbox". */
	op: string;
	duration: HistogramView;
	errors: number;
};

export type RunningContainers = {created: number; exited: number; running: number; unknown: number};

export type KubeletMetricsView = {
	nodeName: string;
	kubeletVersion: string;
	/** kubelet_pleg_last_seen_seconds: whole Unix seconds; 0 before the first successful relist. */
	lastSeenSeconds: number;
	discardEvents: number;
	relistDuration: HistogramView;
	relistInterval: HistogramView;
	runningPods: number;
	/** null until the first relist after a (re)start has set the GaugeVec: it has no series before that. */
	runningContainers: RunningContainers | null;
	/** Only the operation types observed since the kubelet started, sorted by `op` (a HistogramVec has no other children). */
	runtimeOperations: RuntimeOperationView[];
	/** Unix seconds. */
	processStartSeconds: number;
	goroutines: number;
	heapAllocBytes: number;
};

/**
 * A float64 as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it (what expfmt uses): shortest digits,
 * exponent form when the decimal exponent is < -4 or >= 6 (e.g. 1.67195e+06), and +Inf/-Inf/NaN.
 */
export function formatGoFloat(value: number): string {
	if (Number.isNaN(value)) {
		return 'NaN';
	}

	if (!Number.isFinite(value)) {
		return value > 0 ? '+Inf' : '-Inf';
	}

	if (value === 0) {
		return Object.is(value, -0) ? '-0' : '0';
	}

	const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
	const exponent = Number(exponentText);
	if (exponent < -4 || exponent >= 6) {
		const digits = String(Math.abs(exponent)).padStart(2, '0');
		return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
	}

	return String(value);
}

function escapeLabelValue(value: string): string {
	return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** `{a="x",b="y"}`, or '' when there are no labels. Label order is kept as given (the kubelet's is sorted). */
function formatLabels(labels: ReadonlyArray<readonly [string, string]>): string {
	if (labels.length === 0) {
		return '';
	}

	return `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

export function familyHeader(name: string, type: 'counter' | 'gauge' | 'histogram' | 'summary', help: string): string {
	return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
}

/** The _bucket/_sum/_count lines of one histogram series; buckets written cumulatively. */
export function histogramLines(name: string, labels: ReadonlyArray<readonly [string, string]>, histogram: HistogramView): string {
	let text = '';
	let cumulative = 0;
	for (let index = 0; index <= histogram.bounds.length; index++) {
		cumulative += histogram.counts[index] ?? 0;
		const le = index < histogram.bounds.length ? formatGoFloat(histogram.bounds[index]!) : '+Inf'; // in bounds
		text += `${name}_bucket${formatLabels([...labels, ['le', le]])} ${formatGoFloat(cumulative)}\n`;
	}

	const suffixLabels = formatLabels(labels);
	text += `${name}_sum${suffixLabels} ${formatGoFloat(histogram.sum)}\n`;
	text += `${name}_count${suffixLabels} ${formatGoFloat(histogram.count)}\n`;
	return text;
}

function sampleLine(name: string, labels: ReadonlyArray<readonly [string, string]>, value: number): string {
	return `${name}${formatLabels(labels)} ${formatGoFloat(value)}\n`;
}

type BuildInfo = {buildDate: string; gitCommit: string; goVersion: string};

// Real metadata for the default demo version; other versions get neutral placeholders.
const knownBuilds: Record<string, BuildInfo> = {
	'v1.28.4': {buildDate: '2023-11-15T16:48:54Z', gitCommit: 'bae2c62678db2b5053817bc97181fcc2e8388103', goVersion: 'go1.20.11'},
};

function buildInfoLine(version: string): string {
	const build = knownBuilds[version] ?? {buildDate: '1970-01-01T00:00:00Z', gitCommit: '0'.repeat(40), goVersion: 'go1.20.11'};
	const [major = '1', minor = '0'] = version.replace(/^v/, '').split('.');
	return sampleLine(
		'kubernetes_build_info',
		[
			['build_date', build.buildDate],
			['compiler', 'gc'],
			['git_commit', build.gitCommit],
			['git_tree_state', 'clean'],
			['git_version', version],
			['go_version', build.goVersion],
			['major', major],
			['minor', minor],
			['platform', 'linux/amd64'],
		],
		1,
	);
}

function goVersionOf(version: string): string {
	return knownBuilds[version]?.goVersion ?? 'go1.20.11';
}

function goFamilies(view: KubeletMetricsView): string {
	return (
		familyHeader('go_goroutines', 'gauge', 'Number of goroutines that currently exist.') +
		sampleLine('go_goroutines', [], view.goroutines) +
		familyHeader('go_info', 'gauge', 'Information about the Go environment.') +
		sampleLine('go_info', [['version', goVersionOf(view.kubeletVersion)]], 1) +
		familyHeader('go_memstats_heap_alloc_bytes', 'gauge', 'Number of heap bytes allocated and still in use.') +
		sampleLine('go_memstats_heap_alloc_bytes', [], view.heapAllocBytes)
	);
}

function plegFamilies(view: KubeletMetricsView): string {
	return (
		familyHeader('kubelet_node_name', 'gauge', "[ALPHA] The node's name. The count is always 1.") +
		sampleLine('kubelet_node_name', [['node', view.nodeName]], 1) +
		familyHeader('kubelet_pleg_discard_events', 'counter', '[ALPHA] The number of discard events in PLEG.') +
		sampleLine('kubelet_pleg_discard_events', [], view.discardEvents) +
		familyHeader('kubelet_pleg_last_seen_seconds', 'gauge', '[ALPHA] Timestamp in seconds when PLEG was last seen active.') +
		sampleLine('kubelet_pleg_last_seen_seconds', [], view.lastSeenSeconds) +
		familyHeader('kubelet_pleg_relist_duration_seconds', 'histogram', '[ALPHA] Duration in seconds for relisting pods in PLEG.') +
		histogramLines('kubelet_pleg_relist_duration_seconds', [], view.relistDuration) +
		familyHeader('kubelet_pleg_relist_interval_seconds', 'histogram', '[ALPHA] Interval in seconds between relisting in PLEG.') +
		histogramLines('kubelet_pleg_relist_interval_seconds', [], view.relistInterval)
	);
}

function runningFamilies(view: KubeletMetricsView): string {
	let text = '';
	const containers = view.runningContainers;
	if (containers) {
		text += familyHeader('kubelet_running_containers', 'gauge', '[ALPHA] Number of containers currently running');
		for (const state of ['created', 'exited', 'running', 'unknown'] as const) {
			text += sampleLine('kubelet_running_containers', [['container_state', state]], containers[state]);
		}
	}

	return (
		text +
		familyHeader('kubelet_running_pods', 'gauge', '[ALPHA] Number of pods currently running') +
		sampleLine('kubelet_running_pods', [], view.runningPods)
	);
}

function runtimeFamilies(view: KubeletMetricsView): string {
	const operations = view.runtimeOperations;
	if (operations.length === 0) {
		return '';
	}

	let text = familyHeader(
		'kubelet_runtime_operations_duration_seconds',
		'histogram',
		'[ALPHA] Duration in seconds of runtime operations. Broken down by operation type.',
	);
	for (const operation of operations) {
		text += histogramLines('kubelet_runtime_operations_duration_seconds', [['operation_type', operation.op]], operation.duration);
	}

	const failing = operations.filter((operation) => operation.errors > 0);
	if (failing.length > 0) {
		text += familyHeader(
			'kubelet_runtime_operations_errors_total',
			'counter',
			'[ALPHA] Cumulative number of runtime operation errors by operation type.',
		);
		for (const operation of failing) {
			text += sampleLine('kubelet_runtime_operations_errors_total', [['operation_type', operation.op]], operation.errors);
		}
	}

	text += familyHeader('kubelet_runtime_operations_total', 'counter', '[ALPHA] Cumulative number of runtime operations by operation type.');
	for (const operation of operations) {
		text += sampleLine('kubelet_runtime_operations_total', [['operation_type', operation.op]], operation.duration.count);
	}

	return text;
}

function kubernetesFamilies(view: KubeletMetricsView): string {
	return (
		familyHeader(
			'kubernetes_build_info',
			'gauge',
			"[ALPHA] A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
		) +
		buildInfoLine(view.kubeletVersion) +
		featureGateFamily(view.kubeletVersion)
	);
}

/** kubernetes_feature_enabled exists from 1.26 (the real one lists every gate; only EventedPLEG matters here). */
function featureGateFamily(version: string): string {
	const [, minor = 0, patch = 0] = version.replace(/^v/, '').split(/[.-]/).map(Number);
	if (!(minor >= 26)) {
		return '';
	}

	// EventedPLEG: alpha in 1.26, beta (default off) in 1.27 and v1.28.0-v1.28.5, alpha again from v1.28.6 (kubernetes#122719).
	const eventedStage = minor === 27 || (minor === 28 && patch < 6) ? 'BETA' : 'ALPHA';
	return (
		familyHeader(
			'kubernetes_feature_enabled',
			'gauge',
			'[BETA] This metric records the data about the stage and enablement of a k8s feature.',
		) +
		sampleLine(
			'kubernetes_feature_enabled',
			[
				['name', 'EventedPLEG'],
				['stage', eventedStage],
			],
			0,
		)
	);
}

/** The demo payload: PLEG, runtime operations, build info and a few go_/process_ lines (a few KB). */
export function renderKubeletMetrics(view: KubeletMetricsView): string {
	return (
		goFamilies(view) +
		plegFamilies(view) +
		runningFamilies(view) +
		runtimeFamilies(view) +
		kubernetesFamilies(view) +
		familyHeader('process_start_time_seconds', 'gauge', 'Start time of the process since unix epoch in seconds.') +
		sampleLine('process_start_time_seconds', [], view.processStartSeconds)
	);
}
