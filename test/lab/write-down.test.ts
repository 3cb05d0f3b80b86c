import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createLabSession} from '../../source/lab/lab-session.js';
import {labExitCode, labJsonReport, labTextReport} from '../../source/lab/lab-report.js';
import {ageRead, boundedDuration, wrap, writeDown} from '../../source/lab/write-down.js';
import {bounds, labSession, labTotals, restartTotals, scrapeAt, stallSession, stallTotals, t0} from './exposition.js';

process.env['TZ'] = 'UTC';

/** The paragraphs joined on one line each, so a test can look for a sentence whatever the wrapping. */
const unwrap = (text: string) =>
	text
		.trimEnd()
		.split('\n\n')
		.map((paragraph) => paragraph.replaceAll('\n', ' '));

describe('the write-down', () => {
	test('with a mark: the loop, each side of the mark with its mean and p99, health, threshold / mean', () => {
		const {text} = writeDown(labSession().summary());
		const [loop, measured, health, ratios] = unwrap(text);
		assert.equal(
			loop,
			"The kubelet's PLEG relists every 1s (genericPlegRelistPeriod, pkg/kubelet/kubelet.go:178): it lists every pod sandbox " +
				'and container from the container runtime and turns what changed into pod lifecycle events; Healthy() fails and the ' +
				'node goes NotReady ("PLEG is not healthy") once the last relist started more than 3m0s ago ' +
				'(genericPlegRelistThreshold, pkg/kubelet/kubelet.go:179).',
		);
		// Before the mark Δ 0.1 s / 20 = 5 ms over 20 s; since the mark Δ 1.6 s / 16 = 100 ms; 100 / 5 = ×20. The
		// stretches are named by the mark, not "idle" or "churn": pleg-top cannot know what the operator did.
		// p99: rank 19.8 of 20 in [0, 0.005] -> 4.95 ms; rank 15.84 of 16 in (0.01, 0.1] -> 0.01 + 0.09 × 15.84 / 16 = 99.1 ms.
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0) from 14:00:00 to 14:00:40 (36 relists in 40s). ' +
				'Before the mark at 14:00:20 (20 relists in 20s): mean relist 5ms, p99 5ms; the last-seen age was at most 1s at every scrape. ' +
				'Since the mark at 14:00:20 (16 relists in 20s): mean relist 100ms, p99 99.1ms (×20 the mean before the mark at 14:00:20); ' +
				'the last-seen age was at most 4s at every scrape.',
		);
		assert.equal(health, 'PLEG was healthy at every scrape: the last-seen age never passed the 3m0s threshold when it was read.');
		// 180 / 0.005 = 36,000; 180 / 0.1 = 1,800
		assert.equal(
			ratios,
			'threshold / mean: 3m0s / 5ms = ×36,000 before the mark at 14:00:20, 3m0s / 100ms = ×1,800 since the mark at 14:00:20. ' +
				'That many mean relists fit in the threshold before the node goes NotReady.',
		);
		assert.ok(
			text.split('\n').every((line) => line.length <= 80),
			'wrapped to 80 columns',
		);
		assert.doesNotMatch(text, /idle|churn/);
	});

	test('without a mark: the whole session only, and how to get a comparison', () => {
		const [, measured, , ratios] = unwrap(writeDown(labSession({mark: false}).summary()).text);
		// Δ (2.2 - 0.5) s / 36 relists = 47.2 ms over 40 s; p99 rank 35.64 of 36 falls in (0.01, 0.1], where 16 lie
		// above the 20 at ≤ 5 ms: 0.01 + 0.09 × (35.64 - 20) / 16 = 97.975 ms -> "98ms"
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0) from 14:00:00 to 14:00:40 (36 relists in 40s): mean relist 47.2ms, p99 98ms; ' +
				'the last-seen age was at most 4s at every scrape. No mark was set: press b when something is about to change ' +
				'(before a churn, say), and the write-down measures each side of the mark.',
		);
		// 180 / (1.7 / 36) = 3811.76
		assert.equal(
			ratios,
			'threshold / mean: 3m0s / 47.2ms = ×3,812 over the whole session. That many mean relists fit in the threshold before the node goes NotReady.',
		);
	});

	test("ages to the gauge's whole second: a maximum never rounded down (1.749 s: at most 2s), bounds rounded outwards", () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const [a, b] = labTotals;
		lab.scrape(scrapeAt(a!.at, a!.totals));
		// Last seen 1.749 s before the second scrape.
		lab.scrape(scrapeAt(b!.at, {...b!.totals, lastSeen: (b!.at - 1749) / 1000}));
		const [, measured] = unwrap(writeDown(lab.summary()).text);
		assert.match(measured!, /; the last-seen age was at most 2s at every scrape\./);
		assert.equal(ageRead(1.7494), '2s');
		assert.equal(ageRead(324.6125), '5m25s');
		// "At least": the whole seconds the screen and the kubelet's message show.
		assert.equal(ageRead(208.361, 'down'), '3m28s');
		assert.equal(ageRead(208.0000001), '3m28s');
		assert.equal(boundedDuration(1.749, 'up'), '1.8s');
		assert.equal(boundedDuration(1.749, 'down'), '1.7s');
		assert.equal(boundedDuration(1.2, 'up'), '1.2s');
		assert.equal(boundedDuration(180.2, 'up'), '3m1s');
		assert.equal(boundedDuration(180.9, 'down'), '3m0s');
	});

	test('a stall past the threshold: its span (start, length, highest age), the time past it in the stretch, no fixed labels', () => {
		const {text} = writeDown(stallSession().summary(), {width: 100});
		const [, measured, health, ratios] = unwrap(text);
		// Since the mark: Δcount 175 - 160 = 15, Δsum 344.87 - 0.8 = 344.07 s -> 22.9 s; past the threshold from
		// t0+249 s (last start t0+69 s + 180 s) at least until t0+415 s (the start of the relist that ended it): 166 s.
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0) from 14:00:00 to 14:07:00 (75 relists in 7m0s). ' +
				'Before the mark at 14:01:00 (60 relists in 1m0s): mean relist 5ms, p99 5ms; the last-seen age was at most 1s at every scrape. ' +
				'Since the mark at 14:01:00 (15 relists in 6m0s): mean relist 22.9s, p99 ≥ 10s (×4,588 the mean before the mark at 14:01:00); ' +
				'the last-seen age was at most 4m51s at every scrape, past the threshold for at least 2m46s.',
		);
		// At least t0+249 s → t0+415 s = 2m46s, at most → t0+420 s (the first healthy scrape) = 2m51s; the highest
		// age read was 291 s at t0+360 s.
		assert.equal(
			health,
			'PLEG was not healthy (last-seen age past the threshold) once: from 14:04:09 for 2m46s to 2m51s, healthy again by 14:07:00, ' +
				'the age reaching at least 4m51s (threshold 3m0s).',
		);
		// 180 / 22.938 = 7.85
		assert.match(ratios!, /3m0s \/ 22\.9s = ×7\.8 since the mark at 14:01:00\./);
		assert.ok(
			text.split('\n').every((line) => line.length <= 100),
			'wrapped to 100 columns',
		);
		assert.ok(
			text.split('\n').some((line) => line.length > 80),
			'and uses them',
		);
	});

	test('still not healthy at the last scrape: says so, with the length so far as a lower bound', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		for (const {at, totals} of stallTotals.slice(0, 7)) lab.scrape(scrapeAt(at, totals));
		const [, measured, health] = unwrap(writeDown(lab.summary()).text);
		// Last scrape t0+360 s, from t0+249 s: 111 s so far.
		assert.equal(
			health,
			'PLEG was not healthy (last-seen age past the threshold) once: from 14:04:09 for at least 1m51s so far, still not healthy ' +
				'at the last scrape (14:06:00), the age reaching at least 4m51s (threshold 3m0s).',
		);
		// The hung relist never completed: no mean, and it says so in plain words.
		// 170 - 100 relists, all before the hang.
		assert.match(measured!, /\(70 relists in 6m0s\): mean relist /);
		assert.doesNotMatch(measured!, /took no relist/);
	});

	test('a stretch in which no relist completed says so, once', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const stalled = stallTotals.slice(2, 6);
		for (const [index, {at, totals}] of stalled.entries()) {
			if (index === 2) lab.mark(stalled[1]!.at + 500);
			lab.scrape(scrapeAt(at, totals));
		}

		const [, measured, , ratios] = unwrap(writeDown(lab.summary()).text);
		assert.match(measured!, /Since the mark at 14:03:00 \(no relist completed in 2m0s\): no mean relist \(none completed\);/);
		assert.match(ratios!, /no mean since the mark at 14:03:00\./);
	});

	test('Markdown: a heading, file:line as code, a table per stretch and one of the unhealthy spans', () => {
		const {markdown} = writeDown(stallSession().summary());
		assert.match(markdown, /^# PLEG write-down: worker-1, 2024-01-15 14:00 \+00:00\n\n/);
		assert.ok(markdown.includes('(`genericPlegRelistThreshold`, `pkg/kubelet/kubelet.go:179`)'));
		const table = markdown.split('\n').filter((line) => line.startsWith('|'));
		assert.deepEqual(table, [
			'|  | before the mark at 14:01:00+00:00 | since the mark at 14:01:00+00:00 |',
			'| --- | --- | --- |',
			'| from – to | 14:00:00+00:00 – 14:01:00+00:00 | 14:01:00+00:00 – 14:07:00+00:00 |',
			'| relists | 60 relists in 1m0s | 15 relists in 6m0s |',
			'| mean | 5ms | 22.9s |',
			'| p99 | 5ms | ≥ 10s |',
			// 60 / 60 s; 15 / 360 s = 0.0417
			'| rate | 1.00/s | 0.04/s |',
			'| interval | — | — |',
			'| highest last-seen age at a scrape | 1s | 4m51s |',
			'| not healthy (at least) | 0s | 2m46s |',
			'| threshold / mean | ×36,000 | ×7.8 |',
			'| not healthy from | for | healthy again | age reached at least | threshold | why |',
			'| --- | --- | --- | --- | --- | --- |',
			'| 14:04:09+00:00 | 2m46s to 2m51s | by 14:07:00+00:00 | 4m51s | 3m0s | last-seen age past the threshold |',
		]);
	});

	test('a span that began before the first scrape: the session counts it whole, as the span does, and says so', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const stalled = {count: 100, sum: 0.5, buckets: bounds.map(() => 100), lastSeen: t0 / 1000 - 200};
		// Gauge t0 − 200 s: past the threshold since t0 − 20 s. Scrapes at t0 + 0.361 s … t0 + 7.361 s; healthy at t0 + 9 s.
		for (let i = 0; i <= 7; i++) lab.scrape(scrapeAt(t0 + i * 1000 + 361, stalled));
		lab.scrape(scrapeAt(t0 + 9000, {count: 101, sum: 0.6, buckets: bounds.map(() => 101), lastSeen: t0 / 1000 + 8}));
		const [, measured, health] = unwrap(writeDown(lab.summary()).text);
		// Highest age 207.361 s: at most 3m28s; the span from t0 − 20 s to t0 + 8 s (the recovery relist's start) at least.
		assert.match(
			measured!,
			/the last-seen age was at most 3m28s at every scrape, past the threshold for at least 28s \(from 13:59:40, before the first scrape\)\./,
		);
		assert.equal(
			health,
			'PLEG was not healthy (last-seen age past the threshold) once: from 13:59:40 for 28s to 29s, healthy again by 14:00:09, the age reaching at least 3m27s (threshold 3m0s).',
		);
	});

	test('no scrape at all: says so', () => {
		const down = writeDown(createLabSession({node: 'worker-1', windowSeconds: 10}).summary());
		assert.equal(down.text, 'pleg-top saw no scrape of worker-1: nothing to write down.\n');
	});

	test('wrap keeps words whole, and a number with its unit', () => {
		assert.equal(wrap('aaa bbb ccc dddddddddd e', 7), 'aaa bbb\nccc\ndddddddddd\ne');
		assert.equal(wrap('age reached 1 s idle and 12 ms.', 13), 'age reached\n1 s idle and\n12 ms.');
	});
});

