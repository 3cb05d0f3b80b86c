// The health of the polling itself: cadence and latency when fine; the failure in the user's
// terms (summary + details) when not; PAUSED; and the key hints. The STALE banner that marks
// the figures lives here too, so both read the same FeedStatus the same way.
import {retryDelay} from '../../domain/backoff.js';
import {keyBindings} from '../../domain/definitions.js';
import {formatAge, formatSeconds} from '../../domain/text/format.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import type {FeedStatus} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {cellWidth, fitItems, fitLeading, lineWidth, seg, wrapWords, type Item, type Line} from '../layout/line.js';
import {tickLabel} from '../../domain/health/gauge-scale.js';
import {healthSymbol} from '../layout/theme.js';

export type StatusLineProps = {
	status: FeedStatus;
	/** Poll interval, seconds. */
	intervalSeconds: number;
	now: number;
	width: number;
	/** The demo source is on: its keys are hinted too. */
	demo?: boolean;
	/** Most failure-detail rows to show (the dashboard lowers it on short terminals). */
	maxDetails?: number;
	/** What q does here: quit, or back to the node table when the screen was opened from it. @default 'quit' */
	quitHint?: 'quit' | 'back';
};

export function statusLines({status, intervalSeconds, width, demo = false, maxDetails = 3, quitHint = 'quit'}: StatusLineProps): Line[] {
	const lines: Line[] = [];
	if (status.failure) {
		lines.push(...wrapWords(`${healthSymbol.unhealthy} ${status.failure.summary}`, width, 2, 'error', 2));
		const details = status.failure.details.slice(0, Math.max(0, maxDetails));
		for (const detail of details) {
			lines.push(...wrapWords(detail, width, 1, 'dim', 2).map((line) => [seg('  '), ...line]));
		}
	}

	// State first (skipping what does not fit), then the key hints in order until one does not fit.
	const state = fitItems(stateItems(status, intervalSeconds), width, '  ');
	const used = lineWidth(state) + (state.length > 0 ? 2 : 0);
	const hints = fitLeading(hintItems(demo, quitHint), width - used, '  ');
	lines.push(hints.length > 0 && state.length > 0 ? [...state, seg('  '), ...hints] : [...state, ...hints]);
	return lines;
}

/** "STALE — last good data 12 s ago (14:02:10)" while the last scrape failed and older figures are shown. */
export function staleBannerLines({status, now, width}: {status: FeedStatus; now: number; width: number}): Line[] {
	if (!status.failure) {
		return [];
	}

	if (status.lastGoodAt === null) {
		return [[seg(width >= 26 ? 'STALE — no good scrape yet' : 'STALE', 'stale')]];
	}

	const age = formatAge(Math.max(0, (now - status.lastGoodAt) / 1000));
	const candidates = [`STALE — last good data ${age} ago (${clockTime(status.lastGoodAt)})`, `STALE — ${age} ago`, 'STALE'];
	const fitting = candidates.find((text) => cellWidth(text) <= width) ?? 'STALE';
	return [[seg(fitting, 'stale')]];
}

function stateItems(status: FeedStatus, intervalSeconds: number): Item[] {
	const items: Item[] = [];
	if (status.paused) {
		items.push([seg('PAUSED', 'paused'), seg(' (p resumes)', 'dim')]);
	}

	if (status.failure) {
		const attempts = status.consecutiveFailures === 1 ? '1 failure' : `${status.consecutiveFailures} failures`;
		// The poller waits longer after each failure (1 s doubling to 10 s): show the wait it really uses.
		const retrySeconds = retryDelay(status.failure.retryAfterSeconds, status.consecutiveFailures, intervalSeconds * 1000) / 1000;
		items.push([seg(`retry back-off ${tickLabel(retrySeconds)} · ${attempts}`, 'error')]);
	} else if (!status.paused) {
		items.push([seg(`every ${tickLabel(intervalSeconds)}`, 'dim')]);
		if (status.lastLatencyMs !== null) {
			items.push([seg('last scrape ', 'dim'), seg(formatLatency(status.lastLatencyMs), 'value')]);
		}
	}

	return items;
}

function formatLatency(ms: number): string {
	return ms < 1000 ? formatGoDuration(Math.round(ms) / 1000) : formatSeconds(ms / 1000);
}

/** Key hints, most useful first; the status row keeps as many as fit. */
function hintItems(demo: boolean, quitHint: 'quit' | 'back'): Item[] {
	return keyBindings
		.filter((binding) => demo || !binding.demoOnly)
		.map((binding) => [seg(binding.keys[0]!, 'value'), seg(` ${binding.hint === 'quit' ? quitHint : binding.hint}`, 'dim')]); // non-empty
}
