// The one-node screen: an engine of one node in (engine/), the dashboard out, keys in between. The engine owns
// the polling, the clock and the pause; this component owns what is toggled on screen.
import {useApp, useInput, type Key} from 'ink';
import {useEffect, useState} from 'react';
import {demoLabel, type DemoControls} from '../domain/demo-controls.js';
import type {NodeEngine} from '../engine/engine.js';
import {
	Dashboard,
	dashboardHelpRows,
	dashboardHelpScroll,
	dashboardRawScroll,
	pasteContext,
	type DashboardProps,
	type HeaderContext,
} from './dashboard.js';
import {helpMoveOf, scrollHelp} from './panes/help-screen.js';
import {searchKeys} from './panes/help-search.js';
import {useEngineFrames} from './hooks/use-engine-frames.js';
import {useLatestCallback} from './hooks/use-latest-callback.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {nodeScreenView} from './node-screen-view.js';

export type AppProps = {
	/** An engine of one node (engine.single names it). */
	engine: NodeEngine;
	/** Present with --demo: keys that steer the simulated kubelet. */
	demo?: DemoControls;
	/** The kubeconfig context or the replay, for the header. */
	header?: HeaderContext & {replay?: {reachedSpeed?: () => number | null}};
	/** --raw: start with the raw kubelet_pleg_* lines shown (`w` hides them). */
	raw?: boolean;
	/** `pleg-top lab`: the phases' named marks, for the history chart. */
	markNames?: DashboardProps['markNames'];
	/** What q does instead of ending the screen (`pleg-top lab`: stop the phases; the screen ends after the teardown). */
	onQuit?: () => void;
};

/** Demo keys: each maps to one simulator control. */
function steerDemo(input: string, demo: DemoControls): void {
	if (input === 'c') demo.churn(!demo.churning);
	else if (input === 's') demo.stall();
	else if (input === 'r') demo.recover();
	else if (input === 'x') demo.restart();
	else if (input === 'l') demo.slowRuntime(!demo.runtimeSlow);
}

/** The replay's header items at this frame: ended, and the speed it reaches. */
function replayContext(replay: NonNullable<HeaderContext['replay']> & {reachedSpeed?: () => number | null}, ended: boolean) {
	const {reachedSpeed, ...shown} = replay;
	return {...shown, ended, reached: reachedSpeed?.() ?? null};
}

/** Whether the engine has ended: a replay's header says when the recording has run out. */
function useEnded(engine: NodeEngine): boolean {
	const [ended, setEnded] = useState(false);
	useEffect(() => {
		let mounted = true;
		void engine.ended.then(() => {
			if (mounted) setEnded(true);
		});
		return () => {
			mounted = false;
		};
	}, [engine]);
	return ended;
}

/** What the keys toggle on the one-node screen; one state, so a key changes what belongs together at once. */
type Toggles = Required<
	Pick<DashboardProps, 'showHelp' | 'helpOffset' | 'helpSearch' | 'showAnatomy' | 'toggleConstants' | 'showRaw' | 'rawOffset'>
>;

/** A key's change to the toggles, or undefined when the key is not one of them. */
function toggleOf(input: string, key: Key): ((toggles: Toggles) => Toggles) | undefined {
	if (input === '?') return (t) => ({...t, showHelp: !t.showHelp, helpOffset: 0, helpSearch: null});
	if (input === 'a') return (t) => ({...t, showAnatomy: !t.showAnatomy});
	if (input === 'k') return (t) => ({...t, toggleConstants: !t.toggleConstants});
	if (input === 'w') return (t) => ({...t, showRaw: !t.showRaw, rawOffset: 0});
	if (key.escape) return (t) => ({...t, showHelp: false, helpSearch: null});
	return undefined;
}

export default function App({engine, demo, header, raw = false, markNames, onQuit}: AppProps) {
	const {exit} = useApp();
	const frame = useEngineFrames(engine, 0);
	const view = nodeScreenView(engine, frame.state, engine.single, frame.now);
	const {columns, rows} = useTerminalSize();
	const [toggles, setToggles] = useState<Toggles>({
		showHelp: false,
		helpOffset: 0,
		helpSearch: null,
		showAnatomy: false,
		toggleConstants: false,
		showRaw: raw,
		rawOffset: 0,
	});
	const ended = useEnded(engine);
	const context = header?.replay ? {...header, replay: replayContext(header.replay, ended)} : header;
	const props: DashboardProps = {
		...view,
		...toggles,
		sourceLabel: engine.label,
		intervalSeconds: engine.effectiveIntervalMs() / 1000,
		now: frame.now,
		// One row short of the terminal: a frame as tall as the terminal makes ink clear and redraw the whole screen each time.
		width: columns,
		height: Math.max(1, rows - 1),
		demoScenario: demo && demoLabel(demo),
		context,
		markNames,
	};

	const onKey = useLatestCallback((input: string, key: Key) => {
		// While the help shows, `/` searches it; while a word is typed every key is the search's.
		const searched = toggles.showHelp
			? searchKeys(toggles.helpSearch, toggles.helpOffset, {...key, input}, () =>
					dashboardHelpRows(columns, props.figures?.node ?? props.node?.name, pasteContext(props)),
				)
			: undefined;
		if (searched) {
			setToggles((t) => ({...t, helpSearch: searched.search, helpOffset: searched.offset}));
			return;
		}

		// Keys typed faster than the screen reads them come as one input ("cl"): each is a key of its own.
		if (input.length > 1 && !key.ctrl && !key.meta) {
			for (const each of input) onKey(each, key);
			return;
		}

		const move = toggles.showHelp || toggles.showRaw ? helpMoveOf(key) : undefined;
		const toggle = toggleOf(input, key);
		if (move && !toggles.showHelp) setToggles((t) => ({...t, rawOffset: scrollHelp(t.rawOffset, move, dashboardRawScroll(props))}));
		else if (move) {
			const scroll = dashboardHelpScroll(columns, Math.max(1, rows - 1), engine.single, pasteContext({context: header, node: view.node}));
			setToggles((t) => ({...t, helpOffset: scrollHelp(t.helpOffset, move, scroll)}));
		} else if (input === 'q') (onQuit ?? exit)();
		else if (input === 'p') engine.setPaused(!engine.paused);
		else if (input === 'b') engine.mark(engine.now());
		else if (toggle) setToggles(toggle);
		else if (demo && !key.ctrl) steerDemo(input, demo);
	});
	useInput(onKey);

	return <Dashboard {...props} />;
}
