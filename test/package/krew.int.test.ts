// The release as krew users get it: the standalone executables built (`npm run sea`) and the npm tarball packed,
// the manifest filled for them, its digests checked, its files rules laid out the way krew lays them out, and the
// plugin run through kubectl from the name krew links it as. The Linux amd64 executable is run with no node on
// PATH: --version, the demo in tmux, and --once against the fake API server.
import assert from 'node:assert/strict';
import {execFile, execFileSync, spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import yaml from 'js-yaml';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {npm} from '../helpers/npm.js';
import {hasTmux, startTmux} from '../helpers/tmux.js';
import {startFakeCluster, type FakeCluster} from './fake-cluster.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {version: string};
const kubectl = spawnSync('sh', ['-c', 'command -v kubectl'], {encoding: 'utf8'}).stdout.trim();
const onLinuxAmd64 = process.platform === 'linux' && process.arch === 'x64';
const baseUrl = 'https://releases.invalid/pleg-top';

type Platform = {
	selector: {matchLabels: Record<string, string>};
	uri: string;
	sha256: string;
	bin: string;
	files: Array<{from: string; to: string}>;
};
type KrewPlugin = {apiVersion: string; kind: string; metadata: {name: string}; spec: {version: string; platforms: Platform[]}};

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** krew's rule: `from` is a glob inside the archive, `to` a folder of the install (the file keeps its name). */
function layOut(platform: Platform, archive: string, into: string): string {
	const unpacked = `${into}.unpacked`;
	mkdirSync(unpacked, {recursive: true});
	execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
	for (const {from, to} of platform.files) {
		const folder = path.join(unpacked, path.dirname(from));
		const pattern = new RegExp(`^${path.basename(from).replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
		const matches = readdirSync(folder).filter((name) => pattern.test(name));
		assert.ok(matches.length > 0, `${from} matches nothing in ${path.basename(archive)}`);
		for (const name of matches) cpSync(path.join(folder, name), path.join(into, to, name), {recursive: true});
	}
	const bin = path.join(into, platform.bin);
	assert.ok(existsSync(bin), `${platform.bin} is not in the install`);
	return bin;
}

describe('the release: krew manifest and standalone executables', () => {
	let temp: TempDir;
	let release: string;
	let manifest: KrewPlugin;
	/** A PATH with kubectl only (no node), as on a machine that never installed Node.js. */
	let kubectlOnly: string;
	const platform = (labels: Record<string, string>) =>
		manifest.spec.platforms.find((entry) => Object.entries(labels).every(([key, value]) => entry.selector.matchLabels[key] === value))!;

	before(() => {
		temp = makeTempDir('pleg-top-krew-');
		release = path.join(temp.dir, 'release');
		mkdirSync(release);
		npm(['pack', '--ignore-scripts', '--pack-destination', release], root);
		execFileSync(process.execPath, [path.join(root, 'scripts', 'sea.mjs'), '--out', release], {encoding: 'utf8'});
		const text = execFileSync(
			process.execPath,
			[path.join(root, 'scripts', 'krew-manifest.mjs'), '--base-url', baseUrl, '--release-dir', release],
			{encoding: 'utf8'},
		);
		manifest = yaml.load(text) as KrewPlugin;
		kubectlOnly = path.join(temp.dir, 'kubectl-only');
		mkdirSync(kubectlOnly);
		if (kubectl) symlinkSync(kubectl, path.join(kubectlOnly, 'kubectl'));
	});

	after(() => temp.remove());

	test('names the plugin, the version, and each platform with its archive and sha256', () => {
		assert.equal(manifest.apiVersion, 'krew.googlecontainertools.github.com/v1alpha2');
		assert.equal(manifest.kind, 'Plugin');
		assert.equal(manifest.metadata.name, 'pleg-top');
		assert.equal(manifest.spec.version, `v${version}`);
		assert.deepEqual(
			manifest.spec.platforms.map((entry) => [entry.selector.matchLabels, entry.uri, entry.sha256]),
			[
				[{os: 'linux', arch: 'amd64'}, `${baseUrl}/pleg-top-linux-amd64.tar.gz`, sha256(path.join(release, 'pleg-top-linux-amd64.tar.gz'))],
				[{os: 'linux', arch: 'arm64'}, `${baseUrl}/pleg-top-linux-arm64.tar.gz`, sha256(path.join(release, 'pleg-top-linux-arm64.tar.gz'))],
				[{os: 'darwin'}, `${baseUrl}/pleg-top-${version}.tgz`, sha256(path.join(release, `pleg-top-${version}.tgz`))],
			],
		);
	});

	test('the arm64 executable is an aarch64 ELF, the amd64 one an x86-64 ELF', () => {
		// e_machine, bytes 18-19 of an ELF header: 0x3e x86-64, 0xb7 AArch64.
		const machine = (file: string) => readFileSync(path.join(release, file)).readUInt16LE(18);
		assert.equal(machine('pleg-top-linux-amd64'), 0x3e);
		assert.equal(machine('pleg-top-linux-arm64'), 0xb7);
	});

	describe('linux amd64, with no node on PATH', {skip: !onLinuxAmd64 && 'not a linux amd64 machine'}, () => {
		let bin: string;
		let cluster: FakeCluster;
		const env = () => ({PATH: kubectlOnly, HOME: temp.dir});

		before(async () => {
			bin = layOut(platform({os: 'linux', arch: 'amd64'}), path.join(release, 'pleg-top-linux-amd64.tar.gz'), path.join(temp.dir, 'amd64'));
			cluster = await startFakeCluster(['worker-1']);
		});

		after(async () => cluster?.close());

		test('there is no node to find, and --version answers', () => {
			assert.notEqual(spawnSync('/bin/sh', ['-c', 'command -v node'], {env: env()}).status, 0);
			const result = spawnSync(bin, ['--version'], {encoding: 'utf8', env: env()});
			assert.equal(result.status, 0, result.stderr);
			assert.equal(result.stdout, `${version}\n`);
			assert.equal(result.stderr, '', 'no warning on stderr');
		});

		test('--once -o json reads worker-1 through the fake API server', async () => {
			// Not spawnSync: the fake API server answers from this process's event loop.
			const {stdout} = await promisify(execFile)(bin, ['worker-1', '--once', '-o', 'json', '--window', '2s'], {
				encoding: 'utf8',
				env: {...env(), KUBECONFIG: cluster.kubeconfig},
				timeout: 60_000,
			});
			const report = JSON.parse(stdout) as {node: string; healthy: boolean; relist: {count: number}};
			assert.equal(report.node, 'worker-1');
			assert.equal(report.healthy, true);
			assert.ok(report.relist.count > 0);
			assert.ok(cluster.api.requests.some((request) => request.path === '/api/v1/nodes/worker-1/proxy/metrics'));
		});

		test('the demo in tmux: the live screen, and q ends it with 0', {skip: !hasTmux && 'tmux is not installed'}, async () => {
			const session = startTmux(`${bin} --demo`, {columns: 100, rows: 30, env: env()});
			try {
				await session.waitFor(/PLEG is healthy/, 30_000);
				assert.match(session.screen(), /demo-node/);
				session.keys('q');
				assert.equal(await session.waitForExit(30_000), 0);
			} finally {
				session.kill();
			}
		});

		test("kubectl finds it under krew's link name", {skip: !kubectl && 'kubectl is not installed'}, () => {
			const krewBin = path.join(temp.dir, 'krew-bin');
			mkdirSync(krewBin);
			symlinkSync(bin, path.join(krewBin, 'kubectl-pleg_top'));
			const viaKubectl = spawnSync('kubectl', ['pleg-top', '--version'], {
				encoding: 'utf8',
				env: {...env(), PATH: `${krewBin}${path.delimiter}${kubectlOnly}`},
			});
			assert.equal(viaKubectl.status, 0, viaKubectl.stderr);
			assert.equal(viaKubectl.stdout.trim(), version);
		});
	});

	test("darwin's tarball laid out by its files rules runs with node", () => {
		const bin = layOut(platform({os: 'darwin'}), path.join(release, `pleg-top-${version}.tgz`), path.join(temp.dir, 'darwin'));
		assert.equal(execFileSync(process.execPath, [bin, '--version'], {encoding: 'utf8'}).trim(), version);
	});
});
