import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {baselinePaneLines} from '../../../source/screen/panes/baseline-pane.js';
import {testNow, windowFigures} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

process.env.TZ = 'UTC';

describe('BaselinePane', () => {
	test('the window at the mark beside the figures since it, and the mean ratio', () => {
		const baseline = {
			markedAt: testNow - 125_000,
			atMark: windowFigures(),
			// Churn since the mark: 40 relists in 125 s, mean 26.5 ms → 26.5 / 4.2 = ×6.3.
			sinceMark: windowFigures({
				spanSeconds: 125,
				count: 40,
				meanSeconds: 0.0265,
				p99: {seconds: 10, atLeast: true},
				ratePerSecond: 0.32,
				intervalMeanSeconds: 3.1,
			}),
			meanRatio: 0.0265 / 0.0042,
		};
		assert.equal(
			paneFrame(baselinePaneLines({baseline, now: testNow, width: 80}), 80),
			[
				'baseline · ×6.3 since mark · marked 14:00:17, 2m5s ago',
				'          at mark    since mark',
				'mean      4.2ms      26.5ms',
				'p99       9.3ms      ≥ 10s',
				'rate      1.00/s     0.32/s',
				'interval  1s         3.1s',
				'relists   10 in 10s  40 in 2m5s',
			].join('\n'),
		);
	});

	test('no relist since the mark: said, not 0 ms', () => {
		const baseline = {
			markedAt: testNow - 5000,
			atMark: windowFigures(),
			sinceMark: windowFigures({spanSeconds: 5, count: 0, meanSeconds: null, p99: null, ratePerSecond: 0, intervalMeanSeconds: null}),
			meanRatio: null,
		};
		const rows = paneFrame(baselinePaneLines({baseline, now: testNow, width: 80}), 80).split('\n');
		assert.equal(rows[0], 'baseline · marked 14:02:17, 5s ago');
		assert.equal(rows[2], 'mean      4.2ms      no relist');
		assert.equal(rows[3], 'p99       9.3ms      no relist');
	});
});
