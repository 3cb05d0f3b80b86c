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
import {searchKeys, type HelpSearch} from './panes/help-search.js';
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

export default function App({engine, demo, header, raw = false, markNames, onQuit}: AppProps) {
	const {exit} = useApp();
	const frame = useEngineFrames(engine, 0);
	const view = nodeScreenView(engine, frame.state, engine.single, frame.now);
	const {columns, rows} = useTerminalSize();
	const [showHelp, setShowHelp] = useState(false);
	const [showAnatomy, setShowAnatomy] = useState(false);
	const [toggleConstants, setToggleConstants] = useState(false);
	const [helpOffset, setHelpOffset] = useState(0);
	const [helpSearch, setHelpSearch] = useState<HelpSearch | null>(null);
	const [showRaw, setShowRaw] = useState(raw);
	const [rawOffset, setRawOffset] = useState(0);
	const ended = useEnded(engine);
	const context = header?.replay ? {...header, replay: replayContext(header.replay, ended)} : header;
	const props: DashboardProps = {
		...view,
		sourceLabel: engine.label,
		intervalSeconds: engine.effectiveIntervalMs() / 1000,
		now: frame.now,
		// One row short of the terminal: a frame as tall as the terminal makes ink clear and redraw the whole screen each time.
		width: columns,
		height: Math.max(1, rows - 1),
		showHelp,
		helpOffset,
		helpSearch,
		showAnatomy,
		toggleConstants,
		showRaw,
		rawOffset,
		demoScenario: demo && demoLabel(demo),
		context,
		markNames,
	};

	const onKey = useLatestCallback((input: string, key: Key) => {
		// While the help shows, `/` searches it; while a word is typed every key is the search's.
		const searched = showHelp
			? searchKeys(helpSearch, helpOffset, {...key, input}, () =>
					dashboardHelpRows(columns, props.figures?.node ?? props.node?.name, pasteContext(props)),
				)
			: undefined;
		if (searched) {
			setHelpSearch(searched.search);
			setHelpOffset(searched.offset);
			return;
		}

		// Keys typed faster than the screen reads them come as one input ("cl"): each is a key of its own.
		if (input.length > 1 && !key.ctrl && !key.meta) {
			for (const each of input) onKey(each, key);
			return;
		}

		const move = showHelp || showRaw ? helpMoveOf(key) : undefined;
		if (move && !showHelp) setRawOffset((offset) => scrollHelp(offset, move, dashboardRawScroll(props)));
		else if (move)
			setHelpOffset((offset) =>
				scrollHelp(
					offset,
					move,
					dashboardHelpScroll(columns, Math.max(1, rows - 1), engine.single, pasteContext({context: header, node: view.node})),
				),
			);
		else if (input === 'q') (onQuit ?? exit)();
		else if (input === 'p') engine.setPaused(!engine.paused);
		else if (input === 'b') engine.mark(engine.now());
		else if (input === '?') {
			setShowHelp((shown) => !shown);
			setHelpOffset(0);
			setHelpSearch(null);
		} else if (input === 'a') setShowAnatomy((shown) => !shown);
		else if (input === 'k') setToggleConstants((toggled) => !toggled);
		else if (input === 'w') {
			setShowRaw((shown) => !shown);
			setRawOffset(0);
		} else if (key.escape) {
			setShowHelp(false);
			setHelpSearch(null);
		} else if (demo && !key.ctrl) steerDemo(input, demo);
	});
	useInput(onKey);

	return <Dashboard {...props} />;
}
