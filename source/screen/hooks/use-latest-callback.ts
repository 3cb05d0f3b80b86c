// A function that stays the same across renders and calls the one given at the latest render. ink's useInput
// subscribes again whenever its handler changes, and a handler written inline is new every render: each frame ran
// an effect that took the key listener off and put it back, and React scheduled a pass of its own to run it.
import {useCallback, useRef} from 'react';

export function useLatestCallback<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
	const latest = useRef(callback);
	// Read only when called (a key, after the render that made it has been committed), never during a render.
	latest.current = callback;
	return useCallback((...args: A) => {
		latest.current(...args);
	}, []);
}
