// The one-node screen of `pleg-top lab`: the same App, with the lab's phase and the pods Running on the node in
// the header, redrawn whenever the lab's status changes.
import {useSyncExternalStore} from 'react';
import App, {type AppProps} from './app.js';

export type LabAppProps = AppProps & {
	/** The lab's status line ("lab 2/8 up 0→12 · 7/12 Running") and how to hear it change. */
	lab: {get: () => string; subscribe: (listener: () => void) => () => void; marks: () => NonNullable<AppProps['markNames']>};
};

export function LabApp({lab, header, ...rest}: LabAppProps) {
	const text = useSyncExternalStore(lab.subscribe, lab.get);
	// Read at each render: a phase's mark is added when its status is set, which renders anew.
	return <App {...rest} header={{...header, lab: text}} markNames={lab.marks()} />;
}
