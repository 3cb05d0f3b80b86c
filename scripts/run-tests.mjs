// Runs the test suite with node's test runner: `node scripts/run-tests.mjs unit` (every test not named
// *.int.test.ts[x]) or `all`. The unit files run inside two processes, one a core, each importing half of them:
// a process per file paid node's start and tsx's compile of ink, React and the domain again for every file, four
// fifths of the unit suite's CPU. Integration files (the CLI, servers, tmux) keep a process each.
import {spawnSync} from 'node:child_process';
import {mkdirSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testDir = path.join(root, 'test');
const entriesDir = path.join(root, '.tmp', 'unit-entries');
const isTest = (name) => /\.test\.tsx?$/.test(name);
const isIntegration = (name) => /\.int\.test\.tsx?$/.test(name);
const processes = 2;

/** Every test file below test/, as paths relative to the root, sorted. */
export function testFiles(dir = testDir) {
	return readdirSync(dir, {withFileTypes: true, recursive: true})
		.filter((entry) => entry.isFile() && isTest(entry.name))
		.map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)))
		.sort();
}

/** The unit files dealt round-robin into `count` groups (sorted input, so each run groups them the same way). */
export function groups(files, count) {
	const out = Array.from({length: count}, () => []);
	files.forEach((file, index) => out[index % count].push(file));
	return out.filter((group) => group.length > 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const which = process.argv[2] ?? 'all';
	if (!['unit', 'all'].includes(which)) {
		console.error(`usage: node scripts/run-tests.mjs unit|all (got ${which})`);
		process.exit(2);
	}
	const files = testFiles();
	const unit = files.filter((file) => !isIntegration(file));
	rmSync(entriesDir, {recursive: true, force: true});
	mkdirSync(entriesDir, {recursive: true});
	const entries = groups(unit, processes).map((group, index) => {
		const entry = path.join(entriesDir, `unit-${index + 1}.test.ts`);
		writeFileSync(
			entry,
			group
				.map((file) => `import ${JSON.stringify(path.relative(entriesDir, path.join(root, file)).replace(/\.tsx?$/, '.js'))};`)
				.join('\n') + '\n',
		);
		return path.relative(root, entry);
	});
	const integration = which === 'all' ? files.filter(isIntegration) : [];
	const flags = ['--import', 'tsx', '--test', `--test-concurrency=${processes}`];
	const result = spawnSync(process.execPath, [...flags, ...entries, ...integration], {cwd: root, stdio: 'inherit'});
	process.exit(result.status ?? 1);
}
