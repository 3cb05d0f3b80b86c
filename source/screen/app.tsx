// The one-node screen: an engine of one node in (engine/), the dashboard out, keys in between. The engine owns
// the polling, the clock and the pause; this component owns what is toggled on screen.
import {useApp, useInput} from 'ink';
import {useEffect, useState} from 'react';
import {demoLabel, type DemoControls} from '../domain/demo-controls.js';
import type {NodeEngine} from '../engine/engine.js';
import {Dashboard, dashboardHelpScroll, dashboardRawScroll, pasteContext, type DashboardProps, type HeaderContext} from './dashboard.js';
import {helpMoveOf, scrollHelp} from './panes/help-screen.js';
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
	header?: HeaderContext;
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

export default function App({engine, demo, header, raw = false, markNames, onQuit}: AppProps) {
	const {exit} = useApp();
	const frame = useEngineFrames(engine, 0);
	const view = nodeScreenView(engine, frame.state, engine.single, frame.now);
	const {columns, rows} = useTerminalSize();
	const [showHelp, setShowHelp] = useState(false);
	const [showAnatomy, setShowAnatomy] = useState(false);
	const [toggleConstants, setToggleConstants] = useState(false);
	const [helpOffset, setHelpOffset] = useState(0);
	const [showRaw, setShowRaw] = useState(raw);
	const [rawOffset, setRawOffset] = useState(0);
	// A replay's header says when the recording has run out.
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
	const context = header?.replay ? {...header, replay: {...header.replay, ended}} : header;
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
		showAnatomy,
		toggleConstants,
		showRaw,
		rawOffset,
		demoScenario: demo && demoLabel(demo),
		context,
		markNames,
	};

	useInput(
		useLatestCallback((input, key) => {
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
			} else if (input === 'a') setShowAnatomy((shown) => !shown);
			else if (input === 'k') setToggleConstants((toggled) => !toggled);
			else if (input === 'w') {
				setShowRaw((shown) => !shown);
				setRawOffset(0);
			} else if (key.escape) setShowHelp(false);
			else if (demo && !key.ctrl) steerDemo(input, demo);
		}),
	);

	return <Dashboard {...props} />;
}
