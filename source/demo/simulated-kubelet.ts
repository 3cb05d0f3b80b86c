// A simulated kubelet whose /metrics text behaves like the real Generic PLEG loop (pkg/kubelet/pleg/generic.go):
// a relist starts, takes its CRI calls' time, and the next one starts 1 s after it ENDED (wait.Until's sliding
// period), so start-to-start = 1 s + previous duration. Lazy: every read advances the state from the last read to
// now() (times `speed`), so it needs no timer. Memory is constant: fixed bucket arrays, one relist in flight.
import {formatGoDuration} from '../domain/text/go-duration.js';
import type {NodeInfo} from '../domain/types.js';
import {
	drawRelistPlan,
	relistOverheadMs,
	RELIST_OPERATION_TYPES,
	type RelistOperationType,
	type RelistPlan,
	type RuntimeConditions,
} from './simulated-cri.js';
import {renderKubeletMetrics, type RunningContainers} from './simulated-exposition.js';
import {fillerFor} from './simulated-filler.js';
import {DEF_BUCKETS, FixedHistogram, RUNTIME_OPERATION_BUCKETS} from './simulated-histogram.js';
import {createRandom, type Random} from './simulated-random.js';
import type {DemoControls, DemoScenario} from '../domain/demo-controls.js';

export {demoLabel, type DemoControls, type DemoScenario} from '../domain/demo-controls.js';

/** genericPlegRelistPeriod, ms. */
const relistPeriodMs = 1000;
/** genericPlegRelistThreshold, ms: Healthy() fails when the last successful relist start is older (strictly). */
const relistThresholdMs = 180_000;
/** From kubelet process start to the first relist (the kubelet initialises before starting PLEG), ms. */
const startupDelayMs = 2000;
/** Longest simulated span one read will replay; beyond it the simulation skips time (e.g. after a laptop sleep). */
const maxCatchUpMs = 6 * 3_600_000;
/** Pods besides the churning deployment, and their containers. */
const steadyPods = 14;
const steadyRunningContainers = 19;
const steadyExitedContainers = 3;
/** The churning deployment: 12 one-container "pause" pods scaled to 0 and back every `churnCycleMs`. */
const pausePods = 12;
const churnCycleMs = 40_000;
/** How many pause pods can come or go between two relists. */
const pausePodsStepPerRelist = 4;
/** ContainerGCPeriod: container garbage collection runs a minute after the previous run ended (wait.Until), ms. */
const containerGcPeriodMs = 60_000;
/** --runtime-request-timeout's default: a CRI call on a hung runtime fails with DeadlineExceeded after it, ms. */
const runtimeRequestTimeoutMs = 120_000;
/** What the kubelet records when container GC's ListContainers runs into the timeout (err.Error() of the gRPC call). */
const deadlineExceeded = 'rpc error: code = DeadlineExceeded desc = context deadline exceeded';

export type SimulatedKubeletOptions = {
	/** The local clock, ms since the epoch. */
	now: () => number;
	/** Simulated seconds per real second (60: one real second is a simulated minute). Default 1. */
	speed?: number;
	/** PRNG seed; the same seed replays the same relists. Default 1. */
	seed?: number;
	/** git_version of kubernetes_build_info. Default "v1.28.4". */
	kubeletVersion?: string;
	/** Node name for kubelet_node_name. Default "demo-node". */
	nodeName?: string;
	/** When the kubelet process started, ms since the epoch (<= now()); the span before now() is simulated at once (idle, capped at 6 h). Default now(). */
	startedAt?: number;
	/**
	 * The clock the exposition's and the Node object's times are on. 'local' (default): mapped onto the local clock
	 * so that local now - last_seen is the simulated age, for a reader on its own clock (a kubelet served over
	 * HTTP). 'simulated': the simulated kubelet's own clock, read with now(), so windows and rates are in its time too.
	 */
	timestamps?: 'local' | 'simulated';
};

