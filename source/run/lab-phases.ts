// The lab's phases as they run: scale, wait for the pods the watch shows (Running on the node, or gone), hold for
// the phase's time, and put a named mark on the engine at each phase's start. What the screen's header shows
// comes from one small store (LabStatus), which the script alone writes.
import {labPhases, podLabels, type LabPhase, type LabSettings} from '../domain/lab/lab-plan.js';
import {notRunning, pendingText, runningOn, type LabPod} from '../domain/lab/lab-pods.js';
import {formatGoDuration} from '../domain/text/go-duration.js';
import type {NodeEngine} from '../engine/engine.js';
import type {LabCluster, PodChange} from '../sources/lab-cluster.js';

/** What the header shows of the lab. */
export type LabStatus = {
	/** "up 0→12", "hold 12", "deleting namespace pleg-lab", … */
	phase: string;
	/** 1-based index of the phase and how many there are; null outside the phases (set-up, teardown). */
	step: number | null;
	steps: number;
	running: number;
	wanted: number;
	/** While pods are awaited: seconds waited and the --pending-timeout, for "14s of 2m". */
	waited: {seconds: number; timeoutSeconds: number} | null;
	/** Said instead of the phase once the phases are over: "deleting namespace pleg-lab, waiting for it to go". */
	note?: string;
};

export type LabStatusStore = {
	get(): LabStatus;
	set(change: Partial<LabStatus>): void;
	subscribe(listener: () => void): () => void;
};

export function createStatusStore(initial: LabStatus): LabStatusStore {
	let status = initial;
	const listeners = new Set<() => void>();
	return {
		get: () => status,
		set(change) {
			status = {...status, ...change};
			for (const listener of listeners) listener();
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}

/** "lab 3/8 up 0→12 · 7/12 Running · 14s of 2m0s" */
export function statusText(status: LabStatus): string {
	if (status.note !== undefined) return `lab: ${status.note}`;
	const step = status.step === null ? '' : ` ${status.step}/${status.steps}`;
	const waited = status.waited
		? ` · ${formatGoDuration(Math.floor(status.waited.seconds))} of ${formatGoDuration(status.waited.timeoutSeconds)}`
		: '';
	return `lab${step} ${status.phase} · ${status.running}/${status.wanted} Running${waited}`;
}

/** A phase as it ran: its mark on the engine's clock and the pods Running on the node at its end. */
export type PhaseRun = LabPhase & {markedAt: number; runningAtEnd: number};

/** The lab failed in a way that is the pods' or the cluster's, said in its own words. */
export class LabStopped extends Error {
	override name = 'LabStopped';
}

export type PhaseContext = {
	settings: LabSettings;
	runId: string;
	cluster: LabCluster;
	engine: NodeEngine;
	status: LabStatusStore;
	signal: AbortSignal;
	/** Retries a request that may mend (lab-run.ts). */
	retry: <T>(what: string, request: () => Promise<T>) => Promise<T>;
	/** The local clock, ms: the pending timeout is real time, also in the demo. */
	realNow: () => number;
	/** Every phase as it starts and ends. */
	ran: PhaseRun[];
};

/** Waits `ms` real milliseconds, or until `signal` aborts (then rejects with its reason). */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
	signal.throwIfAborted();
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal.reason as Error); // an abort reason is an Error
		};

		signal.addEventListener('abort', onAbort, {once: true});
	});
}

/** Resolves after the engine's next read of the node (a scrape or a failure), or when `signal` aborts. */
async function nextRead(engine: NodeEngine, signal: AbortSignal): Promise<void> {
	await new Promise<void>((resolve) => {
		const done = () => {
			unsubscribe();
			signal.removeEventListener('abort', done);
			resolve();
		};

		const unsubscribe = engine.subscribe((_node, read) => {
			if (read) done();
		});
		signal.addEventListener('abort', done, {once: true});
	});
	signal.throwIfAborted();
}

/** The Deployment's pods as the watch keeps them, and a way to wait for a condition on them. */
function followPods(context: PhaseContext): {
	pods: () => Map<string, LabPod>;
	changed: (signal: AbortSignal) => Promise<void>;
	done: Promise<void>;
} {
	const pods = new Map<string, LabPod>();
	let wake: Array<() => void> = [];
	const selector = Object.entries(podLabels(context.runId))
		.map(([key, value]) => `${key}=${value}`)
		.join(',');
	const apply = (change: PodChange) => {
		if (change.type === 'reset') {
			pods.clear();
			for (const pod of change.pods) pods.set(pod.name, pod);
		} else if (change.type === 'upsert') pods.set(change.pod.name, change.pod);
		else pods.delete(change.name);
		context.status.set({running: runningOn(pods, context.settings.node)});
		const waiting = wake;
		wake = [];
		for (const resolve of waiting) resolve();
	};

	const done = context.retry('the watch of the pods', async () => context.cluster.watchPods(selector, apply, context.signal));
	const changed = async (signal: AbortSignal) =>
		new Promise<void>((resolve) => {
			wake.push(resolve);
			signal.addEventListener('abort', () => resolve(), {once: true});
		});
	return {pods: () => pods, changed, done};
}

