// `npm run bench:profile`: where pleg-top's CPU goes while it draws the live screen. Runs the built CLI in a
// 120×40 tmux pane against the bench server (as the CPU-per-tick row does) under `--cpu-prof`, then prints the
// self time per package and the heaviest functions. Flags: --ticks N (default 600), --interval MS (default 100), --columns,
// --rows, --cli PATH.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {benchNode, startBenchServer} from './bench-server.js';
import {cliPath} from '../test/helpers/run-cli.js';
import {threadSplitCpuMs} from './proc.js';
import {startLiveCli, until, useCli} from './tmux-cli.js';

type ProfileNode = {id: number; callFrame: {functionName: string; url: string; lineNumber: number}; children?: number[]};
type Profile = {nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]};

const {values} = parseArgs({
	options: {
		ticks: {type: 'string', default: '600'},
		columns: {type: 'string', default: '120'},
		rows: {type: 'string', default: '40'},
		cli: {type: 'string'},
		top: {type: 'string', default: '25'},
		interval: {type: 'string', default: '100'},
	},
});
if (values.cli) useCli(path.resolve(values.cli));

/** esbuild marks where each bundled module starts with a `// path` line: the module a bundle line came from. */
function bundleModules(file: string): (line: number) => string {
	const starts: {line: number; module: string}[] = [];
	fs.readFileSync(file, 'utf8')
		.split('\n')
		.forEach((text, index) => {
			const match = /^\/\/ ((?:source|node_modules)\/\S+)$/.exec(text);
			if (match) starts.push({line: index, module: match[1]!.replace(/^node_modules\//, '')});
		});
	return (line) => starts.findLast((start) => start.line <= line)?.module ?? path.basename(file);
}

const moduleOf = bundleModules(values.cli ? path.resolve(values.cli) : cliPath);

/** Which part of the program a frame belongs to: the bundled module, a node: builtin, or V8's own buckets. */
function owner(url: string, functionName: string, line: number): string {
	if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
	if (url.startsWith('node:')) return url;
	if (url.endsWith('/cli.js')) return moduleOf(line);
	return path.basename(url);
}

function summarize(profile: Profile, top: number): string {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfUs = new Map<number, number>();
	profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
	const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
	const byFunction = new Map<string, number>();
	const byOwner = new Map<string, number>();
	for (const [id, us] of selfUs) {
		const frame = byId.get(id)!.callFrame;
		const key = `${frame.functionName || '(anonymous)'} ${owner(frame.url, frame.functionName, frame.lineNumber)}:${frame.lineNumber + 1}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + us);
		const who = owner(frame.url, frame.functionName, frame.lineNumber);
		byOwner.set(who, (byOwner.get(who) ?? 0) + us);
	}

	const rows = (map: Map<string, number>) =>
		[...map]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(([name, us]) => `  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`)
			.join('\n');
	return `self time ${(total / 1000).toFixed(0)} ms\nby file:\n${rows(byOwner)}\nby function:\n${rows(byFunction)}\n`;
}

const intervalMs = Number(values.interval);
// One new relist per tick, as a real kubelet gives a 1 s scrape.
const bench = await startBenchServer({bytes: 250_000, speed: 1000 / intervalMs});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-profile-'));
try {
	const {session, pid} = startLiveCli(
		['--node', benchNode, '--interval', `${intervalMs}ms`],
		bench.env,
		{columns: Number(values.columns), rows: Number(values.rows)},
		['--cpu-prof', `--cpu-prof-dir=${dir}`],
	);
	const ticks = Number(values.ticks);
	// Threads' CPU over the second half of the run (start-up excluded): the profile sees only the main thread's
	// JavaScript, not gunzip in libuv's pool, V8's GC helpers or the kernel.
	await until(() => bench.metricsRequests() >= ticks / 2, ticks * intervalMs * 5 + 20_000, `${ticks / 2} ticks`);
	const before = {threads: threadSplitCpuMs(pid), tick: bench.metricsRequests()};
	await until(() => bench.metricsRequests() >= ticks, ticks * intervalMs * 5 + 20_000, `${ticks} ticks`);
	const after = {threads: threadSplitCpuMs(pid), tick: bench.metricsRequests()};
	session.keys('q');
	await until(() => fs.readdirSync(dir).some((file) => file.endsWith('.cpuprofile')), 20_000, 'the profile');
	await new Promise((resolve) => setTimeout(resolve, 500));
	session.kill();
	const file = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
	const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
	process.stdout.write(`${ticks} ticks, profile ${path.join(dir, file)}\n${summarize(profile, Number(values.top))}`);
	const perTick = (ms: number) => (ms / (after.tick - before.tick)).toFixed(2);
	process.stdout.write(
		`CPU per tick over the last ${after.tick - before.tick} ticks: main thread ${perTick(after.threads.main - before.threads.main)} ms, ` +
			`other threads ${perTick(after.threads.others - before.threads.others)} ms (the profiler's own thread included)\n`,
	);
} finally {
	await bench.close();
}
