// One request after another, each scheduled a delay after the last ENDED (like the kubelet's own wait.Until): a
// slow server stretches the cadence instead of piling up overlapping requests. The poller's scrapes and the Node
// object and Events reads (node-reads.ts) are each one such loop.

/** One request after another, each `delayMs` after the last ended, as long as `running` says so. */
export type RequestLoop = {
	schedule(delayMs: number): void;
	/** A request is in flight. */
	readonly busy: boolean;
	/** Clears the timer and aborts the request in flight, forgotten at once so a resume does not wait for its rejection. */
	halt(): void;
};

/**
 * The loop of one kind of request: `step` makes one (it never rejects) and answers the wait before the next; an
 * aborted one schedules none. One controller serves request after request until `halt` aborts it: an AbortSignal
 * is an EventTarget, and making one per scrape showed in the CPU of a tick.
 */
export function requestLoop(step: (signal: AbortSignal) => Promise<number>, running: () => boolean): RequestLoop {
	let timer: NodeJS.Timeout | undefined;
	let inFlight: AbortController | undefined;
	let controller = new AbortController();

	async function run() {
		timer = undefined;
		if (controller.signal.aborted) controller = new AbortController();
		const mine = controller;
		inFlight = mine;
		let nextMs: number;
		try {
			nextMs = await step(mine.signal);
		} finally {
			if (inFlight === mine) inFlight = undefined;
		}

		if (!mine.signal.aborted) schedule(nextMs);
	}

	function schedule(delayMs: number) {
		// run catches nothing but ends each request itself: the timer has nothing to await.
		if (running()) timer = setTimeout(() => void run(), delayMs);
	}

	return {
		schedule,
		get busy() {
			return inFlight !== undefined;
		},
		halt() {
			clearTimeout(timer);
			timer = undefined;
			inFlight?.abort();
			inFlight = undefined;
		},
	};
}
