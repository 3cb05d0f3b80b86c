// Runs an ink element in the terminal's alternate screen until it exits, a signal arrives, the terminal goes away
// or `signal` aborts, then restores the normal screen and the cursor (a terminal that is gone fails the write
// harmlessly: signals.ts): the one place both the one-node screen and the overview take and give back the terminal.
import type {ReactElement} from 'react';
import {oneWritePerFrame} from './one-write-per-frame.js';
import {onStop} from './signals.js';

const enterAltScreen = '\u001B[?1049h';
const leaveAltScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';
/** Erase the whole screen (and any scrollback) and put the cursor home. */
const clearScreen = '\u001B[2J\u001B[3J\u001B[H';

/**
 * How the screen ended: `by` Ctrl-C or SIGINT (the caller exits 130, as a shell reports a SIGINT), Ctrl-\ or SIGQUIT
 * (131), else null: by q, another signal or the abort.
 */
export type FullScreenEnd = {by: 'SIGINT' | 'SIGQUIT' | null};

/** Ctrl-\ as raw mode delivers it: the byte the terminal would otherwise have turned into SIGQUIT. */
const ctrlBackslash = '\u001C';

export async function runFullScreen(element: ReactElement, stdout: NodeJS.WriteStream, signal?: AbortSignal): Promise<FullScreenEnd> {
	const [{render, useApp, useInput, useStdout}, React] = await Promise.all([import('ink'), import('react')]);
	const end: FullScreenEnd = {by: null};

	/**
	 * Ctrl-L clears the whole screen and draws the current frame again from the top, for a screen something else
	 * wrote over (a `wall` message, a background job). ink's write() forgets its frame, writes ours, then redraws it.
	 * A resize needs nothing here: ink's terminal writer, as patched, draws the first frame at a new size whole
	 * (patches/ink+6.8.0+004+absolute-row-writer.patch).
	 */
	function Redraw({children}: {children: ReactElement}): ReactElement {
		const {write} = useStdout();
		const {exit} = useApp();
		useInput((input, key) => {
			if (key.ctrl && input === 'l') write(clearScreen);
			// Ctrl-C and Ctrl-\ arrive as keys in raw mode: each quits as q does, and the exit code says which signal
			// the terminal would have sent.
			if ((key.ctrl && input === 'c') || input === ctrlBackslash) {
				end.by = input === ctrlBackslash ? 'SIGQUIT' : 'SIGINT';
				exit();
			}
		});
		return children;
	}

	stdout.write(enterAltScreen);
	try {
		// Not incrementalRendering: with ink 6.8 it drifts a row per frame (a header drawn four times, a ✓ beside
		// STALE). The bundle's own writer rewrites only changed rows, at their place (scripts/build.mjs).
		const instance = render(React.createElement(Redraw, null, element), {exitOnCtrlC: false, stdout: oneWritePerFrame(stdout)});
		const quit = () => {
			instance.unmount();
		};

		// A SIGINT or SIGQUIT (sent before the screen read keys, or by kill) is the same as its key.
		const unregister = onStop(
			(reason) => {
				end.by = reason === 'SIGINT' || reason === 'SIGQUIT' ? reason : null;
				quit();
			},
			{terminal: true},
		);
		signal?.addEventListener('abort', quit);
		if (signal?.aborted) quit();
		try {
			await instance.waitUntilExit();
		} finally {
			unregister();
			signal?.removeEventListener('abort', quit);
		}
	} finally {
		stdout.write(showCursor + leaveAltScreen);
	}

	return end;
}
