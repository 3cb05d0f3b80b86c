// Every pleg-top command the README and docs/ show (its ```sh lines and its inline `code`, through npx, kubectl, tmux or a
// pipe) run by the built CLI as written, in README order, against stand-ins for what it names: worker-1 (and the
// NODE / N placeholders) on the fake API server (KUBECONFIG), the --kubelet-url host on a fake kubelet, the
// --prometheus URL on a loopback query API that answers an empty vector, TOKEN and CA.crt as files in the folder
// it runs in. A line passes when it gets to work: it reads metrics from its source (a 200), a JSON line is written, its
// --record file grows by two scrapes, a lab begins its first phase, or it exits 0 (--once, --help). A lab line is
// answered yes (--yes), as the person at the terminal would answer its question. A usage error (exit 2) or any other exit
// before that fails it. Stdout is a pipe, so a live-screen line runs as JSON lines: the flags are read the same way.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {testTls} from '../helpers/fake-api-server.js';
import {startFakeKubelet, type FakeKubelet} from '../helpers/fake-kubelet.js';
import {createFakeLabCluster, type FakeLabCluster} from '../helpers/fake-lab-cluster.js';
import {cliPath} from '../helpers/run-cli.js';
import {until} from '../helpers/until.js';
import {fakeClusterToken, startFakeCluster, type FakeCluster} from './fake-cluster.js';
import {documentation, inlineSpans, shellBlocks, simpleCommands} from './readme-commands.js';

/** One pleg-top command of the README: the line it is on and the words after `pleg-top`. */
type Example = {line: string; args: string[]};

/** The README's command lines, in order: each ```sh line, then, per paragraph, its `code` spans. */
function commandLines(text: string): string[] {
	const lines: string[] = [];
	// Blocks and prose in the order they appear.
	for (const part of text.split(/^( *```sh\n[\s\S]*?^ *```)$/m)) {
		if (part.trimStart().startsWith('```sh')) lines.push(...shellBlocks(part.trim() + '\n').flat());
		else lines.push(...inlineSpans(part));
	}

	return lines;
}

/** A `[--node N]` in a synopsis: the line once with it and once without. */
function optionalParts(line: string): string[] {
	const match = /\[([^\]]+)\]/.exec(line);
	if (!match) return [line];
	return [...optionalParts(line.replace(match[0], match[1]!)), ...optionalParts(line.replace(match[0], '').replace(/ {2,}/g, ' ').trim())];
}

/** The pleg-top commands in a line: run bare, through npx or kubectl, or as a tmux pane's command. */
function plegTopCommands(line: string): string[][] {
	const found: string[][] = [];
	let commands: string[][];
	try {
		commands = simpleCommands(line);
	} catch {
		return found;
	}

	for (let words of commands) {
		if (words[0] === 'npx') words = words.slice(1);
		if (words[0] === 'kubectl' && words[1] === 'pleg-top') words = words.slice(1);
		if (words[0] === 'tmux' && words[1] === 'split-window') {
			found.push(...plegTopCommands(words.at(-1)!));
		} else if (words[0] === 'pleg-top') {
			found.push(words.slice(1));
		}
	}

	return found;
}

function readmeExamples(text: string): Example[] {
	const examples = new Map<string, Example>();
	for (const line of commandLines(text)) {
		for (const variant of optionalParts(line)) {
			for (const args of plegTopCommands(variant)) {
				const key = args.join(' ');
				if (!examples.has(key)) examples.set(key, {line: variant, args});
			}
		}
	}

	return [...examples.values()];
}

/** A loopback Prometheus query API that answers every query with an empty vector and counts the queries. */
async function startQueryApi(): Promise<{url: string; requests: string[]; close(): Promise<void>}> {
	const requests: string[] = [];
	const sockets = new Set<net.Socket>();
	const server = http.createServer((request, response) => {
		requests.push(request.url ?? '');
		response.writeHead(200, {'Content-Type': 'application/json'});
		response.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result: []}}));
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
		requests,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const text = documentation();
const examples = readmeExamples(text);

