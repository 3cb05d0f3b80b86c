// Builds the one file pleg-top ships: dist/cli.js, an ES module bundle of source/main.ts and everything it
// imports. Run as `npm run build`. Every module that pleg-top replaces in a dependency is one named entry of
// `substitutions` in scripts/substitutions.mjs (the unit tests resolve modules by the same list), with why, the
// upstream report, and when to drop it; nothing is patched at run time.
import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {substitutesDir, substitutions, swapFor, untakenSwaps} from './substitutions.mjs';

export {namesTaken, onDemandNames, substitutions, untakenSwaps} from './substitutions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The esbuild plugin that applies `entries` (the shipped bundle: `substitutions`). With `requireAll` (the shipped
 * bundle) it fails the build when one did not take; a test's probe that bundles a few modules imports only some.
 */
export function substitute(entries = substitutions, {requireAll = true} = {}) {
	return {
		name: 'pleg-top-substitutions',
		setup(bundle) {
			// entry name -> the "importer-ending specifier" pairs swapped in this build
			const applied = new Map();
			bundle.onStart(() => applied.clear());
			for (const entry of entries) {
				const specifiers = [entry.specifier].flat().map((specifier) => specifier.replaceAll('.', '\\.').replaceAll('/', '\\/'));
				const filter = new RegExp(`^(?:${specifiers.join('|')})$`);
				bundle.onResolve({filter}, (args) => {
					const swap = swapFor([entry], args.importer, args.path);
					if (swap === undefined) return undefined;
					if (!applied.has(entry.name)) applied.set(entry.name, new Set());
					applied.get(entry.name).add(swap.pair);
					return {path: swap.path};
				});
			}
			bundle.onEnd((result) => {
				if (!requireAll || result.errors.length > 0) return undefined;
				const problem = untakenSwaps(entries, applied);
				return problem ? {errors: [{text: problem}]} : undefined;
			});
		},
	};
}

const shippedEntry = path.join(root, 'source', 'main.ts');

/**
 * The esbuild options of the shipped bundle; tests bundle their own entry points with the same ones (every swap is
 * required only of the shipped entry). `entries`: another list of substitutions, for a bench weighing what one buys.
 */
export function bundleOptions({entry = shippedEntry, outfile = path.join(root, 'dist', 'cli.js'), entries = substitutions} = {}) {
	return {
		entryPoints: [entry],
		outfile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		// React's development build costs several times the CPU per frame: the bundle is always production.
		define: {'process.env.NODE_ENV': '"production"'},
		// Some bundled CommonJS modules call require(): give the ES module one.
		banner: {js: "import {createRequire as __plegTopRequire} from 'node:module';\nconst require = __plegTopRequire(import.meta.url);"},
		plugins: [substitute(entries, {requireAll: entry === shippedEntry})],
		// Read on first use by source/substitutes/client-node-on-demand.ts, from beside the bundle (extrasOptions).
		external: ['./client-node-extras.cjs'],
		legalComments: 'none',
		logLevel: 'warning',
	};
}

/** dist/client-node-extras.cjs: client-node's rarely used dependencies, in a file of their own (see substitutions). */
export function extrasOptions() {
	return {
		entryPoints: [path.join(substitutesDir, 'client-node-extras.ts')],
		outfile: path.join(root, 'dist', 'client-node-extras.cjs'),
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		define: {'process.env.NODE_ENV': '"production"'},
		legalComments: 'none',
		logLevel: 'warning',
	};
}

/**
 * The bundle with every character outside ASCII written as a \\u escape. esbuild escapes them in strings but not in
 * comments or regular expressions (µs, “…”), and one such character makes V8 hold the whole 2.2 MB source in two
 * bytes per character: 2.2 MB more resident memory for as long as pleg-top runs. In a comment the escape is
 * text; in a regular expression it matches the same character.
 */
export function asciiOnly(code) {
	return code.replace(/[^\0-\x7F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	rmSync(path.join(root, 'dist'), {recursive: true, force: true});
	const options = bundleOptions();
	mkdirSync(path.dirname(options.outfile), {recursive: true});
	for (const {outputFiles, mode} of [
		{...(await build({...options, write: false})), mode: 0o755},
		{...(await build({...extrasOptions(), write: false})), mode: 0o644},
	]) {
		for (const file of outputFiles) writeFileSync(file.path, asciiOnly(file.text), {mode});
	}
}
