// The patches under patches/ are applied by `npm ci` and `npm install` (package.json `prepare` runs patch-package):
// a release of ink whose files moved under a patch must fail the install, naming the package, not ship ink as
// published without a word. Run here against a copy of ink taken back to its published text.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {cpSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {scripts: Record<string, string>};
const inkPatches = readdirSync(path.join(root, 'patches'))
	.filter((name) => name.startsWith('ink+'))
	.sort();

describe('patches/ at install', () => {
	let temp: TempDir;
	const ink = () => path.join(temp.dir, 'node_modules', 'ink');

	/** ink as published: the installed copy with its patches reversed, newest first, and patch-package's record of them gone. */
	function publishedInk(): void {
		rmSync(ink(), {recursive: true, force: true});
		cpSync(path.join(root, 'node_modules', 'ink'), ink(), {recursive: true});
		rmSync(path.join(ink(), '.patch-package.json'), {force: true});
		for (const file of [...inkPatches].reverse()) {
			execFileSync('patch', ['-R', '-p1', '-s', '-d', temp.dir, '-i', path.join(root, 'patches', file)]);
		}
	}

	/** What `npm ci` runs for the patches, in the scratch project: patch-package as package.json's `prepare` calls it. */
	function applyPatches() {
		const bin = path.join(root, 'node_modules', 'patch-package', 'index.js');
		return spawnSync(process.execPath, [bin, '--error-on-fail'], {cwd: temp.dir, encoding: 'utf8', env: {...process.env, CI: ''}});
	}

	before(() => {
		temp = makeTempDir('pleg-top-patches-');
		writeFileSync(path.join(temp.dir, 'package.json'), JSON.stringify({name: 'patch-check', private: true}));
		cpSync(path.join(root, 'patches'), path.join(temp.dir, 'patches'), {
			recursive: true,
			filter: (file) => !file.includes('@kubernetes') && !file.includes('string-width'),
		});
	});

	after(() => temp.remove());

	test('npm ci and npm install run patch-package and fail when it fails', () => {
		assert.match(manifest.scripts['prepare']!, /^patch-package --error-on-fail --error-on-warn && /);
	});

	test("every patch applies to ink as published, and ink's files then hold them", () => {
		publishedInk();
		const result = applyPatches();
		assert.equal(result.status, 0, result.stdout + result.stderr);
		assert.ok(readFileSync(path.join(ink(), 'build', 'output.js'), 'utf8').includes('class GridOutput'));
	});

	test('a patch that no longer applies fails the install, naming the package and the patch', () => {
		publishedInk();
		// As a new release might: the line the frame-assembly patch changes is written differently.
		const output = path.join(ink(), 'build', 'output.js');
		writeFileSync(output, readFileSync(output, 'utf8').replace('export default class Output {', 'class Output {\n    static kind = 1;'));
		const result = applyPatches();
		assert.notEqual(result.status, 0);
		const said = result.stdout + result.stderr;
		assert.match(said, /Failed to apply patch.*\bink\b/i);
		assert.match(said, /frame-without-cell-grid/);
	});
});
