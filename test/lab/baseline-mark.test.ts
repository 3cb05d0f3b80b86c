// `b` on the live screen (the feed reducer and the panes that show it): a second b moves the mark, every mark
// shows on the history chart, and the baseline pane gives the multiple since the mark.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction} from '../../source/domain/feed.js';
import {logToArray} from '../../source/domain/history/bounded-log.js';
import {baselinePaneLines} from '../../source/screen/panes/baseline-pane.js';
import {historyChartLines} from '../../source/screen/panes/history-chart.js';
import {labTotals, scrapeAt, t0} from './exposition.js';

process.env['TZ'] = 'UTC';

const scrapes: FeedAction[] = labTotals.map(({at, totals}) => ({type: 'scrape', scrape: scrapeAt(at, totals)}));
const text = (line: Array<{text: string}>) => line.map((segment) => segment.text).join('');

describe('baseline marks', () => {
	// b at t0+10.5 s (after the 2nd scrape), b again at t0+20.5 s (after the 3rd).
	const actions: FeedAction[] = [
		scrapes[0]!,
		scrapes[1]!,
		{type: 'mark', at: t0 + 10_500},
		scrapes[2]!,
		{type: 'mark', at: t0 + 20_500},
		scrapes[3]!,
		scrapes[4]!,
	];
	const state = actions.reduce(feedReducer, initialFeedState({node: 'worker-1', windowSeconds: 10}));
	const baseline = figuresAt(state, t0 + 40_000)!.baseline!;

	test('a second b moves the mark: since-mark figures start at the scrape before the second b', () => {
		assert.equal(baseline.markedAt, t0 + 20_500);
		assert.equal(state.baseline?.scrape.at, t0 + 20_000);
		assert.equal(baseline.sinceMark?.count, 16); // 136 - 120
		assert.ok(Math.abs(baseline.sinceMark.meanSeconds! - 0.1) < 1e-9); // 1.6 s / 16
		// The window at the second mark (t0+10 s → t0+20 s): 10 relists, 0.05 s -> 5 ms; 100 / 5 = ×20.
		assert.ok(Math.abs(baseline.atMark!.meanSeconds! - 0.005) < 1e-9);
		assert.ok(Math.abs(baseline.meanRatio! - 20) < 1e-9);
	});

	test('both marks stay on the history chart, under the buckets of the scrapes they were set after', () => {
		assert.deepEqual(
			logToArray(state.history).map((point) => point.event),
			[null, 'mark', 'mark', null, null],
		);
		// Scrapes 10 s apart: 20 s columns (twice the interval), 60 − 17 = 43 of them, the last holding now (t0+40 s).
		// The marked scrapes t0+10 s and t0+20 s fall in columns 40 (t0+0–20 s) and 41 (t0+20–40 s).
		const lines = historyChartLines({
			history: logToArray(state.history),
			width: 60,
			now: t0 + 40_000,
			thresholdSeconds: 180,
			intervalSeconds: 10,
		});
		assert.equal(text(lines.at(-1)!), `${' '.repeat(5 + 40)}BB`);
	});

	test('the pane gives the multiple of the baseline mean', () => {
		const [title] = baselinePaneLines({baseline, now: t0 + 40_000, width: 80});
		assert.equal(text(title!), 'baseline · ×20 since mark · marked 14:00:20, 19s ago');
	});
});