/** Runs every phase in order; rejects with LabStopped (pods stuck), a LabRequestError, or the signal's reason. */
export async function runPhases(context: PhaseContext): Promise<void> {
	const phases = labPhases(context.settings);
	const watch = followPods(context);
	// A watch that fails for good ends the phases too.
	const watchFailed = watch.done.then(async () => new Promise<never>(() => undefined));
	const script = (async () => {
		await nextRead(context.engine, context.signal);
		for (const [index, phase] of phases.entries()) {
			const markedAt = context.engine.now();
			context.engine.mark(markedAt);
			const run: PhaseRun = {...phase, markedAt, runningAtEnd: 0};
			context.ran.push(run);
			// After the mark is in `ran`: the screen redraws on this, and its chart names the mark.
			context.status.set({phase: phase.name, step: index + 1, steps: phases.length, wanted: phase.to, waited: null});
			try {
				await runPhase(context, phase, watch);
			} finally {
				// Also when stopped: the pods still there, before the teardown deletes them, are the ones the phase held.
				run.runningAtEnd = runningOn(watch.pods(), context.settings.node);
			}
		}
	})();
	await Promise.race([script, watchFailed]);
}

async function runPhase(context: PhaseContext, phase: LabPhase, watch: ReturnType<typeof followPods>): Promise<void> {
	const {settings, signal} = context;
	if (phase.kind === 'idle' || phase.kind === 'hold') {
		await pause(settings.holdSeconds * 1000, signal);
		// The phase's last window ends on a scrape: without it the window would fall short of the hold.
		await nextRead(context.engine, signal);
		return;
	}

	await context.retry(`scaling the deployment to ${phase.to}`, async () => context.cluster.scale(phase.to, signal));
	const reached = phase.kind === 'up' ? () => runningOn(watch.pods(), settings.node) >= phase.to : () => watch.pods().size === 0;
	await awaitPods(context, phase, watch, reached);
}

/** Waits until `reached`, showing the time waited; past --pending-timeout the pods' own reasons end the lab. */
async function awaitPods(
	context: PhaseContext,
	phase: LabPhase,
	watch: ReturnType<typeof followPods>,
	reached: () => boolean,
): Promise<void> {
	const {settings, signal, status} = context;
	const started = context.realNow();
	const timeoutSeconds = settings.pendingTimeoutMs / 1000;
	while (!reached()) {
		const waitedMs = context.realNow() - started;
		status.set({waited: {seconds: waitedMs / 1000, timeoutSeconds}});
		if (waitedMs >= settings.pendingTimeoutMs) throw new LabStopped(await stuckText(context, phase, watch.pods()));
		const tick = new AbortController();
		const onAbort = () => tick.abort();
		signal.addEventListener('abort', onAbort, {once: true});
		const timer = setTimeout(() => tick.abort(), Math.min(1000, settings.pendingTimeoutMs - waitedMs));
		await watch.changed(tick.signal);
		clearTimeout(timer);
		signal.removeEventListener('abort', onAbort);
		signal.throwIfAborted();
	}

	status.set({waited: null});
}

async function stuckText(context: PhaseContext, phase: LabPhase, pods: Map<string, LabPod>): Promise<string> {
	const waited = formatGoDuration(context.settings.pendingTimeoutMs / 1000);
	if (phase.kind === 'down') return `${pods.size} pod${pods.size === 1 ? '' : 's'} of the lab still there after ${waited} (${phase.name})`;
	const stuck = notRunning(pods, context.settings.node);
	// Pods that were never made: the Deployment says why (a quota refused them, say).
	if (pods.size < phase.to) {
		const problem = await context.cluster.deploymentProblem(context.signal).catch(() => null);
		if (problem !== null) return `${phase.to - pods.size} of ${phase.to} pods not made after ${waited}: ${problem}`;
	}

	if (stuck.length === 0)
		return `${runningOn(pods, context.settings.node)} of ${phase.to} pods Running after ${waited}: the Deployment made no more (${phase.name})`;
	return pendingText(stuck, phase.to, waited);
}
