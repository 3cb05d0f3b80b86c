import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {
	correctCounters,
	deltaFigures,
	isCounterReset,
	lifetimeMean,
	noOffsets,
	offsetsAfter,
} from '../../../source/domain/histogram/window.js';
import {readDump, scrapeOf, setSamples, v121OneMinuteLater, v121Restarted} from '../dump.js';

const t0 = 1_648_119_280_000; // ms, 3 s after the v1.21.2 dump's last_seen

function assertClose(actual: number | null | undefined, expected: number): void {
	assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${actual} ≉ ${expected}`);
}

const duration = 'kubelet_pleg_relist_duration_seconds';

describe('deltaFigures on the v1.21.2 dump and an edited copy one minute later', () => {
	const figures = deltaFigures(scrapeOf(readDump('1.21.2'), t0), scrapeOf(v121OneMinuteLater(), t0 + 60_000));

	test('span, count, mean, rate', () => {
		assert.equal(figures.spanSeconds, 60);
		assert.equal(figures.count, 60); // 1.67201e+06 - 1.67195e+06
		assert.equal(figures.meanSeconds, (35471.57548711002 - 35470.97548711002) / 60); // ≈ 0.6 s / 60 = 10 ms
		assertClose(figures.meanSeconds, 0.01);
		assert.equal(figures.ratePerSecond, 1); // 60 relists / 60 s
	});

	test('quantiles interpolated in the bucket deltas 10, 40, 55, 60 … 60', () => {
		// p50: rank 0.5 × 60 = 30, in (0.005, 0.01] holding 40 - 10: 0.005 + 0.005 × (30 - 10)/(40 - 10)
		assertClose(figures.p50?.seconds, 0.005 + 0.005 * (20 / 30));
		// p90: rank 54, in (0.01, 0.025] holding 55 - 40: 0.01 + 0.015 × (54 - 40)/(55 - 40) = 0.024
		assertClose(figures.p90?.seconds, 0.024);
		// p99: rank 59.4, in (0.025, 0.05] holding 60 - 55: 0.025 + 0.025 × (59.4 - 55)/5 = 0.047
		assertClose(figures.p99?.seconds, 0.047);
		assert.equal(figures.p99?.atLeast, false);
	});

	test('interval mean and discards', () => {
		assert.equal(figures.intervalMeanSeconds, (1708747.8835435372 - 1708686.6835435373) / 60); // 61.2 s / 60
		assertClose(figures.intervalMeanSeconds, 1.02);
		assert.equal(figures.discardEvents, 2);
	});

	test('interval p99 from the interval bucket deltas 0 (le=1), 60 (le=2.5) … 60 (+Inf)', () => {
		// rank 0.99 × 60 = 59.4, in (1, 2.5] holding 60 - 0: interpolating would say 1 + 1.5 × 59.4/60 = 2.485 for any
		// set of ~1 s intervals; the bucket says only "at most 2.5 s".
		assert.deepEqual(figures.intervalP99, {seconds: 2.5, atLeast: false, atMost: true});
	});
});

describe("the interval p99 (the Grafana kubelet dashboard's panel)", () => {
	const interval = 'kubelet_pleg_relist_interval_seconds';

	test('a stall in the window: 1 of 20 intervals above 10 s puts the p99 in +Inf, a lower bound of 10 s', () => {
		// +20 intervals on the v1.21.2 dump: 19 of 1.5 s, 1 of 191.5 s. Deltas 19 (le=2.5), 19, 19, 20 (+Inf).
		const later = setSamples(readDump('1.21.2'), {
			[`${interval}_bucket{le="2.5"}`]: '1671966', // 1671947 + 19
			[`${interval}_bucket{le="5"}`]: '1671967', // 1671948 + 19
			[`${interval}_bucket{le="10"}`]: '1671967', // 1671948 + 19
			[`${interval}_bucket{le="+Inf"}`]: '1671969', // 1671949 + 20
			[`${interval}_sum`]: '1708906.6835435373', // + 19 × 1.5 + 191.5 = 220
			[`${interval}_count`]: '1671969',
		});
		const figures = deltaFigures(scrapeOf(readDump('1.21.2'), t0), scrapeOf(later, t0 + 220_000));
		// rank 19.8 > 19: the +Inf bucket, so the highest finite bound, as histogram_quantile answers.
		assert.deepEqual(figures.intervalP99, {seconds: 10, atLeast: true});
		assertClose(figures.intervalMeanSeconds, 220 / 20);
	});

	test('no interval observed in the span: null, never 0', () => {
		const text = readDump('1.21.2');
		assert.equal(deltaFigures(scrapeOf(text, t0), scrapeOf(text, t0 + 5000)).intervalP99, null);
	});

	test('µs summaries only (before 1.14): null, their quantiles cannot be windowed', () => {
		const later = setSamples(readDump('1.10.0'), {
			kubelet_pleg_relist_interval_microseconds_sum: '2.98831959e+08',
			kubelet_pleg_relist_interval_microseconds_count: '291',
		});
		const figures = deltaFigures(scrapeOf(readDump('1.10.0'), t0), scrapeOf(later, t0 + 6000));
		assertClose(figures.intervalMeanSeconds, 6.1 / 6);
		assert.equal(figures.intervalP99, null);
	});
});

describe('deltaFigures edge cases', () => {
	test('Δcount 0: mean and quantiles null, rate a measured 0', () => {
		const text = readDump('1.21.2');
		const figures = deltaFigures(scrapeOf(text, t0), scrapeOf(text, t0 + 5000));
		assert.deepEqual(figures, {
			spanSeconds: 5,
			count: 0,
			meanSeconds: null,
			p50: null,
			p90: null,
			p99: null,
			ratePerSecond: 0,
			intervalMeanSeconds: null,
			intervalP99: null,
			discardEvents: 0,
		});
	});

	test('2 of 100 relists above 10 s: p99 is at least 10 s', () => {
		// +100 relists: 90 in (5, 10] ms, 8 in (5, 10] s, 2 above 10 s. Deltas 0, 90 … 90, 98 (le=10), 100 (+Inf).
		const later = setSamples(readDump('1.21.2'), {
			[`${duration}_bucket{le="0.01"}`]: '112278', // 112188 + 90
			[`${duration}_bucket{le="0.025"}`]: '1325533', // 1325443 + 90
			[`${duration}_bucket{le="0.05"}`]: '1600036', // 1599946 + 90
			[`${duration}_bucket{le="0.1"}`]: '1670353', // 1670263 + 90
			[`${duration}_bucket{le="0.25"}`]: '1672035', // 1671945 + 90
			[`${duration}_bucket{le="0.5"}`]: '1672036', // 1671946 + 90
			[`${duration}_bucket{le="1"}`]: '1672037', // 1671947 + 90
			[`${duration}_bucket{le="2.5"}`]: '1672038', // 1671948 + 90
			[`${duration}_bucket{le="5"}`]: '1672039', // 1671949 + 90
			[`${duration}_bucket{le="10"}`]: '1672047', // 1671949 + 98
			[`${duration}_bucket{le="+Inf"}`]: '1672050', // 1671950 + 100
			[`${duration}_sum`]: '35587.69548711002', // + 90 × 0.008 + 8 × 7 + 2 × 30 = 116.72
			[`${duration}_count`]: '1672050',
		});
		const figures = deltaFigures(scrapeOf(readDump('1.21.2'), t0), scrapeOf(later, t0 + 100_000));
		assert.deepEqual(figures.p99, {seconds: 10, atLeast: true}); // rank 99 > 98
		assertClose(figures.p90?.seconds, 0.01); // rank 90: 0.005 + 0.005 × 90/90
		assertClose(figures.p50?.seconds, 0.005 + 0.005 * (50 / 90));
		assertClose(figures.meanSeconds, 116.72 / 100);
	});

	test('v1.10.0, µs summaries only: mean, rate and interval from sum/count; quantiles null', () => {
		const later = setSamples(readDump('1.10.0'), {
			kubelet_pleg_relist_latency_microseconds_sum: '7.60184e+06', // + 60000 µs = 0.06 s
			kubelet_pleg_relist_latency_microseconds_count: '292', // + 6
			kubelet_pleg_relist_interval_microseconds_sum: '2.98831959e+08', // + 6.1e6 µs = 6.1 s
			kubelet_pleg_relist_interval_microseconds_count: '291', // + 6
		});
		const figures = deltaFigures(scrapeOf(readDump('1.10.0'), t0), scrapeOf(later, t0 + 6000));
		assert.equal(figures.count, 6);
		assert.equal(figures.meanSeconds, (7.60184e6 / 1e6 - 7.54184e6 / 1e6) / 6); // 0.06 s / 6 = 10 ms
		assertClose(figures.meanSeconds, 0.01);
		assert.equal(figures.ratePerSecond, 1); // 6 / 6 s
		assertClose(figures.intervalMeanSeconds, 6.1 / 6);
		assert.equal(figures.p50, null);
		assert.equal(figures.p90, null);
		assert.equal(figures.p99, null);
		assert.equal(figures.discardEvents, null); // no discard series before 1.14
	});

	test('discard counter absent (1.14-1.17 before the first discard) then present counts from 0', () => {
		const before = readDump('1.14.10');
		const after = `${before}\n# TYPE kubelet_pleg_discard_events counter\nkubelet_pleg_discard_events 3\n`;
		assert.equal(deltaFigures(scrapeOf(before, t0), scrapeOf(after, t0 + 1000)).discardEvents, 3);
	});

	test('no duration series at all: count 0 but mean and rate null', () => {
		// Only the discard counter: a body without any PLEG series is a parse error.
		const text = '# TYPE go_goroutines gauge\ngo_goroutines 1\nkubelet_pleg_discard_events 0\n';
		const figures = deltaFigures(scrapeOf(text, t0), scrapeOf(text, t0 + 1000));
		assert.equal(figures.meanSeconds, null);
		assert.equal(figures.ratePerSecond, null);
		assert.equal(figures.intervalMeanSeconds, null);
	});
});

