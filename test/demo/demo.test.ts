import {readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFamilies} from '../../source/domain/exposition/parse.js';
import {createDemoSource, demoCadence} from '../../source/demo/demo-source.js';
import {feedReducer, figuresAt, initialFeedState, type FeedState} from '../../source/domain/feed.js';
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import {formatGoFloat} from '../../source/demo/simulated-exposition.js';
import {RUNTIME_OPERATION_BUCKETS} from '../../source/demo/simulated-histogram.js';
import {demoLabel, SimulatedKubelet, type SimulatedKubeletStats} from '../../source/demo/simulated-kubelet.js';

// 2023-11-14T22:13:20Z; any fixed instant works, the simulation only reads this fake clock.
const t0 = 1_700_000_000_000;

function fakeClock(start = t0) {
	let now = start;
	return {
		now: () => now,
		advanceSeconds(seconds: number) {
			now += seconds * 1000;
		},
		set(ms: number) {
			now = ms;
		},
	};
}

function simulate(options: {seed?: number; speed?: number; startedAt?: number} = {}) {
	const clock = fakeClock();
	const kubelet = new SimulatedKubelet({now: clock.now, seed: options.seed ?? 7, speed: options.speed, startedAt: options.startedAt});
	return {clock, kubelet};
}

type ParsedHistogram = {buckets: Array<{le: number; count: number}>; sum: number; count: number};

/** A label-less histogram family from the text, buckets sorted by bound (the parser returns them in JS key order). */
function histogram(text: string, name: string): ParsedHistogram {
	const family = readFamilies(text).find((candidate) => candidate.name === name);
	const sample = family?.metrics[0];
	assert.ok(sample?.buckets, `${name} present`);
	const buckets = Object.entries(sample.buckets)
		.map(([le, count]) => ({le: le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), count: Number(count)}))
		.sort((a, b) => a.le - b.le);
	return {buckets, sum: Number(sample.sum), count: Number(sample.count)};
}

/** The value of one exact series line, e.g. `kubelet_pleg_last_seen_seconds` or `x_total{operation_type="a"}`; null if absent. */
function seriesValue(text: string, series: string): number | null {
	const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
	return line === undefined ? null : Number(line.slice(series.length + 1));
}

function statusCalls(stats: SimulatedKubeletStats): number {
	return stats.runtimeOperations.podsandbox_status.count + stats.runtimeOperations.container_status.count;
}

function listSeconds(stats: SimulatedKubeletStats): number {
	return stats.runtimeOperations.list_podsandbox.secondsSum + stats.runtimeOperations.list_containers.secondsSum;
}

function criSeconds(stats: SimulatedKubeletStats): number {
	return Object.values(stats.runtimeOperations).reduce((total, operation) => total + operation.secondsSum, 0);
}

/** Δsum/Δcount of the relist duration between two read-backs, seconds. */
function windowMean(before: SimulatedKubeletStats, after: SimulatedKubeletStats): number {
	return (after.relistSecondsSum - before.relistSecondsSum) / (after.relists - before.relists);
}

describe('formatGoFloat (expfmt / strconv g -1)', () => {
	test('uses the exponent form from 1e6 and below 1e-4, like the real dumps', () => {
		assert.equal(formatGoFloat(1_671_950), '1.67195e+06');
		assert.equal(formatGoFloat(1_000_000), '1e+06');
		assert.equal(formatGoFloat(999_999), '999999');
		assert.equal(formatGoFloat(35_470.975_487_110_02), '35470.97548711002');
		assert.equal(formatGoFloat(0.0001), '0.0001');
		assert.equal(formatGoFloat(0.000_01), '1e-05');
		assert.equal(formatGoFloat(1.648_119_277e9), '1.648119277e+09');
		assert.equal(formatGoFloat(Number.POSITIVE_INFINITY), '+Inf');
		assert.equal(formatGoFloat(Number.NaN), 'NaN');
		assert.equal(formatGoFloat(0), '0');
	});

	test('runtime-operation bucket bounds print exactly as in the v1.21.2 kubelet dump', () => {
		const dump = readFileSync(new URL('../fixtures/kubelet-v1.21.2-datadog-1.prom', import.meta.url), 'utf8');
		const bounds = [
			...dump.matchAll(/^kubelet_runtime_operations_duration_seconds_bucket\{operation_type="container_status",le="([^"]+)"\}/gm),
		].map((match) => match[1]);
		assert.deepEqual(bounds, [...RUNTIME_OPERATION_BUCKETS.map((bound) => formatGoFloat(bound)), '+Inf']);
		assert.equal(bounds[13], '745.0580596923828');
	});
});

