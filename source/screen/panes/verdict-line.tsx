// The kubelet's verdict in the kubelet's own words, then the node's Ready condition as the
// API server reports it (the two can disagree for up to a node-status period, default 10 s).
import React from 'react';
import type {NodeInfo, Verdict} from '../../domain/types.js';
import {clockTime} from '../layout/clock-time.js';
import {wrapWords, type Line} from '../layout/line.js';
import {Lines} from '../layout/line-view.js';
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
};

export function verdictLines({verdict, node, width, maxLinesEach = 2, hideNode = false}: VerdictLineProps): Line[] {
	const health = verdictHealth(verdict.healthy);
	const basis = verdict.basis === 'count-unchanged' ? ' (judged on "count unchanged", no last-seen gauge)' : '';
	const lines = wrapWords(`${healthSymbol[health]} ${verdict.message}${basis}`, width, maxLinesEach, health, 2);
	if (!hideNode && node) {
		lines.push(...wrapWords(readyText(node), width, maxLinesEach, readyHealth(node), 2));
	}

	return lines;
}

export function VerdictLine(props: VerdictLineProps) {
	return <Lines lines={verdictLines(props)} width={props.width} />;
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
