// The function-length rule of eslint.config.js, as lint applies it: no function in source/ over 80 lines, its comments
// and blank lines counted as the reader sees them. Probes are linted as text at a path (no file is written).
import assert from 'node:assert/strict';
import path from 'node:path';
import {test} from 'node:test';
import {ESLint} from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve('.');
// A probe is in no tsconfig (it is not on disk), so it is linted without the typed rules; this rule needs no types.
const eslint = new ESLint({cwd: root, overrideConfig: tseslint.configs.disableTypeChecked});

/** A function of `lines` lines, braces included: statements, a comment and a blank line among them. */
function probe(lines: number): string {
	const body = Array.from({length: lines - 4}, (_, index) =>
		index === 0 ? '\t// a comment counts' : index === 1 ? '' : `\ttotal += ${index};`,
	);
	return ['export function probe(): number {', '\tlet total = 0;', ...body, '\treturn total;', '}', ''].join('\n');
}

async function tooLong(file: string, lines: number): Promise<string | null> {
	const [result] = await eslint.lintText(probe(lines), {filePath: path.join(root, file)});
	return result!.messages.find((message) => message.ruleId === 'max-lines-per-function')?.message ?? null;
}

test('a function in source/ of 81 lines, comment and blank line included, is refused; one of 80 passes', async () => {
	assert.match((await tooLong('source/domain/probe.ts', 81))!, /too many lines \(81\)\. Maximum allowed is 80/);
	assert.match((await tooLong('source/screen/panes/probe.ts', 81))!, /Maximum allowed is 80/);
	assert.equal(await tooLong('source/domain/probe.ts', 80), null);
});

test('tests may hold longer functions (a describe block holds its tests)', async () => {
	assert.equal(await tooLong('test/domain/probe.test.ts', 200), null);
});