describe('SimulatedKubelet: the relist loop', () => {
	test('idle: start-to-start = 1 s + previous duration, durations of a few ms', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		const stats = kubelet.stats();
		// First relist 2 s after start, then one every ~1.006 s: (60 - 2) / 1.006 ≈ 57.7 -> 57 or 58 relists.
		assert.ok(stats.relists >= 57 && stats.relists <= 58, `relists ${stats.relists}`);
		// Each interval = 1 s + the duration of the relist before it. The last completed duration has no
		// successor yet unless a relist is in flight; the first relist has no interval (relistTime was zero).
		const pendingDuration = stats.relistInProgress ? 0 : stats.lastRelistSeconds!;
		assert.equal(stats.intervals, stats.relists - (stats.relistInProgress ? 0 : 1));
		assert.ok(Math.abs(stats.intervalSecondsSum - stats.intervals - (stats.relistSecondsSum - pendingDuration)) < 1e-9);
		const mean = stats.relistSecondsSum / stats.relists;
		assert.ok(mean > 0.004 && mean < 0.009, `idle mean ${mean}`);

		// The exposition carries the same numbers.
		const text = kubelet.metricsText();
		const duration = histogram(text, 'kubelet_pleg_relist_duration_seconds');
		const interval = histogram(text, 'kubelet_pleg_relist_interval_seconds');
		assert.equal(duration.count, stats.relists);
		assert.ok(Math.abs(duration.sum - stats.relistSecondsSum) < 1e-9);
		assert.equal(interval.count, stats.intervals);
		// Idle intervals are all in (1, 2.5]: the 1 s bucket holds none.
		assert.equal(interval.buckets.find((bucket) => bucket.le === 1)!.count, 0);
		assert.equal(interval.buckets.find((bucket) => bucket.le === 2.5)!.count, stats.intervals);
	});

	test('last_seen is the floor of the last successful relist start, in Unix seconds', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(30);
		const stats = kubelet.stats();
		const lastSeen = seriesValue(kubelet.metricsText(), 'kubelet_pleg_last_seen_seconds');
		assert.equal(lastSeen, Math.floor(stats.lastSuccessfulStartMs! / 1000));
		// Healthy drift: at most one period plus one short relist.
		assert.ok(stats.lastSeenAgeSeconds! >= 0 && stats.lastSeenAgeSeconds! < 1.1);
	});

	test('the switches are independent, the label names every one that is on, and r ends them all', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(5);
		assert.equal(demoLabel(kubelet), 'idle');
		kubelet.churn(true);
		kubelet.slowRuntime(true);
		assert.equal(demoLabel(kubelet), 'churn + slow runtime');
		// The slow runtime goes off while the churn stays on (before, scenario 'churn' hid it, so w could only turn it on).
		kubelet.slowRuntime(false);
		assert.deepEqual([kubelet.churning, kubelet.runtimeSlow], [true, false]);
		kubelet.slowRuntime(true);
		kubelet.stall();
		clock.advanceSeconds(2);
		assert.equal(demoLabel(kubelet), 'stalled + churn + slow runtime');
		kubelet.recover();
		assert.equal(demoLabel(kubelet), 'idle');
		assert.equal(kubelet.scenario, 'idle');
	});

	test('churn raises the windowed mean duration tenfold or more and keeps the interval relation', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		const idleStart = kubelet.stats();
		clock.advanceSeconds(60);
		const idleEnd = kubelet.stats();
		kubelet.churn(true);
		assert.equal(kubelet.scenario, 'churn');
		clock.advanceSeconds(60);
		const churnEnd = kubelet.stats();
		const idleMean = windowMean(idleStart, idleEnd);
		const churnMean = windowMean(idleEnd, churnEnd);
		assert.ok(churnMean >= 10 * idleMean, `churn ${churnMean} vs idle ${idleMean}`);
		assert.ok(churnMean > 0.06 && churnMean < 1.5, `churn mean ${churnMean}`);
		const pendingDuration = churnEnd.relistInProgress ? 0 : churnEnd.lastRelistSeconds!;
		assert.ok(Math.abs(churnEnd.intervalSecondsSum - churnEnd.intervals - (churnEnd.relistSecondsSum - pendingDuration)) < 1e-6);
	});

	test('a long churn crosses 2.5 s and 10 s now and then, counts discards, and scales the pause pods to 0 and back', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		assert.equal(kubelet.stats().discardEvents, 0);
		kubelet.churn(true);
		let minPods = Number.POSITIVE_INFINITY;
		let maxPods = 0;
		for (let second = 0; second < 3600; second += 2) {
			clock.advanceSeconds(2);
			const pods = kubelet.stats().runningPods;
			minPods = Math.min(minPods, pods);
			maxPods = Math.max(maxPods, pods);
		}

		const text = kubelet.metricsText();
		const duration = histogram(text, 'kubelet_pleg_relist_duration_seconds');
		const at = (le: number) => duration.buckets.find((bucket) => bucket.le === le)!.count;
		assert.ok(duration.count - at(2.5) >= 1, 'some relist > 2.5 s');
		assert.ok(duration.count - at(10) >= 1, 'some relist > 10 s (+Inf bucket)');
		assert.ok(seriesValue(text, 'kubelet_pleg_discard_events')! > 0);
		// 14 steady pods + 12 pause pods at most; the deployment reaches 0 (within a 4-pod step of the wave).
		assert.equal(maxPods, 26);
		assert.ok(minPods <= 16, `min running pods ${minPods}`);
	});

	test('stall: no completions, last_seen frozen, Ready=False with the kubelet message after 3m0s', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(30);
		kubelet.stall();
		assert.equal(kubelet.scenario, 'stalled');
		clock.advanceSeconds(5);
		const frozen = kubelet.stats();
		const lastSeen = seriesValue(kubelet.metricsText(), 'kubelet_pleg_last_seen_seconds')!;
		const lastStart = frozen.lastSuccessfulStartMs!;

		// 179.5 s after the last successful start: still healthy (the rule is strictly greater than 180 s).
		clock.set(lastStart + 179_500);
		assert.equal(kubelet.readyCondition().status, 'True');

		// 187 s after it: NotReady, in the kubelet's own words.
		clock.set(lastStart + 187_000);
		const stats = kubelet.stats();
		const text = kubelet.metricsText();
		assert.equal(stats.relists, frozen.relists);
		assert.equal(histogram(text, 'kubelet_pleg_relist_duration_seconds').count, frozen.relists);
		assert.equal(seriesValue(text, 'kubelet_pleg_last_seen_seconds'), lastSeen);
		assert.ok(clock.now() / 1000 - lastSeen > 180);
		const ready = kubelet.readyCondition();
		assert.equal(ready.status, 'False');
		assert.equal(ready.reason, 'KubeletNotReady');
		assert.equal(ready.message, 'PLEG is not healthy: pleg was last seen active 3m7s ago; threshold is 3m0s');
		// It turned NotReady when the age passed 180 s (lastTransitionTime is to the second, as the API server has it).
		assert.equal(ready.since, Math.floor((lastStart + 180_000) / 1000) * 1000);
	});

	test('recover: the hung relist is observed (> 10 s, +Inf bucket), the loop resumes, last_seen is fresh', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(30);
		kubelet.stall();
		clock.advanceSeconds(200);
		const before = kubelet.stats();
		const beforeText = kubelet.metricsText();
		const overflow = (text: string) => {
			const duration = histogram(text, 'kubelet_pleg_relist_duration_seconds');
			return duration.count - duration.buckets.find((bucket) => bucket.le === 10)!.count;
		};

		kubelet.recover();
		assert.equal(kubelet.scenario, 'idle');
		clock.advanceSeconds(10);
		const after = kubelet.stats();
		const text = kubelet.metricsText();
		assert.ok(after.relists > before.relists);
		assert.equal(overflow(text) - overflow(beforeText), 1);
		// The hang is attributed to ListPodSandbox: its latency sum grew by ~the stall (> 195 s of the 200 s).
		assert.ok(after.runtimeOperations.list_podsandbox.secondsSum - before.runtimeOperations.list_podsandbox.secondsSum > 195);
		assert.ok(clock.now() / 1000 - seriesValue(text, 'kubelet_pleg_last_seen_seconds')! <= 3);
		assert.equal(kubelet.readyCondition().status, 'True');
		assert.equal(kubelet.readyCondition().message, 'kubelet is posting ready status');
	});

	test('restart: every counter back to 0, last_seen 0 until the first relist succeeds', () => {
		const {clock, kubelet} = simulate();
		kubelet.churn(true);
		clock.advanceSeconds(120);
		kubelet.restart();
		let text = kubelet.metricsText();
		assert.equal(histogram(text, 'kubelet_pleg_relist_duration_seconds').count, 0);
		assert.equal(histogram(text, 'kubelet_pleg_relist_interval_seconds').count, 0);
		assert.equal(seriesValue(text, 'kubelet_pleg_last_seen_seconds'), 0);
		assert.equal(seriesValue(text, 'kubelet_pleg_discard_events'), 0);
		assert.equal(seriesValue(text, 'kubelet_runtime_operations_total{operation_type="list_podsandbox"}'), null);
		assert.equal(seriesValue(text, 'kubelet_running_pods'), 0);
		assert.equal(seriesValue(text, 'process_start_time_seconds'), t0 / 1000 + 120);
		assert.equal(kubelet.readyCondition().message, 'PLEG is not healthy: pleg has yet to be successful');

		// The kubelet takes 2 s to start PLEG.
		clock.advanceSeconds(1.5);
		assert.equal(seriesValue(kubelet.metricsText(), 'kubelet_pleg_last_seen_seconds'), 0);
		clock.advanceSeconds(5);
		text = kubelet.metricsText();
		assert.ok(histogram(text, 'kubelet_pleg_relist_duration_seconds').count >= 3);
		assert.ok(seriesValue(text, 'kubelet_pleg_last_seen_seconds')! >= t0 / 1000 + 122);
		assert.equal(kubelet.readyCondition().status, 'True');
	});

	test('speed 60: 3 real seconds are 180 simulated seconds, and a stall crosses the threshold in ~3 s', () => {
		const {clock, kubelet} = simulate({speed: 60});
		clock.advanceSeconds(3);
		const stats = kubelet.stats();
		assert.equal(stats.simulatedElapsedMs, 180_000);
		// (180 - 2) / ~1.006 ≈ 177 relists.
		assert.ok(stats.relists >= 175 && stats.relists <= 178, `relists ${stats.relists}`);

		kubelet.stall();
		clock.advanceSeconds(3.1);
		// Ages are mapped onto the local clock: local now - last_seen is the simulated age (≈ 186 s).
		const age = clock.now() / 1000 - seriesValue(kubelet.metricsText(), 'kubelet_pleg_last_seen_seconds')!;
		assert.ok(age > 180 && age < 190, `age ${age}`);
		assert.equal(kubelet.readyCondition().status, 'False');
	});

	test('timestamps on the simulated clock at speed 60: now() runs 60× faster, last_seen and Ready since are on it and never move back', () => {
		const clock = fakeClock();
		const kubelet = new SimulatedKubelet({now: clock.now, seed: 7, speed: 60, timestamps: 'simulated'});
		assert.equal(kubelet.now(), t0);
		clock.advanceSeconds(2);
		// 2 real seconds = 120 simulated seconds.
		assert.equal(kubelet.now(), t0 + 120_000);
		const stats = kubelet.stats();
		assert.equal(kubelet.readAt, t0 + 120_000);
		const lastSeen = seriesValue(kubelet.metricsText(), 'kubelet_pleg_last_seen_seconds')!;
		assert.equal(lastSeen, Math.floor(stats.lastSuccessfulStartMs! / 1000));
		// On the simulated clock the age is the simulated one: at most a period plus a short relist.
		assert.ok(kubelet.now() / 1000 - lastSeen < 2.1, `age ${kubelet.now() / 1000 - lastSeen}`);
		assert.equal(seriesValue(kubelet.metricsText(), 'process_start_time_seconds'), t0 / 1000);

		// Ready since the first relist's pod list returned, 2 s and a few ms after the start (to the second); on the
		// local clock it would slide back 59 s per real second.
		const since = kubelet.readyCondition().since;
		assert.equal(since, t0 + 2000);
		clock.advanceSeconds(1);
		assert.equal(kubelet.readyCondition().since, since);

		kubelet.stall();
		const lastStart = kubelet.stats().lastSuccessfulStartMs!;
		clock.advanceSeconds(3.5);
		const notReady = kubelet.readyCondition();
		assert.equal(notReady.status, 'False');
		// NotReady from the second the age passed 180 s, on the same clock, and it stays there.
		const crossed = Math.floor((lastStart + 180_000) / 1000) * 1000;
		assert.equal(notReady.since, crossed);
		clock.advanceSeconds(2);
		assert.equal(kubelet.readyCondition().since, crossed);
	});

	test('the clock going backwards changes nothing', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(30);
		const text = kubelet.metricsText();
		clock.advanceSeconds(-10);
		assert.equal(kubelet.metricsText(), text);
	});

	test('the same seed replays the same relists; another seed does not', () => {
		const a = simulate({seed: 42});
		const b = simulate({seed: 42});
		const c = simulate({seed: 43});
		for (const run of [a, b, c]) {
			run.kubelet.churn(true);
			run.clock.advanceSeconds(120);
		}

		assert.equal(a.kubelet.metricsText(), b.kubelet.metricsText());
		assert.notEqual(a.kubelet.metricsText(), c.kubelet.metricsText());
	});

	test('history older than 6 h is skipped, not replayed', () => {
		const {kubelet} = simulate({startedAt: t0 - 7 * 86_400_000});
		const stats = kubelet.stats();
		assert.equal(stats.kubeletStartedAtMs, t0 - 21_600_000);
		// (21 600 - 2) s / ~1.006 s ≈ 21 470 relists.
		assert.ok(stats.relists > 21_000 && stats.relists < 21_600, `relists ${stats.relists}`);
	});
});

