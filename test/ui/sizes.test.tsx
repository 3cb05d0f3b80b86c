// The whole App at the terminal sizes people use (issue 7): 80×24, 100×30, a vertical half (60×30),
// a horizontal half (120×15) and 40×12. One App per scene is resized through every size, so all
// frames of a scene show the same state and the narrow frames can be compared with a huge one.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {sourceFailure} from '../../source/sources/failure.js';
import type {MetricsSource} from '../../source/domain/types.js';
import {cells} from '../helpers/ui-frame.js';
import {startTerminal, type Terminal} from './sizes-harness.js';

process.env.TZ = 'UTC';

const start = Date.UTC(2024, 0, 15, 14, 0, 0);
const sizes = [
	[80, 24],
	[100, 30],
	[60, 30],
	[120, 15],
	[40, 12],
] as const;
/** Big enough for every pane: the frame the others are checked against. */
const reference = [200, 60] as const;

/**
 * Number-with-unit tokens: "6.3 ms", "1 s", "3m0s", "1.00/s", "×28,775", "1,203", "14:00:12".
 * A figure cut by the terminal or by ink's truncation shows as a prefix ("6.3 m", "6.") or ends in "…".
 */
export function figureTokens(frame: string): string[] {
	return frame.match(/[×+]?\d[\d.,:]*(?:[a-zµ%/]+[\d.a-z]*)?(?: (?:ms|µs|s|m|h)\b)?…?/g) ?? [];
}

type Scene = {frames: Map<string, string>; reference: string};

async function framesOf(terminal: Terminal): Promise<Scene> {
	const frames = new Map<string, string>();
	for (const [columns, rows] of sizes) {
		frames.set(`${columns}×${rows}`, await terminal.frameAt(columns, rows));
	}

	return {frames, reference: await terminal.frameAt(...reference)};
}

function assertFits(frame: string, columns: number, rows: number): void {
	const lines = frame.split('\n');
	// The App leaves the terminal's last row free (a full-height frame makes ink redraw everything).
	assert.ok(lines.length <= rows - 1, `${lines.length} rows at ${columns}×${rows}:\n${frame}`);
	for (const line of lines) {
		assert.ok(cells(line) <= columns, `row wider than ${columns}: "${line}"`);
	}
}

function assertNoFigureCut(frame: string, whole: string, size: string): void {
	const wholeTokens = new Set(figureTokens(whole));
	for (const token of figureTokens(frame)) {
		if (wholeTokens.has(token)) {
			continue;
		}

		assert.ok(!token.endsWith('…'), `figure cut to "${token}" at ${size}:\n${frame}`);
		const cutFrom = [...wholeTokens].find(full => full.startsWith(token));
		assert.equal(cutFrom, undefined, `"${cutFrom}" shows as "${token}" at ${size}:\n${frame}`);
	}
}

/** The age as the gauge writes it ("1 s", "4 minutes 1 second"), read from the big frame. */
function lastSeenAge(frame: string): string {
	const match = /[✓!✗] last seen (.+?) ago/.exec(frame);
	assert.ok(match, `no last-seen age in:\n${frame}`);
	return match[1]!;
}

function assertEssentials(scene: Scene, verdict: RegExp): void {
	const age = lastSeenAge(scene.reference);
	// Wide: "✓ last seen 1 s ago"; narrow panes keep the symbol and the age: "✓ 1 s".
	const ageShown = new RegExp(`[✓!✗] (?:last seen )?${age.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: ago|$| ·)`, 'm');
	for (const [size, frame] of scene.frames) {
		const [columns, rows] = size.split('×').map(Number) as [number, number];
		assertFits(frame, columns, rows);
		assertNoFigureCut(frame, scene.reference, size);
		assert.match(frame, verdict, `verdict missing at ${size}:\n${frame}`);
		assert.match(frame, ageShown, `age "${age}" missing at ${size}:\n${frame}`);
	}
}

/** Row and column where `text` starts, or undefined. */
function position(frame: string, text: string): {row: number; column: number} | undefined {
	const lines = frame.split('\n');
	const row = lines.findIndex(line => line.includes(text));
	return row === -1 ? undefined : {row, column: [...lines[row]!.slice(0, lines[row]!.indexOf(text))].length};
}

async function scene(options: Parameters<typeof startTerminal>[0], steps: (terminal: Terminal) => Promise<void>): Promise<Scene> {
	const terminal = await startTerminal(options);
	try {
		await steps(terminal);
		return await framesOf(terminal);
	} finally {
		terminal.close();
	}
}