describe('isCounterReset', () => {
	const base = parsePlegSample(readDump('1.21.2'));

	test('same or later payload: no reset', () => {
		assert.equal(isCounterReset(base, base), false);
		assert.equal(isCounterReset(base, parsePlegSample(v121OneMinuteLater())), false);
	});

	test('count, a single bucket or the discard counter going down is a reset', () => {
		const edits: Array<Record<string, string>> = [
			{[`${duration}_count`]: '1.67194e+06'},
			{[`${duration}_bucket{le="0.5"}`]: '1.671945e+06'},
			{kubelet_pleg_relist_interval_seconds_count: '10'},
		];
		for (const edit of edits) {
			assert.equal(isCounterReset(base, parsePlegSample(setSamples(readDump('1.21.2'), edit))), true, JSON.stringify(edit));
		}

		const discarded = parsePlegSample(setSamples(readDump('1.21.2'), {kubelet_pleg_discard_events: '5'}));
		assert.equal(isCounterReset(discarded, base), true); // 5 → 0
	});

	test('a _sum going down while its _count does not is no reset (Prometheus: the count resets, not the sum)', () => {
		const sumFell = (text: string, edit: Record<string, string>) =>
			isCounterReset(parsePlegSample(text), parsePlegSample(setSamples(text, edit)));
		assert.equal(sumFell(readDump('1.21.2'), {[`${duration}_sum`]: '35470.9'}), false);
		assert.equal(sumFell(readDump('1.21.2'), {kubelet_pleg_relist_interval_seconds_sum: '10'}), false);
		assert.equal(sumFell(readDump('1.10.0'), {kubelet_pleg_relist_latency_microseconds_sum: '3'}), false);
	});

	test('legacy summaries going down (v1.10.0 restarted)', () => {
		const old = parsePlegSample(readDump('1.10.0'));
		const restarted = parsePlegSample(setSamples(readDump('1.10.0'), {kubelet_pleg_relist_latency_microseconds_count: '3'}));
		assert.equal(isCounterReset(old, restarted), true);
	});

	test('a series disappearing is not a reset', () => {
		assert.equal(isCounterReset(base, {...base, relistDuration: null, discardEvents: null}), false);
	});
});

