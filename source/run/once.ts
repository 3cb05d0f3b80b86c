// --once: every node of the engine read twice one window apart (from /metrics text; once from Prometheus, which
// windows itself), then one report and an exit code. One node gives the one-node report; the overview, a table of
// every node. --replay --once reports the whole recording instead, without waiting.
import {onceGapMs, type FailOn, type Format, type NodeMode, type OverviewMode} from './mode.js';
import {bandOf, bandReaches} from '../domain/health/health.js';
import {listedNames, nodeView, type NodeView} from '../domain/fleet/overview-state.js';
import type {Failure, Figures} from '../domain/types.js';
import {pasteTarget, type PasteContext} from '../domain/incident/next-steps.js';
import {safeJson} from '../domain/text/untrusted-text.js';
import type {Engine} from '../engine/engine.js';
import {labExitCode, labJsonReport, labTextReport} from '../lab/lab-report.js';
import {recordingFailure} from '../lab/recorder.js';
import {labFromRecording} from '../lab/recording.js';
import {jsonReport, ms, rawJson, rawText, textReport} from '../report/report.js';
import {lineText} from '../screen/layout/line.js';
import {sortedRows, type OverviewRow} from '../screen/overview-rows.js';
import {overviewPlainLines} from '../screen/panes/overview-table.js';
import {exitCodeFor} from '../sources/failure.js';
import {finishLab, quitFilesExitCode} from './lab.js';
import {replayWindowSeconds} from './plan/node-sources.js';
import type {Plan} from './plan.js';
import type {ReplaySource} from '../lab/replay.js';
import {formatFailure, isPermanent} from './start-rule.js';
import {retryDelay} from '../domain/backoff.js';
import {jsonLineOf} from './json-lines.js';
import {jobsText, type ScrapeJobs} from '../domain/fleet/prometheus-feed.js';

type Io = {stdout(text: string): void; stderr(text: string): void};

export async function runOnce(plan: Plan, mode: NodeMode | OverviewMode, io: Io): Promise<number> {
	if (plan.replay && mode.kind === 'node') return replayOnce(plan, plan.replay, mode, io);
	let contactFailure = await plan.contact();
	// A passing fault (a 503, a refused connection) is asked again once before it ends the run; one retrying will not
	// mend is not, nor a timeout: it has already taken the whole --timeout, and a second would double it.
	if (contactFailure && !isPermanent(contactFailure) && contactFailure.kind !== 'timeout') contactFailure = await plan.contact();
	if (contactFailure) {
		plan.close();
		io.stderr(formatFailure(contactFailure) + '\n');
		return exitCodeFor(contactFailure.kind);
	}

	const engine = plan.start('once');
	// --once polls one window apart: its first back-off after a failure is that long (domain/backoff.ts).
	const {views, at} = await readsDone(engine, plan.onceReads, {timeoutMs: mode.timeoutMs, pollMs: onceGapMs(mode)});
	plan.close();
	const written = mode.kind !== 'node' || finishLab(plan, mode, {...io, quiet: true});
	if (engine.scope === 'node') {
		const view = views.find((candidate) => candidate.name === engine.single);
		if (view?.status.failure || !view?.figures) {
			const failure = view?.status.failure ?? {kind: 'not-found' as const, summary: `no figures for ${engine.single}`, details: []};
			io.stderr(formatFailure(failure) + '\n');
			return exitCodeFor(failure.kind);
		}

		const via = plan.header?.kube?.proxy;
		io.stdout(formatNodeOnce(view.figures, mode.format, pasteOf(plan, view), mode.kind === 'node' && mode.raw, via));
		// The verdict's code first; a write-down that could not be written turns a 0 into quitFilesExitCode.
		return exitCodeForFigures(view.figures, mode.failOn) || (written ? 0 : quitFilesExitCode);
	}

	const context = {now: at, cycleMs: engine.effectiveIntervalMs()};
	const result = {
		views,
		rows: sortedRows(views, context),
		listFailure: engine.state.listFailure?.summary ?? null,
		jobs: engine.scrapeJobs?.() ?? null,
	};
	io.stdout(formatOverviewOnce(result, mode.format));
	return exitCodeForOverview(result, mode.failOn);
}

/** Failed reads of the one node that --once retries before it reports the failure (exit 3). */
const onceRetries = 1;
/** --timeout, and the poll interval the poller's first back-off starts from (ms). */
type RetryWithin = {timeoutMs: number; pollMs: number};

/** Whether --once asks again after `failure`: a passing fault whose retry (as the poller schedules it) goes out within --timeout. */
function retried(failure: Failure, {timeoutMs, pollMs}: RetryWithin): boolean {
	return !isPermanent(failure) && retryDelay(failure.retryAfterSeconds, 1, pollMs) <= timeoutMs;
}

/**
 * Runs `engine` until every listed node was read `reads` times (one node: good reads; a failed one is retried once
 * when the retry goes out within --timeout), the node list failed, or (one node) a read failed,
 * then stops it and returns every node's view at that moment, and the moment.
 */
