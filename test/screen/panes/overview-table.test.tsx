// The overview table as frames at a fixed width: the sort column's arrow, the filter in the header and its prompt
// at the bottom, the error and slow rows; then the overview app fed by a still engine, driven by keys written
// to stdin the way tmux send-keys writes them (several keys in one chunk).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {stripVTControlCharacters} from 'node:util';
import React from 'react';
import {render} from 'ink-testing-library';
import {overviewTableLines} from '../../../source/screen/panes/overview-table.js';
import {OverviewApp} from '../../../source/screen/overview-app.js';
import {flagSlow, sortRows, type OverviewRow, type SortOrder} from '../../../source/screen/overview-rows.js';
import {clockTime} from '../../../source/screen/layout/clock-time.js';
import {prometheusFeedKind, type PrometheusFeed} from '../../../source/domain/fleet/prometheus-feed.js';
import {initialOverviewState, overviewReducer, type OverviewState} from '../../../source/domain/fleet/overview-state.js';
import type {PrometheusFigures} from '../../../source/domain/fleet/prometheus-feed.js';
import {paneRows} from '../../helpers/pane-rows.js';
import {overviewRowOf} from '../../helpers/overview-row.js';
import {until} from '../../helpers/until.js';

const now = Date.UTC(2024, 0, 1, 12, 0, 0);
const width = 80;

function row(name: string, fields: Partial<OverviewRow> = {}): OverviewRow {
	return overviewRowOf(name, {meanSeconds: 0.005, p99: {seconds: 0.01, atLeast: false}, ratePerSecond: 0.99, ...fields});
}

// p99s 10, 12, 11, 150 ms: worker-4 is slow (the median of the others is 11 ms); control-plane cannot be read.
const rows = flagSlow([
	row('worker-1', {p99: {seconds: 0.01, atLeast: false}}),
	row('worker-2', {p99: {seconds: 0.012, atLeast: false}}),
	row('worker-3', {p99: {seconds: 0.011, atLeast: false}}),
	row('worker-4', {p99: {seconds: 0.15, atLeast: false}, meanSeconds: 0.06, readAgeSeconds: 3}),
	row('control-plane', {
		state: 'error',
		word: 'error',
		reason: '403 nodes/proxy',
		p99: null,
		meanSeconds: null,
		ratePerSecond: null,
		discardEvents: null,
		lastSeenAgeSeconds: null,
		readAgeSeconds: null,
	}),
]);

function frame(sort: SortOrder | undefined, filter = '', typing = false): string[] {
	const props = {
		rows: sortRows(rows, sort),
		selected: null,
		sort,
		filter,
		typing,
		sourceLabel: 'all nodes via https://10.0.0.1:6443',
		cadence: 'each node every 1s · ≤ 8 at once',
		listFailure: null,
		now,
		width,
		height: 12,
	};
	return paneRows(overviewTableLines(props), width);
}

/** The header row: `left`, then the clock flush right. */
function header(left: string): string {
	const clock = clockTime(now);
	return left + ' '.repeat(width - left.length - clock.length) + clock;
}

