// The Dashboard rendered at a fixed size with healthy defaults; tests override what they examine.
import React from 'react';
import type {HistoryPoint} from '../../source/domain/types.js';
import {Dashboard, type DashboardProps} from '../../source/screen/dashboard.js';
import {makeFigures, okStatus, readyNode, testNow} from './figures.js';
import {frameOf} from './ui-frame.js';

/** One point a second up to testNow, mean 4.2 ms, age 1 s. */
export function steadyHistory(points: number, mark?: number): HistoryPoint[] {
	return Array.from({length: points}, (_, index) => ({
		at: testNow - (points - index) * 1000,
		windowMeanSeconds: 0.0042,
		lastSeenAgeSeconds: 1,
		event: index === mark ? 'mark' : null,
	}));
}

export function dashboardRows(width: number, height: number, props: Partial<DashboardProps> = {}): string[] {
	return frameOf(
		<Dashboard
			figures={makeFigures()}
			status={okStatus()}
			history={steadyHistory(60)}
			node={readyNode()}
			sourceLabel="demo node"
			intervalSeconds={1}
			now={testNow}
			width={width}
			height={height}
			showHelp={false}
			{...props}
		/>,
		width,
	).split('\n');
}