async function readsDone<F>(
	engine: Engine<F>,
	reads: number,
	retry: RetryWithin = {timeoutMs: 0, pollMs: 0},
): Promise<{views: NodeView[]; at: number}> {
	const counts = new Map<string, number>();
	let failedReads = 0;
	await new Promise<void>((resolve) => {
		const check = (node: string | null, read: boolean) => {
			const {state} = engine;
			if (engine.scope === 'node') {
				const entry = state.nodes.get(engine.single);
				const failure = entry === undefined ? null : engine.kind.status(entry.feed).failure;
				// Only good reads make the report's window; a failed one is retried once (the poller's first back-off, 1 s,
				// within any --timeout), unless retrying will not mend it.
				if (node === engine.single && read) {
					if (failure === null) counts.set(node, (counts.get(node) ?? 0) + 1);
					else failedReads++;
				}

				const failed = failure !== null && (!retried(failure, retry) || failedReads >= onceRetries + 1);
				// The node's Events are part of the report: their first answer is waited for too (a refusal is an answer).
				if (failed || ((counts.get(engine.single) ?? 0) >= reads && !engine.awaitingEvents)) finish();
				return;
			}

			if (node !== null && read) counts.set(node, (counts.get(node) ?? 0) + 1);

			const listed = state.listedAt !== null || state.listFailure !== null;
			if (listed && (state.listFailure !== null || listedNames(state).every((name) => (counts.get(name) ?? 0) >= reads))) finish();
		};

		const unsubscribe = engine.subscribe(check);
		const finish = () => {
			unsubscribe();
			resolve();
		};
	});
	engine.stop();
	const at = engine.now();
	return {views: [...engine.state.nodes.values()].map((entry) => nodeView(engine.kind, entry, at)), at};
}

/** Whether the figures' band (health.ts bandOf) is `failOn` or worse; an unknown band reaches none. */
function reachesBand(figures: Figures, failOn: FailOn): boolean {
	return bandReaches(bandOf(figures), failOn);
}

/** 0 healthy (or not judgeable), 1 PLEG unhealthy (or at the --fail-on band). */
function exitCodeForFigures(figures: Figures, failOn: FailOn = 'unhealthy'): number {
	return reachesBand(figures, failOn) ? 1 : 0;
}

/**
 * The report; with --raw (`raw`) the kubelet_pleg_* lines instead of the text, and beside the figures in JSON.
 * `via`: the proxy the requests went through, which the text names.
 */
export function formatNodeOnce(figures: Figures, format: Format, paste?: PasteContext, raw = false, via?: string): string {
	if (format === 'json') return safeJson(raw ? {...jsonReport(figures), ...rawJson(figures)} : jsonReport(figures), 2) + '\n';
	return raw ? rawText(figures) : textReport(figures, undefined, paste, via) + '\n';
}

/** Where the report's pasted kubectl lines go (the kubeconfig and context read) and the node's runtime. */
function pasteOf(plan: Plan, view: NodeView): PasteContext {
	const kube = plan.header?.kube;
	return {
		target: kube ? pasteTarget(kube) : null,
		runtimeVersion: view.node?.containerRuntimeVersion ?? null,
	};
}

/** jobs: the scrape job read and the others seen (--prometheus); null or absent elsewhere. */
type OverviewOnce = {views: NodeView[]; rows: OverviewRow[]; listFailure: string | null; jobs?: ScrapeJobs | null};

/** 1 when a node's PLEG is unhealthy (or at the --fail-on band; the signal comes first), else 3 when a node or the list could not be read, else 0. */
function exitCodeForOverview(result: OverviewOnce, failOn: FailOn = 'unhealthy'): number {
	// Judged as the rows are: on each node's age at its read, not on pleg-top's polling gap since.
	if (result.rows.some((row) => !row.gone && bandReaches(row.band, failOn))) return 1;
	if (result.listFailure !== null || result.views.some((view) => view.status.failure !== null)) return 3;
	return 0;
}

function formatOverviewOnce(result: OverviewOnce, format: Format): string {
	if (format === 'json') {
		const byName = new Map(result.views.map((view) => [view.name, view]));
		const nodes = result.rows.map((row) => {
			const view = byName.get(row.name)!; // set for every key
			// Ages read off the local clock: to the millisecond, as the one-node report's.
			const atRead = {
				band: row.band,
				lastSeenAtReadSeconds: ms(row.lastSeenAgeSeconds),
				readAgeSeconds: ms(row.readAgeSeconds),
				notReadyInSeconds: ms(row.notReadyInSeconds),
			};
			return {...jsonLineOf(view.figures, view.name, view.status.failure), ...atRead, status: row.word};
		});
		const jobs = result.jobs ? {job: result.jobs.chosen, otherJobs: result.jobs.others} : {};
		return safeJson({nodes, listError: result.listFailure, ...jobs}, 2) + '\n';
	}

	const lines = overviewPlainLines(result.rows, 200).map((line) => lineText(line).trimEnd());
	const failed = result.views.filter((view) => view.status.failure !== null).map((view) => `${view.name}: ${view.status.failure!.summary}`); // filtered above
	const list = result.listFailure === null ? [] : [`node list: ${result.listFailure}`];
	const jobs = jobsText(result.jobs ?? null, true);
	return [...lines, ...failed, ...list, ...(jobs === '' ? [] : [`read: ${jobs}`])].join('\n') + '\n';
}

/** --replay FILE --once: the whole recording and each marked segment, without waiting. */
function replayOnce(plan: Plan, replay: ReplaySource, mode: NodeMode, io: Io): number {
	let lab;
	let lines = 0;
	// Streamed: the records are counted as they pass, never held.
	const counted = function* () {
		for (const record of replay.records) {
			lines++;
			yield record;
		}
	};

	try {
		lab = labFromRecording(counted(), replayWindowSeconds(mode, replay)).summary();
	} catch (error) {
		plan.close();
		io.stderr(formatFailure(recordingFailure(mode.backend.kind === 'replay' ? mode.backend.file : 'the recording', error).failure) + '\n');
		return 2;
	}

	plan.close();
	io.stdout(mode.format === 'json' ? safeJson(labJsonReport(lab, lines), 2) + '\n' : labTextReport(lab));
	const written = finishLab(plan, mode, {...io, quiet: true}, lab);
	// 1 when PLEG was not healthy at any recorded scrape, as --once on a live node that is not healthy.
	return labExitCode(lab) || (written ? 0 : quitFilesExitCode);
}
