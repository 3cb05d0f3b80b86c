// The build fails when a substitution did not take, not only when its guard fires: ink's renderer reaching its
// Output through a re-export once shipped the original module with `npm run build` exiting 0.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {build, type Plugin} from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
type Entry = {name: string; importer: string | string[]; specifier: string | string[]};
type BuildModule = {
	bundleOptions(options: {entry?: string; outfile?: string}): Parameters<typeof build>[0];
	substitute(entries?: Entry[]): Plugin;
	substitutions: Entry[];
	untakenSwaps(entries: Entry[], applied: Map<string, Set<string>>): string | null;
};
const buildModule = (await import(path.join(root, 'scripts', 'build.mjs'))) as BuildModule;

/** ink's renderer.js as an upgrade might ship it: Output imported through a module that re-exports output.js. */
const rendererThroughReExport: Plugin = {
	name: 'renderer-through-re-export',
	setup(bundle) {
		bundle.onLoad({filter: /[/\\]ink[/\\]build[/\\]renderer\.js$/}, (args) => {
			const text = readFileSync(args.path, 'utf8');
			assert.ok(text.includes("from './output.js'"), 'the probe rewrites the import ink 6 has');
			return {
				contents: text.replace("from './output.js'", "from './output-re-export.js'"),
				loader: 'js',
				resolveDir: path.dirname(args.path),
			};
		});
		bundle.onResolve({filter: /^\.\/output-re-export\.js$/}, (args) => ({
			path: path.join(args.resolveDir, 'output-re-export.js'),
			namespace: 're-export',
		}));
		bundle.onLoad({filter: /.*/, namespace: 're-export'}, (args) => ({
			contents: "export {default} from './output.js';",
			loader: 'js',
			resolveDir: path.dirname(args.path),
		}));
	},
};

async function bundleWith(plugins: Plugin[]): Promise<string> {
	const options = buildModule.bundleOptions({outfile: path.join(root, '.tmp', 'substitutions-probe.js')});
	try {
		await build({...options, plugins, write: false, logLevel: 'silent', absWorkingDir: root});
		return 'built';
	} catch (error) {
		return (error as Error).message;
	}
}

describe('build substitutions', () => {
	test('the shipped build swaps every pair each substitution names', async () => {
		assert.equal(await bundleWith([buildModule.substitute()]), 'built');
	});

	test('a substitution whose importer reaches the module through a re-export fails the build and is named', async () => {
		const message = await bundleWith([rendererThroughReExport, buildModule.substitute()]);
		assert.match(
			message,
			/substitutions that did not apply: "ink's frame assembly without a cell grid for plain rows" never swapped \/ink\/build\/renderer\.js/,
		);
		// every other substitution still took
		assert.equal(message.match(/never swapped/g)?.length, 1);
	});

	test('untakenSwaps names each importer and specifier that no import resolved through', () => {
		const entries: Entry[] = [
			{name: 'one pair', importer: '/a/x.js', specifier: './y.js'},
			{name: 'lists', importer: ['/a/p.js', '/a/q.js'], specifier: ['s', 't']},
		];
		const applied = new Map([
			['one pair', new Set(['/a/x.js ./y.js'])],
			['lists', new Set(['/a/p.js s'])],
		]);
		assert.equal(
			buildModule.untakenSwaps(entries, applied),
			'substitutions that did not apply: "lists" never swapped /a/q.js, t; revisit scripts/substitutions.mjs',
		);
		applied.get('lists')?.add('/a/q.js t');
		assert.equal(buildModule.untakenSwaps(entries, applied), null);
	});
});

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
		// the substituted and bundled frameworks are pinned: a new release must be taken on purpose, substitutions revisited
		assert.equal(manifest.devDependencies.ink, '6.8.0');
		assert.equal(manifest.devDependencies['@kubernetes/client-node'], '1.4.0');
	});
});
