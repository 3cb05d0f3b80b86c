// Runs an ink element in the terminal's alternate screen until it exits or a signal arrives, then
// restores the normal screen and the cursor: the one place both the one-node screen and the
// overview take and give back the terminal.
import type {ReactElement} from 'react';

const enterAltScreen = '\u001B[?1049h';
const leaveAltScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

export async function runFullScreen(element: ReactElement): Promise<void> {
	const {render} = await import('ink');
	process.stdout.write(enterAltScreen);
	try {
		const instance = render(element, {exitOnCtrlC: true});
		const quit = () => {
			instance.unmount();
		};

		const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
		for (const signal of signals) process.once(signal, quit);
		try {
			await instance.waitUntilExit();
		} finally {
			for (const signal of signals) process.off(signal, quit);
		}
	} finally {
		process.stdout.write(showCursor + leaveAltScreen);
	}
}
