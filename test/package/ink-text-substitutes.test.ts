// Two stand-ins the bundle puts where ink draws a <Text> (scripts/build.mjs): the sanitizer must return exactly
// what ink's sanitize-ansi returns for every text, and the per-frame width exactly what widest-line returns.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Chalk} from 'chalk';
import realWidestLine from 'widest-line';
import inkSanitizeAnsi from '../../node_modules/ink/build/sanitize-ansi.js';
import sanitizeAnsi from '../../source/substitutes/ink-sanitize-ansi.js';
import widestLine from '../../source/substitutes/ink-widest-line.js';

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

describe('ink text substitutes', () => {
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
});
