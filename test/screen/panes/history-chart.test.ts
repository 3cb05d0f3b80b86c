import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {HistoryPoint} from '../../../source/domain/types.js';
import {historyChartLines, type HistoryChartProps, sparkLevel} from '../../../source/screen/panes/history-chart.js';
import {cells, paneFrame} from '../../helpers/pane-rows.js';

/** 14:00:00 UTC: a whole minute, so 5 s and 6 s buckets start on it. */
const t = Date.UTC(2024, 0, 15, 14, 0, 0);

function chart(history: HistoryPoint[], props: Partial<HistoryChartProps> & {width: number}): string {
	return paneFrame(historyChartLines({history, now: t, thresholdSeconds: 180, intervalSeconds: 1, ...props}), props.width);
}

describe('sparkLevel (log scale, 8 blocks)', () => {
	test('mean from a 1 ms floor to a 10 s max', () => {
		// level = round(ln(v / 1 ms) / ln(10 s / 1 ms) × 7): 4 ms → 1.05 → 1; 10 ms → 1.75 → 2; 100 ms → 3.5 → 4; 1 s → 5.25 → 5.
		assert.deepEqual(
			[0.001, 0.004, 0.01, 0.1, 1, 10].map((value) => sparkLevel(value, 0.001, 10)),
			[0, 1, 2, 4, 5, 7],
		);
		assert.equal(sparkLevel(null, 0.001, 10), null);
	});
});

