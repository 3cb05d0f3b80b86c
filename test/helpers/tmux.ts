// Runs a command in a real terminal (a detached tmux session of a chosen size) and reads the
// screen as a person would, with capture-pane. Polls for text instead of sleeping a fixed time.
import {execFileSync, spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {until} from './until.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** What a wait looks for: text the screen holds, a pattern, or a check with what it checks in words. */
type Sought = string | RegExp | {what: string; test(text: string): boolean};

export type TmuxSession = {
	name: string;
	screen(): string;
	/** The terminal title the command set (tmux's #{pane_title}). */
	title(): string;
	keys(...keys: string[]): void;
	resize(columns: number, rows: number): void;
	/** The screen once it shows `sought` (20 s by default); a timeout shows the last screen. */
	waitFor(sought: Sought, timeoutMs?: number): Promise<string>;
	/** The title once it is as `sought` (a string: the whole title); a timeout shows the last title. */
	waitForTitle(sought: Sought, timeoutMs?: number): Promise<string>;
	/** True while the command is still running in the pane. */
	alive(): boolean;
	/** The command's exit status once it has ended (remain-on-exit keeps the pane). */
	exitStatus(): number | null;
	/** The exit status once the command has ended (20 s by default); a timeout shows the last screen. */
	waitForExit(timeoutMs?: number): Promise<number>;
	kill(): void;
};

/**
 * The suite's own tmux server, one per test process and without a config file: a person's tmux (where they may be
 * running this suite) is never touched, and their `tmux kill-server` or `~/.tmux.conf` never reaches a test.
 */
const server = ['-L', `pleg-top-test-${process.pid}`, '-f', '/dev/null'];

/** A tmux command on the suite's own server. */
export function tmux(args: string[]): string {
	return execFileSync('tmux', [...server, ...args], {encoding: 'utf8'});
}

/**
 * tmux new-session, asked again when the server was on its way out as it was asked: the server ends with its last
 * session, and a test that kills one session and starts the next can meet it exiting.
 */
function newSession(args: string[]): void {
	for (let attempt = 1; ; attempt++) {
		try {
			tmux(args);
			return;
		} catch (error) {
			if (attempt >= 5 || !String(error).includes('server exited unexpectedly')) throw error;
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200 * attempt);
		}
	}
}

/** Polls `read` until what it gives is as `sought` (`whole`: a string must be all of it, else inside it). */
async function readUntil(read: () => string, sought: Sought, of: string, whole: boolean, timeoutMs: number): Promise<string> {
	const test =
		typeof sought === 'string' ? (text: string) => (whole ? text === sought : text.includes(sought)) : (text: string) => sought.test(text);
	const what = typeof sought === 'object' && !(sought instanceof RegExp) ? sought.what : `${of} to show ${String(sought)}`;
	let last = '';
	return until(
		() => {
			last = read();
			return test(last) && last;
		},
		() => `${what}; last ${of}:\n${last}`,
		timeoutMs,
		100,
	);
}

export function startTmux(command: string, options: {columns: number; rows: number; env?: Record<string, string>}): TmuxSession {
	const name = `pleg-top-test-${randomBytes(4).toString('hex')}`;
	// A UTF-8 locale whatever the tmux server inherited (an empty LC_ALL counts as unset): the glyphs follow the locale.
	const environment = Object.entries({TERM: 'xterm-256color', LANG: 'C.UTF-8', LC_ALL: '', LC_CTYPE: '', ...options.env}).map(
		([k, v]) => `${k}=${JSON.stringify(v)}`,
	);
	newSession([
		'new-session',
		'-d',
		'-s',
		name,
		'-x',
		String(options.columns),
		'-y',
		String(options.rows),
		`env ${environment.join(' ')} ${command}`,
	]);
	tmux(['set-option', '-t', name, 'remain-on-exit', 'on']);
	const session: TmuxSession = {
		name,
		screen: () => tmux(['capture-pane', '-p', '-t', name]),
		keys: (...keys) => {
			tmux(['send-keys', '-t', name, ...keys]);
		},
		resize: (columns, rows) => {
			tmux(['resize-window', '-t', name, '-x', String(columns), '-y', String(rows)]);
		},
		title: () => tmux(['display-message', '-p', '-t', name, '#{pane_title}']).trim(),
		waitFor: async (sought, timeoutMs = 20_000) => readUntil(() => session.screen(), sought, 'screen', false, timeoutMs),
		waitForTitle: async (sought, timeoutMs = 20_000) => readUntil(() => session.title(), sought, 'title', true, timeoutMs),
		alive: () => tmux(['display-message', '-p', '-t', name, '#{pane_dead}']).trim() === '0',
		exitStatus() {
			const status = tmux(['display-message', '-p', '-t', name, '#{pane_dead}:#{pane_dead_status}']).trim();
			const [dead, code] = status.split(':');
			return dead === '1' ? Number(code) : null;
		},
		waitForExit: async (timeoutMs = 20_000) =>
			until(
				() => session.exitStatus() ?? undefined,
				() => `the command to end; last screen:\n${session.screen()}`,
				timeoutMs,
				100,
			),
		kill() {
			spawnSync('tmux', [...server, 'kill-session', '-t', name]);
		},
	};
	return session;
}