describe("the README's pleg-top commands, run as written", () => {
	let cluster: FakeCluster;
	let lab: FakeLabCluster | undefined;
	let kubelet: FakeKubelet;
	let queryApi: Awaited<ReturnType<typeof startQueryApi>>;
	let folder: string;

	before(async () => {
		// The nodes the README's lines name: one pool's node for `-l pool=gpu`, three for `pleg-top worker-1 worker-2 worker-3`, worker-03.
		lab = createFakeLabCluster({node: 'worker-1', podStepMs: 50, namespaceGoneMs: 50});
		cluster = await startFakeCluster([{name: 'worker-1', labels: {pool: 'gpu'}}, 'worker-2', 'worker-3', 'worker-03'], {lab});
		const metrics = cluster.kubelets.get('worker-1')!;
		kubelet = await startFakeKubelet({
			metrics: () => metrics.metricsText(),
			tokens: {[fakeClusterToken]: 'jane@example.com', 'readme-token-0123456789': 'readme'},
			allowed: ['jane@example.com', 'readme'],
		});
		queryApi = await startQueryApi();
		folder = cluster.temp.dir;
		// The files the README's --kubelet-url line names.
		writeFileSync(path.join(folder, 'TOKEN'), 'readme-token-0123456789\n');
		writeFileSync(path.join(folder, 'CA.crt'), testTls.caCert);
	});

	after(async () => {
		await queryApi?.close();
		await kubelet?.close();
		await cluster?.close();
		lab?.close();
	});

	/** The README's placeholders and hosts, as the stand-ins' addresses. */
	function concrete(args: string[]): string[] {
		return args.map((word, index) => {
			const flag = args[index - 1];
			if (word === 'NODE' || (word === 'N' && flag === '--node')) return 'worker-1';
			if (flag === '--kubelet-url') return kubelet.url;
			if (flag === '--prometheus') return queryApi.url;
			// TOKEN is the file of that name in the folder, as the line says.
			if (existsSync(path.join(folder, word))) return word;
			assert.doesNotMatch(word, /^[A-Z][A-Z\d_]*$/, `${word}: a placeholder this test has no stand-in for`);
			return word;
		});
	}

	/** Metrics read so far: a node's /metrics answered 200 (through the API server or the kubelet), or a query. */
	function metricsRead(): number {
		const proxied = cluster.api.requests.filter((request) => request.path.endsWith('/proxy/metrics') && request.status === 200);
		const direct = kubelet.requests.filter((request) => request.path === '/metrics' && request.status === 200);
		const queries = queryApi.requests.filter((url) => url.startsWith('/api/v1/query'));
		return proxied.length + direct.length + queries.length;
	}

	function lineCount(file: string): number {
		return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
	}

	/** Runs pleg-top with `args` in the folder; resolves how it got to work, or rejects with what it printed. */
	async function getsToWork(args: string[]): Promise<string> {
		const record = args.includes('--record') ? path.join(folder, args[args.indexOf('--record') + 1]!) : null;
		const recordedBefore = record === null ? 0 : lineCount(record);
		const readBefore = metricsRead();
		const answered = args[0] === 'lab' && !args.includes('--yes') ? [...args, '--yes'] : args;
		const child = spawn(process.execPath, [cliPath, ...answered], {
			cwd: folder,
			env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: folder, KUBECONFIG: cluster.kubeconfig},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		let code: number | null | undefined;
		const exited = new Promise<void>((resolve) =>
			child.on('close', (status) => {
				code = status;
				resolve();
			}),
		);
		try {
			return await until(
				() => {
					// A recording line is at work once two scrapes are in its file (a --replay after it needs them).
					if (record !== null) {
						if (lineCount(record) >= recordedBefore + 2) return 'recorded two scrapes';
					} else {
						if (args[0] === 'lab' && /\[1\/\d+\] idle/.test(stderr)) return 'began the lab';
						if (metricsRead() > readBefore) return 'read metrics';
						if (/^\{.*\}$/m.test(stdout)) return 'wrote a JSON line';
					}

					if (code === 0) return 'exited 0';
					if (code !== undefined) assert.fail(`pleg-top ${args.join(' ')} exited ${code}`);
					return undefined;
				},
				`pleg-top ${args.join(' ')} to get to work`,
				30_000,
			);
		} catch (error) {
			// Both ways of failing (an early exit, the deadline) show what pleg-top printed.
			return assert.fail(`${(error as Error).message}:\n${stderr}${stdout}`);
		} finally {
			if (code === undefined) child.kill('SIGTERM');
			await exited;
		}
	}

	test('the README shows the commands of the Quick start, Using it and the churn exercise', () => {
		const lines = examples.map((example) => example.args.join(' '));
		for (const expected of [
			'--demo',
			'worker-1',
			'worker-1 --once -o json',
			'worker-1 --once --fail-on critical',
			'worker-1 --window 30s --record lab.jsonl --summary lab.md --plot lab.svg',
			'--replay lab.jsonl --once -o json',
		]) {
			assert.ok(lines.includes(expected), `pleg-top ${expected} is not among the README's commands:\n${lines.join('\n')}`);
		}
	});

	test('the check fails a line with a usage error, and one that cannot reach its source', async () => {
		// --fail-on without --once: exit 2 at once.
		await assert.rejects(getsToWork(['worker-1', '--fail-on', 'critical']), /exited 2:\npleg-top: --fail-on sets the exit code of --once/);
		await assert.rejects(getsToWork(['no-such-node', '--once']), /exited 3:/);
	});

	for (const example of examples) {
		test(example.line, async (t) => {
			const how = await getsToWork(concrete(example.args));
			t.diagnostic(`pleg-top ${concrete(example.args).join(' ')}: ${how}`);
			assert.match(how, /read metrics|JSON line|recorded|began the lab|exited 0/);
		});
	}
});