describe('--replay --once reports', () => {
	test('JSON: the whole recording and each segment with its ratio to the baseline', () => {
		const report = labJsonReport(labSession().summary(), 5) as {
			recording: {lines: number; marks: string[]};
			constants: {thresholdSource: string};
			segments: Array<{label: string; count: number; meanSeconds: number; meanRatioToBaseline: number; thresholdToMeanRatio: number}>;
			session: {count: number};
		};
		assert.deepEqual(report.recording, {
			lines: 5,
			from: '2024-01-15T14:00:00.000Z',
			to: '2024-01-15T14:00:40.000Z',
			marks: ['2024-01-15T14:00:20.500Z'],
		});
		assert.equal(report.constants.thresholdSource, 'pkg/kubelet/kubelet.go:179');
		assert.deepEqual(
			report.segments.map((segment) => [segment.label, segment.count]),
			[
				['baseline', 20],
				['mark 1', 16],
			],
		);
		assert.ok(Math.abs(report.segments[1]!.meanRatioToBaseline - 20) < 1e-9); // 0.1 / 0.005
		assert.ok(Math.abs(report.segments[1]!.thresholdToMeanRatio - 1800) < 1e-9); // 180 / 0.1
		assert.equal(report.session.count, 36);
	});

	test('text: one row per segment, the session, then the write-down', () => {
		const lines = labTextReport(labSession().summary()).split('\n');
		assert.deepEqual(lines.slice(0, 6), [
			'segment   span  relists  mean    p99     rate    interval  max age  not healthy  × baseline',
			'baseline  20s   20       5ms     5ms     1.00/s  —         1s       0s           ×1',
			'mark 1    20s   16       100ms   99.1ms  0.80/s  —         4s       0s           ×20',
			// (1.7 s / 36) / 5 ms = ×9.44; 36 relists / 40 s
			'session   40s   36       47.2ms  98ms    0.90/s  —         4s       0s           ×9.4',
			'',
			'PLEG not healthy: at no scrape',
		]);
		assert.ok(lines[7]!.startsWith("The kubelet's PLEG relists every 1s"));
	});

	test('text with a stall: the span listed with both bounds of its length, the time past the threshold per segment', () => {
		const lines = labTextReport(stallSession().summary()).split('\n');
		assert.deepEqual(lines.slice(0, 8), [
			'segment   span  relists  mean   p99    rate    interval  max age  not healthy  × baseline',
			'baseline  1m0s  60       5ms    5ms    1.00/s  —         1s       0s           ×1',
			// 344.07 s / 15 = 22.938 s = ×4,588 the 5 ms before the mark
			'mark 1    6m0s  15       22.9s  ≥ 10s  0.04/s  —         4m51s    ≥ 2m46s      ×4,588',
			// 344.37 s / 75 = 4.59 s
			'session   7m0s  75       4.59s  ≥ 10s  0.18/s  —         4m51s    ≥ 2m46s      ×918',
			'',
			'PLEG not healthy:',
			'  14:04:09 – 14:07:00  2m46s to 2m51s  age reached ≥ 4m51s  threshold 3m0s',
			'',
		]);
		assert.equal(labExitCode(stallSession().summary()), 1);
		assert.equal(labExitCode(labSession().summary()), 0);
	});

	test('JSON: each unhealthy span with both bounds, and the time past the threshold per segment', () => {
		const report = labJsonReport(stallSession().summary(), 8) as {
			unhealthy: Array<Record<string, unknown>>;
			segments: Array<{label: string; unhealthySeconds: number}>;
		};
		assert.deepEqual(report.unhealthy, [
			{
				from: '2024-01-15T14:04:09.000Z',
				fromGauge: true,
				lastUnhealthyAt: '2024-01-15T14:06:00.000Z',
				healthyAgainAt: '2024-01-15T14:07:00.000Z',
				atLeastSeconds: 166,
				atMostSeconds: 171,
				maxAgeSeconds: 291,
				thresholdSeconds: 180,
				message: 'PLEG is not healthy: pleg was last seen active 4m51s ago; threshold is 3m0s',
			},
		]);
		assert.deepEqual(
			report.segments.map((segment) => [segment.label, segment.unhealthySeconds]),
			[
				['baseline', 0],
				['mark 1', 166],
			],
		);
	});
});