describe('the overview table at 80 columns', () => {
	test('worst first: the error row says why, the slow node above the ok ones (by name), the status title arrowed', () => {
		// At 80 columns the age at the read, how old the read is and the NotReady countdown stay; Ready, mean go.
		assert.deepEqual(frame(undefined), [
			header('pleg-top · 5 nodes · all nodes via https://10.0.0.1:6443'),
			'each node every 1s · ≤ 8 at once',
			'✗ 0 unhealthy · ? 1 error · ! 0 warn · ! 1 slow · ✓ 3 ok',
			'  status↓            node            last seen      read   NotReady in       p99',
			'› ? 403 nodes/proxy  control-plane           —         —             —         —',
			'  ! slow             worker-4               1s    3s ago             —     150ms',
			'  ✓ ok               worker-1               1s    0s ago             —      10ms',
			'  ✓ ok               worker-2               1s    0s ago             —      12ms',
			'  ✓ ok               worker-3               1s    0s ago             —      11ms',
			'↑↓ select  Enter open  s sort  S reverse  / filter  ? keys  q quit',
		]);
	});

	test('sorted by p99 and filtered by "work": the header says both, the p99 title is arrowed', () => {
		assert.deepEqual(frame({column: 'p99', reversed: false}, 'work'), [
			header('pleg-top · 4 of 5 nodes matching "work" · sorted by p99, largest first'),
			'each node every 1s · ≤ 8 at once',
			// The counts stay those of every node: a filter hides rows, not trouble.
			'✗ 0 unhealthy · ? 1 error · ! 0 warn · ! 1 slow · ✓ 3 ok',
			'  status             node            last seen      read   NotReady in      p99↓',
			'› ! slow             worker-4               1s    3s ago             —     150ms',
			'  ✓ ok               worker-2               1s    0s ago             —      12ms',
			'  ✓ ok               worker-3               1s    0s ago             —      11ms',
			'  ✓ ok               worker-1               1s    0s ago             —      10ms',
			'↑↓ select  Enter open  s sort  S reverse  Esc unfilter  ? keys  q quit',
		]);
	});

	test('p99 reversed: smallest first, arrow up; the node without a p99 stays last', () => {
		const lines = frame({column: 'p99', reversed: true});
		assert.equal(lines[3], '  status             node            last seen      read   NotReady in      p99↑');
		assert.deepEqual(
			lines.slice(4, 9).map((line) => line.slice(21, 35).trim()),
			['worker-1', 'worker-3', 'worker-2', 'worker-4', 'control-plane'],
		);
	});

	test('cloud names keep their distinguishing end; a countdown run out says "due now" above the critical ones', () => {
		const gke = (end: string) => `gke-prod-default-pool-3f6a0b2c-${end}`;
		// m2n4: 170.2 s at the read, 10.3 s since (180.5 s now: 180 − 180 = 0 left); a1b2: 100.4 + 10.1 = 110.5 s (70 s left).
		const cloud = sortRows([
			row(gke('a1b2'), {
				state: 'critical',
				word: 'critical',
				band: 'critical',
				lastSeenAgeSeconds: 100.4,
				readAgeSeconds: 10.1,
				notReadyInSeconds: 69.5,
				notReadyLeftSeconds: 70,
			}),
			row(gke('x7kq')),
			row(gke('m2n4'), {
				state: 'critical',
				word: 'critical',
				band: 'critical',
				lastSeenAgeSeconds: 170.2,
				readAgeSeconds: 10.3,
				notReadyInSeconds: -0.5,
				notReadyLeftSeconds: 0,
			}),
		]);
		const props = {
			rows: cloud,
			selected: null,
			sourceLabel: 'all nodes',
			cadence: 'each node every 15s',
			listFailure: null,
			now,
			height: 10,
		};
		// 35-character names in 29 (p99 dropped first): 14 + … + 14, the cut inside the shared "gke-prod-default-pool-3f6a0b2c-".
		// Last seen + read + NotReady in: 2m50s + 10s + due now; 1m40s + 10s (110 − 100) + 1m10s (180 − 110).
		assert.deepEqual(paneRows(overviewTableLines({...props, width}), width).slice(3, 7), [
			'  status↓      node                            last seen      read   NotReady in',
			'› !! critical  gke-prod-defau…-3f6a0b2c-m2n4       2m50s   10s ago       due now',
			'  !! critical  gke-prod-defau…-3f6a0b2c-a1b2       1m40s   10s ago         1m10s',
			'  ✓ ok         gke-prod-defau…-3f6a0b2c-x7kq          1s    0s ago             —',
		]);
		// At 60 columns the three go together, not NotReady in beside a last seen it does not add up with; the name fits.
		assert.deepEqual(paneRows(overviewTableLines({...props, width: 60}), 60).slice(3, 5), [
			'  status↓      node',
			'› !! critical  gke-prod-default-pool-3f6a0b2c-m2n4',
		]);
	});

	test('a wide status ("? kubelet unreachable", 21): the name gives up cells (19 here) before the three ages go', () => {
		const gke = (end: string) => `gke-prod-default-pool-3f6a0b2c-${end}`;
		const failing = {state: 'error', word: 'error', reason: 'kubelet unreachable', lastSeenAgeSeconds: null, readAgeSeconds: null} as const;
		const rows = sortRows([
			row(gke('m2n4'), {
				state: 'critical',
				word: 'critical',
				band: 'critical',
				lastSeenAgeSeconds: 170.2,
				readAgeSeconds: 10.3,
				notReadyInSeconds: -0.5,
				notReadyLeftSeconds: 0,
			}),
			row(gke('e5f6'), failing),
		]);
		const props = {rows, selected: null, sourceLabel: 'all nodes', cadence: 'each node every 15s', listFailure: null, now, height: 10};
		// 80 − (2 + 21 + 2 + 10 + 2 + 8 + 2 + 12 + 2) = 19 for the name: 9 + … + 9, inside the shared 31.
		assert.deepEqual(paneRows(overviewTableLines({...props, width}), width).slice(3, 6), [
			'  status↓                node                  last seen      read   NotReady in',
			'› !! critical            gke-prod-…0b2c-m2n4       2m50s   10s ago       due now',
			'  ? kubelet unreachable  gke-prod-…0b2c-e5f6           —         —             —',
		]);
	});

	test('while the filter is typed the bottom row is its prompt; no match says so', () => {
		const typing = frame({column: 'node', reversed: true}, 'wor', true);
		assert.equal(typing[0], header('pleg-top · 4 of 5 nodes matching "wor" · sorted by node, Z → A'));
		assert.equal(typing[3], '  status             node↓           last seen      read   NotReady in       p99');
		assert.deepEqual(
			typing.slice(4, 8).map((line) => line.slice(21, 35).trim()),
			['worker-4', 'worker-3', 'worker-2', 'worker-1'],
		);
		assert.equal(typing.at(-1), '/wor▌  Enter keep  Esc clear');
		const none = frame(undefined, 'xyz', true);
		assert.equal(none[3], 'no node name contains "xyz"');
	});
});

