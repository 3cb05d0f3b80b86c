// The raw view's pane (`w`, --raw) as exact text at fixed sizes: whole when it fits, else a page of whole lines with
// the position row, a line wider than the pane broken before its value; and on the dashboard, within 80×24 and 60×20.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parsePlegSample} from '../../../source/domain/exposition/parse.js';
import {dashboardBlocks, dashboardRawScroll, type DashboardProps} from '../../../source/screen/dashboard.js';
import {lineText, lineWidth} from '../../../source/screen/layout/line.js';
import {breakLine, rawPaneLines, rawPaneScroll} from '../../../source/screen/panes/raw-pane.js';
import {readDump} from '../../domain/dump.js';
import {makeFigures, okStatus, readyNode, testNow} from '../../helpers/figures.js';

process.env.TZ = 'UTC';

/** The v1.21.2 dump's 30 lines, scraped 3 s before testNow (14:02:19). */
const dumpRaw = {...parsePlegSample(readDump('1.21.2')).raw!, at: testNow - 3000};
const three = {
	lines: ['kubelet_pleg_discard_events 0', 'kubelet_pleg_last_seen_seconds 1.7e+09', 'kubelet_pleg_relist_duration_seconds_count 5'],
	omitted: 0,
	at: testNow - 1500,
};

const text = (props: Parameters<typeof rawPaneLines>[0]) => rawPaneLines(props).map((line) => lineText(line));

describe('rawPaneLines', () => {
	test('every line fits: the heading with the age and time of the scrape, then the lines as written', () => {
		assert.deepEqual(text({raw: three, now: testNow, width: 80, height: 10}), [
			'raw kubelet_pleg_* lines · scraped 1s ago · 14:02:20 · w hides',
			'kubelet_pleg_discard_events 0',
			'kubelet_pleg_last_seen_seconds 1.7e+09',
			'kubelet_pleg_relist_duration_seconds_count 5',
		]);
	});

	test('30 lines in 8 rows: 6 lines a page and the position row; scrolled; past the end kept at the last page', () => {
		const page = (offset: number) => text({raw: dumpRaw, now: testNow, width: 80, height: 8, offset});
		assert.deepEqual(page(0), [
			'raw kubelet_pleg_* lines · scraped 3s ago · 14:02:19 · w hides',
			'kubelet_pleg_discard_events 0',
			'kubelet_pleg_last_seen_seconds 1.648119277e+09',
			'kubelet_pleg_relist_duration_seconds_bucket{le="0.005"} 88778',
			'kubelet_pleg_relist_duration_seconds_bucket{le="0.01"} 112188',
			'kubelet_pleg_relist_duration_seconds_bucket{le="0.025"} 1.325443e+06',
			'kubelet_pleg_relist_duration_seconds_bucket{le="0.05"} 1.599946e+06',
			'lines 1–6 of 30 · ↓ PgDn for more',
		]);
		assert.equal(page(3).at(-1), 'lines 4–9 of 30 · ↑↓ PgUp PgDn scroll');
		assert.equal(page(3)[1], 'kubelet_pleg_relist_duration_seconds_bucket{le="0.01"} 112188');
		assert.deepEqual(page(99).slice(-2), ['kubelet_pleg_relist_interval_seconds_count 1.671949e+06', 'lines 25–30 of 30 · ↑ PgUp back']);
		assert.deepEqual(rawPaneScroll({raw: dumpRaw, width: 80, height: 8}), {page: 6, maxOffset: 24});
		assert.deepEqual(rawPaneScroll({raw: three, width: 80, height: 8}), {page: 3, maxOffset: 0});
	});

	test('60 columns: a bucket line wider than the pane goes on below, broken before its value', () => {
		assert.deepEqual(
			breakLine('kubelet_pleg_relist_duration_seconds_bucket{le="0.025"} 1.325443e+06', 60).map((line) => lineText(line)),
			['kubelet_pleg_relist_duration_seconds_bucket{le="0.025"}', '  1.325443e+06'],
		);
		// No space to break at within the width: cut at it, the rest indented.
		assert.deepEqual(
			breakLine('kubelet_pleg_x{a="' + 'b'.repeat(70) + '"} 1', 40).map((line) => lineText(line)),
			['kubelet_pleg_x{a="bbbbbbbbbbbbbbbbbbbbbb', '  bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', '  bbbbbbbbbb"} 1'],
		);
		const rows = rawPaneLines({raw: dumpRaw, now: testNow, width: 60, height: 12});
		assert.ok(rows.every((row) => lineWidth(row) <= 60));
		// 10 rows for lines: 1 and 2 take one each, 3 to 6 (62 to 68 characters) two each, a seventh would not fit.
		assert.equal(lineText(rows.at(-1)!), 'lines 1–6 of 30 · ↓ PgDn for more');
		assert.equal(rows.length, 12);
	});

	test('lines past the bound: the heading counts them', () => {
		assert.equal(
			text({raw: {...three, omitted: 51}, now: testNow, width: 100, height: 10})[0],
			'raw kubelet_pleg_* lines · scraped 1s ago · 51 more lines not kept · 14:02:20 · w hides',
		);
	});

	test('--prometheus: no /metrics text, said in the pane', () => {
		assert.deepEqual(text({raw: null, now: testNow, width: 60, height: 5}), [
			'raw kubelet_pleg_* lines',
			'none with --prometheus: Prometheus answers with figures, not',
			'the kubelet /metrics text (pleg-top NODE reads it)',
		]);
	});
});

describe('the raw pane on the dashboard', () => {
	const props = (width: number, height: number, rawOffset = 0): DashboardProps => ({
		figures: makeFigures({raw: dumpRaw}),
		status: okStatus(),
		history: [],
		node: readyNode(),
		sourceLabel: 'worker-1',
		intervalSeconds: 1,
		now: testNow,
		width,
		height,
		showHelp: false,
		showRaw: true,
		rawOffset,
	});
	const rowsOf = (each: DashboardProps) =>
		dashboardBlocks(each).flatMap((block) => (block.kind === 'lines' ? block.lines.map((line) => lineText(line)) : []));

	for (const [width, height] of [
		[80, 23],
		[60, 19],
	] as const) {
		test(`${width}×${height + 1}: the essentials, then the pane in the rows left, nothing wider than the screen`, () => {
			const rows = rowsOf(props(width, height));
			assert.equal(rows.length, height);
			assert.ok(rows.every((row) => row.length <= width));
			assert.ok(rows.some((row) => row.startsWith('✓ PLEG is healthy')));
			const heading = rows.findIndex((row) => row.startsWith('raw kubelet_pleg_* lines'));
			assert.ok(heading > 0);
			assert.equal(rows[heading + 1], 'kubelet_pleg_discard_events 0');
			assert.match(rows.at(-2)!, /^lines 1–\d+ of 30 · ↓ PgDn for more$/);
			// The stats and the history give way.
			assert.ok(!rows.some((row) => row.startsWith('relist duration')));
		});
	}

	test("the scroll keys' page is the pane's at that size", () => {
		const {page, maxOffset} = dashboardRawScroll(props(80, 23));
		const rows = rowsOf(props(80, 23, maxOffset));
		assert.equal(rows.at(-2), `lines ${maxOffset + 1}–30 of 30 · ↑ PgUp back`);
		assert.equal(rows.at(-3), 'kubelet_pleg_relist_interval_seconds_count 1.671949e+06');
		assert.equal(maxOffset, 30 - page);
	});
});