describe('counter correction across a restart', () => {
	const base = parsePlegSample(readDump('1.21.2'));

	test('no restart: the offsets stay empty and the sample is returned as is', () => {
		const later = parsePlegSample(v121OneMinuteLater());
		const offsets = offsetsAfter(noOffsets, base, later);
		assert.equal(offsets, noOffsets);
		assert.equal(correctCounters(later, offsets), later);
	});

	test('after a restart every counter continues from its value before it', () => {
		const restarted = parsePlegSample(v121Restarted([0.15, 0.2, 0.254], [1.2]));
		const corrected = correctCounters(restarted, offsetsAfter(noOffsets, base, restarted));
		assert.equal(corrected.relistDuration!.count, 1_671_950 + 3);
		assertClose(corrected.relistDuration!.sum - base.relistDuration!.sum, 0.604);
		// Bucket le=0.25: 1,671,945 before + 2 since; le=0.1: 1,670,263 + 0.
		assert.equal(corrected.relistDuration!.buckets.find((bucket) => bucket.le === 0.25)!.count, 1_671_945 + 2);
		assert.equal(corrected.relistDuration!.buckets.find((bucket) => bucket.le === 0.1)!.count, 1_670_263);
		assert.equal(corrected.relistInterval!.count, 1_671_949 + 1);
		assert.equal(corrected.discardEvents, 0); // 0 before, 0 since
		// The CRI counters too: the dump's list_podsandbox count continues (here the same body, so it doubles).
		const before = base.cri!.operations.listPodSandbox!.duration!.count;
		assert.equal(corrected.cri!.operations.listPodSandbox!.duration!.count, before * 2);
		// Gauges stay as exposed.
		assert.equal(corrected.lastSeenSeconds, restarted.lastSeenSeconds);
		assert.deepEqual(corrected.cri!.runningContainers, restarted.cri!.runningContainers);
		const figures = deltaFigures({at: t0, sample: base, latencyMs: 1}, {at: t0 + 1000, sample: corrected, latencyMs: 1});
		assert.equal(figures.count, 3);
		assertClose(figures.meanSeconds, 0.604 / 3);
	});
});

