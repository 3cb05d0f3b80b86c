import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import React from 'react';
import type {HistoryPoint} from '../../source/domain/types.js';
import {HistoryChart, sparkLevel} from '../../source/screen/panes/history-chart.js';
import {testNow} from '../helpers/figures.js';
import {cells, frameOf} from '../helpers/ui-frame.js';

const means = [0.001, 0.004, 0.01, 0.1, 1, 10, null, 0.004, 0.004, 0.004, 0.004, 0.004];
const history: HistoryPoint[] = means.map((mean, index) => ({
	at: testNow - (12 - index) * 1000,
	windowMeanSeconds: mean,
	lastSeenAgeSeconds: index + 1,
	event: index === 3 ? 'mark' : index === 7 ? 'restart' : null,
}));

describe('sparkLevel (log scale, 8 blocks)', () => {
	test('mean from a 1 ms floor to a 10 s max', () => {
		// level = round(ln(v / 1 ms) / ln(10 s / 1 ms) × 7): 4 ms → 1.05 → 1; 10 ms → 1.75 → 2; 100 ms → 3.5 → 4; 1 s → 5.25 → 5.
		assert.deepEqual(
			[0.001, 0.004, 0.01, 0.1, 1, 10].map(value => sparkLevel(value, 0.001, 10)),
			[0, 1, 2, 4, 5, 7],
		);
		assert.equal(sparkLevel(null, 0.001, 10), null);
	});
});

describe('HistoryChart', () => {
	test('both series, the max of each, and R / B markers under their scrape', () => {
		const frame = frameOf(<HistoryChart history={history} width={40} />, 40);
		// 40 − 5 (label) − 1 − 10 ("max 10.0 s") = 24 columns; 12 points, left-aligned.
		// Ages 1…12 s on a 1 s floor: round(ln(age) / ln 12 × 7) = 0 2 3 4 5 5 5 6 6 6 7 7.
		assert.equal(
			frame,
			[
				'history · last 11 s',
				'mean ▁▂▃▅▆█ ▂▂▂▂▂             max 10.0 s',
				'age  ▁▃▄▅▆▆▆▇▇▇██             max 12 s',
				'        B   R',
			].join('\n'),
		);
	});

	test('only the newest points that fit; every row within the width', () => {
		const long: HistoryPoint[] = Array.from({length: 200}, (_, index) => ({
			at: testNow - (200 - index) * 1000,
			windowMeanSeconds: 0.004,
			lastSeenAgeSeconds: 1,
			event: index === 10 ? 'restart' : null,
		}));
		const rows = frameOf(<HistoryChart history={long} width={50} />, 50).split('\n');
		assert.ok(rows.every(row => cells(row) <= 50));
		// 50 − 5 − 1 − 10 ("max 4.0 ms") = 34 points: the restart at index 10 is off the left edge.
		assert.equal(rows.length, 3);
		assert.equal(rows[1], `mean ${'█'.repeat(34)} max 4.0 ms`);
	});
});
