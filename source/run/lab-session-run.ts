// The lab once created: the node engine polls as `pleg-top NODE` does while the phases run (on the live screen,
// or said on stderr line by line without a terminal); the first of the phases' end, q, Ctrl-C, SIGTERM or SIGHUP
// stops them; then the namespace is deleted, always, and the write-down names each phase.
import {isSweep, type LabNode} from '../domain/lab/lab-plan.js';
import {systemNow, type NodeEngine} from '../engine/engine.js';
import {labWriteDown} from '../lab/lab-write-down.js';
import {plotSvg} from '../lab/plot-svg.js';
import {sweepPlotSvg} from '../lab/sweep-plot.js';
import {SourceFailure} from '../sources/failure.js';
import {LabRequestError} from '../sources/lab-cluster.js';
import {
	createStatusStore,
	LabStopped,
	pause,
	runPhases,
	statusText,
	type LabStatusStore,
	type PhaseContext,
	type PhaseRun,
} from './lab-phases.js';
import {leftText, teardown, type LabRun} from './lab-teardown.js';
import type {Plan} from './plan.js';
import {formatFailure, isPermanent} from './start-rule.js';
import {hangupExitCode, onStop, quitExitCode, terminalGone, type StopReason} from './signals.js';
import {wrap} from './lab.js';
import {writeFileSync} from 'node:fs';
import {codeOf, messageOf} from '../domain/text/thrown.js';

/** How the phases ended: done, stopped by the user (which way), or failed (why). */
type Ending = {kind: 'done'} | {kind: 'stopped'; reason: StopReason | 'q'} | {kind: 'failed'; error: unknown};

export async function runLabSession(run: LabRun, node: LabNode): Promise<number> {
	const {planFor} = await import('./plan.js');
	const plan = planFor(run.watch, run.env);
	if (plan.demo?.labPods) run.demoPods.set = (count) => plan.demo?.labPods?.(count);
	const contact = await plan.contact();
	if (contact && isPermanent(contact)) {
		plan.close();
		run.io.stderr(formatFailure(contact) + '\n');
		await teardown(run);
		return 3;
	}

	const engine = plan.start('watch') as NodeEngine; // the plan's watch engine
	const status = createStatusStore({phase: 'starting', step: null, steps: 0, running: 0, wanted: 0, waited: null});
	const stop = new AbortController();
	const ran: PhaseRun[] = [];
	const context: PhaseContext = {...run, engine, status, signal: stop.signal, retry: retrier(run, stop.signal), realNow: systemNow, ran};
	const phases: Promise<Ending> = runPhases(context).then(
		() => (stop.signal.aborted ? {kind: 'stopped', reason: stop.signal.reason as StopReason} : {kind: 'done'}), // aborted only with one
		(error: unknown) => (stop.signal.aborted ? {kind: 'stopped', reason: stop.signal.reason as StopReason} : {kind: 'failed', error}), // aborted only with one
	);
	const {ending, torn} =
		process.stdout.isTTY === true
			? await onScreen(run, plan, {engine, status, stop, phases, ran})
			: {ending: await headless(run, status, stop, phases), torn: null};
	// The pods' watch ends with the phases.
	if (!stop.signal.aborted) stop.abort('done');
	engine.stop();
	return finish(run, plan, ran, {ending, torn}, node);
}

/** Requests that may mend (no answer, 429, 5xx) are tried three more times, 0.5 s, 1 s and 2 s apart. */
function retrier(run: LabRun, signal: AbortSignal): PhaseContext['retry'] {
	return async (what, request) => {
		for (let attempt = 0; ; attempt++) {
			try {
				return await request();
			} catch (error) {
				if (signal.aborted || !(error instanceof LabRequestError) || !error.transient || attempt >= 3) throw error;
				if (process.stdout.isTTY !== true) run.io.stderr(`pleg-top lab: ${what}: ${error.failure.summary}; trying again\n`);
				await pause(500 * 2 ** attempt, signal);
			}
		}
	};
}

/** Without a terminal: each phase said on stderr as it starts; a signal stops the phases. */
async function headless(run: LabRun, status: LabStatusStore, stop: AbortController, phases: Promise<Ending>): Promise<Ending> {
	let shown = '';
	const unsubscribe = status.subscribe(() => {
		const {phase, step, steps} = status.get();
		const line = step === null ? '' : `[${step}/${steps}] ${phase}`;
		if (line !== '' && line !== shown) run.io.stderr(`pleg-top lab: ${line}\n`);
		shown = line || shown;
	});
	const unregister = onStop((reason) => stop.abort(reason), {terminal: false});
	try {
		return await phases;
	} finally {
		unregister();
		unsubscribe();
	}
}

/** A teardown begun on the screen: what it said while the screen was up, and its end. */
type ScreenTeardown = {notes: string[]; done: Promise<boolean>};

type ScreenParts = {engine: NodeEngine; status: LabStatusStore; stop: AbortController; phases: Promise<Ending>; ran: PhaseRun[]};

/**
 * On the live screen: the one-node dashboard with the lab's phase in the header. When the phases end (or q stops
 * them) the screen stays while the namespace is deleted, its header saying so; Ctrl-C and signals end the screen at
 * once, and the teardown is said on the normal screen.
 */
