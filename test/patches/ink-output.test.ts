// ink's Output as patched (patches/ink+6.8.0+003+frame-without-cell-grid.patch) must give the terminal the same
// cells, each with the same styles, as ink's own cell grid (kept as GridOutput) for the same operations: rows
// joined as they are when every placement is plain, the grid otherwise. Cells are compared through ansi-tokenize (what ink itself
// reads rows with), so two spellings of the same colours compare equal and a lost or leaked style does not.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {styledCharsFromTokens, tokenize} from '@alcalzone/ansi-tokenize';
import {Chalk} from 'chalk';
import {inkModule} from '../helpers/ink-build.js';

const chalk = new Chalk({level: 3});
type Transformer = (line: string, index: number) => string;
type Clip = {x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined};
type Operation = ['write', number, number, string, Transformer[]?] | ['clip', Clip] | ['unclip'];
type Frame = {width: number; height: number; operations: Operation[]};
type OutputClass = new (options: {width: number; height: number}) => {
	write(x: number, y: number, text: string, options: {transformers: Transformer[]}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
const {default: FastOutput, GridOutput: InkOutput} = await inkModule<{default: OutputClass; GridOutput: OutputClass}>('output.js');

function run(OutputClass: OutputClass, frame: Frame): {output: string; height: number} {
	const output = new OutputClass({width: frame.width, height: frame.height});
	for (const operation of frame.operations) {
		if (operation[0] === 'write') output.write(operation[1], operation[2], operation[3], {transformers: operation[4] ?? []});
		else if (operation[0] === 'clip') output.clip(operation[1]);
		else output.unclip();
	}

	return output.get();
}

/** Each row as its cells: the glyph and the set of styles it is drawn with. */
function cellsOf(output: string): string[][] {
	return output.split('\n').map((row) =>
		styledCharsFromTokens(tokenize(row)).map(
			(cell) =>
				`${cell.value}|${cell.styles
					.map((style) => style.code)
					.sort()
					.join(',')}`,
		),
	);
}

function assertSameAsInk(frame: Frame): string {
	const ours = run(FastOutput, frame);
	const ink = run(InkOutput, frame);
	assert.equal(ours.height, ink.height);
	assert.deepEqual(cellsOf(ours.output), cellsOf(ink.output));
	return ours.output;
}

// Rows as the dashboard's row builders style them (source/screen/layout/line-view.tsx), with its glyphs.
const header = `${chalk.bold('pleg-top')} · node-a · kubelet v1.31.2 ${chalk.dim('· 12:04:05')}`;
const verdict = `${chalk.green('✓')} ${chalk.green.bold('PLEG is healthy')}`;
const gauge = `${chalk.green('█████')}${chalk.dim('░░░░░░░░░░░░░░░')} ${chalk.dim('╵1s')}`;
const figures = `mean 5.7ms · p50 7.5ms · p90 ${chalk.yellow('9.5ms')} · p99 ${chalk.red.bold('10ms')} · Δ −2 ≤ 3 ≥ 1 → ↑ ↓ ≈ µ ×180`;
const chart = `${chalk.cyan('▁▂▃▄▅▆▇█')}${chalk.inverse(' B ')}▌ △ ✗ §±`;

describe("ink's frame assembly, patched to join plain rows as they are", () => {
	test('plain rows at column 0, at offsets and side by side are joined as they are, with the same cells as ink', () => {
		const output = assertSameAsInk({
			width: 100,
			height: 6,
			operations: [
				['write', 0, 0, header],
				['write', 0, 1, verdict],
				['write', 0, 2, `${gauge}\n${figures}`],
				// The side pane: a second column on rows that already hold text, and a gap of unstyled spaces.
				['write', 55, 1, chalk.dim('kubelet source · as of v1.28.0')],
				['write', 2, 4, chart],
				['write', 70, 4, 'relist period 1s'],
			],
		});
		// The fast path kept the texts whole: the header as written, not a re-encoding of its cells; the chart row is
		// 19 cells wide from column 2, then spaces up to column 70.
		assert.equal(output.split('\n')[0], header);
		assert.equal(output.split('\n')[4], `  ${chart}${' '.repeat(70 - 2 - 19)}relist period 1s`);
	});

	test('transformers run on each line as ink runs them', () => {
		const numbered: Transformer = (line, index) => `${index}:${chalk.magenta(line)}`;
		assertSameAsInk({
			width: 40,
			height: 3,
			operations: [['write', 1, 0, 'first\nsecond\nthird', [numbered, (line) => line.toUpperCase()]]],
		});
	});

	test('writes inside a clip are placed whole; writes crossing it are cut as ink cuts them', () => {
		const clip = {x1: 2, x2: 30, y1: 0, y2: 3};
		assertSameAsInk({
			width: 40,
			height: 5,
			operations: [['clip', clip], ['write', 2, 0, figures.slice(0, 20)], ['write', 2, 1, 'inside'], ['unclip'], ['write', 0, 4, 'after']],
		});
		// Crossing the right edge, the left edge, the bottom: ink's grid does the cutting.
		for (const write of [
			['write', 10, 0, figures],
			['write', 0, 1, header],
			['write', 3, 2, 'a\nb\nc\nd'],
		] satisfies Operation[]) {
			assertSameAsInk({width: 40, height: 5, operations: [['clip', clip], write, ['unclip']]});
		}
	});

	test('frames ink must build cell by cell still come out as ink builds them', async (t) => {
		const cases: Record<string, Operation[]> = {
			'overlapping texts: the later one wins the cells it covers': [
				['write', 0, 0, chalk.bgBlue('                    ')],
				['write', 4, 0, chalk.bold('over')],
			],
			'wide glyphs': [
				['write', 0, 0, '日本語 node'],
				['write', 20, 0, 'after'],
			],
			'an emoji': [
				['write', 0, 0, '✅ ok'],
				['write', 10, 0, 'after'],
			],
			'a tab and a zero-width joiner': [['write', 0, 0, 'a\tb 👩‍💻 c']],
			'a soft hyphen': [['write', 0, 0, 'co\u00ADoperate']],
			'a hyperlink escape': [['write', 0, 0, '\u001B]8;;https://example.com\u0007link\u001B]8;;\u0007 tail']],
		};
		for (const [name, operations] of Object.entries(cases)) {
			await t.test(name, () => {
				assertSameAsInk({width: 40, height: 2, operations});
			});
		}
	});

	test('rows below the frame, empty lines and empty texts are dropped as ink drops them', () => {
		assertSameAsInk({
			width: 20,
			height: 2,
			operations: [
				['write', 0, 0, 'one\n\nthree'],
				['write', 0, 5, 'far below'],
				['write', 3, 1, ''],
			],
		});
	});
});