export type ReadyCondition = NonNullable<NodeInfo['ready']>;

/**
 * An Event the kubelet records about its Node, aggregated as the API server's Event series are: the same source,
 * type, reason and message count up and move lastMs. Times in ms on the clock of the timestamps.
 */
export type SimulatedEvent = {
	type: 'Normal' | 'Warning';
	reason: string;
	message: string;
	count: number;
	firstMs: number;
	lastMs: number;
	source: 'kubelet';
};

type RuntimeOperationStats = {count: number; secondsSum: number; errors: number};

/** Read-back of the simulation for tests and the benchmark. Times in ms since the epoch, on the clock of the timestamps. */
export type SimulatedKubeletStats = {
	scenario: DemoScenario;
	churning: boolean;
	runtimeSlow: boolean;
	/** Completed relists (kubelet_pleg_relist_duration_seconds_count). */
	relists: number;
	relistSecondsSum: number;
	/** Duration of the most recently completed relist, s; null before the first. */
	lastRelistSeconds: number | null;
	relistInProgress: boolean;
	intervals: number;
	intervalSecondsSum: number;
	/** Start of the last relist whose GetPods succeeded (full precision); null = none since the kubelet started. */
	lastSuccessfulStartMs: number | null;
	/** Simulated age of that start, s. */
	lastSeenAgeSeconds: number | null;
	kubeletStartedAtMs: number;
	/** Simulated ms elapsed since construction (advances `speed` times faster than the local clock). */
	simulatedElapsedMs: number;
	discardEvents: number;
	runningPods: number;
	runtimeOperations: Record<RelistOperationType, RuntimeOperationStats>;
};

type RelistInFlight = {
	startMs: number;
	/** null while hung in ListPodSandbox. */
	plan: RelistPlan | null;
	/** When GetPods returned (relistTime is set then); Infinity while hung or when GetPods fails. */
	listDoneMs: number;
	endMs: number;
	gotPods: boolean;
};

type RuntimeOperationCounters = {duration: FixedHistogram; errors: number};

