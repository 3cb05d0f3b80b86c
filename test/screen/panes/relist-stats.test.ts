import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {relistStatsLines} from '../../../source/screen/panes/relist-stats.js';
import type {Quantile} from '../../../source/domain/types.js';
import {makeFigures, windowFigures} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

process.env.TZ = 'UTC';
const stats = (figures = makeFigures(), width = 56) => paneFrame(relistStatsLines({figures, width}), width);

describe('RelistStats', () => {
	test('a healthy window: mean, quantiles, count, rate, interval, discards, lifetime since kubelet start', () => {
		assert.equal(
			stats(),
			[
				'relist duration · window 10s',
				'mean 4.2ms · p50 3.8ms · p90 7.2ms · p99 9.3ms',
				'relists 10 in 10s · rate 1.00/s',
				'interval mean 1s',
				'discard events 0 total · +0 in window',
				// 1629.92 s / 42893 relists = 0.03800 s; "relists 42,893" does not fit after it in 56 columns.
				'lifetime mean 38ms · since kubelet start',
				'  relists 42,893',
			].join('\n'),
		);
	});

	test('the interval p99 beside the interval mean; in the +Inf bucket it is a lower bound', () => {
		const row = (intervalP99: Quantile) => stats(makeFigures({window: windowFigures({intervalP99})}), 60).split('\n')[3];
		// 1 s period + a 9.3 ms p99 relist ≈ 1.0093 s, at three significant digits.
		assert.equal(row({seconds: 1.0093, atLeast: false}), 'interval mean 1s · interval p99 1.01s');
		assert.equal(row({seconds: 10, atLeast: true}), 'interval mean 1s · interval p99 ≥ 10s');
		// The bound of the bucket holding the rank, not an interpolation inside it.
		assert.equal(row({seconds: 2.5, atLeast: false, atMost: true}), 'interval mean 1s · interval p99 ≤ 2.5s');
	});

	test('a p99 in the +Inf bucket is a lower bound: "≥ 10 s", never "10.0 s"', () => {
		const frame = stats(
			makeFigures({window: windowFigures({meanSeconds: 2.4, p90: {seconds: 7.5, atLeast: false}, p99: {seconds: 10, atLeast: true}})}),
		);
		assert.equal(frame.split('\n')[1], 'mean 2.4s · p50 3.8ms · p90 7.5s · p99 ≥ 10s');
		assert.doesNotMatch(frame, /10\.0 s/);
	});

	test('no relist completed in the window: said in words, with no mean, quantile or "0 ms"', () => {
		const frame = stats(
			makeFigures({
				window: windowFigures({count: 0, meanSeconds: null, p50: null, p90: null, p99: null, ratePerSecond: 0, intervalMeanSeconds: null}),
			}),
		);
		// The message takes the place of the whole window block: nothing between it and the discards row.
		assert.deepEqual(frame.split('\n').slice(0, 3), [
			'relist duration · window 10s',
			'no relist completed in the last 10s',
			'discard events 0 total · +0 in window',
		]);
		assert.doesNotMatch(frame, /p50|p90|p99|rate|interval/);
		// The lifetime mean is still there, labelled as such.
		assert.match(frame, /lifetime mean 38ms · since kubelet start/);
	});

	test('discard events: the counter total and the new ones in the window', () => {
		const frame = stats(makeFigures({discardEventsTotal: 17, window: windowFigures({discardEvents: 3})}));
		assert.equal(frame.split('\n')[4], 'discard events 17 total · +3 in window');
	});

	test('a window still filling says how much of it is covered', () => {
		const frame = stats(makeFigures({windowTargetSeconds: 60, window: windowFigures({spanSeconds: 23})}));
		assert.equal(frame.split('\n')[0], 'relist duration · window 1m0s (23s so far)');
		assert.equal(frame.split('\n')[2], 'relists 10 in 23s · rate 1.00/s');
	});

	test('before the second scrape, and the metrics this kubelet lacks', () => {
		const frame = stats(
			makeFigures({
				window: null,
				discardEventsTotal: null,
				unavailable: ['last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1.18'],
			}),
		);
		assert.deepEqual(frame.split('\n').slice(1), [
			'window opens at the second scrape',
			'lifetime mean 38ms · since kubelet start',
			'  relists 42,893',
			'last seen: kubelet_pleg_last_seen_seconds exists from',
			'  kubelet 1.18',
		]);
	});
});

describe('RelistStats from a pre-1.18 kubelet', () => {
	test('says the figures come from the µs summaries, on a row of its own when narrow', () => {
		const rows = stats(makeFigures({legacy: true})).split('\n');
		// "relist duration · window 10 s" 29 + " · " 3 + 30 = 62 > 56 columns.
		assert.deepEqual(rows.slice(0, 2), ['relist duration · window 10s', '  from the pre-1.18 µs summaries']);
	});
});
