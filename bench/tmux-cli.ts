// pleg-top's live screen in a real pseudo-terminal (a tmux pane), and the pid of its node process.
import {tmux, startTmux, type TmuxSession} from '../test/helpers/tmux.js';
import {cliPath} from '../test/helpers/run-cli.js';

export type LiveCli = {session: TmuxSession; pid: number};

/** The pane's process: `env VAR=… node …` execs node, so the pane pid is the CLI's own. */
function panePid(session: TmuxSession): number {
	return Number(tmux(['display-message', '-p', '-t', session.name, '#{pane_pid}']).trim());
}

/** The built CLI; `--cli PATH` points the bench at another build (e.g. a copy of dist from before a change). */
let cli = cliPath;
export function useCli(path: string): void {
	cli = path;
}

/**
 * Starts `pleg-top ARGS` on a 120×40 screen (or `size`) with only `env` in its environment (plus TERM);
 * `nodeArgs` go to node itself (`--cpu-prof` is not allowed in NODE_OPTIONS).
 */
export function startLiveCli(
	args: string[],
	env: Record<string, string>,
	size = {columns: 120, rows: 40},
	nodeArgs: string[] = [],
): LiveCli {
	const quoted = [...nodeArgs, cli, ...args].map((arg) => JSON.stringify(arg)).join(' ');
	const session = startTmux(`${JSON.stringify(process.execPath)} ${quoted}`, {...size, env});
	return {session, pid: panePid(session)};
}

/** Quits pleg-top as a user does (`q`), waits up to 5 s for it to exit, then closes its pane. */
export async function quitLiveCli(session: TmuxSession): Promise<void> {
	session.keys('q');
	await until(() => !session.alive(), 5000, 'pleg-top to quit').catch(() => undefined);
	session.kill();
}

/** The tmux server's pid: its CPU is what the terminal spends drawing pleg-top's output. */
export function tmuxServerPid(session: TmuxSession): number {
	return Number(tmux(['display-message', '-p', '-t', session.name, '#{pid}']).trim());
}

/** Appends everything the pane's program writes to `file` from now on (null: stop). */
export function pipePane(session: TmuxSession, file: string | null): void {
	tmux(['pipe-pane', '-t', session.name, ...(file === null ? [] : ['-o', `cat >> ${JSON.stringify(file)}`])]);
}

/**
 * A session that outlives the measured ones, so the tmux server is already running when a measured run starts
 * (its start-up would otherwise count towards the first frame).
 */
export function keepTmuxServer(): () => void {
	const keeper = startTmux('sleep 3600', {columns: 80, rows: 24});
	return () => keeper.kill();
}

export async function until(condition: () => boolean, timeoutMs: number, what: string, pollMs = 20): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`);
		}

		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
}
