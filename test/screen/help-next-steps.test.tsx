// `?` lists the next steps between the keys and the figures, with the node filled in where one is open and NODE on
// the overview's table; the scroll counts their rows as the screen draws them.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {dashboardHelpScroll} from '../../source/screen/dashboard.js';
import {lineText} from '../../source/screen/layout/line.js';
import {helpBodyLines} from '../../source/screen/panes/help-screen.js';
import {dashboardRows} from '../helpers/dashboard-frame.js';
import {cells} from '../helpers/ui-frame.js';

process.env.TZ = 'UTC';

const body = (width: number, node?: string) => helpBodyLines(width, node).map((line) => lineText(line));

describe('the next steps in the help', () => {
	test('after every key and before the figures, each command whole on its row with what it shows', () => {
		const rows = body(100, 'worker-7');
		const title = rows.indexOf('next steps when PLEG is in trouble (the main view shows them from the critical band on)');
		assert.ok(title > rows.findLastIndex((row) => row.startsWith('keys · ')), 'after the keys');
		assert.ok(title < rows.indexOf('figures'), 'before the figures');
		assert.deepEqual(rows.slice(title + 1, title + 16), [
			'  kubectl describe node worker-7',
			'    conditions, Events',
			'  kubectl cordon worker-7',
			'    once unhealthy: no new pods are placed on it',
			'  on the node (ssh: kubectl debug node/… needs this same runtime to start its pod)',
			'  systemctl status containerd',
			"    is containerd running (assumed: the Node's runtime was not read)",
			'  journalctl -u containerd --since -15m',
			"    containerd's last 15 minutes",
			'  crictl --timeout 5s info',
			'    does the runtime answer the CRI at all',
			'  crictl pods --state notready',
			'    sandboxes not ready',
			'  journalctl -u kubelet --since -30m | grep -i pleg',
			"    the kubelet's PLEG lines",
		]);
	});

	test('NODE where no node is open; the dashboard fills in its node, and its scroll counts the same rows', () => {
		assert.ok(body(100).includes('  kubectl describe node NODE'));
		const rows = dashboardRows(100, 200, {showHelp: true, context: {kube: {context: 'prod', cluster: 'eu-1'}}});
		assert.ok(rows.includes('  kubectl --context prod cordon demo-node'), rows.join('\n'));
		// A node name that breaks both kubectl commands over two rows at 40 columns: as many more rows to scroll.
		const long = 'ip-10-0-129-177.eu-west-1.compute.internal';
		const extra = body(40, long).length - body(40, 'n').length;
		assert.equal(extra, 2);
		assert.equal(dashboardHelpScroll(40, 30, long).maxOffset, dashboardHelpScroll(40, 30, 'n').maxOffset + extra);
	});

	test("no row wider than the help: the note and the unread runtime's longer why wrap inside it", () => {
		for (const width of [40, 60, 80, 82]) {
			const rows = body(width, 'worker-7');
			const steps = rows.slice(
				rows.findIndex((row) => row.startsWith('next steps')),
				rows.indexOf('figures'),
			);
			const wide = steps.filter((row) => cells(row) > width);
			assert.deepEqual(wide, [], `at ${width}`);
		}
	});
});