/** A Prometheus answer for one node with this window p99 (ms). */
function answer(node: string, p99Ms: number): PrometheusFigures {
	return {
		node,
		at: now,
		windowSeconds: 60,
		kubeletVersion: 'v1.28.4',
		lastSeenAgeSeconds: 1,
		lastSeenScrapedAt: null,
		meanSeconds: p99Ms / 2000,
		p50: null,
		p90: null,
		p99: p99Ms / 1000,
		ratePerSecond: 1,
		intervalMeanSeconds: 1,
		discardEvents: 0,
		lifetimeCount: 1000,
		lifetimeSum: 10,
	};
}

/** An engine that holds a fixed state and never changes: the app's keys are all that move the screen. */
function stillEngine(p99s: Record<string, number>) {
	const reduce = overviewReducer(prometheusFeedKind);
	let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
	state = reduce(state, {type: 'names', names: Object.keys(p99s), at: now});
	for (const [name, p99] of Object.entries(p99s))
		state = reduce(state, {type: 'feed', node: name, action: {type: 'figures', figures: answer(name, p99), latencyMs: 5}});
	return {
		kind: prometheusFeedKind,
		state,
		label: 'all nodes via test',
		single: null,
		cadence: () => 'every node every 1s',
		effectiveIntervalMs: () => 1000,
		subscribe: () => () => undefined,
		now: () => now,
		paused: false,
		setPaused: () => undefined,
		mark: () => undefined,
		requestCount: 0,
		ended: new Promise<void>(() => undefined),
		stop: () => undefined,
	};
}

/** The first frame `check` accepts (a wait with the suite's deadline); a timeout shows the last frame. */
async function frameWhere(read: () => string, check: (text: string) => boolean, what: string): Promise<string> {
	return until(
		() => {
			const text = read();
			return check(text) && text;
		},
		() => `${what}; last frame:\n${read()}`,
	);
}

describe('the overview app, keys written as one chunk', () => {
	test('"ss" sorts by Ready, "S" reverses, "/wor\\r" filters, "jj" moves two rows, "?" shows the overview keys', async () => {
		const engine = stillEngine({'worker-1': 10, 'worker-2': 12, 'worker-3': 11, 'worker-4': 150, 'control-plane': 9});
		// The engine's type is the app's; a still one has every member it reads.
		const app = render(
			React.createElement(OverviewApp as unknown as React.FC<Record<string, unknown>>, {
				engine,
				renderEveryMs: 10,
				size: {columns: 100, rows: 20},
			}),
		);
		const read = () => stripVTControlCharacters(app.lastFrame() ?? '');
		try {
			await frameWhere(read, (text) => text.includes('status↓'), 'the table');
			// p99 150 ms against a median of 10.5 ms (9, 10, 11, 12): worker-4 is slow and on top.
			assert.match(read(), /› ! slow {7}worker-4/);
			app.stdin.write('ss');
			let text = await frameWhere(read, (text) => text.includes('Ready↓'), 'the Ready column sorted');
			assert.match(text, /sorted by ready, not ready first/);
			app.stdin.write('S');
			text = await frameWhere(read, (text) => text.includes('Ready↑'), 'the Ready sort reversed');
			assert.match(text, /sorted by ready, ready first/);
			app.stdin.write('/wor\r');
			text = await frameWhere(read, (text) => text.includes('4 of 5 nodes matching "wor"'), 'the filter kept');
			assert.ok(!text.includes('control-p'), text);
			// No Ready read: the ties go worst first, the slow node, then by name.
			app.stdin.write('jj');
			text = await frameWhere(read, (text) => /› ✓ ok {9}worker-2/.test(text), 'the third row selected');
			app.stdin.write('?');
			text = await frameWhere(read, (text) => text.includes('filter by node name'), 'the help with the overview keys');
			app.stdin.write('\u001B');
			await frameWhere(read, (text) => text.includes('Ready↑'), 'the table again');
			app.stdin.write('\u001B');
			text = await frameWhere(read, (text) => text.includes('pleg-top · 5 nodes'), 'the filter cleared');
			// Back in the table: at 100 columns the relists/s column gives way so the names stay whole.
			assert.match(text, /✓ ok {9}control-plane {2}/);
			assert.ok(!text.includes('relists/s'), text);
		} finally {
			app.unmount();
		}
	});
});

test('read ages up to 2m5s say "ago"; a longer one (a target no longer scraped) drops it and shows whole', () => {
	const reads = [125, 200, 3600].map((seconds) => row(`n-${seconds}`, {readAgeSeconds: seconds}));
	const props = {
		rows: sortRows(reads, {column: 'read', reversed: true}),
		selected: null,
		sort: {column: 'read' as const, reversed: true},
		sourceLabel: 'all nodes via Prometheus http://p',
		cadence: 'every node from one set of queries every 1s',
		listFailure: null,
		now,
		width,
		height: 8,
	};
	const lines = paneRows(overviewTableLines(props), width).map((line) => line.trimEnd());
	const cells = lines.filter((line) => / n-\d+ /.test(line)).map((line) => /(\S+(?: ago)?)\s+—\s+\S+$/.exec(line)?.[1]);
	assert.deepEqual(cells, ['2m5s ago', '3m20s', '1h0m0s']);
});
