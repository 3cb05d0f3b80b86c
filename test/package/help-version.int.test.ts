// `pleg-top --help` and `--version` from the built CLI. The flag list comes from the options module, so a
// flag added there without a line in the help fails here.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, test} from 'node:test';
import {flagSpec} from '../../source/cli/options.js';
import {cliPath} from '../helpers/run-cli.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}).version;

function run(args: string[]): {status: number | null; stdout: string; stderr: string} {
	return spawnSync(process.execPath, [cliPath, ...args], {
		encoding: 'utf8',
		timeout: 15_000,
		env: {PATH: process.env['PATH'] ?? '', HOME: '/nonexistent'},
	});
}

/** The help lines that document `--flag`: its own line and the deeper-indented lines that continue it. */
function helpBlock(help: string, flag: string): string {
	const lines = help.split('\n');
	const start = lines.findIndex((line) => new RegExp(`^ +(?:-\\w, )?--${flag}(?: |$)`).test(line));
	if (start === -1) return '';
	const block = [lines[start]!];
	for (const line of lines.slice(start + 1)) {
		if (!/^ {6,}\S/.test(line)) break;
		block.push(line);
	}

	return block.join('\n');
}

describe('--help', () => {
	const help = run(['--help']);

	test('exits 0 with the usage on stdout and nothing on stderr', () => {
		assert.equal(help.status, 0);
		assert.equal(help.stderr, '');
		assert.ok(help.stdout.startsWith(`pleg-top ${version} — `), help.stdout.slice(0, 80));
	});

	test('lists every flag the options module parses, with its short form and its default', () => {
		const missing: string[] = [];
		for (const [flag, spec] of Object.entries(flagSpec)) {
			const block = helpBlock(help.stdout, flag);
			const short = 'short' in spec ? `-${spec.short}, --${flag}` : `--${flag}`;
			if (!block.includes(short)) {
				missing.push(`${short} has no line`);
				continue;
			}

			// Booleans default to off; every other default is printed as "(default VALUE" or "default VALUE;".
			if ('default' in spec && spec.type === 'string' && !block.includes(`default ${spec.default}`)) {
				missing.push(`--${flag}: no "default ${spec.default}" in:\n${block}`);
			}
		}

		assert.deepEqual(missing, []);
	});

	test('gives the examples: the tmux split, --once in a script, the churn exercise', () => {
		assert.match(help.stdout, /tmux split-window/);
		assert.match(help.stdout, /--once -o json \|/);
		assert.match(help.stdout, /churn exercise/);
	});

	test('-h is --help', () => {
		assert.equal(run(['-h']).stdout, help.stdout);
	});

	test('the node as a word is in the usage, and every key of both screens is listed', () => {
		assert.match(help.stdout, /^ {2}pleg-top NODE \[options\] +live screen/m);
		assert.match(help.stdout, /^ {2}pleg-top NODE --once \[-o json\] +two scrapes/m);
		for (const key of ['q / Ctrl-C', 'p ', 'b ', 'a ', '? ', 'Enter', 'Esc'])
			assert.ok(help.stdout.includes(`  ${key}`), `no line for ${key}`);
	});

	test('run as kubectl-pleg_top (what kubectl execs for `kubectl pleg-top`), it names itself kubectl pleg-top', () => {
		const dir = mkdtempSync(join(tmpdir(), 'pleg-top-plugin-name-'));
		try {
			const plugin = join(dir, 'kubectl-pleg_top');
			symlinkSync(cliPath, plugin);
			const result = spawnSync(process.execPath, [plugin, '--help'], {
				encoding: 'utf8',
				timeout: 15_000,
				env: {PATH: process.env['PATH'] ?? '', HOME: '/nonexistent'},
			});
			assert.equal(result.status, 0, result.stderr);
			assert.ok(result.stdout.startsWith(`kubectl pleg-top ${version} — `), result.stdout.slice(0, 80));
			assert.match(result.stdout, /^ {2}kubectl pleg-top NODE \[options\] +live screen/m);
			assert.match(result.stdout, /tmux split-window -h -e KUBECONFIG="\$KUBECONFIG" 'kubectl pleg-top worker-1; read x'/);
			assert.doesNotMatch(result.stdout, /^ {2}pleg-top /m);
			const wrong = spawnSync(process.execPath, [plugin, '--bogus'], {
				encoding: 'utf8',
				timeout: 15_000,
				env: {PATH: process.env['PATH'] ?? '', HOME: '/nonexistent'},
			});
			assert.equal(wrong.status, 2);
			assert.match(wrong.stderr, /\nRun kubectl pleg-top --help for the flags\.\n$/);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('--version', () => {
	test('prints the package version alone, exit 0; -V the same', () => {
		for (const flag of ['--version', '-V']) {
			const result = run([flag]);
			assert.equal(result.status, 0);
			assert.equal(result.stdout, `${version}\n`);
			assert.equal(result.stderr, '');
		}
	});
});
