// The screens' one hook onto an engine: the engine's state and the time to draw it at, re-read on each frame the
// engine's frame clock gives (engine/frames.ts). The hook starts no timer and reads no clock itself.
// An external store rather than useState: useState kept set values in its update queue as well as in both fibers,
// so a heap of the 10,000-node overview held three refreshes of every node's state; now two (the engine's, the drawn).
import {useMemo, useSyncExternalStore} from 'react';
import type {Engine} from '../../engine/engine.js';
import {startFrames} from '../../engine/frames.js';
import type {OverviewState} from '../../domain/overview-state.js';

export type EngineFrame<F> = {state: OverviewState<F>; now: number};

/** `throttleMs` 0 draws on every change (one node); the overview draws at most every `throttleMs`. */
export function useEngineFrames<F>(engine: Engine<F>, throttleMs: number): EngineFrame<F> {
	const store = useMemo(() => frameStore(engine, throttleMs), [engine, throttleMs]);
	return useSyncExternalStore(store.subscribe, store.frame);
}

function frameStore<F>(engine: Engine<F>, throttleMs: number) {
	let frame: EngineFrame<F> = {state: engine.state, now: engine.now()};
	return {
		frame: () => frame,
		subscribe: (changed: () => void) =>
			startFrames(engine, {throttleMs}, (now) => {
				frame = {state: engine.state, now};
				changed();
			}),
	};
}
