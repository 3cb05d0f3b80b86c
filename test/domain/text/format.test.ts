import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	countOf,
	formatByteSize,
	formatAge,
	formatCount,
	formatQuantile,
	formatRate,
	formatRatio,
	formatSeconds,
	formatSpan,
} from '../../../source/domain/text/format.js';
import {format} from 'date-fns/format';
import {clockTime} from '../../../source/screen/layout/clock-time.js';

describe('formatSeconds', () => {
	const cases: Array<[number | null, string]> = [
		[0.0042, '4.2ms'],
		[0.0212, '21.2ms'],
		[0.01, '10ms'], // Go drops trailing zeros: not "10.0ms"
		[0.04712345, '47.1ms'], // 0.1 ms under 100 ms
		[0.25, '250ms'],
		[0.2013333, '201ms'], // whole ms from 100 ms
		[0.00085, '850µs'],
		[1.3, '1.3s'],
		[1.0234, '1.02s'], // 10 ms under 10 s
		[12.5, '12.5s'],
		[187, '3m7s'], // whole seconds from 100 s, as Go writes minutes
		[0, '0s'],
		[null, '—'],
		[Number.NaN, '—'],
		[Infinity, '—'],
		[-Infinity, '—'],
	];
	for (const [seconds, expected] of cases) {
		test(`${seconds} → ${expected}`, () => assert.equal(formatSeconds(seconds), expected));
	}
});

describe('formatQuantile', () => {
	test('a lower bound from the +Inf bucket reads "≥ 10s", a measured 10 s reads "10s"', () => {
		assert.equal(formatQuantile({seconds: 10, atLeast: true}), '≥ 10s');
		assert.equal(formatQuantile({seconds: 2.5, atLeast: true}), '≥ 2.5s');
		assert.equal(formatQuantile({seconds: 0.25, atLeast: true}), '≥ 250ms');
		// The top finite bucket of the CRI operation histograms: 0.005 × 2^… to six significant digits, 745.058 s.
		assert.equal(formatQuantile({seconds: 745.0580596923828, atLeast: true}), '≥ 12m25.058s');
		assert.equal(formatQuantile({seconds: 10, atLeast: false}), '10s');
		assert.equal(formatQuantile(null), '—');
	});
});

describe('formatAge', () => {
	test('whole seconds, rounded down, as Go writes them', () => {
		assert.equal(formatAge(12.9), '12s');
		assert.equal(formatAge(0), '0s');
		assert.equal(formatAge(59.99), '59s');
		assert.equal(formatAge(187), '3m7s');
		assert.equal(formatAge(180), '3m0s');
		assert.equal(formatAge(217.4), '3m37s');
		assert.equal(formatAge(3700), '1h1m40s'); // 3600 + 60 + 40
		assert.equal(formatAge(-2), '0s');
		assert.equal(formatAge(null), '—');
		assert.equal(formatAge(Number.NaN), '—');
		assert.equal(formatAge(Infinity), '—');
	});
});

describe('formatSpan', () => {
	test('milliseconds under a second, tenths under ten, whole seconds above', () => {
		assert.equal(formatSpan(0.2034), '203ms');
		assert.equal(formatSpan(2.46), '2.5s');
		assert.equal(formatSpan(10.5), '11s'); // rounded: a span is measured, not an age
		assert.equal(formatSpan(60), '1m0s');
		assert.equal(formatSpan(0), '0s');
		assert.equal(formatSpan(Infinity), '—');
	});
});

describe('countOf', () => {
	test('singular for one', () => {
		assert.equal(countOf(1, 'error'), '1 error');
		assert.equal(countOf(0, 'error'), '0 errors');
		assert.equal(countOf(1234, 'relist'), '1,234 relists');
	});
});

describe('formatRate, formatRatio, formatCount', () => {
	test('rates', () => {
		assert.equal(formatRate(60 / 62), '0.97/s');
		assert.equal(formatRate(0), '0/s');
		assert.equal(formatRate(null), '—');
		assert.equal(formatRate(Number.NaN), '—');
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
		assert.equal(formatCount(Number.NaN), '—');
		assert.equal(formatCount(Infinity), '—');
	});

	test('counts are grouped exactly as Intl en-US groups them, by hand or not', () => {
		const intl = new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});
		const values = [0, 1, 12, 123, 999, 1000, 1001, 9999, 10_000, 99_999, 100_000, 123_456, 1_000_000, 1_671_950];
		values.push(2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e21, -1, -1234, -0, 0.4, 2.5, -2.5, 1234.5, 999.5, 1e15 + 0.5);
		for (let index = 0; index < 2000; index++) {
			values.push(Math.floor(Math.random() * 10 ** (1 + (index % 15))));
		}

		for (const value of values) {
			assert.equal(formatCount(value), intl.format(value), String(value));
		}

		assert.equal(formatCount(27_386), '27,386');
		assert.equal(formatRatio(27_385.6), '×27,386');
	});
});

test('clockTime: instants that alternate within a frame each read their own second, across the cache being emptied', () => {
	const base = new Date(2026, 11, 3, 14, 2, 10, 0).getTime();
	for (let frame = 0; frame < 40; frame++) {
		const now = base + frame * 1000 + 999;
		const since = base - 3_600_000 - frame * 7000;
		assert.equal(clockTime(now), format(now, 'HH:mm:ss'));
		assert.equal(clockTime(since), format(since, 'HH:mm:ss'));
	}

	assert.equal(clockTime(base + 500), '14:02:10');
	assert.equal(clockTime(base - 1), '14:02:09');
});

describe('formatByteSize', () => {
	test('in the largest binary unit that writes it in whole tenths, else in bytes', () => {
		assert.equal(formatByteSize(64 * 1024 * 1024), '64 MiB');
		assert.equal(formatByteSize(1024 * 1024 * 1024), '1 GiB');
		assert.equal(formatByteSize(1536 * 1024), '1.5 MiB');
		assert.equal(formatByteSize(1024), '1 KiB');
		// 1000 bytes is 0.9765625 KiB: not a size anyone wrote, so in bytes.
		assert.equal(formatByteSize(1000), '1000 bytes');
		assert.equal(formatByteSize(2049), '2049 bytes');
	});
});