describe('a _sum that falls while the _count rises (inconsistent series)', () => {
	test('the count delta and the rate stand; the mean is left out and the window says why', () => {
		const later = setSamples(readDump('1.21.2'), {[`${duration}_count`]: '1672010', [`${duration}_sum`]: '35469.97548711002'});
		const figures = deltaFigures(scrapeOf(readDump('1.21.2'), t0), scrapeOf(later, t0 + 60_000));
		assert.equal(figures.count, 60); // 1,672,010 - 1,671,950
		assert.equal(figures.ratePerSecond, 1); // 60 / 60 s
		assert.equal(figures.meanSeconds, null); // Δsum = -1 s
		assert.equal(figures.sumFell, true);
	});

	test('a consistent window has no sumFell key at all', () => {
		const figures = deltaFigures(scrapeOf(readDump('1.21.2'), t0), scrapeOf(v121OneMinuteLater(), t0 + 60_000));
		assert.equal('sumFell' in figures, false);
	});
});

describe('lifetimeMean', () => {
	test('_sum / _count; none without a relist, none for a negative _sum (a broken series), never a negative mean', () => {
		// 35,470.975 s over 1,671,950 relists = 21.2 ms.
		assert.equal(lifetimeMean(35_470.975, 1_671_950)!.toFixed(6), '0.021215');
		assert.equal(lifetimeMean(0, 0), null);
		// −11,370 s over 1,671,950 would read −6.8 ms.
		assert.equal(lifetimeMean(-11_370, 1_671_950), null);
		assert.equal(lifetimeMean(0, 5), 0);
	});
});
