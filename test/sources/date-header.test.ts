import assert from 'node:assert/strict';
import {test} from 'node:test';
import {dateHeaderSeconds} from '../../source/sources/http/date-header.js';

test('the Date header: IMF-fixdate as Unix seconds; anything else from the network is no date', () => {
	// Date.UTC(2026, 11, 4, 15, 42, 25) / 1000
	assert.equal(dateHeaderSeconds({date: 'Fri, 04 Dec 2026 15:42:25 GMT'}), 1_796_398_945);
	assert.equal(dateHeaderSeconds({}), null);
	assert.equal(dateHeaderSeconds({date: 'yesterday'}), null);
	// Other forms Date.parse would take are not what a Go server writes.
	assert.equal(dateHeaderSeconds({date: '2026-12-04T15:42:25Z'}), null);
	assert.equal(dateHeaderSeconds({date: `Fri, 04 Dec 2026 15:42:25 GMT${' '.repeat(10_000)}x`}), null);
	// The right shape but no such day.
	assert.equal(dateHeaderSeconds({date: 'Fri, 99 Dec 2026 15:42:25 GMT'}), null);
});