/** After `failAfter` good scrapes every metrics request is refused as RBAC would refuse it. */
function forbiddenAfter(failAfter: number): (source: MetricsSource) => MetricsSource {
	return (source) => {
		let requests = 0;
		return {
			...source,
			async fetchMetrics(signal) {
				requests++;
				if (requests > failAfter) {
					throw sourceFailure('forbidden', 'context "prod" (user "jane@example.com") is not allowed to get nodes/proxy', [
						'nodes "demo-node" is forbidden: User "jane@example.com" cannot get resource "nodes/proxy" in API group "" at the cluster scope',
						'check: kubectl auth can-i get nodes --subresource=proxy',
					]);
				}

				return source.fetchMetrics(signal);
			},
		};
	};
}

const healthy = /✓ PLEG is healthy/;

describe('the App at every size', () => {
	test('idle, window full: verdict, age and whole figures everywhere; side pane beside when wide, below when narrow', async () => {
		const idle = await scene({start}, async (terminal) => {
			await terminal.advance(12);
		});
		assertEssentials(idle, healthy);
		// A figure of the window pane shows in every size that has the pane.
		assert.match(idle.reference, /mean \d+(?:\.\d+)?ms · p50/);

		const beside = position(idle.frames.get('100×30')!, 'kubelet source');
		const statsAt100 = position(idle.frames.get('100×30')!, 'relist duration');
		assert.ok(beside && statsAt100, idle.frames.get('100×30'));
		assert.equal(beside.row, statsAt100.row, 'constants pane on the stats header row at 100 columns');
		assert.ok(beside.column > 40, `constants pane starts at column ${beside.column}`);

		const below = position(idle.frames.get('60×30')!, 'kubelet source');
		const statsAt60 = position(idle.frames.get('60×30')!, 'relist duration');
		assert.ok(below && statsAt60, idle.frames.get('60×30'));
		assert.ok(below.row > statsAt60.row + 3, 'constants pane below the stats at 60 columns');
		assert.equal(below.column, 0);

		// 120×15 has no room for the constants pane; where it would show, it is never below the stats.
		const wideShort = idle.frames.get('120×15')!;
		const constantsAt120 = position(wideShort, 'kubelet source');
		if (constantsAt120) assert.equal(constantsAt120.row, position(wideShort, 'relist duration')?.row);
	});

	test('churn with a baseline: the baseline pane only where it fits whole', async () => {
		const churn = await scene({start}, async (terminal) => {
			await terminal.advance(12);
			await terminal.press('b');
			await terminal.press('c');
			await terminal.advance(15);
		});
		assertEssentials(churn, healthy);
		assert.match(churn.reference, /baseline · ×\d+ since mark/);
		for (const [size, frame] of churn.frames) {
			// Either the whole pane (its title and its last row) or none of it.
			assert.equal(frame.includes('baseline ·'), /relists +\d+ in 10s +\d+ in 15s/.test(frame), `half a baseline pane at ${size}:\n${frame}`);
		}
	});

	test('stalled past the threshold (demo speed 60): the not-healthy verdict and the age at every size', async () => {
		const stalled = await scene({start, speed: 60}, async (terminal) => {
			await terminal.advance(12);
			await terminal.press('s');
			// 4 real seconds at speed 60 = 240 simulated seconds > the 3-minute threshold.
			await terminal.advance(4);
		});
		assert.match(stalled.reference, /last seen 4m\d+s ago/);
		assertEssentials(stalled, /✗ PLEG is not healthy/);
	});

	test('an RBAC error after good scrapes: STALE, the old figures and the error, whole, at every size', async () => {
		const forbidden = await scene({start, wrap: forbiddenAfter(12)}, async (terminal) => {
			await terminal.advance(15);
		});
		assertEssentials(forbidden, healthy);
		for (const [size, frame] of forbidden.frames) {
			assert.match(frame, /STALE/, `no STALE at ${size}:\n${frame}`);
		}

		assert.match(forbidden.reference, /not allowed to get nodes\/proxy/);
	});

	test('the help screen fits every size without cutting a figure', async () => {
		const help = await scene({start}, async (terminal) => {
			await terminal.advance(3);
			await terminal.press('?');
		});
		for (const [size, frame] of help.frames) {
			const [columns, rows] = size.split('×').map(Number) as [number, number];
			assertFits(frame, columns, rows);
			assertNoFigureCut(frame, help.reference, size);
		}
	});
});
