// When the terminal goes away under the live screen (the tmux pane killed: SIGHUP, then every read and write on the
// terminal fails with EIO), pleg-top stops drawing, still writes --summary, --plot and --record whole, and exits
// 129 (128 + SIGHUP) by itself: no "write EIO" crash, no core dump from Node restoring a terminal that is gone, no
// process left behind. The built CLI in a real terminal (tmux), under a small parent that outlives the pane to read
// the exit code.
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux} from '../helpers/tmux.js';
import {until} from '../helpers/until.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-hangup-'));
after(() => rmSync(home, {recursive: true, force: true}));

/**
 * Runs the command given after the result file in the pane's terminal, ignores the pane's hangup itself, lets go of
 * the terminal at once (so it is not caught by the same Node exit check), and writes how the command ended.
 */
const parent = `
import {spawn} from 'node:child_process';
import {closeSync, openSync, writeFileSync} from 'node:fs';
const [result, ...command] = process.argv.slice(2);
process.on('SIGHUP', () => {});
const child = spawn(command[0], command.slice(1), {stdio: 'inherit'});
for (const fd of [0, 1, 2]) closeSync(fd);
for (const flags of ['r', 'w', 'w']) openSync('/dev/null', flags);
child.on('exit', (code, signal) => writeFileSync(result, JSON.stringify({pid: child.pid, code, signal})));
`;

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

test('the tmux pane killed under the live screen: --summary, --plot and --record written whole, exit 129, no orphan', {skip}, async () => {
	const [wrapper, result, summary, plot, record] = ['parent.mjs', 'result.json', 'summary.md', 'plot.svg', 'record.jsonl'].map((name) =>
		join(home, name),
	);
	writeFileSync(wrapper!, parent);
	const command = [
		process.execPath,
		wrapper,
		result,
		process.execPath,
		cliPath,
		'--demo',
		'--summary',
		summary,
		'--plot',
		plot,
		'--record',
		record,
	];
	const session = startTmux(command.join(' '), {columns: 100, rows: 30, env: {HOME: home, TZ: 'UTC'}});
	try {
		// Two scrapes at least: the window's mean is drawn from the second.
		await session.waitFor(/^mean \d/m, 30_000);
		assert.equal(existsSync(summary!), false, 'the write-down is written at the end only');
		tmux(['kill-pane', '-t', session.name]);
		const ended = await until(() => (existsSync(result!) ? readFileSync(result!, 'utf8') : undefined), 'exit', 20_000);
		const {pid, code, signal} = JSON.parse(ended) as {pid: number; code: number | null; signal: string | null};
		assert.deepEqual({code, signal}, {code: 129, signal: null});
		assert.equal(alive(pid), false, `pleg-top (pid ${pid}) is gone`);

		const records = readFileSync(record!, 'utf8');
		assert.ok(records.endsWith('\n'));
		const lines = records
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as {node: string; at: number});
		assert.ok(lines.length >= 2, `${lines.length} records`);
		// The write-down of exactly what was recorded: the same first and last scrape, to the second.
		// The file's times carry their zone offset (the run's TZ is UTC).
		const clock = (at: number) => `${new Date(at).toISOString().slice(11, 19)}+00:00`;
		const markdown = readFileSync(summary!, 'utf8');
		assert.match(markdown, /^# PLEG write-down: demo-node, \d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d\n/);
		assert.ok(
			markdown.includes(`Measured on demo-node (kubelet v1.28.4) from ${clock(lines[0]!.at)} to ${clock(lines.at(-1)!.at)}`),
			markdown,
		);
		// Whole: its last table ends the file.
		assert.match(markdown, /\n\| threshold \/ mean \| [^\n]+ \|\n$/);
		const svg = readFileSync(plot!, 'utf8');
		assert.match(svg, /^<\?xml [^\n]+\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		assert.ok(svg.endsWith('</svg>\n'), 'the plot is whole');
	} finally {
		session.kill();
	}
});
