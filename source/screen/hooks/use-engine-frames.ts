// The screens' one hook onto an engine: the engine's state and the time to draw it at, re-read on each frame the
// engine's frame clock gives (engine/frames.ts). The hook starts no timer and reads no clock itself.
import {useEffect, useState} from 'react';
import type {Engine} from '../../engine/engine.js';
import {startFrames} from '../../engine/frames.js';
import type {OverviewState} from '../../domain/overview-state.js';

export type EngineFrame<F> = {state: OverviewState<F>; now: number};

/** `throttleMs` 0 draws on every change (one node); the overview draws at most every `throttleMs`. */
export function useEngineFrames<F>(engine: Engine<F>, throttleMs: number): EngineFrame<F> {
	const [frame, setFrame] = useState<EngineFrame<F>>(() => ({state: engine.state, now: engine.now()}));
	useEffect(
		() =>
			startFrames(engine, {throttleMs}, (now) => {
				setFrame({state: engine.state, now});
			}),
		[engine, throttleMs],
	);
	return frame;
}
