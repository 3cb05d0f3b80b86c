import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import React from 'react';
import {VerdictLine} from '../../source/screen/panes/verdict-line.js';
import {readyNode, testNow} from '../helpers/figures.js';
import {frameOf} from '../helpers/ui-frame.js';

process.env.TZ = 'UTC';
const message = 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s';
const unhealthy = {healthy: false, message, basis: 'last-seen'} as const;
const notReady = readyNode({ready: {status: 'False', reason: 'KubeletNotReady', message, since: testNow - 1000}});

describe('VerdictLine', () => {
	test("the kubelet's words, then the node's Ready condition with its message, wrapped between words", () => {
		assert.equal(
			frameOf(<VerdictLine verdict={unhealthy} node={notReady} width={80} />, 80),
			[
				`✗ ${message}`,
				'✗ node Ready=False KubeletNotReady since 14:02:21: PLEG is not healthy: pleg was',
				'  last seen active 3m1s ago; threshold is 3m0s',
			].join('\n'),
		);
	});

	test('one row each when asked: the cut is after a whole word, marked …', () => {
		const frame = frameOf(<VerdictLine verdict={unhealthy} node={notReady} width={60} maxLinesEach={1} />, 60);
		assert.equal(
			frame,
			['✗ PLEG is not healthy: pleg was last seen active 3m1s ago; …', '✗ node Ready=False KubeletNotReady since 14:02:21: PLEG is …'].join(
				'\n',
			),
		);
	});

	test('healthy, judged on the count fallback, node without a Ready condition', () => {
		const frame = frameOf(
			<VerdictLine
				verdict={{healthy: true, message: 'PLEG is healthy', basis: 'count-unchanged'}}
				node={readyNode({ready: null})}
				width={80}
			/>,
			80,
		);
		assert.equal(
			frame,
			['✓ PLEG is healthy (judged on "count unchanged", no last-seen gauge)', '? node demo-node: no Ready condition reported'].join('\n'),
		);
	});

	test('no Node object read: the verdict alone', () => {
		assert.equal(
			frameOf(<VerdictLine verdict={{healthy: null, message: 'cannot judge yet', basis: 'none'}} node={null} width={80} />, 80),
			'? cannot judge yet',
		);
	});

	test('stale: the unknown verdict under "?", its own symbol, never the ✓ of the last good scrape', () => {
		const stale = {
			healthy: null,
			message: 'verdict unknown: the last good scrape is 47s old (then: PLEG is healthy)',
			basis: 'none',
		} as const;
		assert.equal(
			frameOf(<VerdictLine verdict={stale} node={null} width={80} />, 80),
			'? verdict unknown: the last good scrape is 47s old (then: PLEG is healthy)',
		);
	});
});
