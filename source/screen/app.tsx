// The live screen: the feed hook in, the dashboard out, keys in between.
import {useApp, useInput} from 'ink';
import React, {useCallback, useEffect, useState} from 'react';
import {figuresAt, historyPoints} from '../domain/feed.js';
import type {MetricsSource, Scrape} from '../domain/types.js';
import type {DemoControls} from '../demo/demo-source.js';
import {Dashboard} from './dashboard.js';
import {usePlegFeed} from './hooks/use-pleg-feed.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';

export type AppProps = {
	source: MetricsSource;
	intervalMs: number;
	windowSeconds: number;
	/** Present with --demo: keys that steer the simulated kubelet. */
	demo?: DemoControls;
	now?: () => number;
	/** How often the Node object is re-read, ms (default 10 s; the demo scales it with its speed). */
	nodeRefreshMs?: number;
	/** The poller's delay between scrapes when it differs from the shown cadence (a replay paces itself: 0). */
	pollIntervalMs?: number;
	/** Each accepted payload and its scrape time (the lab recorder). */
	onPayload?: (text: string, scrape: Scrape) => void;
	/** Each baseline mark (ms), from `b` or from `marks`. */
	onMark?: (at: number) => void;
	/** Marks set from outside (a replayed `b`): subscribe, get the unsubscribe. */
	marks?: (listener: (at: number) => void) => () => void;
};

/** Demo keys: each maps to one simulator control. */
function steerDemo(input: string, demo: DemoControls): void {
	if (input === 'c') demo.churn(demo.scenario !== 'churn');
	else if (input === 's') demo.stall();
	else if (input === 'r') demo.recover();
	else if (input === 'x') demo.restart();
	else if (input === 'w') demo.slowRuntime(demo.scenario !== 'slow-runtime');
}

export default function App({source, intervalMs, windowSeconds, demo, now, pollIntervalMs, nodeRefreshMs, onPayload, onMark, marks}: AppProps) {
	const {exit} = useApp();
	const feed = usePlegFeed({source, intervalMs: pollIntervalMs ?? intervalMs, windowSeconds, now, onPayload, nodeRefreshMs});
	const {mark} = feed;
	const markBaseline = useCallback(() => {
		mark();
		onMark?.((now ?? Date.now)());
	}, [mark, onMark, now]);
	useEffect(() => marks?.(markBaseline), [marks, markBaseline]);
	const {columns, rows} = useTerminalSize();
	const [showHelp, setShowHelp] = useState(false);
	const [showAnatomy, setShowAnatomy] = useState(false);
	const [toggleConstants, setToggleConstants] = useState(false);

	useInput((input, key) => {
		if (input === 'q') exit();
		else if (input === 'p') feed.togglePause();
		else if (input === 'b') markBaseline();
		else if (input === '?') setShowHelp((shown) => !shown);
		else if (input === 'a') setShowAnatomy((shown) => !shown);
		else if (input === 'k') setToggleConstants((toggled) => !toggled);
		else if (key.escape) setShowHelp(false);
		else if (demo) steerDemo(input, demo);
	});

	return (
		<Dashboard
			figures={figuresAt(feed.state, feed.now)}
			status={feed.state.status}
			history={historyPoints(feed.state)}
			node={feed.state.node}
			sourceLabel={source.label}
			intervalSeconds={intervalMs / 1000}
			now={feed.now}
			// One row short of the terminal: a frame as tall as the terminal makes ink clear and redraw the whole screen each time.
			width={columns}
			height={Math.max(1, rows - 1)}
			showHelp={showHelp}
			showAnatomy={showAnatomy}
			toggleConstants={toggleConstants}
			demoScenario={demo?.scenario}
		/>
	);
}
