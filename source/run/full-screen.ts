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

/** How the screen ended: `interrupted` by Ctrl-C (the caller exits 130, as a shell reports a SIGINT), else by q or a signal. */
export type FullScreenEnd = {interrupted: boolean};

export async function runFullScreen(element: ReactElement, signal?: AbortSignal): Promise<FullScreenEnd> {
	const [{render, useApp, useInput, useStdout}, React] = await Promise.all([import('ink'), import('react')]);
	const end: FullScreenEnd = {interrupted: false};

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
			// Ctrl-C arrives as a key in raw mode: it quits as q does, but the exit code says it was an interrupt.
			if (key.ctrl && input === 'c') {
				end.interrupted = true;
				exit();
			}
		});
		return children;
	}

	process.stdout.write(enterAltScreen);
	try {
		// Not incrementalRendering: with ink 6.8 it drifts a row per frame (a header drawn four times, a ✓ beside
		// STALE). The bundle's own writer rewrites only changed rows, at their place (scripts/build.mjs).
		const instance = render(React.createElement(Redraw, null, element), {exitOnCtrlC: false, stdout: oneWritePerFrame(process.stdout)});
		const quit = () => {
			instance.unmount();
		};

		// A SIGINT (Ctrl-C before the screen read keys, or kill -INT) is the same interrupt as the key.
		const unregister = onStop(
			(reason) => {
				end.interrupted = reason === 'SIGINT';
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
		process.stdout.write(showCursor + leaveAltScreen);
	}

	return end;
}
