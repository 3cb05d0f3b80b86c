// The overview without a screen: JSON lines (one line per node each time it is read) and --once (every node read
// twice one window apart, or one Prometheus fetch, then one report of all nodes and an exit code).
import {jsonReport} from '../report/report.js';
import {lineText} from '../screen/layout/line.js';
import {overviewPlainLines} from '../screen/panes/overview-table.js';
import type {OverviewEngine} from '../engine/overview-engine.js';
import {sortedRows, type OverviewRow} from '../screen/overview-rows.js';
import {listedNames, nodeView, type NodeView} from '../domain/overview-state.js';

function nodeLine(view: NodeView): object {
	const figures = view.figures;
	const report = figures ? jsonReport(figures) : {node: view.name};
	const failure = view.status.failure;
	return failure
		? {...report, stale: figures !== null, error: {kind: failure.kind, summary: failure.summary, details: failure.details}}
		: report;
}

/** One JSON line per node read (scrape or failure), until stopped. */
export function streamOverviewJsonLines<F>(options: {engine: OverviewEngine<F>; write: (line: string) => void; now?: () => number}): {stop(): void} {
	const now = options.now ?? Date.now;
	const {engine} = options;
	const unsubscribe = engine.subscribe(node => {
		const entry = node === null ? undefined : engine.state.nodes.get(node);
		if (entry) {
			const at = now();
			options.write(JSON.stringify({...nodeLine(nodeView(engine.kind, entry, at)), time: new Date(at).toISOString()}) + '\n');
		}
	});
	return {
		stop() {
			unsubscribe();
			engine.stop();
		},
	};
}

export type OverviewOnce = {views: NodeView[]; rows: OverviewRow[]; listFailure: string | null};

/**
 * Runs `engine` until every listed node has been read `reads` times (2 through the API server: a window needs two
 * scrapes; 1 from Prometheus, which windows itself), or the node list failed, then stops it.
 */
export async function measureOverviewOnce<F>(engine: OverviewEngine<F>, reads: number, now: () => number = Date.now): Promise<OverviewOnce> {
	const counts = new Map<string, number>();
	await new Promise<void>(resolve => {
		const unsubscribe = engine.subscribe(node => {
			if (node !== null) counts.set(node, (counts.get(node) ?? 0) + 1);
			const {state} = engine;
			const names = listedNames(state);
			const listed = state.listedAt !== null || state.listFailure !== null;
			if (listed && (state.listFailure !== null || names.every(name => (counts.get(name) ?? 0) >= reads))) {
				unsubscribe();
				resolve();
			}
		});
	});
	engine.stop();
	const at = now();
	const views = [...engine.state.nodes.values()].map(entry => nodeView(engine.kind, entry, at));
	return {views, rows: sortedRows(views), listFailure: engine.state.listFailure?.summary ?? null};
}

/** 1 when a node's PLEG is unhealthy (the signal comes first), else 3 when a node or the list could not be read, else 0. */
export function exitCodeForOverview(result: OverviewOnce): number {
	if (result.views.some(view => view.figures?.verdict.healthy === false)) return 1;
	if (result.listFailure !== null || result.views.some(view => view.status.failure !== null)) return 3;
	return 0;
}

export function formatOverviewOnce(result: OverviewOnce, output: 'text' | 'json'): string {
	if (output === 'json') {
		const byName = new Map(result.views.map(view => [view.name, view]));
		const nodes = result.rows.map(row => ({...nodeLine(byName.get(row.name)!), status: row.word}));
		return JSON.stringify({nodes, listError: result.listFailure}, null, 2) + '\n';
	}

	const lines = overviewPlainLines(result.rows, 200).map(line => lineText(line).trimEnd());
	const failed = result.views.filter(view => view.status.failure !== null).map(view => `${view.name}: ${view.status.failure!.summary}`);
	const list = result.listFailure === null ? [] : [`node list: ${result.listFailure}`];
	return [...lines, ...failed, ...list].join('\n') + '\n';
}
