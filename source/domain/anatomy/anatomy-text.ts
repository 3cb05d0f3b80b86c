// The relist anatomy in words: the --once text report's section, and the labels and phrases the anatomy and CRI panes share.
import {formatCalls} from './anatomy-reading.js';
import {countOf, formatCount, formatQuantile, formatRate, formatSeconds, formatSpan, missing} from '../text/format.js';
import type {CriOperationFigures, OverLimit, RelistAnatomy, RelistOperations} from '../types.js';

/** The CRI method names, as the runtime's logs and crictl print them. */
export const operationLabels: RelistOperations<string> = {
	listPodSandbox: 'ListPodSandbox',
	listContainers: 'ListContainers',
	podSandboxStatus: 'PodSandboxStatus',
	containerStatus: 'ContainerStatus',
};

export const operationKeys = Object.keys(operationLabels) as Array<keyof RelistOperations<unknown>>; // keys of the literal

export function anatomyReportLines(anatomy: RelistAnatomy | null): Array<[string, string]> {
	if (!anatomy) {
		return [['anatomy', 'no scrape yet']];
	}

	const lines: Array<[string, string]> = [['anatomy', anatomy.reading.text]];
	for (const key of operationKeys) {
		lines.push([operationLabels[key], operationText(anatomy.operations[key])]);
	}

	if (anatomy.docker) {
		lines.push([
			'docker',
			`list_containers ${operationText(anatomy.docker.listContainers)}; inspect_container ${operationText(anatomy.docker.inspectContainer)}`,
		]);
	}

	lines.push(
		[
			'status/relist',
			anatomy.statusCallsPerRelist === null
				? missing
				: `${formatCalls(anatomy.statusCallsPerRelist)} (every caller counted: at most this many are the relist's)`,
		],
		['list share', shareText(anatomy.listShareOfRelist)],
		['running', runningText(anatomy)],
		[
			'per container',
			anatomy.relistSecondsPerContainer === null
				? missing
				: `${formatSeconds(anatomy.relistSecondsPerContainer)} of mean relist per running container`,
		],
	);
	for (const line of anatomy.unavailable) {
		lines.push(['unavailable', line]);
	}

	return lines;
}

/** "1.00/s, mean 3.2ms, p99 11.4ms, 0 errors" (all callers), or why there is nothing. */
export function operationText(op: CriOperationFigures | null): string {
	if (!op) {
		return missing;
	}

	if (op.calls === 0) {
		return `no call in the window, ${countOf(op.errors, 'error')}`;
	}

	const over = op.overLimit && op.overLimit.calls > 0 ? `, ${overLimitText(op.overLimit)}` : '';
	return `${formatRate(op.ratePerSecond)}, mean ${formatSeconds(op.windowMeanSeconds)}, p99 ${formatQuantile(op.windowP99)}, ${countOf(op.errors, 'error')}${over}`;
}

/** "2 timeouts (> 1m59s)" where the buckets reach the 2-minute timeout, else "1 over 10s". */
export function overLimitText(over: OverLimit): string {
	const bound = formatSeconds(over.overSeconds);
	return over.timeouts ? `${countOf(over.calls, 'timeout')} (> ${bound})` : `${over.calls} over ${bound}`;
}

/** "93% of the mean relist", or "≈ all (means add up to 104%)". */
export function shareText(share: number | null): string {
	if (share === null) {
		return missing;
	}

	return share > 1
		? `≈ all of the mean relist (means add up to ${Math.round(share * 100)}%)`
		: `${Math.round(share * 100)}% of the mean relist`;
}

/** "29 pods; containers: 33 running, 9 exited, 1 created". */
function runningText({runningPods, runningContainers}: Pick<RelistAnatomy, 'runningPods' | 'runningContainers'>): string {
	const pods = `${formatCount(runningPods)} pods`;
	return runningContainers === null ? pods : `${pods}; containers: ${containersText(runningContainers)}`;
}

/** Running first, then the other states by count; states at 0 left out. */
export function containersText(byState: Record<string, number>): string {
	const entries = Object.entries(byState)
		.filter(([state, count]) => count > 0 || state === 'running')
		.sort(([a, x], [b, y]) => (a === 'running' ? -1 : b === 'running' ? 1 : y - x));
	return entries.map(([state, count]) => `${formatCount(count)} ${state}`).join(', ');
}

/** "over 1m0s" for the pane title ("CRI calls over 1m0s"). */
export function spanText(spanSeconds: number | null): string {
	return spanSeconds === null ? 'once the window opens (second scrape)' : `over ${formatSpan(spanSeconds)}`;
}
