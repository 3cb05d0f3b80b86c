// The proxy feed's figures are derived once per (feed, now): the live screen's frame and the terminal title both
// read each scrape at its own time. The memo must give figuresAt()'s answer for every call, and keep one entry.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState} from '../../../source/domain/feed.js';
import {lastFiguresMemo, proxyFeedKind} from '../../../source/domain/fleet/proxy-feed.js';
import {scrapeAt, stallTotals} from '../../lab/exposition.js';

describe('figures of the proxy feed, once per (feed, now)', () => {
	const empty = initialFeedState({node: 'worker-1', windowSeconds: 10});
	const [a, b] = stallTotals;
	const first = feedReducer(empty, {type: 'scrape', scrape: scrapeAt(a!.at, a!.totals)});
	const second = feedReducer(first, {type: 'scrape', scrape: scrapeAt(b!.at, b!.totals)});

	test('the same feed at the same now: the same figures object, equal to figuresAt()', () => {
		const figures = lastFiguresMemo();
		const once = figures(second, b!.at);
		assert.equal(figures(second, b!.at), once);
		assert.deepEqual(once, figuresAt(second, b!.at));
	});

	test('another now or another feed (even at the same now) is derived again', () => {
		const figures = lastFiguresMemo();
		const atScrape = figures(second, b!.at);
		const later = figures(second, b!.at + 1000);
		assert.notEqual(later, atScrape);
		assert.deepEqual(later, figuresAt(second, b!.at + 1000));
		assert.notDeepEqual(later, atScrape);
		const marked = feedReducer(second, {type: 'mark', at: b!.at + 1000});
		const afterMark = figures(marked, b!.at + 1000);
		assert.deepEqual(afterMark, figuresAt(marked, b!.at + 1000));
		assert.notEqual(afterMark!.baseline, null);
		assert.equal(later!.baseline, null);
	});

	test('one entry: going back to an earlier (feed, now) derives it again, with the same result', () => {
		const figures = lastFiguresMemo();
		const atFirst = figures(first, a!.at);
		figures(second, b!.at);
		const again = figures(first, a!.at);
		assert.notEqual(again, atFirst);
		assert.deepEqual(again, atFirst);
	});

	test('before the first scrape: null, as figuresAt() gives', () => {
		const figures = lastFiguresMemo();
		assert.equal(figures(empty, a!.at), null);
		assert.equal(figures(empty, a!.at), null);
		assert.deepEqual(proxyFeedKind.figures(second, b!.at), figuresAt(second, b!.at));
	});
});
