// The npm package as a user gets it: `npm pack`, then install the tarball into an empty folder with no
// network (dependencies come from the npm cache that `npm ci` filled) and run both of its bins.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {npm} from '../helpers/npm.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	devDependencies: Record<string, string>;
	bin: Record<string, string>;
};

type PackEntry = {filename: string; integrity: string; files: Array<{path: string}>};
type LockEntry = {version?: string; resolved?: string; integrity?: string; dev?: boolean; devOptional?: boolean; [key: string]: unknown};

/**
 * A lockfile for a folder that depends only on the tarball: the tarball's entry plus the project's own
 * locked production packages (same versions, URLs and integrity). With it `npm ci --offline` needs
 * nothing but the tarballs `npm ci` already put in the cache — no registry metadata.
 */
function installLock(tarball: string, integrity: string, registry: string): object {
	const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {packages: Record<string, LockEntry>};
	const production = Object.entries(lock.packages)
		.filter(([key, entry]) => key !== '' && !entry.dev && !entry.devOptional)
		// The project's lock leaves `resolved` out; without it npm would ask the registry where each tarball is.
		// With it (and the integrity) npm takes the tarball from the cache by its digest.
		.map(([key, entry]): [string, LockEntry] => [key, {resolved: entry.resolved ?? tarballUrl(registry, key, entry.version!), ...entry}]);
	return {
		name: 'install-check',
		lockfileVersion: 3,
		requires: true,
		packages: {
			'': {name: 'install-check', dependencies: {[manifest.name]: `file:${tarball}`}},
			[`node_modules/${manifest.name}`]: {
				version: manifest.version,
				resolved: `file:${tarball}`,
				integrity,
				license: 'MIT',
				dependencies: manifest.dependencies,
				bin: manifest.bin,
				engines: {node: '>=20.16'},
			},
			...Object.fromEntries(production),
		},
	};
}

/** Where the registry keeps a package's tarball: REGISTRY/NAME/-/BASENAME-VERSION.tgz. */
function tarballUrl(registry: string, lockKey: string, version: string): string {
	const name = lockKey.slice(lockKey.lastIndexOf('node_modules/') + 'node_modules/'.length);
	return `${registry.replace(/\/?$/, '/')}${name}/-/${name.split('/').at(-1)!}-${version}.tgz`;
}

describe('npm package', () => {
	let temp: TempDir;
	let packed: PackEntry;
	let app: string;

	before(() => {
		temp = makeTempDir('pleg-top-pack-');
		// --ignore-scripts: `npm test` has just built dist/; rebuilding it here would race the other test files reading it.
		packed = (JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', temp.dir], root)) as PackEntry[])[0]!;
		app = path.join(temp.dir, 'app');
		temp.write(
			'app/package.json',
			JSON.stringify({name: 'install-check', private: true, dependencies: {[manifest.name]: `file:../${packed.filename}`}}),
		);
		writeFileSync(
			path.join(app, 'package-lock.json'),
			JSON.stringify(installLock(`../${packed.filename}`, packed.integrity, npm(['config', 'get', 'registry'], root).trim()), null, 2),
		);
	});

	after(() => {
		temp.remove();
	});

	test('ships dist/, package.json, README.md and LICENSE only: no tests, sources, maps or fixtures', () => {
		const files = packed.files.map((file) => file.path).sort();
		const outside = files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file));
		assert.deepEqual(outside, []);
		// The bundle (scripts/build.mjs): every dependency is inside it, so a stale module cannot ship.
		assert.deepEqual(files, ['LICENSE', 'README.md', 'dist/cli.js', 'package.json']);
	});

	test('installs offline into an empty folder and runs `pleg-top --demo --once`', () => {
		npm(['ci', '--offline', '--no-audit', '--no-fund'], app);
		const bin = path.join(app, 'node_modules', '.bin');
		const result = spawnSync(path.join(bin, 'pleg-top'), ['--demo', '--once', '--window', '2s'], {
			encoding: 'utf8',
			timeout: 30_000,
			env: {PATH: process.env['PATH'] ?? '', HOME: temp.dir},
		});
		assert.equal(result.status, 0, result.stderr);
		assert.match(result.stdout, /^node +demo-node$/m);
		assert.match(result.stdout, /^verdict +PLEG is healthy$/m);
		// --window 2s: two scrapes 2 s apart, more on a loaded machine (the window is measured); the demo kubelet
		// relists about once a second, so the span holds one to three of them, depending on where it falls.
		assert.match(result.stdout, /^window +[23](\.\d)?s: [1-3] relists, mean \d+(\.\d+)?ms/m);

		const plugin = execFileSync(path.join(bin, 'kubectl-pleg_top'), ['--help'], {encoding: 'utf8'});
		// Run by the name kubectl execs for `kubectl pleg-top`, it names itself so, and its usage lines paste as shown.
		assert.match(plugin, new RegExp(`^kubectl pleg-top ${manifest.version.replaceAll('.', '\\.')} `));
		assert.match(plugin, /^ {2}kubectl pleg-top NODE \[options\] /m);
	});
});