describe('why PLEG was not healthy', () => {
	const restart = {count: 0, sum: 0, buckets: [0, 0, 0, 0, 0], lastSeen: 0};

	test('after a kubelet restart: "pleg has yet to be successful", in the text, the tables and the spans', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		for (const {at, totals} of restartTotals) lab.scrape(scrapeAt(at, totals));
		const summary = lab.summary();
		assert.deepEqual(
			summary.unhealthy.map(({from, endAtLeast, healthyAgainAt, causes, message}) => ({from, endAtLeast, healthyAgainAt, causes, message})),
			[
				{
					from: t0 + 2000,
					endAtLeast: t0 + 5000,
					healthyAgainAt: t0 + 6000,
					causes: ['yet-to-be-successful'],
					message: 'PLEG is not healthy: pleg has yet to be successful',
				},
			],
		);
		assert.deepEqual(summary.session?.unhealthyCauses, ['yet-to-be-successful']);
		const {text, markdown} = writeDown(summary);
		const [, measured, health] = unwrap(text);
		const words = '"pleg has yet to be successful": no relist had succeeded since the kubelet started';
		// 100 -> 101 and 0 -> 1 across the restart: 2 relists of 5 ms in 6 s.
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0) from 14:00:00 to 14:00:06 (2 relists in 6s, across a kubelet restart): ' +
				`mean relist 5ms, p99 5ms; the last-seen age was at most 1s at every scrape, not healthy for at least 3s (${words}). ` +
				'No mark was set: press b when something is about to change (before a churn, say), and the write-down measures each side of the mark.',
		);
		assert.equal(health, `PLEG was not healthy (${words}) once: seen from 14:00:02 for 3s to 4s, healthy again by 14:00:06.`);
		assert.match(
			markdown,
			new RegExp(`^\\| 14:00:02\\+00:00 \\(first seen\\) \\| 3s to 4s \\| by 14:00:06\\+00:00 \\| — \\| 3m0s \\| ${words} \\|$`, 'm'),
		);
		assert.match(labTextReport(summary), new RegExp(`^ {2}14:00:02 \\(first seen\\) – 14:00:06 {2}3s to 4s {2}${words}$`, 'm'));
		assert.doesNotMatch(text + markdown, /past the threshold for/);
	});

	test('a stall, then the kubelet restarted while still stalled: one span, both reasons in the order seen', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		// stallTotals to t0+360 s (not healthy since 14:04:09), restarted at t0+370 s, first relist at t0+390 s.
		for (const {at, totals} of stallTotals.slice(0, -1)) lab.scrape(scrapeAt(at, totals));
		lab.scrape(scrapeAt(t0 + 370_000, restart));
		lab.scrape(scrapeAt(t0 + 380_000, restart));
		lab.scrape(scrapeAt(t0 + 390_000, {count: 1, sum: 0.005, buckets: [1, 1, 1, 1, 1], lastSeen: t0 / 1000 + 389}));
		const summary = lab.summary();
		assert.deepEqual(
			summary.unhealthy.map(({causes}) => causes),
			[['threshold', 'yet-to-be-successful']],
		);
		const [, measured, health] = unwrap(writeDown(summary).text);
		// From 14:04:09 (gauge t0+69 s + 180 s) to the start of the relist that ended it, t0+389 s (later than the last
		// unhealthy scrape, t0+380 s): 140 s at least; at most to the healthy scrape at t0+390 s, 141 s.
		const words =
			'last-seen age past the threshold, then "pleg has yet to be successful": no relist had succeeded since the kubelet started';
		assert.match(measured!, new RegExp(`not healthy for at least 2m20s \\(${words}\\)\\.`));
		assert.match(
			health!,
			new RegExp(`^PLEG was not healthy \\(${words}\\) once: from 14:04:09 for 2m20s to 2m21s, healthy again by 14:06:30`),
		);
	});
});
