// The CRI series behind a relist, read from the real dumps. Every number below is copied from the dump's lines
// (grep 'kubelet_runtime_operations' test/fixtures/*.prom).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {MetricsParseError, parsePlegSample, plegLines, readFamilies} from '../../../source/domain/exposition/parse.js';
import {readDump, replaceLine} from '../dump.js';

const criOf = (text: string) => {
	const cri = parsePlegSample(text).cri;
	assert.ok(cri, 'expected CRI series');
	return cri;
};

/** ExponentialBuckets(.005, 2.5, 14) as the kubelet writes them, then +Inf. */
const runtimeBounds = [
	0.005,
	0.0125,
	0.03125,
	0.078125,
	0.1953125,
	0.48828125,
	1.220703125,
	3.0517578125,
	7.62939453125,
	19.073486328125,
	47.6837158203125,
	119.20928955078125,
	298.0232238769531,
	745.0580596923828,
	Infinity,
];
const defBounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, Infinity];

describe('CRI series on the real dumps', () => {
	test('the library (readFamilies) collapses the labelled histogram into its last series (operation_type="version"): the trap', () => {
		const lines = readDump('1.21.2')
			.split('\n')
			.filter((line) => line.startsWith('kubelet_runtime_operations_duration_seconds'));
		const [family] = readFamilies(`# TYPE kubelet_runtime_operations_duration_seconds histogram\n${lines.join('\n')}\n`);
		// 17 operation types in the dump, one object out: the buckets of the last one (version: +Inf 170037),
		// no operation_type label, no sum or count.
		assert.equal(family?.metrics.length, 1);
		assert.equal(family?.metrics[0]?.buckets?.['+Inf'], '170037');
		assert.equal(family?.metrics[0]?.labels, undefined);
	});

	test('v1.21.2: each relist operation has its own histogram, counts and sums as in the dump', () => {
		const {operations, runningPods, runningContainers} = criOf(readDump('1.21.2'));
		// Lines 874-890: list_podsandbox buckets 211903 … 3.098533e+06, _sum 34255.342850002235, _count 3.098533e+06.
		assert.deepEqual(
			operations.listPodSandbox?.duration?.buckets.map((bucket) => bucket.count),
			[
				211903, 2366937, 3004520, 3097341, 3098528, 3098529, 3098530, 3098531, 3098531, 3098531, 3098533, 3098533, 3098533, 3098533,
				3098533,
			],
		);
		assert.deepEqual(
			operations.listPodSandbox?.duration?.buckets.map((bucket) => bucket.le),
			runtimeBounds,
		);
		assert.equal(operations.listPodSandbox?.duration?.sum, 34255.342850002235);
		assert.equal(operations.listPodSandbox?.total, 3098533); // kubelet_runtime_operations_total
		// Different counts per operation prove nothing was collapsed.
		assert.equal(operations.listContainers?.duration?.count, 3126996);
		assert.equal(operations.listContainers?.duration?.sum, 28684.79266433511);
		assert.equal(operations.podSandboxStatus?.duration?.count, 159);
		assert.equal(operations.podSandboxStatus?.duration?.sum, 3.6392912779999986);
		assert.equal(operations.containerStatus?.duration?.count, 212);
		assert.equal(operations.containerStatus?.duration?.sum, 1.2043962709999991);
		assert.deepEqual(
			operations.containerStatus?.duration?.buckets.slice(0, 5).map((bucket) => bucket.count),
			[177, 197, 207, 209, 212],
		);
		// Only exec_sync has an error child: the relist operations have had none.
		assert.equal(operations.listPodSandbox?.errors, null);
		assert.equal(operations.containerStatus?.legacyLatency, null);
		assert.equal(runningPods, 29);
		assert.deepEqual(runningContainers, {created: 1, exited: 9, running: 33});
	});

	test('v1.21.2 dockershim: list_containers and inspect_container of kubelet_docker_operations_*', () => {
		const {docker} = criOf(readDump('1.21.2'));
		assert.equal(docker?.listContainers?.duration?.count, 6225533); // 6.225533e+06
		assert.equal(docker?.listContainers?.duration?.sum, 56854.45570931109);
		assert.equal(docker?.inspectContainer?.duration?.count, 639);
		assert.equal(docker?.inspectContainer?.errors, null); // the one error child is inspect_image
	});

	test('v1.14.10: seconds histograms (DefBuckets) beside the deprecated µs summaries and both counter names', () => {
		const {operations, runningPods, runningContainers, docker} = criOf(readDump('1.14.10'));
		const sandboxes = operations.listPodSandbox;
		assert.deepEqual(
			sandboxes?.duration?.buckets.map((bucket) => bucket.le),
			defBounds,
		);
		assert.deepEqual(
			sandboxes?.duration?.buckets.map((bucket) => bucket.count),
			[59356, 76831, 79014, 79243, 79311, 79360, 79378, 79392, 79458, 79586, 79667, 79691],
		);
		assert.equal(sandboxes?.duration?.sum, 1874.27877241901);
		// µs summary: q0.5 4854 µs = 0.004854 s; _sum 1.878731419e+09 µs = 1878.731419 s.
		assert.deepEqual(sandboxes?.legacyLatency, {
			quantiles: [
				{q: 0.5, seconds: 4854 / 1e6},
				{q: 0.9, seconds: 7801 / 1e6},
				{q: 0.99, seconds: 18876 / 1e6},
			],
			sum: 1.878731419e9 / 1e6,
			count: 79691,
		});
		assert.equal(sandboxes?.total, 79691);
		assert.equal(operations.listContainers?.duration?.count, 80433);
		assert.equal(operations.podSandboxStatus?.duration?.count, 117);
		// container_status: NaN quantiles (nothing in the decay window) are left out; 2 errors (errors_total, line 984).
		assert.equal(operations.containerStatus?.duration?.count, 175);
		assert.deepEqual(operations.containerStatus?.legacyLatency, {quantiles: [], sum: 4.586433e6 / 1e6, count: 175});
		assert.equal(operations.containerStatus?.errors, 2);
		// kubelet_running_pod_count 12, kubelet_running_container_count 12 (label-less: running containers).
		assert.equal(runningPods, 12);
		assert.deepEqual(runningContainers, {running: 12});
		assert.equal(docker?.listContainers?.duration?.count, 160127);
		assert.equal(docker?.inspectContainer?.errors, 2);
	});

	test('v1.10.0: only the µs summaries and the counters without _total', () => {
		const {operations, runningPods, runningContainers, docker} = criOf(readDump('1.10.0'));
		assert.equal(operations.listPodSandbox?.duration, null);
		// _sum 3.980385e+06 µs = 3.980385 s over 617 calls.
		assert.deepEqual(operations.listPodSandbox?.legacyLatency, {
			quantiles: [
				{q: 0.5, seconds: 4957 / 1e6},
				{q: 0.9, seconds: 10595 / 1e6},
				{q: 0.99, seconds: 15819 / 1e6},
			],
			sum: 3.980385,
			count: 617,
		});
		assert.equal(operations.listPodSandbox?.total, 617); // kubelet_runtime_operations
		assert.equal(operations.listContainers?.legacyLatency?.count, 622);
		assert.equal(operations.podSandboxStatus?.legacyLatency?.sum, 1.921336);
		assert.equal(operations.containerStatus?.legacyLatency?.count, 103);
		assert.equal(operations.containerStatus?.errors, 1); // kubelet_runtime_operations_errors
		assert.equal(runningPods, 12);
		assert.deepEqual(runningContainers, {running: 15});
		assert.equal(docker?.listContainers?.legacyLatency?.sum, 5.100891);
		assert.equal(docker?.inspectContainer?.errors, 1);
	});

	test('a payload without CRI series has cri: null', () => {
		assert.equal(parsePlegSample('kubelet_pleg_relist_duration_seconds_count 3\n').cri, null);
	});

	test('the recorded lines (plegLines) carry the CRI series: parsing them gives the same CRI sample', () => {
		const text = readDump('1.21.2');
		const lines = plegLines(text);
		assert.ok(lines.includes('kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox"} 3.098533e+06'));
		// Other operation types are not kept (17 in the dump, 4 read).
		assert.ok(!lines.some((line) => line.includes('operation_type="version"')));
		assert.deepEqual(parsePlegSample(lines.join('\n')).cri, parsePlegSample(text).cri);
	});

	test('a malformed CRI line is an error naming its line in the payload', () => {
		const text = replaceLine(
			readDump('1.21.2'),
			890,
			'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox"} 3,098,533',
		);
		assert.throws(
			() => parsePlegSample(text),
			(error: unknown) => {
				assert.ok(error instanceof MetricsParseError);
				assert.equal(error.line, 890);
				assert.match(error.message, /^line 890: value is not a number: kubelet_runtime_operations_duration_seconds_count/);
				return true;
			},
		);
		const badLabel = replaceLine(
			readDump('1.21.2'),
			890,
			'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox",le=5} 3',
		);
		assert.throws(() => parsePlegSample(badLabel), /^MetricsParseError: line 890: malformed label/);
	});
});