describe('SimulatedKubelet: the exposition', () => {
	test('parses, families sorted, kubelet HELP texts carry [ALPHA], histograms cumulative', () => {
		const {clock, kubelet} = simulate();
		kubelet.churn(true);
		clock.advanceSeconds(300);
		const text = kubelet.metricsText();
		const families = readFamilies(text);
		const names = families.map((family) => family.name);
		assert.deepEqual(names, [...names].sort());
		for (const name of [
			'kubelet_pleg_discard_events',
			'kubelet_pleg_last_seen_seconds',
			'kubelet_pleg_relist_duration_seconds',
			'kubelet_pleg_relist_interval_seconds',
			'kubelet_running_containers',
			'kubelet_running_pods',
			'kubelet_runtime_operations_duration_seconds',
			'kubelet_runtime_operations_total',
			'kubernetes_build_info',
		]) {
			const family = families.find((candidate) => candidate.name === name);
			assert.ok(family, `${name} present`);
			assert.ok(family.help.startsWith('[ALPHA] '), `${name} HELP`);
		}

		for (const name of ['kubelet_pleg_relist_duration_seconds', 'kubelet_pleg_relist_interval_seconds']) {
			const parsed = histogram(text, name);
			assert.equal(parsed.buckets.length, 12);
			for (let index = 1; index < parsed.buckets.length; index++) {
				assert.ok(parsed.buckets[index]!.count >= parsed.buckets[index - 1]!.count, `${name} monotone`);
			}

			assert.equal(parsed.buckets.at(-1)!.count, parsed.count);
		}

		// Labelled histograms collapse in this parser, so check each runtime series line by line.
		for (const op of ['container_status', 'list_containers', 'list_podsandbox', 'podsandbox_status']) {
			const buckets = [
				...text.matchAll(
					new RegExp(`^kubelet_runtime_operations_duration_seconds_bucket\\{operation_type="${op}",le="[^"]+"\\} (\\S+)$`, 'gm'),
				),
			].map((match) => Number(match[1]));
			assert.equal(buckets.length, 15, op);
			for (let index = 1; index < buckets.length; index++) {
				assert.ok(buckets[index]! >= buckets[index - 1]!, `${op} monotone`);
			}

			const count = seriesValue(text, `kubelet_runtime_operations_duration_seconds_count{operation_type="${op}"}`);
			assert.equal(buckets.at(-1), count);
			assert.equal(seriesValue(text, `kubelet_runtime_operations_total{operation_type="${op}"}`), count);
		}

		assert.match(text, /^kubernetes_build_info\{[^}]*git_version="v1\.28\.4"[^}]*\} 1$/m);
		assert.match(text, /^kubernetes_feature_enabled\{name="EventedPLEG",stage="BETA"\} 0$/m);
		assert.equal(seriesValue(text, 'kubelet_node_name{node="demo-node"}'), 1);
		// The demo payload stays small.
		assert.ok(text.length < 20_000, `payload ${text.length} B`);
	});

	test('paddedMetricsText reaches the target size with the same live PLEG series', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		const plain = kubelet.metricsText();
		for (const target of [250_000, 5_000_000]) {
			const padded = kubelet.paddedMetricsText(target);
			assert.ok(padded.length >= target && padded.length < target + 8192, `${target}: ${padded.length}`);
			assert.ok(padded.includes(plain), 'the live payload is inside, unchanged');
			const names = readFamilies(padded).map((family) => family.name);
			assert.deepEqual(names, [...names].sort());
			assert.ok(names.includes('rest_client_request_duration_seconds'));
		}

		assert.equal(kubelet.paddedMetricsText(100), plain);
	});
});

