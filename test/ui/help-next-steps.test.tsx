// `?` lists the next steps between the keys and the figures, with the node filled in where one is open and NODE on
// the overview's table; the scroll counts their rows as the screen draws them.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {dashboardHelpScroll} from '../../source/screen/dashboard.js';
import {lineText} from '../../source/screen/layout/line.js';
import {helpBodyLines} from '../../source/screen/panes/help-screen.js';
import {dashboardRows} from '../helpers/dashboard-frame.js';

process.env.TZ = 'UTC';

const body = (width: number, node?: string) => helpBodyLines(width, node).map((line) => lineText(line));

describe('the next steps in the help', () => {
	test('after every key and before the figures, each command whole on its row with what it shows', () => {
		const rows = body(100, 'worker-7');
		const title = rows.indexOf('next steps when PLEG is in trouble (the main view shows them from the critical band on)');
		assert.ok(title > rows.findLastIndex((row) => row.startsWith('keys · ')), 'after the keys');
		assert.ok(title < rows.indexOf('figures'), 'before the figures');
		assert.deepEqual(rows.slice(title + 1, title + 9), [
			'  kubectl describe node worker-7',
			'    conditions, Events',
			'  kubectl debug node/worker-7 -it --image=busybox -- chroot /host crictl ps -a',
			'    containers as the runtime lists them',
			'  journalctl -u kubelet | grep -i pleg',
			"    the kubelet's PLEG lines (on the node)",
			'  crictl pods --state NotReady',
			'    sandboxes not ready (on the node)',
		]);
	});

	test('NODE where no node is open; the dashboard fills in its node, and its scroll counts the same rows', () => {
		assert.ok(body(100).includes('  kubectl describe node NODE'));
		const rows = dashboardRows(100, 200, {showHelp: true});
		assert.ok(rows.includes('  kubectl debug node/demo-node -it --image=busybox -- chroot /host crictl ps -a'), rows.join('\n'));
		// A node name that wraps the debug command over more rows at 60 columns: as many more rows to scroll.
		const long = 'ip-10-0-129-177.eu-west-1.compute.internal';
		const extra = body(60, long).length - body(60, 'n').length;
		assert.equal(extra, 2);
		assert.equal(dashboardHelpScroll(60, 30, long).maxOffset, dashboardHelpScroll(60, 30, 'n').maxOffset + extra);
	});
});
