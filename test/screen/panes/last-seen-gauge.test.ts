import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {lastSeenGaugeLines} from '../../../source/screen/panes/last-seen-gauge.js';
import {lastSeenAt, makeFigures} from '../../helpers/figures.js';
import {paneFrame} from '../../helpers/pane-rows.js';

const {constants} = makeFigures(); // v1.28.0: period 1 s, threshold 180 s
const width = 60;

// Scale: ln(age / 0.5) / ln(360 / 0.5), times 60 cells, rounded; ln(720) = 6.5793.
// Ticks: 1 s → ln 2 / ln 720 × 60 = 6.32 → 6 cells → mark on cell 5; 180 s → 0.8946 × 60 = 53.68 → 54 → cell 53.
const ticks = `${' '.repeat(5)}╵1s${' '.repeat(45)}╵3m`;
const bar = (filled: number) => '█'.repeat(filled) + '░'.repeat(width - filled);

function gauge(lastSeen = lastSeenAt(1), stale = false): string {
	return paneFrame(lastSeenGaugeLines({lastSeen, constants, width, stale}), width);
}

describe('LastSeenGauge at known ages', () => {
	test('0 s: empty bar, ok', () => {
		assert.equal(gauge(lastSeenAt(0)), ['✓ last seen 0s ago · ok ≤ 5s', bar(0), ticks].join('\n'));
	});

	test('2 s: ln 4 / ln 720 × 60 = 12.64 → 13 cells, ok', () => {
		assert.equal(gauge(lastSeenAt(2)), ['✓ last seen 2s ago · ok ≤ 5s', bar(13), ticks].join('\n'));
	});

	test('45 s: ln 90 / ln 720 × 60 = 41.04 → 41 cells, warn (> 5 s)', () => {
		assert.equal(gauge(lastSeenAt(45)), ['! last seen 45s ago · warn > 5s', bar(41), ticks].join('\n'));
	});

	test('172 s: half the threshold (90 s) passed, ln 344 / ln 720 × 60 = 53.26 → 53 cells, critical', () => {
		assert.equal(gauge(lastSeenAt(172)), ['!! last seen 2m52s ago · critical ≥ 90s', bar(53), ticks].join('\n'));
	});

	test('181 s: past the 3-minute threshold, ln 362 / ln 720 × 60 = 53.73 → 54 cells, unhealthy, age in words', () => {
		assert.equal(gauge(lastSeenAt(181)), ['✗ last seen 3m1s ago · unhealthy > 3m', bar(54), ticks].join('\n'));
	});
});

describe('LastSeenGauge special readings', () => {
	test('gauge 0: no successful relist yet, empty bar', () => {
		const frame = gauge({gaugeSeconds: 0, ageSeconds: null, skewSeconds: null, neverSucceeded: true, countUnchangedSeconds: null});
		assert.equal(frame.split('\n')[0], '✗ no successful relist yet · last_seen gauge = 0');
		assert.equal(frame.split('\n')[1], bar(0));
	});

	test('node clock ahead: bar at 0 and the skew in words, never a negative age', () => {
		const frame = gauge(lastSeenAt(0, {skewSeconds: 3}));
		assert.equal(frame.split('\n')[0], '✓ last seen 0s ago · node clock ahead by 3s · ok ≤ 5s');
		assert.equal(frame.split('\n')[1], bar(0));
		assert.doesNotMatch(frame, /-\d/);
	});

	test('gauge absent: "count unchanged" fallback, labelled as such', () => {
		const frame = gauge({gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: 12});
		// 12 s: ln 24 / ln 720 × 60 = 28.98 → 29 cells; 12 s > 5 s → warn. 25 + 3 + 20 + 3 + 9 = 60 columns: all fits.
		assert.equal(frame.split('\n')[0], '! count unchanged for 12s · no gauge before 1.18 · warn > 5s');
		assert.equal(frame.split('\n')[1], bar(29));
		// One column less, the band goes first, the fallback's label stays.
		const narrow = paneFrame(
			lastSeenGaugeLines({
				lastSeen: {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: 12},
				constants,
				width: 59,
			}),
			59,
		);
		assert.equal(narrow.split('\n')[0], '! count unchanged for 12s · no gauge before 1.18');
	});

	test('stale figures say STALE next to the age, an upper bound under "?", never a ✓', () => {
		assert.equal(gauge(lastSeenAt(2), true).split('\n')[0], '? last seen up to 2s ago · STALE · ok ≤ 5s');
		const unchanged = {gaugeSeconds: null, ageSeconds: null, skewSeconds: null, neverSucceeded: false, countUnchangedSeconds: 12};
		assert.equal(gauge(unchanged, true).split('\n')[0], '? count unchanged up to 12s · STALE · no gauge before 1.18');
	});

	test('a narrow pane keeps the symbol and the age, dropping the band words whole', () => {
		// "✗ last seen 3m1s ago · unhealthy > 3m" is 37 columns.
		const frame = paneFrame(lastSeenGaugeLines({lastSeen: lastSeenAt(181), constants, width: 34}), 34);
		assert.equal(frame.split('\n')[0], '✗ last seen 3m1s ago');
	});
});

test('the node clock only bounded (at least so far ahead): the age read with it is a lower bound, said so', () => {
	assert.equal(
		paneFrame(lastSeenGaugeLines({lastSeen: lastSeenAt(172), constants, width, atLeast: true}), width),
		['!! last seen at least 2m52s ago · critical ≥ 90s', bar(53), ticks].join('\n'),
	);
});
