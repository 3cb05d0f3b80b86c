// Runs an ink element in the terminal's alternate screen until it exits, a signal arrives or `signal` aborts, then
// restores the normal screen and the cursor: the one place both the one-node screen and the overview take and
// give back the terminal.
import type {ReactElement} from 'react';
import {onStop} from './signals.js';

const enterAltScreen = '\u001B[?1049h';
const leaveAltScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

export async function runFullScreen(element: ReactElement, signal?: AbortSignal): Promise<void> {
	const {render} = await import('ink');
	process.stdout.write(enterAltScreen);
	try {
		const instance = render(element, {exitOnCtrlC: true});
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
