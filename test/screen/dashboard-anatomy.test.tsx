import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {churnAnatomy} from '../helpers/anatomy.js';
import {dashboardRows, steadyHistory} from '../helpers/dashboard-frame.js';
import {makeFigures} from '../helpers/figures.js';
import {cells} from '../helpers/ui-frame.js';

process.env.TZ = 'UTC';

function screen(width: number, height: number, showAnatomy = true): string[] {
	return dashboardRows(width, height, {figures: makeFigures({anatomy: churnAnatomy()}), history: steadyHistory(30), showAnatomy});
}

describe('Dashboard with the anatomy pane (a)', () => {
	for (const width of [100, 60]) {
		test(`${width} columns: the pane takes the place of the kubelet source pane and the history; rows fit`, () => {
			const rows = screen(width, 40);
			const text = rows.join('\n');
			assert.ok(rows.length <= 40);
			for (const row of rows) {
				assert.ok(cells(row) <= width, `row wider than ${width}: ${row}`);
			}

			assert.ok(text.includes('relist anatomy · CRI calls over 1m0s'));
			assert.ok(text.includes('PodSandboxStatus 4.00/s  mean 15ms  p99 70ms  0 errors'));
			assert.ok(text.includes('relist duration · window 10s'));
			assert.ok(!text.includes('kubelet source'));
			assert.ok(!text.includes('history ·'));
			assert.ok(text.includes('PLEG is healthy'));
		});
	}

	test('short of rows the relist stats go before the anatomy pane, and the pane is never cut', () => {
		const has = (height: number) => {
			const text = screen(100, height).join('\n');
			return [text.includes('relist duration ·'), text.includes('relist anatomy'), text.includes('running 26 pods')];
		};

		assert.deepEqual(has(40), [true, true, true]);
		// Essentials 7 rows (header, verdict + Ready, gauge 3, status) + anatomy 9 = 16.
		assert.deepEqual(has(17), [false, true, true]);
		assert.deepEqual(has(15), [true, false, false]);
	});

	test('without `a` the usual screen', () => {
		const text = screen(100, 40, false).join('\n');
		assert.ok(text.includes('kubelet source'));
		assert.ok(!text.includes('relist anatomy'));
	});
});
