// The kubelet's verdict in the kubelet's own words (or, while healthy past the ok band, pleg-top's countdown to
// the rule tripping), what this session has seen of it failing, then the node's Ready condition as the API server
// reports it (the two can disagree for up to a node-status period, default 10 s).
import {formatAge} from '../../domain/text/format.js';
import {bandOf, countdownText} from '../../domain/health/health.js';
import type {Figures, Incident, NodeInfo, Verdict} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {fitItems, lineWidth, seg, wrapWords, type Item, type Line} from '../layout/line.js';
import {healthSymbol, verdictHealth, type Health} from '../layout/theme.js';

export type VerdictLineProps = {
	verdict: Verdict;
	/** null = the Node object was not read (no permission, or not yet). */
	node: NodeInfo | null;
	width: number;
	/** Rows allowed for the verdict and for the Ready message each (long messages are word-wrapped). */
	maxLinesEach?: number;
	/** Leave the node's Ready condition out (tiny panes). */
	hideNode?: boolean;
	/** The age the verdict was judged on and what the session has seen: the countdown and the incident row. */
	figures?: Pick<Figures, 'lastSeen' | 'constants' | 'incident'>;
};

export function verdictLines({verdict, node, width, maxLinesEach = 2, hideNode = false, figures}: VerdictLineProps): Line[] {
	const lines = headLines(verdict, width, maxLinesEach, figures);
	const incident = figures?.incident ? incidentItems(figures.incident) : [];
	if (incident.length > 0) {
		// On the verdict's own row when the span and the flaps fit there (a row saved for the panes below; the Ready
		// flips give way if they do not fit), else on the next row.
		const [head] = lines;
		if (lines.length === 1 && head && lineWidth(fitItems([head, ...incident.slice(0, 2)], Infinity)) <= width) {
			lines[0] = fitItems([head, ...incident], width);
		} else {
			lines.push([seg('  '), ...fitItems(incident, Math.max(0, width - 2))]);
		}
	}

	if (!hideNode && node) {
		lines.push(...readyLines(node, width, maxLinesEach));
	}

	return lines;
}

/** The node's Ready condition as the API server reports it, in at most `maxLines` rows: also without a verdict. */
export function readyLines(node: NodeInfo, width: number, maxLines: number): Line[] {
	return wrapWords(readyText(node), width, maxLines, readyHealth(node), 2);
}

/**
 * The verdict row. Healthy past the ok band it is the countdown, in the band's colour (red from half the
 * threshold), marked as pleg-top's estimate: the kubelet itself still says "PLEG is healthy".
 */
function headLines(verdict: Verdict, width: number, maxLines: number, figures: VerdictLineProps['figures']): Line[] {
	const judged = figures && {verdict, lastSeen: figures.lastSeen, constants: figures.constants};
	const countdown = judged ? countdownText(judged) : null;
	if (judged && countdown) {
		const band = bandOf(judged);
		return wrapWords(`${healthSymbol[band]} ${countdown} · pleg-top's estimate`, width, maxLines, band, 2);
	}

	const health = verdictHealth(verdict.healthy);
	const basis =
		verdict.basis === 'count-unchanged'
			? ' (judged on "count unchanged", no last-seen gauge)'
			: verdict.basis === 'ready-condition'
				? " (the node's Ready condition)"
				: '';
	return wrapWords(`${healthSymbol[health]} ${verdict.message}${basis}`, width, maxLines, health, 2);
}

/**
 * "unhealthy for 1m12s, since 05:09:36 · flaps 3", or after recovery "recovered 40s ago after 4m3s unhealthy";
 * none when the session has seen nothing to say. The counts come last: they give way first.
 */
function incidentItems(incident: Incident): Item[] {
	const items: Item[] = [];
	if (incident.unhealthyForSeconds !== null && incident.unhealthySince !== null) {
		const atLeast = incident.sinceExact ? '' : 'at least ';
		const orBefore = incident.sinceExact ? '' : ' or before';
		items.push([
			seg(`unhealthy for ${atLeast}`, 'unhealthy'),
			seg(formatAge(incident.unhealthyForSeconds), 'value'),
			seg(`, since ${clockTime(incident.unhealthySince)}${orBefore}`, 'unhealthy'),
		]);
	} else if (incident.recovered) {
		const {agoSeconds, afterSeconds, exact} = incident.recovered;
		items.push([seg(`recovered ${formatAge(agoSeconds)} ago after ${exact ? '' : 'about '}${formatAge(afterSeconds)} unhealthy`, 'warn')]);
	}

	if (incident.flaps > 0) {
		items.push([seg(`flaps ${incident.flaps}`, 'warn')]);
	}

	if (incident.readyFlips > 0) {
		items.push([seg(`Ready flips ${incident.readyFlips}`, 'warn')]);
	}

	return items;
}

function readyHealth(node: NodeInfo): Health {
	const status = node.ready?.status;
	if (status === 'True') {
		return 'ok';
	}

	return status === 'False' ? 'unhealthy' : 'unknown';
}

/** "✗ node Ready=False KubeletNotReady since 14:02:10: PLEG is not healthy: …" */
function readyText(node: NodeInfo): string {
	const {ready} = node;
	if (!ready) {
		return `${healthSymbol.unknown} node ${node.name}: no Ready condition reported`;
	}

	const parts = [`${healthSymbol[readyHealth(node)]} node Ready=${ready.status}`];
	if (ready.reason) {
		parts.push(ready.reason);
	}

	if (ready.since !== null) {
		parts.push(`since ${clockTime(ready.since)}`);
	}

	const head = parts.join(' ');
	return ready.message ? `${head}: ${ready.message}` : head;
}
