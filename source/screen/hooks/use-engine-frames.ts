// The screens' one hook onto an engine: the engine's state and the time to draw it at, re-read on each frame the
// engine's frame clock gives (engine/frames.ts). The hook starts no timer and reads no clock itself.
// The store's snapshot is a frame number, not the frame: React keeps each hook's last value in both of a
// component's fibers (the drawn one and the one before), so a snapshot holding the state kept one refresh more of
// every node alive. The frame itself is read from the store, which keeps only the last.
import {useMemo, useSyncExternalStore} from 'react';
import type {Engine} from '../../engine/engine.js';
import {startFrames} from '../../engine/frames.js';
import type {OverviewState} from '../../domain/fleet/overview-state.js';

export type EngineFrame<F> = {state: OverviewState<F>; now: number};

/** `throttleMs` 0 draws on every change (one node); the overview draws at most every `throttleMs`. */
export function useEngineFrames<F>(engine: Engine<F>, throttleMs: number): EngineFrame<F> {
	const store = useMemo(() => frameStore(engine, throttleMs), [engine, throttleMs]);
	useSyncExternalStore(store.subscribe, store.count);
	return store.frame();
}

function frameStore<F>(engine: Engine<F>, throttleMs: number) {
	let frame: EngineFrame<F> = {state: engine.state, now: engine.now()};
	let count = 0;
	return {
		frame: () => frame,
		count: () => count,
		subscribe: (changed: () => void) =>
			startFrames(engine, {throttleMs}, (now) => {
				frame = {state: engine.state, now};
				count++;
				changed();
			}),
	};
}
