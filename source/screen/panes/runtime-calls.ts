// The CRI calls during trouble, in the main view: per operation the errors and the calls that ran into the 2-minute
// runtime request timeout over the window, and which operations completed no call while relists stall. Read from
// the relist anatomy's window figures (domain/anatomy/anatomy.ts), not computed again. Empty while there is nothing to say,
// so an idle screen stays calm.
import {operationKeys, operationLabels, overLimitText} from '../../domain/anatomy/anatomy-text.js';
import {countOf, formatSeconds, formatSpan} from '../../domain/text/format.js';
import type {CriOperationFigures, RelistAnatomy} from '../../domain/types.js';
import {flowItems, seg, type Item, type Line} from '../layout/line.js';

export type RuntimeCallsProps = {
	anatomy: RelistAnatomy | null;
	/** No relist completed in the window, or the age is critical or worse: every operation is listed. */
	stalled: boolean;
	width: number;
	/** Without the in-flight note: for a short screen. @default false */
	compact?: boolean;
};

/** The kubelet counts no CRI call while it runs (no gauge of calls in flight in any version read). */
export const inFlightNote = 'in flight: not exposed';

type Named = {label: string; op: CriOperationFigures};

/** [] when no operation has an error or a call over the limit in the window and relists are not stalled. */
export function runtimeCallsLines({anatomy, stalled, width, compact = false}: RuntimeCallsProps): Line[] {
	if (!anatomy || anatomy.spanSeconds === null) {
		return [];
	}

	const named: Named[] = operationKeys.flatMap((key) => {
		const op = anatomy.operations[key];
		return op ? [{label: operationLabels[key], op}] : [];
	});
	const troubled = named.filter(({op}) => op.errors > 0 || (op.overLimit?.calls ?? 0) > 0);
	if (!stalled && troubled.length === 0) {
		return [];
	}

	const items: Item[] = [[seg(`CRI calls in ${formatSpan(anatomy.spanSeconds)}`, 'title')]];
	if (named.length === 0) {
		items.push([seg('not exposed by this kubelet', 'dim')]);
		return flowItems(items, width);
	}

	items.push(...troubled.map(troubleItem));
	// While relists stall, the calls that completed nothing: a hung call is counted only when it returns.
	const idle = stalled ? named.filter(({op}) => op.calls === 0 && !troubled.some((entry) => entry.op === op)) : [];
	if (idle.length === named.length) {
		items.push([seg('0 completed', 'warn')]);
	} else if (idle.length > 0) {
		items.push([seg('0 completed: ', 'label'), seg(idle.map(({label}) => label).join(', '), 'warn')]);
	}

	if (troubled.length === 0) {
		items.push([seg(quietText(named), 'label')]);
	}

	if (!compact) {
		items.push([seg(inFlightNote, 'dim')]);
	}

	return flowItems(items, width);
}

/** "ListPodSandbox 2 errors, 2 timeouts (> 1m59s), 5 completed". */
function troubleItem({label, op}: Named): Item {
	const parts = [countOf(op.errors, 'error')];
	if (op.overLimit && op.overLimit.calls > 0) {
		parts.push(overLimitText(op.overLimit));
	}

	parts.push(`${op.calls} completed`);
	return [seg(`${label} `, 'label'), seg(parts.join(', '), 'warn')];
}

/** No error and no long call in any operation: said with the bound the buckets allow. */
function quietText(named: Named[]): string {
	const limits = named.flatMap(({op}) => (op.overLimit ? [op.overLimit] : []));
	if (limits.length === 0) {
		return '0 errors';
	}

	const lowest = Math.min(...limits.map((limit) => limit.overSeconds));
	return limits.every((limit) => limit.timeouts) ? '0 errors, 0 timeouts' : `0 errors, 0 over ${formatSeconds(lowest)}`;
}
