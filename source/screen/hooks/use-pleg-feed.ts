// The screen's one polling hook: it starts the poller, feeds its results to the pure reducer and
// keeps a display clock so the last-seen gauge ages between scrapes. Everything it starts, its
// cleanup stops (timers, the in-flight request).
import {useCallback, useEffect, useReducer, useRef, useState} from 'react';
import {feedReducer, initialFeedState, type FeedState} from '../../domain/feed.js';
import type {MetricsSource, Scrape} from '../../domain/types.js';
import {startPoller, type Poller} from '../../engine/poller.js';

export type FeedOptions = {
	source: MetricsSource;
	intervalMs: number;
	windowSeconds: number;
	/** Local clock, ms; tests inject one. */
	now?: () => number;
	/** Called with each raw payload, e.g. to record it. */
	onPayload?: (text: string, scrape: Scrape) => void;
	/** How often the Node object is re-read, ms (the poller's default: 10 s). */
	nodeRefreshMs?: number;
};

export type Feed = {
	state: FeedState;
	/** The display clock: set by each scrape, and a second later when none came. */
	now: number;
	togglePause(): void;
	mark(): void;
};

/** Milliseconds until the next whole wall-clock second: when an age shown in whole seconds changes. */
export function msToNextSecond(nowMs: number): number {
	return 1000 - (nowMs % 1000) || 1000;
}

export function usePlegFeed({source, intervalMs, windowSeconds, now = Date.now, onPayload, nodeRefreshMs}: FeedOptions): Feed {
	const [state, dispatch] = useReducer(feedReducer, {node: source.node, windowSeconds}, initialFeedState);
	const [clock, setClock] = useState(now);
	const poller = useRef<Poller | undefined>(undefined);
	const payloadListener = useRef(onPayload);
	payloadListener.current = onPayload;

	useEffect(() => {
		const running = startPoller(
			{source, intervalMs, now, nodeRefreshMs},
			{
				onScrape(scrape, text) {
					dispatch({type: 'scrape', scrape});
					setClock(scrape.at);
					payloadListener.current?.(text, scrape);
				},
				onFailure(failure, at) {
					dispatch({type: 'failure', failure, at});
					setClock(at);
				},
				onNode(node) {
					dispatch({type: 'node', node});
				},
			},
		);
		poller.current = running;
		return () => {
			running.stop();
			poller.current = undefined;
		};
	}, [source, intervalMs, now, nodeRefreshMs]);

	const paused = state.status.paused;
	// The gauge ages between scrapes: a second with no scrape (a slow or failing API server) moves the
	// clock by itself. A scrape sets the clock too, so at the usual 1 s cadence the screen is drawn once
	// per scrape rather than once per scrape and once per second.
	useEffect(() => {
		if (paused) return;
		const timer = setTimeout(() => {
			setClock(now());
		}, 1000);
		return () => {
			clearTimeout(timer);
		};
	}, [paused, now, clock]);

	const togglePause = useCallback(() => {
		const next = !paused;
		poller.current?.setPaused(next);
		dispatch({type: 'pause', paused: next});
	}, [paused]);

	const mark = useCallback(() => {
		dispatch({type: 'mark', at: now()});
	}, [now]);

	return {state, now: clock, togglePause, mark};
}
