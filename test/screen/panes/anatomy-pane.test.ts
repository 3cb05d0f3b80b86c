import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {anatomyPaneLines} from '../../../source/screen/panes/anatomy-pane.js';
import {churnAnatomy, operation} from '../../helpers/anatomy.js';
import {cells, paneFrame, rowsOf} from '../../helpers/pane-rows.js';

const pane = (anatomy = churnAnatomy(), width = 100) => paneFrame(anatomyPaneLines({anatomy, width}), width);

describe('AnatomyPane', () => {
	test('100 columns: the reading, the four CRI calls, status calls per relist, list share, what the relist walks', () => {
		assert.equal(
			pane(),
			[
				'relist anatomy · CRI calls over 1m0s',
				'relist ≈ per-pod status inspection: 10 status calls per relist taking 61% of the 250ms mean relist',
				'(at most: other loops call too); list calls 16%',
				'ListPodSandbox   1.00/s  mean 24ms  p99 70ms  0 errors',
				'ListContainers   5.00/s  mean 16ms  p99 70ms  0 errors',
				'PodSandboxStatus 4.00/s  mean 15ms  p99 70ms  0 errors',
				// A p99 in the +Inf bucket is a lower bound.
				'ContainerStatus  6.00/s  mean 15.5ms  p99 ≥ 12m25.058s  3 errors',
				// 250 ms / 31 running containers = 8.06 ms.
				'status calls/relist ≤ 10 · list share 16% of the mean relist · per container 8.1ms',
				'running 26 pods · containers 31 running, 3 exited, 1 created',
			].join('\n'),
		);
	});

	test('60 columns: every row fits, a call wraps between its figures, none is cut', () => {
		const frame = pane(churnAnatomy(), 60);
		for (const row of rowsOf(frame)) {
			assert.ok(cells(row) <= 60, `row wider than 60: ${row}`);
		}

		assert.deepEqual(rowsOf(frame).slice(4, 10), [
			'ListPodSandbox   1.00/s  mean 24ms  p99 70ms  0 errors',
			'ListContainers   5.00/s  mean 16ms  p99 70ms  0 errors',
			'PodSandboxStatus 4.00/s  mean 15ms  p99 70ms  0 errors',
			'ContainerStatus  6.00/s  mean 15.5ms  p99 ≥ 12m25.058s',
			'                 3 errors',
			'status calls/relist ≤ 10 · list share 16% of the mean relist',
		]);
		// The reading wraps over three rows, every word kept ("250 ms" stays on one row).
		assert.equal(rowsOf(frame).slice(1, 4).join(' '), churnAnatomy().reading.text);
	});

	test('an old kubelet: no call in the window, a call not exposed, and why', () => {
		const anatomy = churnAnatomy({
			operations: {
				listPodSandbox: operation({windowP99: null}),
				listContainers: operation({windowP99: null}),
				podSandboxStatus: operation({calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null}),
				containerStatus: null,
			},
			runningContainers: null,
			unavailable: ['p99: kubelet_runtime_operations_duration_seconds exists from kubelet 1.14'],
		});
		const rows = rowsOf(pane(anatomy));
		assert.ok(rows.includes('ListPodSandbox   1.00/s  mean 20ms  p99 —  0 errors'));
		assert.ok(rows.includes('PodSandboxStatus no call in the window  0 errors'));
		assert.ok(rows.includes('ContainerStatus  not exposed'));
		assert.ok(rows.includes('running 26 pods · containers —'));
		assert.equal(rows.at(-1), 'p99: kubelet_runtime_operations_duration_seconds exists from kubelet 1.14');
	});

	test('before the first scrape: the title alone, its two items on two rows at 60 columns', () => {
		assert.equal(
			paneFrame(anatomyPaneLines({anatomy: null, width: 60}), 60),
			'relist anatomy\n  CRI calls once the window opens (second scrape)',
		);
	});
});
