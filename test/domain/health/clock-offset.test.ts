import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	clockAfterHeartbeat,
	clockAfterScrape,
	clockOffset,
	clockOffsetShown,
	noClockEvidence,
	offsetToApply,
	type ClockEvidence,
	type ClockScrape,
} from '../../../source/domain/health/clock-offset.js';

// Local times in seconds, to the tenth; the scrapes carry ms.
const t0 = 1_700_000_000;

/**
 * A scrape at local `local` s (sent 0.2 s before) of a kubelet whose clock is `offset` s off ours and whose latest
 * successful relist started `relistAgo` s before, node time, truncated as the gauge is; count as given.
 */
function scrapeOf(local: number, offset: number, relistAgo: number, count: number, date: number | null = null): ClockScrape {
	return {
		at: Math.round(local * 1000),
		sentAt: Math.round((local - 0.2) * 1000),
		lastSeenSeconds: Math.floor(local + offset - relistAgo),
		relistCount: count,
		dateSeconds: date,
	};
}

function feed(scrapes: ClockScrape[], from: ClockEvidence = noClockEvidence): ClockEvidence {
	return scrapes.reduce(clockAfterScrape, from);
}

/** `n` scrapes a second from local t0 + start + 0.5, relists at 1/s (the last started 0.4 s before each). */
function relisting(offset: number, n: number, start = 0, firstCount = 100): ClockScrape[] {
	return Array.from({length: n}, (_, k) => scrapeOf(t0 + start + k + 0.5, offset, 0.4, firstCount + k));
}

describe('clock offset: the relist loop', () => {
	test('one scrape says nothing: unknown', () => {
		assert.deepEqual(clockOffset(feed(relisting(-200, 1))), {offsetSeconds: null, source: 'unknown', atLeast: false});
	});

	test('200 s behind, relisting at 1/s: gauge − local time = −200.5 (node 800.5 → relist at 800.1 → gauge 800)', () => {
		// Local 1_700_000_000.5; node 1_699_999_800.5; relist started at …800.1, gauge …800; …800 − …000.5 = −200.5.
		assert.deepEqual(clockOffset(feed(relisting(-200, 2))), {offsetSeconds: -200.5, source: 'relist', atLeast: false});
		assert.equal(clockOffset(feed(relisting(-200, 30))).offsetSeconds, -200.5);
	});

	test('60 s ahead then a 185 s stall: the count and gauge stop, the estimate from before the stall is kept', () => {
		const before = feed(relisting(60, 5));
		const frozen = scrapeOf(t0 + 4.5, 60, 0.4, 104);
		const stall = Array.from({length: 185}, (_, k) => ({
			...frozen,
			at: Math.round((t0 + 5.5 + k) * 1000),
			sentAt: Math.round((t0 + 5.3 + k) * 1000),
		}));
		const after = feed(stall, before);
		assert.equal(clockOffset(before).offsetSeconds, 59.5);
		assert.deepEqual(clockOffset(after), {offsetSeconds: 59.5, source: 'relist', atLeast: false});
	});

	test('failed relists raise the count alone: no evidence (a stall is never learnt as an offset)', () => {
		const failing = Array.from({length: 10}, (_, k) => ({...scrapeOf(t0 + k + 0.5, 0, 0.4, 100 + k), lastSeenSeconds: t0 - 300}));
		assert.equal(clockOffset(feed(failing)).source, 'unknown');
	});

	test('the recovery relist after a long hang (its gauge is the hung start) does not lower the estimate', () => {
		const before = feed(relisting(0, 5));
		// 10 minutes on, the hung relist returns: the gauge jumps to its start, 600 s back.
		const recovery = scrapeOf(t0 + 605.5, 0, 600.4, 105);
		const after = feed([recovery], before);
		assert.equal(clockOffset(before).offsetSeconds, -0.5);
		assert.equal(clockOffset(after).offsetSeconds, -0.5);
	});

	test('a clock stepped back: five samples in a row below the estimate bring it down to theirs', () => {
		const before = feed(relisting(0, 5));
		// The first scrape after the step has a gauge that went back: not an advance, not evidence.
		const stepped = relisting(-30, 6, 5, 105);
		assert.equal(clockOffset(feed(stepped.slice(0, 5), before)).offsetSeconds, -0.5);
		assert.equal(clockOffset(feed(stepped, before)).offsetSeconds, -30.5);
	});

	test('a higher sample raises the estimate at once (each sample is at most the offset)', () => {
		const late = relisting(0, 3).map((scrape) => ({...scrape, lastSeenSeconds: scrape.lastSeenSeconds! - 2}));
		const prompt = scrapeOf(t0 + 3.5, 0, 0.4, 103);
		assert.equal(clockOffset(feed(late)).offsetSeconds, -2.5);
		assert.equal(clockOffset(feed([prompt], feed(late))).offsetSeconds, -0.5);
	});
});