async function onScreen(run: LabRun, plan: Plan, parts: ScreenParts): Promise<{ending: Ending; torn: ScreenTeardown | null}> {
	const {status, stop, phases} = parts;
	const [{runFullScreen}, React, {ThemeContext}] = await Promise.all([
		import('./full-screen.js'),
		import('react'),
		import('../screen/layout/line-view.js'),
	]);
	const ended = new AbortController();
	let screenUp = true;
	let torn: ScreenTeardown | null = null;
	void phases.then(async () => {
		if (!screenUp) return;
		const notes: string[] = [];
		status.set({note: `deleting namespace ${run.settings.namespace}, waiting for it to go`});
		const done = teardown(run, (text) => (screenUp ? notes.push(text) : run.io.stderr(text)));
		torn = {notes, done};
		await done;
		ended.abort();
	});
	const app = React.createElement(ThemeContext.Provider, {value: run.watch.theme}, await labAppElement(plan, parts));
	const {by} = await runFullScreen(app, run.io.terminal, ended.signal);
	screenUp = false;
	if (!stop.signal.aborted) stop.abort(terminalGone() ? 'SIGHUP' : (by ?? 'q'));
	return {ending: await phases, torn};
}

async function labAppElement(plan: Plan, {engine, status, stop, ran}: ScreenParts) {
	const [{LabApp}, React] = await Promise.all([import('../screen/lab-app.js'), import('react')]);
	return React.createElement(LabApp, {
		engine,
		header: plan.header,
		demo: plan.demo,
		onQuit: () => stop.abort('q'),
		lab: {
			get: () => statusText(status.get()),
			subscribe: (listener: () => void) => status.subscribe(listener),
			marks: () => namedMarks(ran),
		},
	});
}

/** The phases' marks as the chart draws them: I idle, U up, H hold, D down. */
function namedMarks(ran: readonly PhaseRun[]): Array<{at: number; letter: string; name: string}> {
	return ran.map((phase) => ({at: phase.markedAt, letter: phase.kind.charAt(0).toUpperCase(), name: phase.name}));
}

/** Teardown, always; then the write-down and the files; the exit code. */
async function finish(
	run: LabRun,
	plan: Plan,
	ran: PhaseRun[],
	{ending, torn}: {ending: Ending; torn: ScreenTeardown | null},
	node: LabNode,
): Promise<number> {
	const {io} = run;
	if (ending.kind === 'stopped') io.stderr(`pleg-top lab: stopped (${ending.reason}) during ${ran.at(-1)?.name ?? 'the start'}.\n`);
	if (ending.kind === 'failed') io.stderr(failureText(run, ending.error));
	// A second Ctrl-C or SIGTERM while the namespace goes leaves it, and says so.
	const unregister = onStop(() => {
		io.stderr(leftText(run, 'the teardown was interrupted'));
		process.exit(130);
	});
	// Begun on the screen: what it said there, then the rest as it comes.
	for (const note of torn?.notes ?? []) io.stderr(note);
	await (torn ? torn.done : teardown(run));
	unregister();
	const summary = plan.recorder?.summary();
	plan.close();
	if (summary) writeDownAndFiles(run, summary, ran, node);
	if (ending.kind === 'failed') return 1;
	if (ending.kind !== 'stopped') return 0;
	// As the live screen ends on each: a hangup 129, Ctrl-C 130, Ctrl-\ 131.
	if (terminalGone() || ending.reason === 'SIGHUP') return hangupExitCode;
	return ending.reason === 'SIGINT' ? 130 : ending.reason === 'SIGQUIT' ? quitExitCode : 0;
}

function failureText(run: LabRun, error: unknown): string {
	if (error instanceof LabStopped) return `pleg-top lab: ${error.message}\n`;
	if (error instanceof SourceFailure) return `pleg-top lab: the API server failed after retries: ${error.failure.summary}\n`;
	return `pleg-top lab: ${messageOf(error)}\n`;
}

function writeDownAndFiles(
	run: LabRun,
	summary: NonNullable<Plan['recorder']>['summary'] extends () => infer S ? S : never,
	ran: PhaseRun[],
	node: LabNode,
): void {
	const {io, watch, settings} = run;
	const columns = process.stderr.isTTY ? process.stderr.columns : undefined;
	const down = labWriteDown(summary, ran, {runId: run.runId, sweep: isSweep(settings), width: columns});
	if (!watch.quiet) io.stderr('\n' + wrap(down.text, undefined));
	const save = (file: string | undefined, what: string, content: () => string) => {
		if (file === undefined) return;
		try {
			writeFileSync(file, content());
			io.stderr(`${what} written to ${file}\n`);
		} catch (error) {
			io.stderr(`pleg-top lab: could not write the ${what} to ${file}: ${codeOf(error) ?? messageOf(error)}\n`);
		}
	};

	save(watch.lab.summary, 'write-down', () => down.markdown);
	save(watch.lab.plot, 'plot', () => (isSweep(settings) ? sweepPlotSvg(down.rows, node.name) : plotSvg(summary)));
	if (watch.lab.record !== undefined) io.stderr(`recording appended to ${watch.lab.record}\n`);
}
