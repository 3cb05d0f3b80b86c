import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createLabSession} from '../../source/lab/lab-session.js';
import {labJsonReport, labTextReport} from '../../source/lab/lab-report.js';
import {wrap, writeDown} from '../../source/lab/write-down.js';
import {labSession} from './exposition.js';

process.env['TZ'] = 'UTC';

/** The paragraphs joined on one line each, so a test can look for a sentence whatever the wrapping. */
const unwrap = (text: string) => text.trimEnd().split('\n\n').map(paragraph => paragraph.replaceAll('\n', ' '));

describe('the write-down', () => {
	test('with a mark: the loop, idle and churn means, the threshold with file:line and threshold / mean', () => {
		const {text} = writeDown(labSession().summary());
		const [loop, measured, ratios] = unwrap(text);
		assert.equal(
			loop,
			"The kubelet's PLEG relists every 1s (genericPlegRelistPeriod, pkg/kubelet/kubelet.go:178): it lists every pod sandbox " +
				'and container from the container runtime and turns what changed into pod lifecycle events; Healthy() fails and the ' +
				'node goes NotReady ("PLEG is not healthy") once the last relist started more than 3m0s ago ' +
				'(genericPlegRelistThreshold, pkg/kubelet/kubelet.go:179).',
		);
		// Baseline Δ 0.1 s / 20 = 5 ms over 20 s; since the mark Δ 1.6 s / 16 = 100 ms; 100 / 5 = ×20.
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0): idle, the mean relist took 5.0 ms (20 relists in 20 s before the mark at ' +
				'14:00:20); during churn, since the mark, it took 100 ms (16 relists in 20 s): ×20 the idle mean. ' +
				'The last-seen age reached 1 s idle and 4 s during churn.',
		);
		// 180 / 0.005 = 36,000; 180 / 0.1 = 1,800
		assert.equal(
			ratios,
			'threshold / mean: 180 s / 5.0 ms = ×36,000 idle, 180 s / 100 ms = ×1,800 during churn. ' +
				'That many mean relists fit in the threshold before the node goes NotReady.',
		);
		assert.ok(text.split('\n').every(line => line.length <= 80), 'wrapped to 80 columns');
	});

	test('without a mark: the whole session only, and how to get a comparison', () => {
		const [, measured, ratios] = unwrap(writeDown(labSession({mark: false}).summary()).text);
		// Δ (2.2 - 0.5) s / 36 relists = 47.2 ms over 40 s; p99 rank 35.64 of 36 falls in (0.01, 0.1], where 16 lie
		// above the 20 at ≤ 5 ms: 0.01 + 0.09 × (35.64 - 20) / 16 = 97.975 ms -> "98.0 ms"
		assert.equal(
			measured,
			'Measured on worker-1 (kubelet v1.28.0) over the whole session (36 relists in 40 s): mean relist 47.2 ms, p99 98.0 ms, ' +
				'last-seen age at most 4 s. No baseline was marked: press b while the node is idle, then start the churn, to compare the two.',
		);
		// 180 / (1.7 / 36) = 3811.76
		assert.equal(ratios, 'threshold / mean: 180 s / 47.2 ms = ×3,812 over the session. That many mean relists fit in the threshold before the node goes NotReady.');
	});

	test('Markdown: a heading, file:line as code, and an idle/churn table', () => {
		const {markdown} = writeDown(labSession().summary());
		assert.match(markdown, /^# PLEG write-down: worker-1, 2024-01-15 14:00\n\n/);
		assert.ok(markdown.includes('(`genericPlegRelistThreshold`, `pkg/kubelet/kubelet.go:179`)'));
		const table = markdown.split('\n').filter(line => line.startsWith('|'));
		assert.deepEqual(table, [
			'|  | idle (before mark) | churn (since mark) |',
			'| --- | --- | --- |',
			'| mean | 5.0 ms | 100 ms |',
			// idle: rank 19.8 of 20 in [0, 0.005]: 0.005 × 19.8 / 20 = 4.95 ms; churn: 0.01 + 0.09 × 15.84 / 16 = 99.1 ms
			'| p99 | 5.0 ms | 99.1 ms |',
			'| rate | 1.00/s | 0.80/s |',
			'| interval | — | — |',
			'| relists | 20 relists in 20 s | 16 relists in 20 s |',
			'| max last-seen age | 1 s | 4 s |',
			'| threshold / mean | ×36,000 | ×1,800 |',
		]);
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
		assert.deepEqual(report.recording, {lines: 5, from: '2024-01-15T14:00:00.000Z', to: '2024-01-15T14:00:40.000Z', marks: ['2024-01-15T14:00:20.500Z']});
		assert.equal(report.constants.thresholdSource, 'pkg/kubelet/kubelet.go:179');
		assert.deepEqual(report.segments.map(segment => [segment.label, segment.count]), [['baseline', 20], ['mark 1', 16]]);
		assert.ok(Math.abs(report.segments[1]!.meanRatioToBaseline - 20) < 1e-9); // 0.1 / 0.005
		assert.ok(Math.abs(report.segments[1]!.thresholdToMeanRatio - 1800) < 1e-9); // 180 / 0.1
		assert.equal(report.session.count, 36);
	});

	test('text: one row per segment, the session, then the write-down', () => {
		const lines = labTextReport(labSession().summary()).split('\n');
		assert.deepEqual(lines.slice(0, 4), [
			'segment   span  relists  mean     p99      rate    interval  max age  × baseline',
			'baseline  20 s  20       5.0 ms   5.0 ms   1.00/s  —         1 s      ×1',
			'mark 1    20 s  16       100 ms   99.1 ms  0.80/s  —         4 s      ×20',
			// (1.7 s / 36) / 5 ms = ×9.44; 36 relists / 40 s
			'session   40 s  36       47.2 ms  98.0 ms  0.90/s  —         4 s      ×9.4',
		]);
		assert.ok(lines[5]!.startsWith("The kubelet's PLEG relists every 1s"));
	});
});
