// What three patches change where ink draws a <Text> (patches/ink+6.8.0+00{2,5,6}*): the sanitizer must return
// exactly what ink's tokenising sanitizer returns for every text, the per-frame width (from the measure cache)
// exactly what widest-line returns, and the wrapping what ink's cli-truncate call returns for each row alone.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Chalk} from 'chalk';
import realWidestLine from 'widest-line';
import cliTruncate from 'cli-truncate';
import wrapAnsi from 'wrap-ansi';
import {inkModule} from '../helpers/ink-build.js';

type Sanitize = (text: string) => string;
const {default: sanitizeAnsi, sanitizeTokens: inkSanitizeAnsi} = await inkModule<{default: Sanitize; sanitizeTokens: Sanitize}>(
	'sanitize-ansi.js',
);
const measureText = (await inkModule<{default: (text: string) => {width: number}}>('measure-text.js')).default;
const widestLine = (text: string) => measureText(text).width;
const wrapText = (await inkModule<{default: (text: string, maxWidth: number, wrapType: string) => string}>('wrap-text.js')).default;

/** ink 6.8's wrap-text.js for one text, without its cache: what each row alone must come out as. */
function inkWrapText(text: string, maxWidth: number, wrapType: string): string {
	if (wrapType === 'wrap') return wrapAnsi(text, maxWidth, {trim: false, hard: true});
	const position = wrapType === 'truncate-middle' ? 'middle' : wrapType === 'truncate-start' ? 'start' : 'end';
	return cliTruncate(text, maxWidth, {position});
}

const chalk = new Chalk({level: 3});
const esc = '\u001B';

const texts: Record<string, string> = {
	plain: 'lifetime mean 6.5ms · since kubelet start',
	empty: '',
	'a dashboard row': `${chalk.dim('mean ')}${chalk.bold('███▇▅')} ${chalk.green('✓ last seen')} ${chalk.bold.inverse('1s')}`,
	'truecolour and 256 colours': `${chalk.rgb(10, 200, 30)('x')}${chalk.ansi256(202)('y')}`,
	'colon parameters': `${esc}[38:5:202mcolon${esc}[0m`,
	'cursor movement': `a${esc}[2Ab${esc}[10;1Hc`,
	'erase line': `row${esc}[K`,
	'private parameter': `${esc}[?25lhidden cursor${esc}[?25h`,
	'an intermediate byte': `${esc}[1 mspace`,
	'OSC hyperlink': `${esc}]8;;https://example.com${esc}\\link${esc}]8;;${esc}\\`,
	'OSC ended by BEL': `${esc}]0;title\u0007after`,
	'lone ESC at the end': `text${esc}`,
	'ESC then a letter': `${esc}cfull reset`,
	'C1 CSI': `a\u009B31mb`,
	'C1 string terminator': `a\u009Cb`,
	'SGR then a cursor move': `${chalk.red('red')}${esc}[3Ggone`,
	'ESC [ without a final byte': `x${esc}[12`,
	'Latin-1 beside C1': 'café \u0085 end',
	'wide and emoji': `${chalk.yellow('漢字')} 🚀 ${chalk.dim('✓')}`,
	'many lines': `${chalk.bold('one')}\n${chalk.dim('two')}\nthree`,
};

describe('ink text patches', () => {
	for (const [name, text] of Object.entries(texts)) {
		test(`sanitizes as ink does: ${name}`, () => {
			assert.equal(sanitizeAnsi(text), inkSanitizeAnsi(text));
		});
	}

	test('a colour-only row comes back unchanged, a cursor move does not', () => {
		const row = texts['a dashboard row']!;
		assert.equal(sanitizeAnsi(row), row);
		assert.notEqual(sanitizeAnsi(texts['cursor movement']!), texts['cursor movement']);
	});

	for (const [name, text] of Object.entries(texts)) {
		test(`measures the widest line as widest-line does: ${name}`, () => {
			// Twice: the second answer comes from the cache.
			assert.equal(widestLine(text), realWidestLine(text));
			assert.equal(widestLine(text), realWidestLine(text));
		});
	}

	const wrapTypes = ['wrap', 'truncate', 'truncate-end', 'truncate-middle', 'truncate-start'] as const;
	for (const [name, text] of Object.entries(texts)) {
		test(`wraps and truncates each row as ink does a row alone: ${name}`, () => {
			for (const wrapType of wrapTypes) {
				for (const width of [1, 4, 12, 40, 200]) {
					const expected =
						wrapType === 'wrap'
							? inkWrapText(text, width, wrapType)
							: text
									.split('\n')
									.map((row) => (realWidestLine(row) > width ? inkWrapText(row, width, wrapType) : row))
									.join('\n');
					assert.equal(wrapText(text, width, wrapType), expected, `${wrapType} at ${width}`);
				}
			}
		});
	}

	test('a row too wide is cut without cutting the rows after it', () => {
		const pane = ['verdict ✓ PLEG is healthy', 'a row much wider than the pane it is in', chalk.dim('last row')].join('\n');
		assert.deepEqual(wrapText(pane, 20, 'truncate-end').split('\n'), [
			'verdict ✓ PLEG is h…',
			'a row much wider th…',
			chalk.dim('last row'),
		]);
		// ink 6.8 cuts the whole text as one string: what the patch is for.
		assert.notEqual(inkWrapText(pane, 20, 'truncate-end'), wrapText(pane, 20, 'truncate-end'));
	});
});