export class SimulatedKubelet implements DemoControls {
	readonly kubeletVersion: string;
	readonly nodeName: string;
	readonly speed: number;
	readonly #now: () => number;
	readonly #simulatedTimestamps: boolean;
	readonly #random: Random;
	// Simulated clock (ms) and the local time it was last synchronised at.
	#simMs: number;
	#realMs: number;
	readonly #simOriginMs: number;
	#kubeletStartMs: number;
	#nextStartMs: number;
	#current: RelistInFlight | null = null;
	#lastSuccessMs: number | null = null;
	/** When Ready last became True (the first successful relist after a NotReady spell). */
	#readySinceMs: number | null = null;
	#lastDurationSeconds: number | null = null;
	#hang: 'none' | 'pending' | 'hung' = 'none';
	#churn = false;
	#churnSinceMs = 0;
	#slowRuntime = false;
	#pausePods = pausePods;
	/** Pods of `pleg-top lab --demo` Running on the node (set by the lab's in-process cluster). */
	#labPods = 0;
	#containers: RunningContainers | null = null;
	#discardEvents = 0;
	/** Since when the runtime answers no call (the stall's relist hangs from then), simulated ms; null while it answers. */
	#runtimeHungSinceMs: number | null = null;
	/** The next container GC run, simulated ms; a run on a hung runtime waits in ListContainers until the timeout. */
	#nextGcMs = 0;
	#gcWaitingSinceMs: number | null = null;
	/** The Ready status the kubelet last reported with an Event (NodeReady / NodeNotReady). */
	#reportedReady: 'True' | 'False' = 'True';
	/** The Events recorded so far, by source/type/reason/message, simulated times. */
	readonly #events = new Map<string, SimulatedEvent>();
	readonly #duration = new FixedHistogram(DEF_BUCKETS);
	readonly #interval = new FixedHistogram(DEF_BUCKETS);
	readonly #runtime = new Map<RelistOperationType, RuntimeOperationCounters>(
		RELIST_OPERATION_TYPES.map((op) => [op, {duration: new FixedHistogram(RUNTIME_OPERATION_BUCKETS), errors: 0}]),
	);

	// One cached filler: the benchmark asks for the same size every second.
	#fillerCache: {bytes: number; filler: {prefix: string; suffix: string}} | null = null;

	constructor(options: SimulatedKubeletOptions) {
		const speed = options.speed ?? 1;
		if (!Number.isFinite(speed) || speed <= 0) {
			throw new RangeError(`speed must be a positive number, got ${speed}`);
		}

		this.speed = speed;
		this.kubeletVersion = options.kubeletVersion ?? 'v1.28.4';
		this.nodeName = options.nodeName ?? 'demo-node';
		this.#now = options.now;
		this.#simulatedTimestamps = options.timestamps === 'simulated';
		this.#random = createRandom(options.seed ?? 1);
		const realNow = this.#now();
		const startedAt = Math.min(options.startedAt ?? realNow, realNow);
		// The simulated clock starts equal to the local clock at the kubelet's start, and the history up to now
		// is replayed at 1:1 so the simulated and local clocks agree when the demo begins.
		this.#simMs = startedAt;
		this.#realMs = realNow;
		this.#kubeletStartMs = startedAt;
		this.#nextStartMs = startedAt + startupDelayMs;
		this.#nextGcMs = startedAt + containerGcPeriodMs;
		this.#advanceTo(realNow);
		this.#simOriginMs = this.#simMs;
	}

	/** The simulated kubelet's clock, ms since the epoch: equal to the local clock at construction, then `speed` times faster. */
	now(): number {
		this.#sync();
		return this.#simMs;
	}

	/** The simulated instant the last read (metricsText, readyCondition, stats, now) describes, ms; reads nothing. */
	get readAt(): number {
		return this.#simMs;
	}

	get scenario(): DemoScenario {
		if (this.#hang !== 'none') {
			return 'stalled';
		}

		if (this.#churn) {
			return 'churn';
		}

		return this.#slowRuntime ? 'slow-runtime' : 'idle';
	}

	get churning(): boolean {
		return this.#churn;
	}

	get runtimeSlow(): boolean {
		return this.#slowRuntime;
	}

	/** `pleg-top lab --demo`: the lab's pause pods now Running on the node; the next relists list them too. */
	labPods(count: number): void {
		this.#sync();
		this.#labPods = Math.max(0, count);
	}

	get stalled(): boolean {
		return this.#hang !== 'none';
	}

	churn(on: boolean): void {
		this.#sync();
		if (on && !this.#churn) {
			this.#churnSinceMs = this.#simMs;
		}

		this.#churn = on;
	}

	slowRuntime(on: boolean): void {
		this.#sync();
		this.#slowRuntime = on;
	}

	stall(): void {
		this.#sync();
		if (this.#hang !== 'none') {
			return;
		}

		const current = this.#current;
		if (current && !current.gotPods) {
			// Still inside GetPods: this relist hangs in ListPodSandbox.
			current.plan = null;
			current.listDoneMs = Number.POSITIVE_INFINITY;
			current.endMs = Number.POSITIVE_INFINITY;
			this.#hang = 'hung';
			this.#runtimeHungSinceMs = this.#simMs;
		} else {
			// Past GetPods (or between relists): it finishes normally and the next one hangs.
			this.#hang = 'pending';
		}
	}

	recover(): void {
		this.#sync();
		const current = this.#current;
		if (this.#hang === 'hung' && current) {
			const plan = drawRelistPlan(this.#conditions(), this.#random, false);
			// ListPodSandbox returns now; the rest of the relist follows at its normal pace.
			plan.calls[0]!.ms = this.#simMs - current.startMs; // non-empty
			this.#schedule(current, plan);
		}

		this.#hang = 'none';
		this.#runtimeHungSinceMs = null;
		// Back to an idle node: churn and the slow runtime stop too, so r always ends what the other keys started.
		this.#churn = false;
		this.#slowRuntime = false;
		// A GC run waiting on the runtime gets its answer now, late but without an error.
		const gcSince = this.#gcWaitingSinceMs;
		if (gcSince !== null) {
			this.#runtime.get('list_containers')!.duration.observe((this.#simMs - gcSince) / 1000); // set for every key
			this.#gcWaitingSinceMs = null;
			this.#nextGcMs = this.#simMs + containerGcPeriodMs;
		}
	}

	restart(): void {
		this.#sync();
		this.#duration.reset();
		this.#interval.reset();
		for (const counters of this.#runtime.values()) {
			counters.duration.reset();
			counters.errors = 0;
		}

		this.#discardEvents = 0;
		this.#current = null;
		this.#hang = 'none';
		this.#runtimeHungSinceMs = null;
		this.#gcWaitingSinceMs = null;
		this.#nextGcMs = this.#simMs + containerGcPeriodMs;
		// What a kubelet records on its Node when it starts (a restart of the kubelet, not a reboot of the node).
		this.#record('Normal', 'Starting', 'Starting kubelet.', this.#simMs);
		this.#record('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', this.#simMs);
		this.#lastSuccessMs = null;
		this.#readySinceMs = null;
		this.#lastDurationSeconds = null;
		this.#containers = null;
		this.#kubeletStartMs = this.#simMs;
		this.#nextStartMs = this.#simMs + startupDelayMs;
	}

	/** The kubelet's /metrics text at now(): PLEG, CRI runtime operations, build info and a few go_/process_ lines. */
	metricsText(): string {
		this.#sync();
		const relists = this.#duration.count;
		return renderKubeletMetrics({
			nodeName: this.nodeName,
			kubeletVersion: this.kubeletVersion,
			// Healthy() runs at least once a second, so the gauge is read as of the scrape.
			lastSeenSeconds: this.#lastSuccessMs === null ? 0 : Math.floor(this.#wallMs(this.#lastSuccessMs) / 1000),
			discardEvents: this.#discardEvents,
			relistDuration: this.#duration,
			relistInterval: this.#interval,
			runningPods: this.#containers ? steadyPods + this.#pausePods + this.#labPods : 0,
			runningContainers: this.#containers,
			runtimeOperations: RELIST_OPERATION_TYPES.map((op) => ({
				op,
				duration: this.#runtime.get(op)!.duration, // set for every key
				errors: this.#runtime.get(op)!.errors, // set for every key
			})).filter((operation) => operation.duration.count > 0),
			processStartSeconds: Math.floor(this.#wallMs(this.#kubeletStartMs) / 10) / 100,
			goroutines: 380 + (this.#churn ? 45 : 0) + (relists % 13),
			heapAllocBytes: 38_000_000 + ((relists * 7919) % 9_000_000),
		});
	}

	/**
	 * metricsText() plus filler families (labelled histograms like a real kubelet's rest_client_* series) so the
	 * payload is at least `targetBytes` long, e.g. 250_000 for a current kubelet or 5_000_000 for a big node.
	 * The filler is the same on every call; only the PLEG/runtime series move.
	 */
	paddedMetricsText(targetBytes: number): string {
		const text = this.metricsText();
		if (targetBytes <= text.length) {
			return text;
		}

		const filler = this.#filler(targetBytes - text.length);
		return filler.prefix + text + filler.suffix;
	}

	/** The node's Ready condition by the kubelet's rule (PLEG age > 3m0s -> NotReady), as of now(). */
	readyCondition(): ReadyCondition {
		this.#sync();
		if (this.#lastSuccessMs === null) {
			return {
				status: 'False',
				reason: 'KubeletNotReady',
				message: 'PLEG is not healthy: pleg has yet to be successful',
				since: wholeSecond(this.#wallMs(this.#kubeletStartMs)),
			};
		}

		const ageMs = this.#simMs - this.#lastSuccessMs;
		if (ageMs > relistThresholdMs) {
			return {
				status: 'False',
				reason: 'KubeletNotReady',
				message: `PLEG is not healthy: pleg was last seen active ${formatGoDuration(ageMs / 1000)} ago; threshold is ${formatGoDuration(relistThresholdMs / 1000)}`,
				since: wholeSecond(this.#wallMs(this.#lastSuccessMs + relistThresholdMs)),
			};
		}

		return {
			status: 'True',
			reason: 'KubeletReady',
			message: 'kubelet is posting ready status',
			since: wholeSecond(this.#wallMs(this.#readySinceMs ?? this.#kubeletStartMs)),
		};
	}

	/** The Events recorded about the Node up to now(), newest first; times on the clock of the timestamps. */
	events(): SimulatedEvent[] {
		this.#sync();
		return [...this.#events.values()]
			.map((event) => ({...event, firstMs: this.#wallMs(event.firstMs), lastMs: this.#wallMs(event.lastMs)}))
			.sort((a, b) => b.lastMs - a.lastMs);
	}

	stats(): SimulatedKubeletStats {
		this.#sync();
		const runtimeOperations = {} as Record<RelistOperationType, RuntimeOperationStats>; // filled below
		for (const [op, counters] of this.#runtime) {
			runtimeOperations[op] = {count: counters.duration.count, secondsSum: counters.duration.sum, errors: counters.errors};
		}

		return {
			scenario: this.scenario,
			churning: this.#churn,
			runtimeSlow: this.#slowRuntime,
			relists: this.#duration.count,
			relistSecondsSum: this.#duration.sum,
			lastRelistSeconds: this.#lastDurationSeconds,
			relistInProgress: this.#current !== null,
			intervals: this.#interval.count,
			intervalSecondsSum: this.#interval.sum,
			lastSuccessfulStartMs: this.#lastSuccessMs === null ? null : this.#wallMs(this.#lastSuccessMs),
			lastSeenAgeSeconds: this.#lastSuccessMs === null ? null : (this.#simMs - this.#lastSuccessMs) / 1000,
			kubeletStartedAtMs: this.#wallMs(this.#kubeletStartMs),
			simulatedElapsedMs: this.#simMs - this.#simOriginMs,
			discardEvents: this.#discardEvents,
			runningPods: this.#containers ? steadyPods + this.#pausePods + this.#labPods : 0,
			runtimeOperations,
		};
	}

	#filler(bytes: number): {prefix: string; suffix: string} {
		// Reuse within 4 KB of slack, so the small drift of the live text does not regenerate megabytes.
		const cached = this.#fillerCache;
		if (cached && cached.bytes >= bytes && cached.bytes - bytes < 4096) {
			return cached.filler;
		}

		const filler = fillerFor(bytes + 2048);
		this.#fillerCache = {bytes: bytes + 2048, filler};
		return filler;
	}

	/**
	 * A simulated instant on the clock of the timestamps: itself on the simulated clock; on the local clock, the
	 * time such that (local now - result) = simulated age, so ages and thresholds read right at any speed.
	 */
	#wallMs(simMs: number): number {
		return this.#simulatedTimestamps ? simMs : this.#realMs - (this.#simMs - simMs);
	}

	#sync(): void {
		const realNow = this.#now();
		if (realNow <= this.#realMs) {
			return;
		}

		const target = this.#simMs + (realNow - this.#realMs) * this.speed;
		this.#realMs = realNow;
		this.#advanceTo(target);
	}

	/** Records (or counts up) an Event at `atMs`, simulated time. */
	#record(type: SimulatedEvent['type'], reason: string, message: string, atMs: number): void {
		const key = `${type}/${reason}/${message}`;
		const known = this.#events.get(key);
		this.#events.set(
			key,
			known
				? {...known, count: known.count + 1, lastMs: Math.max(known.lastMs, atMs)}
				: {type, reason, message, count: 1, firstMs: atMs, lastMs: atMs, source: 'kubelet'},
		);
	}

	/**
	 * The kubelet's NodeNotReady / NodeReady Events, at the moment its Ready condition changed: the threshold passed,
	 * or the first successful relist after it. Before the first success after a start nothing is judged here.
	 */
	#followReady(): void {
		const lastSuccess = this.#lastSuccessMs;
		if (lastSuccess === null) {
			return;
		}

		const notReadyAt = lastSuccess + relistThresholdMs;
		const status = this.#simMs > notReadyAt ? 'False' : 'True';
		if (status === this.#reportedReady) {
			return;
		}

		this.#reportedReady = status;
		const word = status === 'False' ? 'NodeNotReady' : 'NodeReady';
		this.#record(
			'Normal',
			word,
			`Node ${this.nodeName} status is now: ${word}`,
			status === 'False' ? notReadyAt : (this.#readySinceMs ?? this.#simMs),
		);
	}

	/**
	 * Container GC up to `target`: every minute after the previous run; on a hung runtime its ListContainers waits
	 * until the 2-minute timeout, then fails (a ContainerGCFailed Event, the call's duration and error counted).
	 */
	#collectGarbage(target: number): void {
		for (;;) {
			const waiting = this.#gcWaitingSinceMs;
			if (waiting !== null) {
				const deadline = waiting + runtimeRequestTimeoutMs;
				if (deadline > target) {
					return;
				}

				const listContainers = this.#runtime.get('list_containers')!; // set for every key
				listContainers.duration.observe(runtimeRequestTimeoutMs / 1000);
				listContainers.errors++;
				this.#record('Warning', 'ContainerGCFailed', deadlineExceeded, deadline);
				this.#gcWaitingSinceMs = null;
				this.#nextGcMs = deadline + containerGcPeriodMs;
				continue;
			}

			if (this.#nextGcMs > target) {
				return;
			}

			const hungSince = this.#runtimeHungSinceMs;
			if (hungSince !== null && this.#nextGcMs >= hungSince) {
				this.#gcWaitingSinceMs = this.#nextGcMs;
			} else {
				// A run on an answering runtime takes no time worth simulating.
				this.#nextGcMs += containerGcPeriodMs;
			}
		}
	}

	#advanceTo(target: number): void {
		if (target - this.#simMs > maxCatchUpMs) {
			this.#skip(target - this.#simMs - maxCatchUpMs);
		}

		for (;;) {
			const current = this.#current;
			if (current) {
				if (!current.gotPods && current.listDoneMs <= target) {
					this.#podsListed(current);
				}

				if (current.endMs <= target) {
					this.#complete(current);
					continue;
				}

				break;
			}

			if (this.#nextStartMs > target) {
				break;
			}

			this.#start(this.#nextStartMs);
		}

		this.#collectGarbage(target);
		this.#simMs = target;
		this.#followReady();
	}

	/** Moves every simulated instant forward by `deltaMs`: to the kubelet, that time did not pass. */
	#skip(deltaMs: number): void {
		this.#simMs += deltaMs;
		this.#nextStartMs += deltaMs;
		this.#kubeletStartMs += deltaMs;
		this.#churnSinceMs += deltaMs;
		this.#nextGcMs += deltaMs;
		if (this.#runtimeHungSinceMs !== null) {
			this.#runtimeHungSinceMs += deltaMs;
		}

		if (this.#gcWaitingSinceMs !== null) {
			this.#gcWaitingSinceMs += deltaMs;
		}

		if (this.#lastSuccessMs !== null) {
			this.#lastSuccessMs += deltaMs;
		}

		if (this.#readySinceMs !== null) {
			this.#readySinceMs += deltaMs;
		}

		const current = this.#current;
		if (current) {
			current.startMs += deltaMs;
			current.listDoneMs += deltaMs;
			current.endMs += deltaMs;
		}
	}

	#conditions(): RuntimeConditions {
		return {churn: this.#churn, slowRuntime: this.#slowRuntime, ...(this.#labPods > 0 ? {extraPods: this.#labPods} : {})};
	}

	#start(startMs: number): void {
		// Relist(): the interval since the last successful relist start is observed first (not before the first success).
		if (this.#lastSuccessMs !== null) {
			this.#interval.observe((startMs - this.#lastSuccessMs) / 1000);
		}

		const relist: RelistInFlight = {
			startMs,
			plan: null,
			listDoneMs: Number.POSITIVE_INFINITY,
			endMs: Number.POSITIVE_INFINITY,
			gotPods: false,
		};
		this.#current = relist;
		if (this.#hang === 'pending') {
			this.#hang = 'hung';
			this.#runtimeHungSinceMs = startMs;
			return;
		}

		this.#schedule(relist, drawRelistPlan(this.#conditions(), this.#random));
	}

	#schedule(relist: RelistInFlight, plan: RelistPlan): void {
		const listMs = plan.calls.slice(0, plan.listCalls).reduce((total, call) => total + call.ms, 0);
		const callsMs = plan.calls.reduce((total, call) => total + call.ms, 0);
		relist.plan = plan;
		relist.listDoneMs = plan.failed ? Number.POSITIVE_INFINITY : relist.startMs + listMs;
		relist.endMs = relist.startMs + callsMs + relistOverheadMs(callsMs);
	}

	/** GetPods succeeded: updateRelistTime(start), and the running pod/container gauges are refreshed. */
	#podsListed(relist: RelistInFlight): void {
		const at = relist.listDoneMs;
		if (this.#lastSuccessMs === null || at - this.#lastSuccessMs > relistThresholdMs) {
			this.#readySinceMs = at;
		}

		this.#lastSuccessMs = relist.startMs;
		relist.gotPods = true;
		this.#updatePods(at);
	}

	#updatePods(atMs: number): void {
		const target = this.#churn ? churnTarget(atMs - this.#churnSinceMs) : pausePods;
		const step = Math.max(-pausePodsStepPerRelist, Math.min(pausePodsStepPerRelist, target - this.#pausePods));
		this.#pausePods += step;
		this.#containers = {
			created: step > 0 ? 1 : 0,
			exited: steadyExitedContainers + Math.ceil((pausePods - this.#pausePods) / 3),
			running: steadyRunningContainers + this.#pausePods + this.#labPods,
			unknown: 0,
		};
	}

	#complete(relist: RelistInFlight): void {
		const seconds = (relist.endMs - relist.startMs) / 1000;
		this.#duration.observe(seconds);
		this.#lastDurationSeconds = seconds;
		for (const call of relist.plan?.calls ?? []) {
			const counters = this.#runtime.get(call.op)!; // set for every key
			counters.duration.observe(call.ms / 1000);
			if (call.failed) {
				counters.errors++;
			}
		}

		// A churn relist now and then produces more events than the 1000-slot channel holds.
		if (this.#churn && this.#random.chance(0.01)) {
			this.#discardEvents += this.#random.integer(1, 40);
		}

		this.#current = null;
		this.#nextStartMs = relist.endMs + relistPeriodMs;
	}
}

/** lastTransitionTime as the API server serves it: RFC 3339 to the second. */
function wholeSecond(ms: number): number {
	return Math.floor(ms / 1000) * 1000;
}

/** Pause pods wanted `sinceMs` into a churn: 12 -> 0 -> 12 over one cycle (a triangle wave). */
function churnTarget(sinceMs: number): number {
	const phase = (sinceMs % churnCycleMs) / churnCycleMs;
	return Math.round(pausePods * Math.abs(1 - 2 * phase));
}
