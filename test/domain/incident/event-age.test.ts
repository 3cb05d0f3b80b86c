// humanAge against apimachinery's duration.HumanDuration, the table kubectl describe prints Event ages with: each
// boundary where a unit changes, on both sides.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {humanAge} from '../../../source/domain/incident/event-age.js';

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;

test('humanAge prints what kubectl prints at each unit boundary', () => {
	const cases: Array<[number | null, string]> = [
		[null, '—'],
		[-5, '0s'],
		[0, '0s'],
		[75.9, '75s'],
		[119, '119s'],
		[120, '2m'],
		[125, '2m5s'],
		[599, '9m59s'],
		[600, '10m'],
		[3 * hour - 1, '179m'],
		[3 * hour, '3h'],
		[3 * hour + 10 * minute, '3h10m'],
		[8 * hour - 1, '7h59m'],
		[8 * hour, '8h'],
		[48 * hour - 1, '47h'],
		[2 * day, '2d'],
		[2 * day + 4 * hour, '2d4h'],
		[8 * day, '8d'],
		[400 * day, '400d'],
		[730 * day, '2y'],
		[760 * day, '2y30d'],
		[8 * 365 * day, '8y'],
	];
	assert.deepEqual(
		cases.map(([seconds]) => [seconds, humanAge(seconds)]),
		cases,
	);
});