describe('SimulatedKubelet: CRI calls per relist', () => {
	test('idle: one ListPodSandbox per relist, almost no status calls; CRI time adds up to the relist time', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(600);
		const stats = kubelet.stats();
		const text = kubelet.metricsText();
		assert.equal(seriesValue(text, 'kubelet_runtime_operations_total{operation_type="list_podsandbox"}'), stats.relists);
		assert.equal(stats.runtimeOperations.list_podsandbox.count, stats.relists);
		assert.ok(statusCalls(stats) / stats.relists < 0.2, `status calls per relist ${statusCalls(stats) / stats.relists}`);
		// Relist time = CRI latencies + a little Go-side work (0.2 ms + 3 % per relist).
		const share = criSeconds(stats) / stats.relistSecondsSum;
		assert.ok(share > 0.9 && share <= 1, `CRI share ${share}`);
	});

	test('churn: more than 5 status calls per relist, list calls still one each', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		const before = kubelet.stats();
		kubelet.churn(true);
		clock.advanceSeconds(300);
		const after = kubelet.stats();
		const relists = after.relists - before.relists;
		const perRelist = (statusCalls(after) - statusCalls(before)) / relists;
		assert.ok(perRelist > 5, `status calls per relist ${perRelist}`);
		assert.equal(after.runtimeOperations.list_podsandbox.count - before.runtimeOperations.list_podsandbox.count, relists);
		// Most of a churn relist is spent inspecting the changed pods, not listing.
		assert.ok((listSeconds(after) - listSeconds(before)) / (after.relistSecondsSum - before.relistSecondsSum) < 0.5);
	});

	test('slow runtime: the list calls take most of each relist, status calls stay ~0, some lists fail', () => {
		const {clock, kubelet} = simulate();
		clock.advanceSeconds(60);
		const before = kubelet.stats();
		kubelet.slowRuntime(true);
		assert.equal(kubelet.scenario, 'slow-runtime');
		clock.advanceSeconds(600);
		const after = kubelet.stats();
		const share = (listSeconds(after) - listSeconds(before)) / (after.relistSecondsSum - before.relistSecondsSum);
		assert.ok(share > 0.7, `list share ${share}`);
		assert.ok((statusCalls(after) - statusCalls(before)) / (after.relists - before.relists) < 0.5);
		const errors = seriesValue(kubelet.metricsText(), 'kubelet_runtime_operations_errors_total{operation_type="list_podsandbox"}');
		assert.equal(errors, after.runtimeOperations.list_podsandbox.errors);
		assert.ok(errors >= 1);
	});
});

