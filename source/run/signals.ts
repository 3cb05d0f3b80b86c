// The one place pleg-top hears that it should stop: SIGTERM, SIGHUP (the terminal or tmux pane closed) and
// SIGINT, and a closed stdout (`pleg-top … | head`). Every runner stops through here, so each ends the same way:
// its engine stopped, the terminal given back, exit 0.
const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

/** Calls `stop` once on the first of those; returns the unregister. */
export function onStop(stop: () => void, options: {stdoutClosed?: boolean} = {}): () => void {
	let done = false;
	const once = () => {
		if (done) return;
		done = true;
		stop();
	};

	for (const signal of signals) process.once(signal, once);
	if (options.stdoutClosed) process.stdout.on('error', once);
	return () => {
		for (const signal of signals) process.off(signal, once);
		if (options.stdoutClosed) process.stdout.off('error', once);
	};
}