describe('HistoryChart over time buckets', () => {
	test('one column per 5 s: the highest value of each, gaps blank, R / B / * under their bucket', () => {
		// One scrape a second from 14:00:00 to 14:00:49 except 14:00:40–44 (failed scrapes). A 100 ms mean at :17;
		// no relist in the window :30–:39; the age climbs from :25 (1 s) to :39 (15 s); mark and restart in the
		// first bucket, a mark at :12, a restart at :46.
		const history: HistoryPoint[] = [];
		for (let second = 0; second < 50; second++) {
			if (second >= 40 && second < 45) continue;
			const mean = second >= 30 && second < 40 ? null : second === 17 ? 0.1 : 0.004;
			const age = second >= 25 && second < 40 ? second - 24 : 1;
			const event = second === 1 || second === 12 ? 'mark' : second === 3 || second === 46 ? 'restart' : null;
			history.push({at: t + second * 1000, windowMeanSeconds: mean, lastSeenAgeSeconds: age, event});
		}

		// Threshold 50 s: 2 × 50 / 23 columns (40 − 5 − 1 − 11) = 4.3 → 5 s a column, 23 × 5 s = 1m55s. now 14:00:49.5:
		// the last bucket is :45–:50, the first starts 22 × 5 s = 110 s earlier, so 13 empty columns lead.
		// Mean, floor 1 ms, max 100 ms: 4 ms → round(ln 4 / ln 100 × 7) = round(2.1) = 2 "▃"; 100 ms → 7 "█".
		// Age, floor 1 s, max 15 s (:35–:39): 1 → 0 "▁"; 5 (:25–:29) → round(ln 5 / ln 15 × 7) = round(4.2) = 4 "▅";
		// 10 (:30–:34) → round(6.0) = 6 "▇"; 15 → 7 "█".
		const frame = chart(history, {width: 40, now: t + 49_500, thresholdSeconds: 50});
		const lead = ' '.repeat(13);
		assert.equal(
			frame,
			[
				'history · last 1m55s, 5 s/col',
				`mean ${lead}▃▃▃█▃▃   ▃ max 100ms`,
				`age  ${lead}▁▁▁▁▁▅▇█ ▁ max 15s`,
				`     ${lead}* B      R`,
			].join('\n'),
		);
	});

	test('generic PLEG at 80 columns: 63 columns of 6 s = 6m18s, at least twice the 3-minute threshold', () => {
		// 6m24s of scrapes, one a second, ending at now; a 186 s stall, a restart and a mark 5 minutes ago.
		// The last column starts at 378 s, the first 62 × 6 s earlier, at 6 s: column k holds 6 + 6k … 12 + 6k s.
		const now = t + 384_000 - 1;
		const history: HistoryPoint[] = Array.from({length: 384}, (_, second) => ({
			at: t + second * 1000,
			windowMeanSeconds: 0.004,
			lastSeenAgeSeconds: second >= 120 && second < 306 ? second - 119 : 1,
			event: second === 60 ? 'mark' : second === 64 ? 'restart' : null,
		}));
		const rows = chart(history, {width: 80, now}).split('\n');
		// 29 + 12 + 39 = 80: the legend explains "*" as it is on the chart.
		assert.equal(rows[0], `history · last 6m18s, 6 s/col${' '.repeat(12)}log scale · R restart · B mark · * both`);
		assert.ok(rows.every((row) => cells(row) <= 80));
		// 63 buckets of 6 scrapes: every column has a mean, 4 ms, which is also the scale's max (top block).
		assert.equal(rows[1], `mean ${'█'.repeat(63)} max 4ms`);
		// The stall's peak, 305 − 119 = 186 s, is the axis max: the highest bucket keeps it whole.
		assert.match(rows[2]!, /max 3m6s$/);
		// Columns 0–18 age 1 s "▁"; column 19 (120–125 s) peaks at 6 s: round(ln 6 / ln 186 × 7) = round(2.4) = 2 "▃";
		// column 49 (300–305 s) peaks at 186 s "█"; column 50 is back to 1 s.
		const age = [...rows[2]!.slice(5, 5 + 63)];
		assert.equal(age.slice(0, 20).join(''), `${'▁'.repeat(19)}▃`);
		assert.equal(age.slice(49, 51).join(''), '█▁');
		// Mark at 60 s and restart at 64 s, both in column 9 (60–65 s): one column shows both.
		assert.equal(rows[3], `${' '.repeat(5 + 9)}*`);
	});

	test('P under the column where the history from Prometheus ends, and the legend says so only then', () => {
		// Prometheus' points every 2 s up to 300 s (the last one marked), then the scrapes' every second to now.
		const now = t + 384_000 - 1;
		const history: HistoryPoint[] = [
			...Array.from({length: 151}, (_, index): HistoryPoint => ({
				at: t + index * 2000,
				windowMeanSeconds: 0.004,
				lastSeenAgeSeconds: 1,
				event: index === 150 ? 'history' : null,
			})),
			...Array.from({length: 83}, (_, index): HistoryPoint => ({
				at: t + (301 + index) * 1000,
				windowMeanSeconds: 0.004,
				lastSeenAgeSeconds: 1,
				event: null,
			})),
		];
		// 100 wide: 83 columns, 360 / 83 = 4.3 → 5 s; the last column starts at 380 s, the first 82 × 5 s earlier at
		// −30 s: 300 s is column (300 + 30) / 5 = 66.
		const rows = chart(history, {width: 100, now}).split('\n');
		assert.match(rows[0]!, /^history · last 6m55s, 5 s\/col +log scale · R restart · B mark · P Prometheus$/);
		assert.equal(rows[3], `${' '.repeat(5 + 66)}P`);
		// At 80 columns too the legend fits beside the title, and says what P is.
		assert.match(
			chart(history, {width: 80, now}).split('\n')[0]!,
			/^history · last 6m18s, 6 s\/col +log scale · R restart · B mark · P Prometheus$/,
		);
		assert.doesNotMatch(chart(history.slice(151), {width: 100, now}), /Prometheus|P/);
	});

	test('the chart spans the threshold in force: evented PLEG (10 minutes) takes 20 s a column', () => {
		const history: HistoryPoint[] = [{at: t - 1000, windowMeanSeconds: 0.004, lastSeenAgeSeconds: 1, event: null}];
		// 2 × 600 s / 63 = 19.05 → 20 s; 63 × 20 s = 21m0s.
		assert.match(chart(history, {width: 80, thresholdSeconds: 600}).split('\n')[0]!, /^history · last 21m0s, 20 s\/col/);
	});

	test('a slow poll interval widens the columns: 10 s between scrapes, 20 s a column', () => {
		const history: HistoryPoint[] = [{at: t - 1000, windowMeanSeconds: 0.004, lastSeenAgeSeconds: 1, event: null}];
		// 200 wide: 183 columns; 360 / 183 = 2 s would leave most columns empty, 2 × 10 s = 20 s does not: 183 × 20 s.
		assert.match(chart(history, {width: 200, intervalSeconds: 10}).split('\n')[0]!, /^history · last 1h1m0s, 20 s\/col/);
	});

	test('an axis label longer than the room kept for it costs columns, and the columns grow to keep the span', () => {
		// An age of 10 hours: "max 10h0m0s" is 11 cells, "max 100h0m0s" 12; 80 − 17 = 63 columns become 62,
		// 360 / 62 = 5.8 → still 6 s, 62 × 6 s = 6m12s ≥ 6 minutes.
		const history: HistoryPoint[] = [{at: t - 1000, windowMeanSeconds: 0.004, lastSeenAgeSeconds: 360_000, event: null}];
		const rows = chart(history, {width: 80}).split('\n');
		assert.match(rows[0]!, /^history · last 6m12s, 6 s\/col/);
		assert.match(rows[2]!, /^age {2}.{62} max 100h0m0s$/);
		assert.ok(rows.every((row) => cells(row) <= 80));
	});

	test('no scrapes yet', () => {
		assert.equal(chart([], {width: 80}), 'history: no scrapes yet');
	});
});