describe('createDemoSource', () => {
	test('serves the simulated kubelet through the MetricsSource interface', async () => {
		const clock = fakeClock();
		const source = createDemoSource({speed: 1, seed: 1, now: clock.now});
		assert.equal(source.label, 'embedded simulated kubelet');
		assert.equal(source.node, 'demo-node');
		const text = await source.fetchMetrics(new AbortController().signal);
		// 20 minutes of history: (1200 - 2) s / ~1.006 s ≈ 1190 relists.
		const count = histogram(text, 'kubelet_pleg_relist_duration_seconds').count;
		assert.ok(count > 1150 && count < 1200, `count ${count}`);

		const node = await source.fetchNode!(new AbortController().signal);
		assert.deepEqual(
			{...node, ready: {...node.ready!, since: null}},
			{
				name: 'demo-node',
				kubeletVersion: 'v1.28.4',
				ready: {status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', since: null},
				containerRuntimeVersion: 'containerd://1.7.13',
			},
		);

		source.controls.stall();
		clock.advanceSeconds(181);
		const stalled = await source.fetchNode!(new AbortController().signal);
		assert.equal(stalled.ready?.status, 'False');
		assert.match(stalled.ready?.message ?? '', /^PLEG is not healthy: pleg was last seen active 3m\d+(\.\d+)?s ago; threshold is 3m0s$/);
	});

	test('honours an aborted signal', async () => {
		const source = createDemoSource({speed: 1, now: fakeClock().now});
		const controller = new AbortController();
		controller.abort();
		await assert.rejects(source.fetchMetrics(controller.signal), {name: 'AbortError'});
		await assert.rejects(source.fetchNode!(controller.signal), {name: 'AbortError'});
	});
});

describe('createDemoSource: the simulated clock', () => {
	test('a scrape is stamped with the instant its payload describes, however long the parse took', async () => {
		const clock = fakeClock();
		const source = createDemoSource({speed: 60, seed: 1, now: clock.now});
		clock.advanceSeconds(1);
		const text = await source.fetchMetrics(new AbortController().signal);
		// 30 ms of parsing at 60× would be 1.8 simulated seconds.
		clock.advanceSeconds(0.03);
		const at = source.now();
		assert.equal(at, t0 + 60_000);
		const lastSeen = seriesValue(text, 'kubelet_pleg_last_seen_seconds')!;
		assert.ok(at / 1000 - lastSeen >= 0 && at / 1000 - lastSeen < 2.1);
		// Only that first read is held: the clock then moves on.
		assert.equal(source.now(), t0 + 61_800);
	});

	test('sleep waits simulated time: 10 s at 60× is 167 ms of real time', async () => {
		const waits: number[] = [];
		const source = createDemoSource({
			speed: 60,
			now: fakeClock().now,
			sleep: async (ms) => {
				waits.push(ms);
			},
		});
		await source.sleep(10_000);
		assert.deepEqual(waits, [10_000 / 60]);
	});

	test('stalled at 60×, scraped 4 times a real second: the window holds no relist and its rate is 0', async () => {
		const clock = fakeClock();
		const source = createDemoSource({speed: 60, seed: 1, now: clock.now});
		let state: FeedState = initialFeedState({node: source.node, windowSeconds: 10});
		// As the poller does: fetch, parse, then read the clock for the scrape's time.
		const run = async (realSeconds: number) => {
			for (let tick = 0; tick < realSeconds * 4; tick++) {
				clock.advanceSeconds(0.25);
				const text = await source.fetchMetrics(new AbortController().signal);
				const sample = parsePlegSample(text);
				state = feedReducer(state, {type: 'scrape', scrape: {at: source.now(), sample, latencyMs: 0}});
			}
		};

		await run(2);
		// Idle: 15 simulated seconds between scrapes, about one relist per simulated second (1 s + a few ms each).
		const idle = figuresAt(state, source.now())!.window!;
		assert.equal(idle.spanSeconds, 15);
		assert.ok(idle.count >= 14 && idle.count <= 15, `idle relists ${idle.count}`);
		assert.ok(idle.ratePerSecond! > 0.9 && idle.ratePerSecond! <= 1, `idle rate ${idle.ratePerSecond}`);

		source.controls.stall();
		// The relist in flight may still complete; from the second scrape on the window holds none.
		await run(0.5);
		const stalled = figuresAt(state, source.now())!.window!;
		assert.equal(stalled.spanSeconds, 15);
		assert.equal(stalled.count, 0);
		assert.equal(stalled.ratePerSecond, 0);
		assert.equal(stalled.meanSeconds, null);
	});
});

describe('demoCadence', () => {
	test('--interval of simulated time, at most 4 scrapes a real second; the Node object every 10 simulated seconds', () => {
		// Speed 1: as a real node.
		assert.deepEqual(demoCadence(1000, 1), {pollMs: 1000, shownMs: 1000, nodeRefreshMs: 10_000});
		// Speed 60: 1 s of simulated time would be 17 ms of real time; 250 ms real = 15 s simulated.
		assert.deepEqual(demoCadence(1000, 60), {pollMs: 250, shownMs: 15_000, nodeRefreshMs: 250});
		// Speed 2 with --interval 2s: one scrape a real second.
		assert.deepEqual(demoCadence(2000, 2), {pollMs: 1000, shownMs: 2000, nodeRefreshMs: 5000});
	});
});
