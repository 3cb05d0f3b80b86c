// The help's search as a pure step per key: typed text, Enter to the first row holding it from the row on top
// (round to the start), n and N on from there, Esc dropping the typing; a chunk of keys taken in turn.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {findRow, markMatches, searchFooter, searchKey, searchKeys, type SearchKey} from '../../../source/screen/panes/help-search.js';
import {applyPresses, initialOverviewUi, pressesOf} from '../../../source/screen/overview-keys.js';

const rows = ['keys', '  q quit', 'next steps', '  kubectl describe node NODE', '  kubectl cordon NODE', 'figures', 'Cordon: see above'];
const key = (input: string, special: Partial<SearchKey> = {}): SearchKey => ({
	input,
	return: false,
	escape: false,
	backspace: false,
	delete: false,
	ctrl: false,
	meta: false,
	...special,
});

describe('findRow', () => {
	test('from a row on, any case, round the end; back with -1; none: null', () => {
		assert.equal(findRow(rows, 'cordon', 0), 4);
		assert.equal(findRow(rows, 'cordon', 5), 6);
		assert.equal(findRow(rows, 'cordon', 7), 4);
		assert.equal(findRow(rows, 'cordon', 5, -1), 4);
		assert.equal(findRow(rows, 'zz', 0), null);
		assert.equal(findRow(rows, '', 0), null);
	});
});

describe('searchKey', () => {
	const all = () => rows;
	test('/ starts typing; letters, Backspace; Enter finds; n and N go on; Esc while typing drops it', () => {
		let step = searchKey(null, 0, key('/'), all)!;
		assert.deepEqual(step, {search: {query: '', typing: true}, offset: 0});
		for (const char of 'cordx') step = searchKey(step.search, step.offset, key(char), all)!;
		step = searchKey(step.search, step.offset, key('', {backspace: true}), all)!;
		step = searchKey(step.search, step.offset, key('on'), all)!;
		assert.deepEqual(step.search, {query: 'cordon', typing: true});
		step = searchKey(step.search, step.offset, key('', {return: true}), all)!;
		assert.deepEqual(step, {search: {query: 'cordon', typing: false}, offset: 4});
		step = searchKey(step.search, step.offset, key('n'), all)!;
		assert.equal(step.offset, 6);
		step = searchKey(step.search, step.offset, key('n'), all)!;
		assert.equal(step.offset, 4);
		step = searchKey(step.search, step.offset, key('N'), all)!;
		assert.equal(step.offset, 6);
		assert.equal(searchKey(step.search, step.offset, key('q'), all), undefined, 'q is the screen’s once the search is done');
		const typing = searchKey(step.search, step.offset, key('/'), all)!;
		assert.deepEqual(searchKey(typing.search, typing.offset, key('', {escape: true}), all), {search: null, offset: 6});
	});

	test('a chunk ("/cordon\\r", as pasted or sent by tmux) is each key in turn', () => {
		assert.deepEqual(
			searchKeys(null, 0, key('/cordon\r'), () => rows),
			{search: {query: 'cordon', typing: false}, offset: 4},
		);
		assert.equal(
			searchKeys(null, 0, key('qq'), () => rows),
			undefined,
		);
	});

	test('the footer and the marks', () => {
		assert.equal(searchFooter({query: 'cor', typing: true}, rows), '/cor▌  Enter find · Esc cancel');
		assert.equal(searchFooter({query: 'cordon', typing: false}, rows), '/cordon: 2 rows · n next · N back · / search again');
		assert.equal(searchFooter({query: 'zz', typing: false}, rows), '/zz: no row holds it · / search again');
		assert.deepEqual(markMatches([{text: '  kubectl '}, {text: 'Cordon x', tone: 'value'}], 'cordon'), [
			{text: '  kubectl '},
			{text: 'Cordon', tone: 'match'},
			{text: ' x', tone: 'value'},
		]);
	});
});

test('the overview: / in its help searches the help, not the table', () => {
	const ui = {...initialOverviewUi(), help: true};
	const inkKey = {
		upArrow: false,
		downArrow: false,
		return: false,
		escape: false,
		backspace: false,
		delete: false,
		ctrl: false,
		meta: false,
	};
	const after = applyPresses(ui, pressesOf('/cordon\r', inkKey), () => [], {helpRows: () => rows});
	assert.notEqual(after, 'quit');
	if (after === 'quit') return;
	assert.deepEqual(
		{search: after.helpSearch, offset: after.helpOffset, filter: after.filter, typing: after.typing},
		{
			search: {query: 'cordon', typing: false},
			offset: 4,
			filter: '',
			typing: false,
		},
	);
	const next = applyPresses(after, pressesOf('n', inkKey), () => [], {helpRows: () => rows});
	assert.ok(next !== 'quit' && next.helpOffset === 6);
});