describe('clock offset: the Date header and the heartbeat', () => {
	test('Date intervals intersect: [Date − answered, Date + 1 − sent], midpoint', () => {
		// Node 200 s ahead. Sent 1000.2, answered 1000.4, Date 1200 → [199.6, 200.8]; sent 1001.7, answered 1001.9,
		// Date 1201 → [199.1, 200.3]; together [199.6, 200.3], midpoint 199.95.
		const first: ClockScrape = {at: 1_000_400, sentAt: 1_000_200, lastSeenSeconds: null, relistCount: null, dateSeconds: 1200};
		const second: ClockScrape = {at: 1_001_900, sentAt: 1_001_700, lastSeenSeconds: null, relistCount: null, dateSeconds: 1201};
		const one = clockOffset(feed([first]));
		const two = clockOffset(feed([first, second]));
		assert.equal(one.source, 'date-header');
		assert.ok(Math.abs(one.offsetSeconds! - 200.2) < 1e-6, String(one.offsetSeconds));
		assert.ok(Math.abs(two.offsetSeconds! - 199.95) < 1e-6, String(two.offsetSeconds));
	});

	test('an empty intersection (a clock stepped) starts again from the latest Date', () => {
		const first: ClockScrape = {at: 1_000_400, sentAt: 1_000_200, lastSeenSeconds: null, relistCount: null, dateSeconds: 1200};
		const stepped: ClockScrape = {at: 1_001_900, sentAt: 1_001_700, lastSeenSeconds: null, relistCount: null, dateSeconds: 1101};
		// [1101 − 1001.9, 1102 − 1001.7] = [99.1, 100.3], midpoint 99.7.
		assert.ok(Math.abs(clockOffset(feed([first, stepped])).offsetSeconds! - 99.7) < 1e-6);
	});

	test('the relist loop wins over the Date header', () => {
		const dated = relisting(-200, 3).map((scrape) => ({...scrape, dateSeconds: Math.floor(scrape.at / 1000) - 150}));
		assert.equal(clockOffset(feed(dated.slice(0, 1))).source, 'date-header');
		assert.deepEqual(clockOffset(feed(dated)), {offsetSeconds: -200.5, source: 'relist', atLeast: false});
	});

	test('a stall from the start, no Date: unknown; with it, the Date', () => {
		const stalled = Array.from({length: 5}, (_, k) => ({...scrapeOf(t0 + k + 0.5, 60, 0, 100), lastSeenSeconds: t0 - 100}));
		assert.equal(clockOffset(feed(stalled)).source, 'unknown');
		const dated = stalled.map((scrape) => ({...scrape, dateSeconds: Math.floor(scrape.at / 1000) + 60}));
		const offset = clockOffset(feed(dated));
		assert.equal(offset.source, 'date-header');
		// Each: [⌊t⌋ + 60 − t, ⌊t⌋ + 61 − (t − 0.2)] with t = ….5: [59.5, 60.7], midpoint 60.1.
		assert.ok(Math.abs(offset.offsetSeconds! - 60.1) < 1e-6, String(offset.offsetSeconds));
	});

	test('the Ready heartbeat bounds: the node is at least heartbeat − read time ahead; shown only beyond the noise', () => {
		const ahead = clockAfterHeartbeat(noClockEvidence, t0 + 45, (t0 + 5) * 1000);
		assert.deepEqual(clockOffset(ahead), {offsetSeconds: 40, source: 'heartbeat', atLeast: true});
		// A heartbeat 30 s old says nothing: the kubelet may write it only every 5 minutes.
		const old = clockAfterHeartbeat(noClockEvidence, t0 - 30, t0 * 1000);
		assert.equal(clockOffset(old).source, 'unknown');
		// The Date header wins over the bound.
		const dated = feed([{at: 1_000_400, sentAt: 1_000_200, lastSeenSeconds: null, relistCount: null, dateSeconds: 1200}], ahead);
		assert.equal(clockOffset(dated).source, 'date-header');
	});
});

describe('clock offset: noise', () => {
	test('|offset| ≤ 2 s is neither shown nor applied; beyond it, both', () => {
		const at = (offsetSeconds: number | null) => ({offsetSeconds, source: 'relist' as const, atLeast: false});
		assert.equal(clockOffsetShown(at(-2)), false);
		assert.equal(offsetToApply(at(-2)), 0);
		assert.equal(clockOffsetShown(at(2.5)), true);
		assert.equal(offsetToApply(at(2.5)), 2.5);
		assert.equal(offsetToApply({offsetSeconds: null, source: 'unknown', atLeast: false}), 0);
	});
});
