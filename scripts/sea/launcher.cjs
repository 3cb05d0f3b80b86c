'use strict';
// The main script of pleg-top's standalone executables (Node's single executable applications). Such an
// application runs one CommonJS script, and pleg-top is an ES module bundle: ink and yoga-layout use top-level
// await, which CommonJS cannot hold. So the bundle travels as assets, is written once per build into the user's
// cache (as the npm package lays it out: package.json, dist/) and is imported from there.
const {getAsset} = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {pathToFileURL} = require('node:url');
const vm = require('node:vm');

/** {version, digest, files}: written by scripts/sea.mjs; the digest names the build, so builds never mix. */
const manifest = JSON.parse(getAsset('manifest.json', 'utf8'));

function cacheRoots() {
	const home = os.homedir();
	const roots = [process.env.XDG_CACHE_HOME, home ? path.join(home, '.cache') : undefined, os.tmpdir()];
	return roots.filter((root) => typeof root === 'string' && path.isAbsolute(root));
}

/** Writes the files into a fresh folder beside `dir` and renames it into place, so a reader never sees half. */
function extractInto(dir) {
	fs.mkdirSync(path.dirname(dir), {recursive: true});
	const partial = fs.mkdtempSync(`${dir}.partial-`);
	try {
		for (const file of manifest.files) {
			fs.mkdirSync(path.join(partial, path.dirname(file)), {recursive: true});
			fs.writeFileSync(path.join(partial, file), new Uint8Array(getAsset(file)));
		}
		fs.renameSync(partial, dir);
	} catch (error) {
		fs.rmSync(partial, {recursive: true, force: true});
		// Another pleg-top started at the same moment may have put the same build there first.
		if (!fs.existsSync(path.join(dir, 'dist', 'cli.js'))) throw error;
	}
}

function extracted() {
	const failures = [];
	for (const root of cacheRoots()) {
		const dir = path.join(root, 'pleg-top', `${manifest.version}-${manifest.digest}`);
		if (fs.existsSync(path.join(dir, 'dist', 'cli.js'))) return dir;
		try {
			extractInto(dir);
			return dir;
		} catch (error) {
			failures.push(`${dir}: ${error.message}`);
		}
	}
	throw new Error(`cannot write pleg-top's program files:\n  ${failures.join('\n  ')}`);
}

/** import() from a CommonJS script of a single executable needs the main context's loader, asked for by name. */
function importModule(url) {
	const emitWarning = process.emitWarning;
	// The loader constant is experimental in Node 20 and says so on stderr at each start; pleg-top chose it.
	process.emitWarning = (warning, ...rest) =>
		String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER') ? undefined : emitWarning.call(process, warning, ...rest);
	const load = new vm.Script('(url) => import(url)', {
		importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
	}).runInThisContext();
	return load(url).finally(() => {
		process.emitWarning = emitWarning;
	});
}

try {
	importModule(pathToFileURL(path.join(extracted(), 'dist', 'cli.js')).href).catch((error) => {
		process.stderr.write(`pleg-top: ${error.message}\n`);
		process.exit(3);
	});
} catch (error) {
	process.stderr.write(`pleg-top: ${error.message}\n`);
	process.exit(3);
}
