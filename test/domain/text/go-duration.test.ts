import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {formatGoDuration} from '../../../source/domain/text/go-duration.js';

describe('formatGoDuration: Go time.Duration.String()', () => {
	const cases: Array<[number, string]> = [
		[187, '3m7s'],
		[180, '3m0s'],
		[180.5, '3m0.5s'],
		[181, '3m1s'],
		[600, '10m0s'],
		[300, '5m0s'],
		[3700, '1h1m40s'], // 1 h + 1 min + 40 s
		[3600, '1h0m0s'], // minutes always printed once there are hours
		[1, '1s'],
		[59.999, '59.999s'],
		[1.000000001, '1.000000001s'],
		[0.0123, '12.3ms'],
		[0.5, '500ms'],
		[0.0000015, '1.5µs'],
		[5e-9, '5ns'],
		[0, '0s'],
		[-1.5, '-1.5s'],
		[7384.005, '2h3m4.005s'], // 2 h + 3 min + 4.005 s
		[0.0015, '1.5ms'],
		[0.0000005, '500ns'],
	];
	for (const [seconds, expected] of cases) {
		test(`${seconds} s → ${expected}`, () => {
			assert.equal(formatGoDuration(seconds), expected);
		});
	}

	test('not finite: "—", never "InfinityhNaNm…"', () => {
		for (const seconds of [Number.NaN, Infinity, -Infinity]) assert.equal(formatGoDuration(seconds), '—');
	});
});
