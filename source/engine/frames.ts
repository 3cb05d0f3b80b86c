// When a screen draws: after each change of the engine (at once, or at most once per `throttleMs` when many nodes
// answer many times a second), and, when nothing changed, once a second so an age keeps moving while a request
// hangs. The first of those waits a quarter second longer: at the default 1 s interval the next scrape comes a
// request's time after a second (the poller waits the interval after each answer), and an idle frame at exactly
// one second drew the screen twice per scrape, moments apart. Paused, the clock shown stands still: nothing on
// the screen moves until resumed.
import type {Engine} from './engine.js';

export type FrameOptions = {
	/** 0: draw on every change, at the time of the change; otherwise at most once per this many ms. */
	throttleMs: number;
	/** A frame this long after the last one when nothing changed, ms. @default 1000 */
	idleMs?: number;
	/** Added to idleMs after a frame that drew a change: the time the next answer may take, ms. @default 250 */
	idleGraceMs?: number;
};

/** Calls `onFrame(now)` as described above; returns the stop. `now` is on the engine's clock. */
export function startFrames(engine: Engine, options: FrameOptions, onFrame: (now: number) => void): () => void {
	const idleMs = options.idleMs ?? 1000;
	const idleGraceMs = options.idleGraceMs ?? 250;
	let pending: NodeJS.Timeout | undefined;
	let idle: NodeJS.Timeout | undefined;
	// The time shown while paused: the moment of the pause.
	let frozenAt: number | null = null;

	const frame = (at: number, changed: boolean) => {
		clearTimeout(pending);
		clearTimeout(idle);
		pending = undefined;
		if (engine.paused) {
			frozenAt ??= at;
			onFrame(frozenAt);
			return;
		}

		frozenAt = null;
		onFrame(at);
		idle = setTimeout(
			() => {
				frame(engine.now(), false);
			},
			changed ? idleMs + idleGraceMs : idleMs,
		);
	};

	const unsubscribe = engine.subscribe((_node, _read, at) => {
		if (options.throttleMs <= 0) frame(at, true);
		else
			pending ??= setTimeout(() => {
				frame(engine.now(), true);
			}, options.throttleMs);
	});
	idle = setTimeout(() => {
		frame(engine.now(), false);
	}, idleMs);
	return () => {
		unsubscribe();
		clearTimeout(pending);
		clearTimeout(idle);
	};
}
