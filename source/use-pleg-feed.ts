// The screen's one polling hook: it starts the poller, feeds its results to the pure reducer and
// keeps a display clock so the last-seen gauge ages between scrapes. Everything it starts, its
// cleanup stops (timers, the in-flight request).
import {useCallback, useEffect, useReducer, useRef, useState} from 'react';
import {feedReducer, initialFeedState, type FeedState} from './core/metrics/feed.js';
import type {MetricsSource} from './core/types.js';
import {startPoller, type Poller} from './poller.js';

export type FeedOptions = {
	source: MetricsSource;
	intervalMs: number;
	windowSeconds: number;
	/** Local clock, ms; tests inject one. */
	now?: () => number;
	/** Called with each raw payload, e.g. to record it. */
	onPayload?: (text: string, at: number) => void;
};

export type Feed = {
	state: FeedState;
	/** The display clock: advances on each whole second and on each scrape. */
	now: number;
	togglePause(): void;
	mark(): void;
};

/** Milliseconds until the next whole wall-clock second: when the gauge's displayed age changes (it has 1 s resolution). */
export function msToNextSecond(nowMs: number): number {
	return 1000 - (nowMs % 1000) || 1000;
}

export function usePlegFeed({source, intervalMs, windowSeconds, now = Date.now, onPayload}: FeedOptions): Feed {
	const [state, dispatch] = useReducer(feedReducer, {node: source.node, windowSeconds}, initialFeedState);
	const [clock, setClock] = useState(now);
	const poller = useRef<Poller | undefined>(undefined);
	const payloadListener = useRef(onPayload);
	payloadListener.current = onPayload;

	useEffect(() => {
		const running = startPoller(
			{source, intervalMs, now},
			{
				onScrape(scrape, text) {
					dispatch({type: 'scrape', scrape});
					setClock(scrape.at);
					payloadListener.current?.(text, scrape.at);
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
	}, [source, intervalMs, now]);

	const paused = state.status.paused;
	useEffect(() => {
		if (paused) return;
		let timer: NodeJS.Timeout;
		const tick = () => {
			const current = now();
			setClock(current);
			timer = setTimeout(tick, msToNextSecond(current));
		};

		timer = setTimeout(tick, msToNextSecond(now()));
		return () => {
			clearTimeout(timer);
		};
	}, [paused, now]);

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
