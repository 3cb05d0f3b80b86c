// Runs a command in a real terminal (a detached tmux session of a chosen size) and reads the
// screen as a person would, with capture-pane. Polls for text instead of sleeping a fixed time.
import {execFileSync, spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export type TmuxSession = {
	name: string;
	screen(): string;
	keys(...keys: string[]): void;
	resize(columns: number, rows: number): void;
	waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
	/** True while the command is still running in the pane. */
	alive(): boolean;
	/** The command's exit status once it has ended (remain-on-exit keeps the pane). */
	exitStatus(): number | null;
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

export function startTmux(command: string, options: {columns: number; rows: number; env?: Record<string, string>}): TmuxSession {
	const name = `pleg-top-test-${randomBytes(4).toString('hex')}`;
	// A UTF-8 locale whatever the tmux server inherited (an empty LC_ALL counts as unset): the glyphs follow the locale.
	const environment = Object.entries({TERM: 'xterm-256color', LANG: 'C.UTF-8', LC_ALL: '', LC_CTYPE: '', ...options.env}).map(
		([k, v]) => `${k}=${JSON.stringify(v)}`,
	);
	tmux([
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
		async waitFor(pattern, timeoutMs = 10_000) {
			const deadline = Date.now() + timeoutMs;
			let last = '';
			while (Date.now() < deadline) {
				last = session.screen();
				if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
				await new Promise((resolve) => setTimeout(resolve, 100));
			}

			throw new Error(`screen never showed ${String(pattern)}; last screen:\n${last}`);
		},
		alive: () => tmux(['display-message', '-p', '-t', name, '#{pane_dead}']).trim() === '0',
		exitStatus() {
			const status = tmux(['display-message', '-p', '-t', name, '#{pane_dead}:#{pane_dead_status}']).trim();
			const [dead, code] = status.split(':');
			return dead === '1' ? Number(code) : null;
		},
		kill() {
			spawnSync('tmux', [...server, 'kill-session', '-t', name]);
		},
	};
	return session;
}
