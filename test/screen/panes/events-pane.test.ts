// The Events pane's columns: reason, age and count each as wide as their widest cell, so every message starts in
// the same column whatever the counts (×1 beside ×12) and however long a reason is (cut at 18 cells).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {NodeEventAt} from '../../../source/domain/types.js';
import {lineText} from '../../../source/screen/layout/line.js';
import {eventsPaneLines} from '../../../source/screen/panes/events-pane.js';

function event(reason: string, ageSeconds: number, count: number, message: string): NodeEventAt {
	return {type: 'Warning', reason, message, count, lastTimestamp: null, source: 'kubelet', ageSeconds};
}

describe('the Events columns', () => {
	test('×1 beside ×12 and a reason longer than the column: the messages start in one column', () => {
		const items = [
			event('NodeNotReady', 30, 1, 'Node worker-1 status is now: NodeNotReady'),
			event('FailedCreatePodSandBox', 75, 12, 'rpc error: code = DeadlineExceeded'),
			event('Rebooted', 1500, 3, 'Node worker-1 has been rebooted'),
		];
		const rows = eventsPaneLines({events: {items, error: null}, width: 100, maxEvents: 5}).map((line) => lineText(line));
		assert.deepEqual(rows, [
			'events · 3 Events, newest first',
			// Reasons: 18 cells ("FailedCreatePodSa…" cut, 17 + …); ages right-aligned to "25m ago"; counts to "×12".
			'  NodeNotReady        30s ago  ×1   Node worker-1 status is now: NodeNotReady',
			'  FailedCreatePodSa…  75s ago  ×12  rpc error: code = DeadlineExceeded',
			'  Rebooted            25m ago  ×3   Node worker-1 has been rebooted',
		]);
	});
});
