// Runs the built CLI (dist/cli.js) as a child process, as a user or a script would, and captures what
// it printed. HOME points at a temp directory unless the test says otherwise, so the developer's
// ~/.kube/config is never read. `npm test` builds dist first.
import {spawn, type ChildProcess} from 'node:child_process';
import {fileURLToPath} from 'node:url';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export type CliResult = {
	/** Exit code; null when the process was ended by a signal. */
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** Wall time from spawn to exit, ms. */
	elapsedMs: number;
};

export type CliOptions = {
	/** Environment of the child: PATH and HOME (required: a temp dir) plus these; nothing else leaks in. */
	env: Record<string, string>;
	/** Kill the child (SIGKILL) after this long and fail the run (generous: a loaded CI machine is slow to start node). @default 45000 */
	timeoutMs?: number;
};

/** Every stdout/stderr captured by runCli/spawnCli in this process, for the credential scan. */
export const capturedOutput: string[] = [];

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
	// No FORCE_COLOR/NO_COLOR/KUBECONFIG from the test runner's own environment.
	return {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env};
}

export type CliProcess = {
	child: ChildProcess;
	/** Everything written so far. */
	readonly stdout: string;
	readonly stderr: string;
	/** Resolves once the stdout text matches the pattern or the predicate says yes (rejects after timeoutMs). */
	waitForStdout(pattern: RegExp | ((stdout: string) => boolean), timeoutMs?: number): Promise<string>;
	/** Resolves with the result when the process has exited. */
	exited: Promise<CliResult>;
};

/** Starts the CLI and returns at once; the caller decides when it ends. */
export function spawnCli(args: string[], options: CliOptions): CliProcess {
	const started = Date.now();
	const child = spawn(process.execPath, [cliPath, ...args], {env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	const listeners = new Set<() => void>();
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		stdout += chunk;
		for (const listener of listeners) listener();
	});
	child.stderr.on('data', (chunk: string) => {
		stderr += chunk;
	});
	const timeoutMs = options.timeoutMs ?? 45_000;
	const exited = new Promise<CliResult>((resolve, reject) => {
		const killer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`pleg-top ${args.join(' ')} did not exit within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
		}, timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(killer);
			capturedOutput.push(stdout, stderr);
			resolve({code, signal, stdout, stderr, elapsedMs: Date.now() - started});
		});
	});
	return {
		child,
		get stdout() {
			return stdout;
		},
		get stderr() {
			return stderr;
		},
		async waitForStdout(pattern, waitMs = 10_000) {
			return new Promise((resolve, reject) => {
				const check = () => {
					if (typeof pattern === 'function' ? pattern(stdout) : pattern.test(stdout)) {
						listeners.delete(check);
						clearTimeout(timer);
						resolve(stdout);
					}
				};

				const timer = setTimeout(() => {
					listeners.delete(check);
					reject(new Error(`stdout never matched ${String(pattern)}; stdout so far:\n${stdout}\nstderr:\n${stderr}`));
				}, waitMs);
				listeners.add(check);
				check();
			});
		},
		exited,
	};
}

/** Runs the CLI to its end. */
export async function runCli(args: string[], options: CliOptions): Promise<CliResult> {
	return spawnCli(args, options).exited;
}
