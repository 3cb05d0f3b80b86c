// scripts/check-cycles.mjs, which `npm run lint` runs: modules that import each other, type-only imports included.
import assert from 'node:assert/strict';
import path from 'node:path';
import {after, test} from 'node:test';
import {makeTempDir} from '../helpers/kubeconfig-files.js';

type Checker = {importGraph(dir: string): Map<string, string[]>; cycles(graph: Map<string, string[]>): string[][]};
const checker = (await import(path.resolve('scripts', 'check-cycles.mjs'))) as Checker;
const temp = makeTempDir('pleg-top-cycles-');
after(() => temp.remove());

test('a cycle through a type-only import is found, with every module in it; a chain is not', () => {
	temp.write('a/one.ts', "import type {Two} from '../b/two.js';\nexport type One = Two;\n");
	temp.write('b/two.ts', "import {three} from './three.js';\nexport type Two = number;\nexport const two = three;\n");
	temp.write('b/three.ts', "export {one} from '../a/one-value.js';\nimport type {One} from '../a/one.js';\nexport const three: One = 3;\n");
	temp.write('a/one-value.ts', 'export const one = 1;\n');
	temp.write('c/leaf.ts', "import {one} from '../a/one-value.js';\nexport const leaf = one;\n");
	const found = checker.cycles(checker.importGraph(temp.dir)).map((group) => group.map((file) => path.relative(temp.dir, file)));
	assert.deepEqual(found, [['a/one.ts', 'b/three.ts', 'b/two.ts']]);
});

test('source/ has none (what lint checks)', () => {
	assert.deepEqual(checker.cycles(checker.importGraph(path.resolve('source'))), []);
});
