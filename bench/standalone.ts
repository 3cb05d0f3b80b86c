// `npm run bench:standalone`: the Linux amd64 standalone executable (`npm run sea`) beside `node dist/cli.js`:
// its size, the archive's, and the wall time to print --version and to draw the demo's first --once report, as
// medians of several runs. The first run after an install also writes the program files into the cache: timed apart.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, statSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {median} from './stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const executable = path.join(root, 'dist', 'release', 'pleg-top-linux-amd64');
const runs = 15;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function wallMs(command: string, args: string[], home: string): number {
	const started = process.hrtime.bigint();
	const result = spawnSync(command, args, {env: {PATH: '/nonexistent', HOME: home}, encoding: 'utf8'});
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
	return Number(process.hrtime.bigint() - started) / 1e6;
}

const home = mkdtempSync(path.join(os.tmpdir(), 'pleg-top-bench-standalone-'));
try {
	const firstRun = wallMs(executable, ['--version'], home);
	const rows = [
		['--version', ['--version']],
		['--help', ['--help']],
	] as const;
	console.log(`standalone executable ${mib(statSync(executable).size)}, archive ${mib(statSync(`${executable}.tar.gz`).size)}`);
	console.log(`dist/ as npm installs it: ${mib(statSync(path.join(root, 'dist', 'cli.js')).size)} for cli.js, plus node`);
	console.log(`first run (writes the program files into the cache): ${firstRun.toFixed(0)} ms`);
	for (const [label, args] of rows) {
		const standalone = median(Array.from({length: runs}, () => wallMs(executable, [...args], home)));
		const viaNode = median(Array.from({length: runs}, () => wallMs(process.execPath, [path.join(root, 'dist', 'cli.js'), ...args], home)));
		console.log(`${label}: standalone ${standalone.toFixed(0)} ms, node dist/cli.js ${viaNode.toFixed(0)} ms (median of ${runs})`);
	}
} finally {
	rmSync(home, {recursive: true, force: true});
}
