// Builds the one file pleg-top ships: dist/cli.js, an ES module bundle of source/main.ts and everything it
// imports. Run as `npm run build`. Changes to dependencies are patches under patches/ (applied by patch-package when
// `npm ci` or `npm install` runs `prepare`), so the bundle takes every package as installed.
import {mkdirSync, readdirSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shippedEntry = path.join(root, 'source', 'main.ts');

/** The esbuild options of the shipped bundle; tests and benches bundle their own entry points with the same ones. */
export function bundleOptions({entry = shippedEntry, outfile = path.join(root, 'dist', 'cli.js')} = {}) {
	return {
		entryPoints: [entry],
		// Where package names and `alias` resolve from, whichever directory the build is run in.
		absWorkingDir: root,
		outfile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		// React's development build costs several times the CPU per frame: the bundle is always production.
		define: {'process.env.NODE_ENV': '"production"'},
		// Some bundled CommonJS modules call require(): give the ES module one.
		banner: {js: "import {createRequire as __plegTopRequire} from 'node:module';\nconst require = __plegTopRequire(import.meta.url);"},
		// ink imports devtools.js (and through it react-devtools-core, not installed) only under DEV=true. Left out,
		// the import fails there and ink prints its own hint; bundled, react-devtools-core would be needed at start.
		external: ['./devtools.js'],
		// Of client-node pleg-top takes only KubeConfig: its module, not the index, which also loads the generated API.
		alias: {'@kubernetes/client-node': '@kubernetes/client-node/dist/config.js'},
		legalComments: 'none',
		logLevel: 'warning',
	};
}

/**
 * The bundle with every character outside ASCII written as a \\u escape. esbuild escapes them in strings but not in
 * comments or regular expressions, and one such character makes V8 hold the whole source in two bytes per
 * character for as long as pleg-top runs. In a comment the escape is text; in a regular expression it matches the
 * same character.
 */
export function asciiOnly(code) {
	return code.replace(/[^\0-\x7F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const options = bundleOptions();
	const dist = path.dirname(options.outfile);
	mkdirSync(dist, {recursive: true});
	const {outputFiles} = await build({...options, write: false});
	// Each file written aside and renamed over the old one: a pleg-top started meanwhile (a test, a tmux pane) reads
	// the old bundle or the new one, never a missing or half-written file.
	for (const file of outputFiles) {
		const aside = `${file.path}.${process.pid}.tmp`;
		writeFileSync(aside, asciiOnly(file.text), {mode: 0o755});
		renameSync(aside, file.path);
	}

	// What an older build left beside it goes.
	const built = new Set(outputFiles.map((file) => path.basename(file.path)));
	for (const name of readdirSync(dist)) if (!built.has(name)) rmSync(path.join(dist, name), {recursive: true, force: true});
}
