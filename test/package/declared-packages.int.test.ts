// Every package a file of the repository imports by name is declared in package.json, none reached by hoisting
// alone; and the packages patches/ changes are pinned, so a new release is taken on purpose and its patches revisited.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('declared packages', () => {
	test('every package source/, scripts/ and test/ import by name is declared in package.json, none reached by hoisting alone', () => {
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {devDependencies: Record<string, string>};
		const imported = new Set<string>();
		const files = spawnSync('git', ['ls-files', 'source', 'scripts', 'test', 'bench'], {cwd: root, encoding: 'utf8'}).stdout.split('\n');
		for (const file of files.filter((name) => /\.(?:ts|tsx|mjs)$/.test(name))) {
			const text = readFileSync(path.join(root, file), 'utf8');
			for (const [, fromClause, dynamic] of text.matchAll(
				/^(?:import|export)\s[^;]*?from\s+'([^'.][^']*)'|\bawait import\('([^'.][^']*)'\)/gm,
			)) {
				const specifier = fromClause ?? dynamic;
				if (specifier === undefined || specifier.startsWith('node:')) continue;
				imported.add(/^@[^/]+\/[^/]+|^[^/]+/.exec(specifier)?.[0] ?? specifier);
			}
		}
		const undeclared = [...imported].filter((name) => !(name in manifest.devDependencies)).sort();
		assert.deepEqual(undeclared, []);
		// The patched frameworks are pinned (patches/ names their versions): a new release is taken on purpose.
		assert.equal(manifest.devDependencies.ink, '6.8.0');
		assert.equal(manifest.devDependencies['@kubernetes/client-node'], '1.4.0');
	});
});
