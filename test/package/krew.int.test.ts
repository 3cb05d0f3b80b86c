// The krew manifest as krew uses it: filled for the packed tarball, its digest checked, its files rules laid out
// the way krew lays them out, and the plugin run through kubectl from the name krew links it as.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import yaml from 'js-yaml';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {npm} from '../helpers/npm.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {version: string};
const hasKubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0;

type KrewPlugin = {
	apiVersion: string;
	kind: string;
	metadata: {name: string};
	spec: {version: string; platforms: Array<{uri: string; sha256: string; bin: string; files: Array<{from: string; to: string}>}>};
};

describe('krew manifest', () => {
	let temp: TempDir;
	let tarball: string;
	let manifest: KrewPlugin;

	before(() => {
		temp = makeTempDir('pleg-top-krew-');
		npm(['run', 'build'], root);
		const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', temp.dir], root)) as Array<{
			filename: string;
		}>;
		tarball = path.join(temp.dir, packed!.filename);
		const text = execFileSync(
			process.execPath,
			[
				path.join(root, 'scripts', 'krew-manifest.mjs'),
				'--uri',
				`https://releases.invalid/pleg-top/${packed!.filename}`,
				'--tarball',
				tarball,
			],
			{encoding: 'utf8'},
		);
		manifest = yaml.load(text) as KrewPlugin;
	});

	after(() => temp.remove());

	test('names the plugin, the version and the tarball with its sha256', () => {
		assert.equal(manifest.apiVersion, 'krew.googlecontainertools.github.com/v1alpha2');
		assert.equal(manifest.kind, 'Plugin');
		assert.equal(manifest.metadata.name, 'pleg-top');
		assert.equal(manifest.spec.version, `v${version}`);
		const [platform] = manifest.spec.platforms;
		assert.equal(platform!.uri, `https://releases.invalid/pleg-top/pleg-top-${version}.tgz`);
		assert.equal(platform!.sha256, createHash('sha256').update(readFileSync(tarball)).digest('hex'));
	});

	test(
		"laid out by its files rules, the bin runs, and kubectl finds it under krew's link name",
		{skip: !hasKubectl && 'kubectl not installed'},
		() => {
			const unpacked = path.join(temp.dir, 'unpacked');
			const installed = path.join(temp.dir, 'store', 'pleg-top', 'v' + version);
			mkdirSync(unpacked, {recursive: true});
			execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
			const [platform] = manifest.spec.platforms;
			// krew's rule: `from` is a glob inside the archive, `to` a folder of the install (the file keeps its name)
			for (const {from, to} of platform!.files) {
				const folder = path.join(unpacked, path.dirname(from));
				const pattern = new RegExp(`^${path.basename(from).replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
				const matches = readdirSync(folder).filter((name) => pattern.test(name));
				assert.ok(matches.length > 0, `${from} matches nothing in the tarball`);
				for (const name of matches) cpSync(path.join(folder, name), path.join(installed, to, name), {recursive: true});
			}
			const bin = path.join(installed, platform!.bin);
			assert.ok(existsSync(bin), `${platform!.bin} is not in the install`);
			assert.equal(execFileSync(process.execPath, [bin, '--version'], {encoding: 'utf8'}).trim(), version);
			// krew links bin as kubectl-<name with - as _> in its bin folder on PATH
			const krewBin = path.join(temp.dir, 'bin');
			mkdirSync(krewBin);
			symlinkSync(bin, path.join(krewBin, 'kubectl-pleg_top'));
			const viaKubectl = spawnSync('kubectl', ['pleg-top', '--version'], {
				encoding: 'utf8',
				env: {...process.env, PATH: `${krewBin}${path.delimiter}${process.env.PATH ?? ''}`},
			});
			assert.equal(viaKubectl.status, 0, viaKubectl.stderr);
			assert.equal(viaKubectl.stdout.trim(), version);
		},
	);
});
