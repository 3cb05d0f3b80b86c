import assert from 'node:assert/strict';
import {test} from 'node:test';
import {phaseTableText, type PhaseRow} from '../../source/lab/lab-write-down.js';

const row = (name: string, kind: PhaseRow['kind'], pods: number, meanSeconds: number): PhaseRow => ({
	name,
	kind,
	runningPods: pods,
	runningContainers: 31 + pods,
	relists: 11,
	meanSeconds,
	p99: null,
	ratePerSecond: 0.99,
	idleMultiple: meanSeconds / 0.0061,
	thresholdRatio: 180 / meanSeconds,
	listSecondsPerRelist: meanSeconds * 0.95,
	listSecondsPerContainer: (meanSeconds * 0.95) / (31 + pods),
});

const rows = [row('idle', 'idle', 0, 0.0061), row('hold 12 #2', 'hold', 12, 0.0095)];

test('the phase table: one piece where every column fits', () => {
	const text = phaseTableText(rows, 120);
	assert.equal(text.split('\n').length, 3);
	assert.match(text, /^phase\s+pods\s+ctrs\s+relists\s+mean\s+p99\s+rate\s+×idle\s+thr\/mean\s+list\/relist\s+\/ctr$/m);
	// ×idle 9.5 / 6.1; threshold / mean 180 / 0.0095 = 18,947; /ctr 9.025 ms / 43 containers = 210 µs.
	assert.match(text, /^hold 12 #2\s+12\s+43\s+11\s+9\.5ms\s+—\s+0\.99\/s\s+×1\.6\s+×18,947\s+9ms\s+210µs$/m);
});

test('at 80 columns the table comes in pieces that fit, each led by the phase: the terminal never wraps a row', () => {
	const text = phaseTableText(rows, 80);
	for (const line of text.split('\n')) assert.ok([...line].length <= 80, `${[...line].length} > 80: ${line}`);
	const pieces = text.split('\n\n');
	assert.equal(pieces.length, 2);
	for (const piece of pieces) {
		const lines = piece.split('\n');
		assert.match(lines[0]!, /^phase /);
		assert.deepEqual(
			lines.slice(1).map((line) => line.split(/ {2,}/)[0]),
			['idle', 'hold 12 #2'],
		);
	}
	// Every heading once, in order, across the pieces.
	const headings = pieces.flatMap((piece) => piece.split('\n')[0]!.split(/\s+/).slice(1));
	assert.deepEqual(headings, ['pods', 'ctrs', 'relists', 'mean', 'p99', 'rate', '×idle', 'thr/mean', 'list/relist', '/ctr']);
});