describe('HistoryChart with named marks (pleg-top lab)', () => {
	test("each mark's column shows its phase letter, the legend names the phases; an unnamed mark stays B", () => {
		// Marks at :01 (idle), :12 (up), :27 (unnamed), a restart at :46.
		const history: HistoryPoint[] = [];
		for (let second = 0; second < 50; second++) {
			const event = second === 1 || second === 12 || second === 27 ? 'mark' : second === 46 ? 'restart' : null;
			history.push({at: t + second * 1000, windowMeanSeconds: 0.004, lastSeenAgeSeconds: 1, event});
		}

		const markNames = [
			{at: t + 1000, letter: 'I', name: 'idle'},
			{at: t + 12_000, letter: 'U', name: 'up 0→12'},
		];
		const rows = chart(history, {width: 100, now: t + 49_500, thresholdSeconds: 50, markNames}).split('\n');
		// The unnamed mark's B is on the chart too, so the legend says it.
		assert.match(rows[0]!, /log scale · R restart · I idle · U up · B mark$/);
		// 2 s columns at 100 wide: :00–:02 I, six columns on :12–:14 U, :26–:28 B, :46–:48 R.
		assert.match(rows[3]!, /I {5}U {6}B {9}R$/);
	});

	test('a phase whose column the next phase took is not in the legend: it names only the letters on the chart', () => {
		// idle at :01, up at :12 and hold at :13 (the pods came up within a second): :12–:14 is one 2 s column, H.
		const history: HistoryPoint[] = [];
		for (let second = 0; second < 50; second++) {
			history.push({
				at: t + second * 1000,
				windowMeanSeconds: 0.004,
				lastSeenAgeSeconds: 1,
				event: [1, 12, 13].includes(second) ? 'mark' : null,
			});
		}

		const markNames = [
			{at: t + 1000, letter: 'I', name: 'idle'},
			{at: t + 12_000, letter: 'U', name: 'up 0→12'},
			{at: t + 13_000, letter: 'H', name: 'hold 12'},
		];
		const rows = chart(history, {width: 100, now: t + 49_500, thresholdSeconds: 50, markNames}).split('\n');
		assert.match(rows[3]!, /I {5}H$/);
		assert.match(rows[0]!, /log scale · R restart · I idle · H hold$/);
	});
});
