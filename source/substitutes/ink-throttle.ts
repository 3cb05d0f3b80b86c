// Stands in for es-toolkit's throttle where ink paces its renders and its terminal writes (ink.js,
// scripts/build.mjs). es-toolkit's leading-and-trailing throttle arms a timer on every call, even a call it runs at
// once: each frame left two timers behind (ink's 34 ms render window and the writer's 0 ms one, which Node runs
// after 1 ms), and each woke the idle process only to find nothing to do. On the 2-core VM a wake-up from sleep
// costs 0.1-0.17 ms of CPU, so the two were ~0.3 ms a tick. This throttle keeps the same pacing (a call outside a
// window runs at once; calls inside it run once, with the latest arguments, when it ends) and arms a timer only
// when a call is waiting.

type Throttled<F extends (...args: never[]) => unknown> = ((...args: Parameters<F>) => void) & {
	/** Runs the waiting call now, if there is one. */
	flush(): void;
	/** Drops the waiting call. */
	cancel(): void;
};

/**
 * At most one call of `run` per `windowMs`: the first at once, the latest of those that came during a window at its
 * end. ink asks for leading and trailing calls, the only kind this gives (the build guard checks that it asks).
 */
export function throttle<F extends (...args: never[]) => unknown>(
	run: F,
	windowMs = 0,
	_edges?: {leading?: boolean; trailing?: boolean},
): Throttled<F> {
	let lastRunAt = Number.NEGATIVE_INFINITY;
	let timer: NodeJS.Timeout | undefined;
	let waiting: {self: unknown; args: Parameters<F>} | null = null;
	const runNow = (self: unknown, args: Parameters<F>) => {
		lastRunAt = performance.now();
		run.apply(self, args);
	};

	const runWaiting = () => {
		timer = undefined;
		const call = waiting;
		waiting = null;
		if (call) runNow(call.self, call.args);
	};

	const throttled = function (this: unknown, ...args: Parameters<F>) {
		const sinceLastRun = performance.now() - lastRunAt;
		if (timer === undefined && sinceLastRun >= windowMs) {
			runNow(this, args);
			return;
		}

		waiting = {self: this, args};
		timer ??= setTimeout(runWaiting, windowMs - sinceLastRun);
	} as Throttled<F>;

	throttled.flush = () => {
		clearTimeout(timer);
		runWaiting();
	};

	throttled.cancel = () => {
		clearTimeout(timer);
		timer = undefined;
		waiting = null;
	};

	return throttled;
}
