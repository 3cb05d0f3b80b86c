// The one place pleg-top hears that it should stop: SIGTERM, SIGHUP (the terminal or tmux pane closed) and
// SIGINT, and a closed stdout (`pleg-top … | head`). Every runner stops through here, so each ends the same way:
// its engine stopped, the terminal given back (the live screen exits 130 on SIGINT, as on Ctrl-C; the others 0).
const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

/** Why a run stops: one of those signals, or stdout closed. */
export type StopReason = (typeof signals)[number] | 'stdout closed';

/** Calls `stop` once on the first of those, with which; returns the unregister. */
export function onStop(stop: (reason: StopReason) => void, options: {stdoutClosed?: boolean} = {}): () => void {
	let done = false;
	const handlers = new Map<StopReason, () => void>();
	const on = (reason: StopReason) => {
		const handler = () => {
			if (done) return;
			done = true;
			stop(reason);
		};

		handlers.set(reason, handler);
		return handler;
	};

	for (const signal of signals) process.once(signal, on(signal));
	if (options.stdoutClosed) process.stdout.on('error', on('stdout closed'));
	return () => {
		for (const signal of signals) process.off(signal, handlers.get(signal)!);
		if (options.stdoutClosed) process.stdout.off('error', handlers.get('stdout closed')!);
	};
}
