import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {definitions, keyGroups} from '../../../source/domain/definitions.js';
import {lineText} from '../../../source/screen/layout/line.js';
import {helpScreenLines, helpBodyLines, helpScroll, scrollHelp} from '../../../source/screen/panes/help-screen.js';
import {cells, paneFrame} from '../../helpers/pane-rows.js';

describe('HelpScreen', () => {
	const frame = paneFrame(helpScreenLines({width: 100}), 100);
	const rows = frame.split('\n');

	test('the keys first, grouped by screen, then every figure with its formula', () => {
		const firstKeyGroup = rows.indexOf('keys · one-node screen (pleg-top NODE)');
		const figures = rows.indexOf('figures');
		assert.equal(firstKeyGroup, 1, frame);
		assert.ok(figures > firstKeyGroup);
		for (const title of [
			'keys · overview (pleg-top with no node)',
			'keys · demo (pleg-top --demo), on its one-node screen',
			'keys · while the help shows',
		]) {
			const index = rows.indexOf(title);
			assert.ok(index > firstKeyGroup && index < figures, `${title} at row ${index}`);
		}

		const joined = frame.replaceAll(/\n {2}/g, ' ');
		for (const {label, formula} of definitions) {
			const at = frame.indexOf(`${label}:`);
			assert.ok(at > frame.indexOf('\nfigures\n'), `${label} before the keys`);
			assert.ok(joined.includes(`${label}: ${formula}`), `missing ${label}`);
		}
	});

	test('every key of every screen, each with its action on its row', () => {
		// 200 wide: no action wraps.
		const wide = paneFrame(helpScreenLines({width: 200}), 200).split('\n');
		const keyRows = wide.slice(0, wide.indexOf('figures')).map((row) => row.trim().replaceAll(/ {2,}/g, '  '));
		for (const group of keyGroups()) {
			for (const binding of group.bindings) {
				const row = `${binding.keys.join(' / ')}  ${binding.action}`;
				assert.ok(keyRows.includes(row), `missing "${row}"`);
			}
		}

		// Keys people look for by what they do.
		for (const row of [
			'a  relist anatomy',
			'k  kubelet source pane: open / fold into one row',
			'Ctrl-L  clear and redraw the whole screen',
			'b  mark a baseline (press again to move it)',
			'p  pause / resume polling',
			'q / Ctrl-C  quit',
			'S  reverse the sort',
			'x  demo: kubelet restart',
			'PgUp / PgDn  scroll one page',
		]) {
			assert.ok(keyRows.includes(row), `missing "${row}"`);
		}
	});

	test('the last-seen formula as written once in definitions.ts', () => {
		const at = rows.indexOf("Last seen age: (now + node clock offset) − kubelet_pleg_last_seen_seconds: on the node's clock, as");
		assert.ok(at >= 0, rows.join('\n'));
		assert.equal(rows[at + 1], '  the kubelet judges it (the offset applied beyond ±2 s; the gauge has 1 s resolution); a gauge that');
		assert.equal(rows[at + 2], '  is not a number, infinite or negative is no time: read as absent, and said');
	});
});

describe('the help scrolls when taller than its pane', () => {
	// 60 wide: the title (63 cells) takes 2 rows, the position row 1, so 10 rows show 7 of the body.
	const body = helpBodyLines(60).map((line) => lineText(line));
	const total = body.length;

	function rowsAt(offset: number): string[] {
		return paneFrame(helpScreenLines({width: 60, height: 10, offset}), 60).split('\n');
	}

	test('first page: the title, rows 1–7 of the body, where it stands and how to go on', () => {
		const rows = rowsAt(0);
		assert.equal(rows.length, 10);
		assert.ok(rows.every((row) => cells(row) <= 60));
		assert.deepEqual(rows.slice(0, 2), ['pleg-top — keys, then what each figure means (? or Esc', 'closes)']);
		assert.deepEqual(rows.slice(2, 9), body.slice(0, 7));
		assert.equal(rows[9], `line 1–7 of ${total} · ↓ PgDn for more · / search`);
		assert.ok(!rows.some((row) => /more rows/.test(row)));
	});

	test('further down: the rows from the offset, the title kept', () => {
		const rows = rowsAt(20);
		assert.deepEqual(rows.slice(2, 9), body.slice(20, 27));
		assert.equal(rows[9], `line 21–27 of ${total} · ↑↓ PgUp PgDn scroll · / search`);
	});

	test('an offset past the end (a resize made the text shorter) shows the last page', () => {
		const rows = rowsAt(10_000);
		assert.deepEqual(rows.slice(2, 9), body.slice(total - 7));
		assert.equal(rows[9], `line ${total - 6}–${total} of ${total} · ↑ PgUp back · / search`);
	});

	test('helpScroll: the page and the last first row', () => {
		assert.deepEqual(helpScroll({width: 60, height: 10}), {page: 7, maxOffset: total - 7});
		// Tall enough for everything: no scrolling.
		assert.deepEqual(helpScroll({width: 60, height: total + 2}), {page: total, maxOffset: 0});
	});

	test('scrollHelp by hand: a row, a page, the ends, never past either', () => {
		const scroll = {page: 7, maxOffset: 20};
		assert.equal(scrollHelp(0, 'down', scroll), 1);
		assert.equal(scrollHelp(0, 'up', scroll), 0);
		assert.equal(scrollHelp(5, 'pageDown', scroll), 12);
		assert.equal(scrollHelp(15, 'pageDown', scroll), 20);
		assert.equal(scrollHelp(5, 'pageUp', scroll), 0);
		assert.equal(scrollHelp(12, 'end', scroll), 20);
		assert.equal(scrollHelp(12, 'home', scroll), 0);
		// After a resize the kept offset may be past the end: the first key counts from the last page.
		assert.equal(scrollHelp(30, 'up', scroll), 19);
	});
});
