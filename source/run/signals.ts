// The one place pleg-top hears that it should stop: SIGTERM, SIGHUP (the terminal or tmux pane closed), SIGINT,
// SIGQUIT (Ctrl-\ before the screen reads keys, or kill -QUIT), a closed stdout (`pleg-top … | head`), and a
// terminal that went away under the screen (reads and writes fail with EIO or EPIPE). Every runner stops through
// here, so each ends the same way: its engine stopped, the terminal given back, the files written, exit 0 (the live
// screen 130 on SIGINT, as on Ctrl-C; any runner 131 on SIGQUIT, as a shell reports a quit, yet with no core dump);
// after a hangup (SIGHUP, or the terminal gone) exit 129 (128 + SIGHUP, as a shell reports a job the hangup ended),
// with the files still written and the writes to a terminal that is gone failing without harm.
import {closeSync, openSync} from 'node:fs';

const signals = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'] as const;

/** Why a run stops: one of those signals, stdout closed, or the terminal gone (a read or write on it failed). */
export type StopReason = (typeof signals)[number] | 'stdout closed' | 'terminal gone';

/** The exit code of a run ended by a hangup: 128 + SIGHUP (1). */
export const hangupExitCode = 129;

/** The exit code of a run ended by Ctrl-\\ or SIGQUIT: 128 + SIGQUIT (3). */
export const quitExitCode = 131;

let hungUp = false;

/** True once the terminal has gone (SIGHUP, or a read or write on it failed): writes to it may fail, harmlessly. */
export function terminalGone(): boolean {
	return hungUp;
}

const ignore = () => undefined;

/**
 * From now on the terminal is gone. Further failed writes to it are expected and ignored (an unhandled stream
 * error would end the process before the files are written), and so is a second SIGHUP (tmux sends one, the
 * kernel another as the pty closes). On exit the standard streams are pointed at /dev/null: Node restores the
 * terminal's modes on exit and, up to Node 22, aborts (a core dump, no exit code) when that fails on a terminal
 * that is gone; it leaves a stream alone that is no longer the file it started with.
 */
export function markHangup(): void {
	if (hungUp) return;
	hungUp = true;
	for (const stream of [process.stdin, process.stdout, process.stderr]) stream.on('error', ignore);
	process.on('SIGHUP', ignore);
	process.once('exit', detachStandardStreams);
}

function detachStandardStreams(): void {
	for (const fd of [0, 1, 2]) {
		try {
			closeSync(fd);
		} catch {
			// Already closed: nothing to restore there either.
		}
	}

	// The lowest free descriptors: 0, 1, 2 again, now /dev/null.
	for (const flags of ['r', 'w', 'w'] as const) openSync('/dev/null', flags);
}

/** Why an error on a standard stream means the terminal (or the reader of the pipe) is gone. */
const goneCodes = new Set(['EIO', 'EPIPE', 'ENXIO', 'EBADF', 'ERR_STREAM_DESTROYED']);

/**
 * Calls `stop` once on the first of those, with which; returns the unregister. `stdoutClosed`: also when stdout fails
 * (a closed pipe). `terminal`: also when a read or write on the terminal fails because it is gone, a hangup.
 */
export function onStop(stop: (reason: StopReason) => void, options: {stdoutClosed?: boolean; terminal?: boolean} = {}): () => void {
	let done = false;
	const once = (reason: StopReason) => {
		if (done) return;
		done = true;
		stop(reason);
	};

	const hangup = (reason: StopReason) => {
		markHangup();
		once(reason);
	};

	const byName: Record<(typeof signals)[number], () => void> = {
		SIGTERM: () => once('SIGTERM'),
		SIGINT: () => once('SIGINT'),
		SIGQUIT: () => once('SIGQUIT'),
		SIGHUP: () => hangup('SIGHUP'),
	};
	const stdoutClosed = () => once('stdout closed');
	const terminalError = (error: NodeJS.ErrnoException) => {
		if (goneCodes.has(error.code ?? '')) hangup('terminal gone');
		else once('terminal gone');
	};

	const streams = options.terminal ? [process.stdin, process.stdout, process.stderr] : [];
	for (const signal of signals) process.once(signal, byName[signal]);
	if (options.stdoutClosed) process.stdout.on('error', stdoutClosed);
	for (const stream of streams) stream.on('error', terminalError);
	return () => {
		for (const signal of signals) process.off(signal, byName[signal]);
		if (options.stdoutClosed) process.stdout.off('error', stdoutClosed);
		for (const stream of streams) stream.off('error', terminalError);
	};
}
