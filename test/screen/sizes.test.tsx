// The whole App at the terminal sizes people use: 80×24, 100×30, 120×35, vertical halves (60×30, 60×20),
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
	[120, 35],
	[60, 30],
	[60, 20],
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
		const cutFrom = [...wholeTokens].find((full) => full.startsWith(token));
		assert.equal(cutFrom, undefined, `"${cutFrom}" shows as "${token}" at ${size}:\n${frame}`);
	}
}

/** The age as the gauge writes it ("1 s", "4 minutes 1 second"), read from the big frame. */
function lastSeenAge(frame: string): string {
	// While stale the age is an upper bound under "?": "? last seen up to 3s ago".
	const match = /[✓!✗?] last seen (?:up to )?(.+?) ago/.exec(frame);
	assert.ok(match, `no last-seen age in:\n${frame}`);
	return match[1]!;
}

function assertEssentials(scene: Scene, verdict: RegExp): void {
	const age = lastSeenAge(scene.reference);
	// Wide: "✓ last seen 1 s ago"; narrow panes keep the symbol and the age: "✓ 1 s".
	const ageShown = new RegExp(`[✓!✗?] (?:last seen (?:up to )?)?${age.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: ago|$| ·)`, 'm');
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
	const row = lines.findIndex((line) => line.includes(text));
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

		// 120×15 has no room for the whole pane: it is folded into one row below the stats, never cut.
		const wideShort = idle.frames.get('120×15')!;
		assert.ok(!wideShort.includes('kubelet source ·'), wideShort);
		assert.ok((position(wideShort, 'kubelet source v')?.row ?? -1) > (position(wideShort, 'relist duration')?.row ?? Infinity), wideShort);

		// 80×24: the history chart (63 columns of 6 s: over twice the 3-minute threshold) and the pane in one row.
		const small = idle.frames.get('80×24')!;
		assert.match(small, /^history · last 6m18s, 6 s\/col/m);
		assert.match(small, /^kubelet source v1\.28\.\d+ · threshold 3m0s · relist 1s · evented off · k details$/m);
		assert.ok(!small.includes('kubelet source ·'), small);
		// 120×35: room for everything, the pane whole beside the stats and the chart below.
		const large = idle.frames.get('120×35')!;
		assert.equal(position(large, 'kubelet source ·')?.row, position(large, 'relist duration')?.row, large);
		assert.match(large, /^history · last 8m35s, 5 s\/col/m);
		// Nothing that changes every scrape is missing where the static pane shows whole.
		for (const [size, frame] of idle.frames) {
			if (frame.includes('kubelet source ·')) assert.match(frame, /^history · /m, `the pane whole but no history at ${size}:\n${frame}`);
		}
	});

	test('k opens the folded pane at 80×24 and folds it again', async () => {
		const terminal = await startTerminal({start});
		try {
			await terminal.advance(12);
			assert.match(await terminal.frameAt(80, 24), /^kubelet source v.* · k details$/m);
			await terminal.press('k');
			const open = await terminal.frameAt(80, 24);
			assertFits(open, 80, 24);
			assert.match(open, /^kubelet source · as of v1\.28\.\d+$/m);
			assert.match(open, /^health threshold 3m0s · pkg\/kubelet\/kubelet\.go:\d+/m);
			assert.doesNotMatch(open, /k details/);
			await terminal.press('k');
			assert.match(await terminal.frameAt(80, 24), /^kubelet source v.* · k details$/m);
		} finally {
			terminal.close();
		}
	});

	test('? at 80×24: the keys first, and ↓ PgDn End scroll the rest, never "more rows"', async () => {
		const terminal = await startTerminal({start});
		try {
			await terminal.advance(3);
			await terminal.frameAt(80, 24);
			await terminal.press('?');
			const first = (await terminal.frameAt(80, 24)).split('\n');
			// 23 rows: header, title, 20 rows of the text, the position row.
			assert.equal(first.length, 23);
			assert.equal(first[2], 'keys · one-node screen (pleg-top NODE)');
			const total = Number(/of (\d+) ·/.exec(first[22]!)?.[1]);
			assert.equal(first[22], `line 1–20 of ${total} · ↓ PgDn for more · / search`);
			await terminal.press('\u001B[6~'); // PgDn: a page of 20
			await terminal.press('\u001B[B'); // ↓: one row
			const scrolled = (await terminal.frameAt(80, 24)).split('\n');
			assert.equal(scrolled[22], `line 22–41 of ${total} · ↑↓ PgUp PgDn scroll · / search`);
			await terminal.press('\u001B[F'); // End
			const end = await terminal.frameAt(80, 24);
			assert.match(end, new RegExp(`line ${total - 19}–${total} of ${total} · ↑ PgUp back · / search$`));
			assert.doesNotMatch(end, /more rows/);
			// Closed and opened again, it starts at the top.
			await terminal.press('?');
			await terminal.press('?');
			assert.match(await terminal.frameAt(80, 24), new RegExp(`line 1–20 of ${total}`));
		} finally {
			terminal.close();
		}
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
			assert.equal(
				frame.includes('baseline ·'),
				/relists +\d+ in 10s +\d+ in 15s/.test(frame),
				`half a baseline pane at ${size}:\n${frame}`,
			);
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
		// The last good scrape was healthy, yet while the scrapes fail the verdict is unknown, never a ✓.
		assertEssentials(forbidden, /\? verdict unknown/);
		assert.doesNotMatch(forbidden.reference, /✓ PLEG is healthy/);
		assert.match(forbidden.reference, /\? verdict unknown: the last good scrape is \d+s old \(then: PLEG is healthy\)/);
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
			// The scroll hint ("line 1–7 of 205") counts rows of this size, not a figure: left out of the comparison.
			const withoutHint = (text: string) => text.replace(/^line \d+–\d+ of \d+.*$/m, '');
			assertNoFigureCut(withoutHint(frame), withoutHint(help.reference), size);
			if (columns >= 40) assert.match(frame, /keys · one-node screen/, `keys not first at ${size}:\n${frame}`);
			assert.doesNotMatch(frame, /more rows/);
		}
	});
});
