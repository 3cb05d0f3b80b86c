import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {formatAge, formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../source/domain/format.js';

describe('formatSeconds', () => {
	const cases: Array<[number | null, string]> = [
		[0.0042, '4.2 ms'],
		[0.0212, '21.2 ms'],
		[0.25, '250 ms'],
		[0.00085, '850 µs'],
		[1.3, '1.30 s'],
		[12.5, '12.5 s'],
		[187, '187 s'],
		[0, '0 s'],
		[null, '—'],
	];
	for (const [seconds, expected] of cases) {
		test(`${seconds} → ${expected}`, () => assert.equal(formatSeconds(seconds), expected));
	}
});

describe('formatQuantile', () => {
	test('a lower bound from the +Inf bucket reads "≥ 10 s", never "10.0 s"', () => {
		assert.equal(formatQuantile({seconds: 10, atLeast: true}), '≥ 10 s');
		assert.equal(formatQuantile({seconds: 2.5, atLeast: true}), '≥ 2.5 s');
		assert.equal(formatQuantile({seconds: 0.25, atLeast: true}), '≥ 250 ms');
		// The top finite bucket of the CRI operation histograms: 0.005 × 2^… written with all its digits.
		assert.equal(formatQuantile({seconds: 745.0580596923828, atLeast: true}), '≥ 745.058 s');
		assert.equal(formatQuantile({seconds: 10, atLeast: false}), '10.0 s');
		assert.equal(formatQuantile(null), '—');
	});
});

describe('formatAge', () => {
	test('seconds under a minute, words above (whole seconds)', () => {
		assert.equal(formatAge(12.9), '12 s');
		assert.equal(formatAge(0), '0 s');
		assert.equal(formatAge(59.99), '59 s');
		assert.equal(formatAge(187), '3 minutes 7 seconds');
		assert.equal(formatAge(180), '3 minutes');
		assert.equal(formatAge(3700), '1 hour 1 minute 40 seconds'); // 3600 + 60 + 40
		assert.equal(formatAge(null), '—');
	});
});

describe('formatRate, formatRatio, formatCount', () => {
	test('rates', () => {
		assert.equal(formatRate(60 / 62), '0.97/s');
		assert.equal(formatRate(0), '0/s');
		assert.equal(formatRate(null), '—');
	});

	test('ratios', () => {
		assert.equal(formatRatio(180), '×180');
		assert.equal(formatRatio(2), '×2');
		assert.equal(formatRatio(180 / 0.0212), '×8,491'); // 8490.57 rounded
		assert.equal(formatRatio(2.46), '×2.5');
		assert.equal(formatRatio(null), '—');
	});

	test('counts', () => {
		assert.equal(formatCount(1671950), '1,671,950');
		assert.equal(formatCount(null), '—');
	});
});
