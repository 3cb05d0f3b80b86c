// --window is seconds from the command line to the window code; only the timer of --once's two reads takes it in ms.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parseOptions} from '../../source/cli/options.js';
import {onceGapMs} from '../../source/run/mode.js';

function windowOf(text: string): number {
	const mode = parseOptions(['worker-1', '--once', '--window', text], {stdoutIsTty: true});
	assert.equal(mode.kind, 'node');
	return mode.kind === 'node' ? mode.windowSeconds : NaN;
}

describe('--window, one unit', () => {
	test('the flag parses to seconds, exactly for every unit', () => {
		assert.deepEqual(['1m30s', '150ms', '0.7s', '2h'].map(windowOf), [90, 0.15, 0.7, 7200]);
	});

	test("--once's two reads are the window apart, in a timer's ms", () => {
		assert.deepEqual(
			[90, 0.15, 0.7].map((windowSeconds) => onceGapMs({windowSeconds})),
			[90_000, 150, 700],
		);
	});
});
