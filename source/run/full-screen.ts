// Runs an ink element in the terminal's alternate screen until it exits, a signal arrives or `signal` aborts, then
// restores the normal screen and the cursor: the one place both the one-node screen and the overview take and
// give back the terminal.
import type {ReactElement} from 'react';
import {onStop} from './signals.js';

const enterAltScreen = '\u001B[?1049h';
const leaveAltScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';
/** Erase the whole screen (and any scrollback) and put the cursor home. */
const clearScreen = '\u001B[2J\u001B[3J\u001B[H';
/**
 * How long after the last resize event the screen is cleared and redrawn, ms: long enough for the frame at the new
 * size to be rendered (ink draws at most every 34 ms) and for a drag of the pane border to end.
 */
const resizeSettleMs = 120;

export async function runFullScreen(element: ReactElement, signal?: AbortSignal): Promise<void> {
	const [{render, useInput, useStdout}, React] = await Promise.all([import('ink'), import('react')]);

	/**
	 * A terminal that shrinks re-wraps the old frame's lines (tmux split-window does), so ink's erase of "the lines it
	 * drew" misses rows, and rows of the old frame stay on screen looking like live figures. After every resize,
	 * and on Ctrl-L, the whole screen is cleared and the current frame drawn again from the top: ink's write()
	 * erases its frame, writes ours, then redraws the frame.
	 */
	function Redraw({children}: {children: ReactElement}): ReactElement {
		const {stdout, write} = useStdout();
		React.useEffect(() => {
			let timer: NodeJS.Timeout | undefined;
			const onResize = () => {
				clearTimeout(timer);
				timer = setTimeout(() => {
					write(clearScreen);
				}, resizeSettleMs);
			};

			stdout.on('resize', onResize);
			return () => {
				clearTimeout(timer);
				stdout.off('resize', onResize);
			};
		}, [stdout, write]);
		useInput((input, key) => {
			if (key.ctrl && input === 'l') write(clearScreen);
		});
		return children;
	}

	process.stdout.write(enterAltScreen);
	try {
		// Not incrementalRendering: with ink 6.8 it left rows of earlier frames on screen (a header drawn four times,
		// a ✓ beside STALE) in the tmux tests, and a figure that may be stale is worse than bytes saved.
		const instance = render(React.createElement(Redraw, null, element), {exitOnCtrlC: true});
		const quit = () => {
			instance.unmount();
		};

		const unregister = onStop(quit);
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
}
