import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import React from 'react';
import {definitions, keyBindings} from '../../source/domain/definitions.js';
import {HelpScreen} from '../../source/screen/panes/help-screen.js';
import {cells, frameOf} from '../helpers/ui-frame.js';

describe('HelpScreen', () => {
	test('lists every definition with its formula, and every key', () => {
		const frame = frameOf(<HelpScreen width={100} />, 100);
		const joined = frame.replaceAll(/\n {2}/g, ' ');
		for (const {label, formula} of definitions) {
			assert.ok(joined.includes(`${label}: ${formula}`), `missing ${label}`);
		}

		for (const binding of keyBindings) {
			assert.ok(joined.includes(`${binding.keys.join(' / ')} ${binding.action}`), `missing key ${binding.keys[0]}`);
		}
	});

	test('the last-seen formula as written once in definitions.ts', () => {
		const frame = frameOf(<HelpScreen width={100} />, 100);
		assert.ok(
			frame.split('\n').includes('Last seen age: now − kubelet_pleg_last_seen_seconds (local clock; the gauge has 1 s resolution)'),
		);
	});

	test('fits the width, and says how much is cut when the height is short', () => {
		const frame = frameOf(<HelpScreen width={60} height={10} />, 60);
		const rows = frame.split('\n');
		assert.equal(rows.length, 10);
		assert.ok(rows.every(row => cells(row) <= 60));
		assert.match(rows[9]!, /^… \d+ more rows: a taller terminal shows them$/);
	});
});
