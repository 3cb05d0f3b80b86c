// The Prometheus feed's read time and scrape interval: the read is when Prometheus scraped the last-seen gauge
// (timestamp()), the interval the gap between the last two distinct scrapes, 1m assumed before two were seen.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
	assumedScrapeGapMs,
	initialPrometheusFeed,
	prometheusFeedKind,
	prometheusFeedReducer,
	type PrometheusFeed,
	type PrometheusFigures,
} from '../../../source/domain/fleet/prometheus-feed.js';

const figures = (at: number, scrapedAt: number | null) =>
	({node: 'n', at, windowSeconds: 60, lastSeenAgeSeconds: 1, lastSeenScrapedAt: scrapedAt}) as unknown as PrometheusFigures;

function fed(answers: ReadonlyArray<[number, number | null]>): PrometheusFeed {
	return answers.reduce(
		(feed, [at, scrapedAt]) => prometheusFeedReducer(feed, {type: 'figures', figures: figures(at, scrapedAt), latencyMs: 1}),
		initialPrometheusFeed('n', 60),
	);
}

test('the read is the scrape (s → ms); without a timestamp answer, the query; none before an answer', () => {
	assert.equal(prometheusFeedKind.readAt!(fed([[100_000, 85.5]])), 85_500);
	assert.equal(prometheusFeedKind.readAt!(fed([[100_000, null]])), 100_000);
	assert.equal(prometheusFeedKind.readAt!(initialPrometheusFeed('n', 60)), null);
});

test('the scrape interval: 1m until a second scrape, then the gap; answers repeating a scrape change nothing', () => {
	assert.equal(prometheusFeedKind.readEveryMs!(fed([[1000, 85]])), assumedScrapeGapMs);
	assert.equal(
		prometheusFeedKind.readEveryMs!(
			fed([
				[1000, 85],
				[2000, 85],
				[3000, 100],
				[4000, 100],
			]),
		),
		15_000,
	);
	// An answer without a timestamp keeps the gap seen.
	assert.equal(
		prometheusFeedKind.readEveryMs!(
			fed([
				[1000, 85],
				[2000, 115],
				[3000, null],
			]),
		),
		30_000,
	);
});
