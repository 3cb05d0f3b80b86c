// The shapes that flow through pleg-top, one layer to the next:
//   source (I/O) -> Scrape{text} -> parse -> PlegSample -> feed/derive -> Figures -> ui
// Everything in domain/ is free of ink/react and I/O and never reads the clock (eslint.config.js):
// callers pass `now` (milliseconds since the Unix epoch, local clock).

/** One cumulative histogram bucket: observations <= `le` seconds. */
export type Bucket = {le: number; count: number};

/** A classic Prometheus histogram, buckets sorted by `le` ascending, the last one `+Inf`. Units: seconds. */
export type Histogram = {
	buckets: Bucket[];
	sum: number;
	count: number;
};

/** A Prometheus summary converted to seconds (the µs ones are divided by 1e6 when parsed). */
export type Summary = {
	quantiles: Array<{q: number; seconds: number}>;
	sum: number;
	count: number;
};

/** Per-operation CRI latency series, seconds. */
type RuntimeOperation = {
	duration: Histogram | null;
	errors: number | null;
};

/**
 * One operation_type of the runtime-operation families: RuntimeOperation plus the pre-1.14 summary and
 * the call counter. Seconds; counts are calls since the kubelet started.
 */
export type CriOperation = RuntimeOperation & {
	/** kubelet_runtime_operations_latency_microseconds (before 1.18), converted to seconds. */
	legacyLatency: Summary | null;
	/** kubelet_runtime_operations_total (1.14+), else kubelet_runtime_operations: calls since kubelet start. */
	total: number | null;
};

/** The four CRI calls a relist makes, by operation_type: list_podsandbox, list_containers, podsandbox_status, container_status. */
export type RelistOperations<T> = {
	listPodSandbox: T;
	listContainers: T;
	podSandboxStatus: T;
	containerStatus: T;
};

/** The container-runtime series behind a relist. `null` fields = series absent in the payload. */
export type CriSample = {
	/** Per relist operation type; null when the payload has no series for it. */
	operations: RelistOperations<CriOperation | null>;
	/** kubelet_running_pods (1.19+) / kubelet_running_pod_count (before): pods with a running sandbox at the last relist. */
	runningPods: number | null;
	/**
	 * kubelet_running_containers by container_state (1.19+: created, exited, running, unknown), set by every relist;
	 * from the label-less kubelet_running_container_count of older kubelets: {running: n}.
	 */
	runningContainers: Record<string, number> | null;
	/** dockershim -> docker calls (kubelet_docker_operations_*), null without dockershim. */
	docker: {listContainers: CriOperation | null; inspectContainer: CriOperation | null} | null;
};

/** The series pleg-top reads from one kubelet /metrics payload. `null` = series absent in that payload. */
export type PlegSample = {
	/** kubelet_pleg_relist_duration_seconds (kubelet 1.14+). */
	relistDuration: Histogram | null;
	/** kubelet_pleg_relist_interval_seconds (1.14+). */
	relistInterval: Histogram | null;
	/** kubelet_pleg_relist_latency_microseconds (before 1.18), converted to seconds. */
	legacyRelistLatency: Summary | null;
	/** kubelet_pleg_relist_interval_microseconds (before 1.18), converted to seconds. */
	legacyRelistInterval: Summary | null;
	/** kubelet_pleg_last_seen_seconds (1.18+): Unix seconds of the last successful relist start; 0 = none yet. */
	lastSeenSeconds: number | null;
	/** kubelet_pleg_discard_events (1.14+; absent before the first discard in 1.14-1.17). */
	discardEvents: number | null;
	/** kubernetes_feature_enabled{name="EventedPLEG"} (1.26+ exposes feature gates); null when not exposed. */
	eventedPlegGate: boolean | null;
	/** kubelet_evented_pleg_connection_success_count (1.27+). */
	eventedConnectionSuccess: number | null;
	/** kubelet_evented_pleg_connection_error_count (1.27+). */
	eventedConnectionError: number | null;
	/** gitVersion / git_version label of kubernetes_build_info, e.g. "v1.21.2". */
	kubeletVersion: string | null;
	/** The CRI series behind a relist; null when none is exposed. Optional: hand-built samples may omit it. */
	cri?: CriSample | null;
	/**
	 * How the reader put series together, one line each, e.g. "relist duration: 2 series of … that differ by label
	 * instance, added up". Absent when every family was read as the kubelet writes it.
	 */
	notes?: string[];
	/** The kubelet_pleg_* sample lines as written, for the raw view; absent on hand-built samples. */
	raw?: RawLines;
};

/** The kubelet_pleg_* sample lines of one /metrics payload, for the raw view (`w`, --raw): what `grep ^kubelet_pleg` shows. */
export type RawLines = {
	/**
	 * In payload order, each as the kubelet wrote it (blanks around it dropped) with its control characters made
	 * visible (untrusted-text.ts); at most parse.ts maxRawLines, each cut at maxRawLineLength characters with "…".
	 */
	lines: string[];
	/** Lines past maxRawLines: counted, not kept. */
	omitted: number;
};

/** One successful poll: what the source returned and when (local clock). */
export type Scrape = {
	/** Local time (ms since epoch) when the response was complete. */
	at: number;
	sample: PlegSample;
	/** How long the request took, ms. */
	latencyMs: number;
	/**
	 * The answer's Date header, Unix seconds (1 s resolution): the kubelet's clock, passed through the API server's
	 * node proxy (clock-offset.ts). Null or absent when the source gives none (demo, replay, Prometheus).
	 */
	dateSeconds?: number | null;
	/** The source's gauge is on the very clock `at` is read on (the demo's simulated kubelet): no offset to learn. */
	sameClock?: boolean;
};

/** A /metrics answer with the time its server wrote on it. */
export type MetricsAnswer = {text: string; dateSeconds: number | null};

/** What pleg-top knows about the Node object (GET /api/v1/nodes/NODE), refreshed every 10 s. */
export type NodeInfo = {
	name: string;
	/** metadata.uid: a new one under the same name is another Node (deleted and made again), its kubelet another. */
	uid?: string;
	kubeletVersion: string | null;
	ready: {
		status: 'True' | 'False' | 'Unknown';
		reason: string | null;
		message: string | null;
		/** lastTransitionTime, ms since epoch. */
		since: number | null;
		/** lastHeartbeatTime, Unix seconds on the node's clock (a bound on its offset); absent when not read. */
		heartbeatSeconds?: number | null;
	} | null;
	/** status.nodeInfo.containerRuntimeVersion, e.g. "containerd://1.7.2"; absent when the source reads no Node object. */
	containerRuntimeVersion?: string | null;
	/** The pods bound to the node, counted while it is not Ready (for the eviction horizon); absent or null otherwise. */
	pods?: PodCount | null;
};

/** The pods on a node (spec.nodeName), or why they were not counted (e.g. RBAC: list on pods). */
export type PodCount = {count: number; error: null} | {count: null; error: string};

/** One Event about the node, as `kubectl describe node` lists them. */
export type NodeEvent = {
	/** "Normal" or "Warning". */
	type: string;
	/** e.g. NodeNotReady, Rebooted, ContainerGCFailed. */
	reason: string;
	message: string;
	/** How often it happened (count, or series.count of an events.k8s.io Event). */
	count: number;
	/** When it last happened, seconds since the epoch (lastTimestamp, else the newest time the Event carries); null when it has none. */
	lastTimestamp: number | null;
	/** Who reported it (source.component, else reportingController), e.g. "kubelet", "node-controller". */
	source: string | null;
};

/** The node's recent Events, newest first; `error` says why there are none to show (e.g. a 403), without failing the screen. */
export type NodeEvents = {
	events: NodeEvent[];
	error: Failure | null;
	/** How many Events the node has; absent: as many as `events` holds. */
	total?: EventsTotal;
};

/** How many Events the API server holds for the node: `count`, or at least `count` when the read stopped at its bound. */
type EventsTotal = {count: number; atLeast: boolean};

/** One Event as shown at `now`. */
export type NodeEventAt = NodeEvent & {
	/** now − lastTimestamp, seconds, never negative; null when the Event carries no time. */
	ageSeconds: number | null;
};

/** The node's recent Events at `now`, for the screen and the reports. */
export type EventsFigures = {
	/** Newest first, as last read. */
	items: NodeEventAt[];
	/** The last read was refused (a 403, its RBAC rule in the details) or failed; the items are then the last good read's. */
	error: Failure | null;
	/** How many Events the node has (the items are the newest of them); absent: as many as the items. */
	total?: EventsTotal;
};

/**
 * The one interface every metrics source implements (API server proxy, demo kubelet, replay).
 * `fetchMetrics` returns the kubelet /metrics text (over HTTP cut by cutToPlegLines: the lines parsePlegSample
 * never reads left empty); `fetchNode` the Node object's summary (optional).
 */
export type MetricsSource = {
	/** Shown in the header, e.g. "worker-1 via https://10.0.0.1:6443" or "demo node". */
	readonly label: string;
	/** The URL fetchMetrics reads (no credential in it), for messages that say where pleg-top looked. */
	readonly metricsUrl?: string;
	/** The node name, for reports. */
	readonly node: string;
	fetchMetrics(signal: AbortSignal): Promise<string>;
	/**
	 * The node's clock is the one pleg-top reads (the demo's simulated kubelet): its ages need no offset, and a gauge
	 * read late on a busy machine (at --demo-speed 20 a quarter second is 5 simulated seconds) must not be taken for one.
	 */
	readonly sameClock?: boolean;
	/** fetchMetrics with the answer's Date header, for the node's clock offset; sources over HTTP have it. */
	fetchMetricsDated?(signal: AbortSignal): Promise<MetricsAnswer>;
	fetchNode?(signal: AbortSignal): Promise<NodeInfo>;
	/** The node's recent Events; never rejects for a refusal (it comes back in `error`), only on abort. */
	fetchEvents?(signal: AbortSignal): Promise<NodeEvents>;
	/** Warnings to say once on stderr at start (e.g. a token sent without TLS); the label carries their short form. */
	readonly notes?: readonly string[];
	close?(): void;
};

/** Why a request failed, in the user's terms. `kind` decides the exit code (config -> 2, the rest -> 3). */
export type FailureKind =
	'config' | 'network' | 'timeout' | 'tls' | 'unauthorized' | 'forbidden' | 'not-found' | 'kubelet-unreachable' | 'http' | 'parse';

export type Failure = {
	kind: FailureKind;
	/** One line for the status bar. Never contains a credential. */
	summary: string;
	/** Further lines: the URL, the server's message, the RBAC rule, the command to check. */
	details: string[];
	/** The server asked to wait this long before the next request (Retry-After, at most 60), s; the back-off uses it. */
	retryAfterSeconds?: number;
};

/** A histogram quantile answer. `atLeast` = the rank fell in the +Inf bucket: the value is a lower bound. */
/**
 * atLeast: the rank is in +Inf, `seconds` the highest finite bound. atMost: `seconds` is the upper bound of the
 * bucket holding the rank, not an interpolation (the relist interval p99).
 */
export type Quantile = {seconds: number; atLeast: boolean; atMost?: boolean};

/** Figures from the deltas between two scrapes (a window, or since a baseline mark). */
export type DeltaFigures = {
	/** Seconds between the two scrapes. */
	spanSeconds: number;
	/** Relists completed in the span (Δcount). */
	count: number;
	/** Δsum / Δcount; null when no relist completed, or when the sum fell (sumFell). */
	meanSeconds: number | null;
	/** Present (true) when _sum fell over the span while _count did not: inconsistent series, so no mean. */
	sumFell?: true;
	p50: Quantile | null;
	p90: Quantile | null;
	p99: Quantile | null;
	/** Δcount / span. */
	ratePerSecond: number | null;
	/** Δsum/Δcount of the interval histogram; null when none completed. */
	intervalMeanSeconds: number | null;
	/**
	 * histogram_quantile(0.99) of the interval histogram's bucket deltas (the Grafana kubelet dashboard's panel);
	 * null when no interval was observed in the span; absent where a source does not compute it (Prometheus).
	 */
	intervalP99?: Quantile | null;
	/** New discard events in the span; null when the series is absent. */
	discardEvents: number | null;
};

/** A kubelet source constant with where it is written. */
export type SourceConstant = {
	seconds: number;
	/** e.g. "pkg/kubelet/kubelet.go:179" or null when not read for this version. */
	location: string | null;
	/** The Go identifier, e.g. "genericPlegRelistThreshold". */
	name: string;
	/** Caveat shown beside it: "derived", "between known rows 1.21 and 1.25", ... */
	note: string | null;
};

export type KubeletConstants = {
	/** The table row used, e.g. "v1.28.0". */
	row: string;
	/** Why that row when it was not read for this version, e.g. "v1.35.0 not read; the v1.35.3 row of the same minor". */
	rowNote: string | null;
	period: SourceConstant;
	threshold: SourceConstant;
	/** True when the evented-PLEG durations apply (300 s / 10 min). */
	evented: boolean;
	/**
	 * The gate is on but the kubelet fell back to the Generic PLEG, and on what evidence: "evented, fell back to
	 * generic after 5 stream errors". The generic durations are in force then; null otherwise.
	 */
	eventedFallback: string | null;
	/** The Healthy() location, e.g. "pkg/kubelet/pleg/generic.go:173". */
	healthyLocation: string | null;
};

export type Verdict = {
	/** null = cannot be judged (no last-seen and no fallback yet). */
	healthy: boolean | null;
	/** The kubelet's own words: "PLEG is not healthy: pleg was last seen active 3m7s ago; threshold is 3m0s", or "PLEG is healthy". */
	message: string;
	/**
	 * Which age the rule was applied to; `ready-condition`: the node's Ready condition said PLEG is not healthy;
	 * `unmoved`: the relist count and the gauge stood still past the threshold (health.ts VerdictEvidence).
	 */
	basis: 'last-seen' | 'count-unchanged' | 'ready-condition' | 'unmoved' | 'none';
};

/** What is known while the last scrape failed: the verdict then is unknown, these say why and what was seen. */
export type StaleReading = {
	/** The failure of the last attempt, in the user's terms (Failure.summary). */
	failure: string;
	/** When the last good scrape completed (ms). */
	lastGoodAt: number;
	/** now − lastGoodAt, seconds. */
	lastGoodAgeSeconds: number;
	/** The verdict at the last good scrape, in the kubelet's words. */
	verdictThen: Verdict;
	/**
	 * pleg-top's estimate at `now`: the age of the last good scrape's gauge (or count) has since passed the threshold.
	 * The kubelet may have relisted since: the age is an upper bound, never the kubelet's words.
	 */
	estimatePastThreshold: boolean;
};

/** The last-seen gauge as pleg-top reads it at `now`. */
export type LastSeen = {
	/** Raw gauge value (Unix seconds); null when the series is absent (kubelet < 1.18). */
	gaugeSeconds: number | null;
	/** now - gauge, seconds, never negative; null when absent or 0 (no successful relist yet). */
	ageSeconds: number | null;
	/** Seconds the gauge lies in the future (node clock ahead); null when not. */
	skewSeconds: number | null;
	/** Gauge is 0: the kubelet has not completed a successful relist. */
	neverSucceeded: boolean;
	/** Fallback when the gauge is absent: seconds since the relist count last changed. */
	countUnchangedSeconds: number | null;
};

/** One point of the history chart, one per scrape. */
export type HistoryPoint = {
	at: number;
	windowMeanSeconds: number | null;
	lastSeenAgeSeconds: number | null;
	/** A kubelet restart (counter reset) or a baseline mark at this point; `history`: the last point from Prometheus (--history-from). */
	event: 'restart' | 'mark' | 'history' | null;
};

/** One CRI operation over the relist window. Counted from every kubelet caller, not only the relist. */
export type CriOperationFigures = {
	/** Calls completed in the window (Δcount). */
	calls: number;
	/** Δcalls / span, calls per second. */
	ratePerSecond: number | null;
	/** Δsum / Δcount, seconds; null when no call completed. */
	windowMeanSeconds: number | null;
	/** histogram_quantile(0.99) of the bucket deltas; null without the histograms (kubelet < 1.14) or calls. */
	windowP99: Quantile | null;
	/** New errors in the window (a missing error series counts as 0: its child appears at the first error). */
	errors: number;
	/**
	 * Calls in the window that took longer than `overSeconds`: Δ(+Inf) − Δ(le = overSeconds) of the bucket deltas the
	 * p99 is read from. overSeconds is the highest bound up to the kubelet's default 2-minute runtime request timeout:
	 * 119.2 s where the buckets reach that far (calls past it ran into the timeout: `timeouts` true); where they stop
	 * lower (10 s in older kubelets), the top bound, and the calls are only known to be longer (`timeouts` false).
	 * null without the histograms or without a call; absent on hand-built figures.
	 */
	overLimit?: OverLimit | null;
};

/** See CriOperationFigures.overLimit. */
export type OverLimit = {overSeconds: number; calls: number; timeouts: boolean};

/** How the relist splits into CRI calls, in plain words, with the numbers it rests on (anatomy-reading.ts). */
export type AnatomyReading = {
	kind: 'waiting' | 'unavailable' | 'no-relist' | 'idle' | 'list-slow' | 'list' | 'status' | 'mixed';
	text: string;
};

/** The relist anatomy pane's figures, over the same window as Figures.window. */
export type RelistAnatomy = {
	/** Seconds between the window's first and last scrape; null before the second scrape. */
	spanSeconds: number | null;
	/** null per operation when the kubelet does not expose it or its counters went back (kubelet restart). */
	operations: RelistOperations<CriOperationFigures | null>;
	/** Relists completed in the window (Figures.window.count); null before the second scrape. */
	relists: number | null;
	/** (Δpodsandbox_status + Δcontainer_status calls) / Δrelists (definitions.ts "status-calls-per-relist"). */
	statusCallsPerRelist: number | null;
	/** (Δsum podsandbox_status + Δsum container_status) / Δrelists: seconds per relist in status calls, at most. */
	statusSecondsPerRelist: number | null;
	/** (mean list_podsandbox + mean list_containers) / mean relist, as computed: above 1 when other callers' list calls are slower. */
	listShareOfRelist: number | null;
	/** statusSecondsPerRelist / mean relist, as computed. */
	statusShareOfRelist: number | null;
	/** Window mean relist / running containers (container_state="running"), seconds per container. */
	relistSecondsPerContainer: number | null;
	/** At the latest scrape. */
	runningPods: number | null;
	/** By container_state at the latest scrape. */
	runningContainers: Record<string, number> | null;
	/** The dockershim -> docker calls behind ListContainers and the *Status calls; null without dockershim. */
	docker: {listContainers: CriOperationFigures | null; inspectContainer: CriOperationFigures | null} | null;
	/** What this kubelet does not expose, and from which version it would. */
	unavailable: string[];
	reading: AnatomyReading;
};

/** Everything the screen and the reports show, computed from the feed state at `now`. */
/** What the history read gave, for the screen's note and JSON `historyFrom`. */
export type PrehistoryInfo = {
	/** --history-from (or --prometheus). */
	url: string;
	/** Chart points taken from Prometheus. */
	points: number;
	/** The first and last of them, ms; null without points. */
	startAt: number | null;
	endAt: number | null;
	/** Why there is no history (the URL and status, or no series for the node); null when there is. */
	error: string | null;
};

export type Figures = {
	now: number;
	node: string;
	kubeletVersion: string | null;
	constants: KubeletConstants;
	lastSeen: LastSeen;
	/**
	 * The node's clock offset the ages were read with (domain/health/clock-offset.ts); absent where the source does not
	 * estimate it (Prometheus, hand-built figures).
	 */
	clock?: NodeClock;
	/**
	 * kubelet_pleg_discard_events as exposed at the last scrape (total since kubelet start);
	 * null or absent when the series is absent (1.14-1.17 before the first discard). Added for the stats pane.
	 */
	discardEventsTotal?: number | null;
	/** Since kubelet start (sum/count): null when no duration series. */
	lifetime: {count: number; sum: number; meanSeconds: number | null} | null;
	/** The windowed figures; null until two scrapes cover part of the window. */
	window: DeltaFigures | null;
	/** --window, seconds. */
	windowTargetSeconds: number;
	/** The kubelet's rule at `now`; while stale (the last scrape failed) unknown: healthy null, and `stale` says why. */
	verdict: Verdict;
	/** Set while the last scrape failed: the figures are the last good scrape's, the verdict is unknown. */
	stale: StaleReading | null;
	/** threshold / window mean duration; null when no mean. */
	thresholdToMeanRatio: number | null;
	/** threshold / period, 180 for the generic PLEG. */
	thresholdToPeriodRatio: number;
	/** Figures come from the pre-1.18 microsecond summaries. */
	legacy: boolean;
	/** Lines such as "last seen: kubelet_pleg_last_seen_seconds exists from kubelet 1.18". */
	unavailable: string[];
	/** Set after `b`: the window at the mark, the figures since it and since/baseline ratios. */
	baseline: {
		markedAt: number;
		atMark: DeltaFigures | null;
		sinceMark: DeltaFigures | null;
		meanRatio: number | null;
	} | null;
	/** The Node's Ready condition when the source fetched the Node object (added by the metrics helper). */
	ready?: NodeInfo['ready'];
	/** The pods on the node, counted while it is not Ready; null or absent otherwise. */
	pods?: PodCount | null;
	/** The CRI calls behind each relist; absent on hand-built figures. */
	anatomy?: RelistAnatomy | null;
	/** The node's recent Events; null or absent when they were not read (a source without them, or no answer yet). */
	events?: EventsFigures | null;
	/** Unhealthy spans, transitions and Ready flips seen this session (domain/incident/incident.ts); absent where not tracked. */
	incident?: Incident | null;
	/**
	 * The kubelet_pleg_* lines of the scrape the figures come from and when it completed (`at`, ms); null where the
	 * source has no /metrics text (Prometheus answers with figures); absent on hand-built figures.
	 */
	raw?: (RawLines & {at: number}) | null;
	/** What the history from Prometheus gave (--history-from); null or absent when none was asked for or it is still on its way. */
	prehistory?: PrehistoryInfo | null;
};

/** Figures.clock: the node's clock offset in force (domain/health/clock-offset.ts). */
export type NodeClock = {
	/** node clock − local clock, seconds; null when it cannot be known. */
	offsetSeconds: number | null;
	source: 'relist' | 'date-header' | 'heartbeat' | 'same-clock' | 'unknown';
	/** The node is at least offsetSeconds ahead (the heartbeat's bound). */
	atLeast: boolean;
};

/** What this session has seen of the rule failing, at `now` (domain/incident/incident.ts incidentAt). */
export type Incident = {
	/**
	 * When the open unhealthy span began (ms): the start the rule was judged from (the gauge's, else when the relist
	 * count last changed) + the threshold; without either, the first scrape that saw it. Null while not unhealthy.
	 */
	unhealthySince: number | null;
	/** now − unhealthySince, seconds; null while not unhealthy (healthy, or unknown: the last scrape failed). */
	unhealthyForSeconds: number | null;
	/** The start is the gauge's, to its second; otherwise unhealthyForSeconds is a lower bound ("at least"). */
	sinceExact: boolean;
	/** The last span that ended, while healthy again: when it was seen to end and how long it lasted. */
	recovered: {at: number; agoSeconds: number; afterSeconds: number; exact: boolean} | null;
	/** Changes between healthy and unhealthy seen (either way). */
	transitions: number;
	/** Changes from healthy to unhealthy seen: each is one flap. */
	flaps: number;
	/** Changes of the node's Ready condition status seen between reads of the Node object. */
	readyFlips: number;
};

/** The health of the polling itself, for the status line. */
export type FeedStatus = {
	/** Last failure, null after a success. */
	failure: Failure | null;
	/** When failures began (ms), null when healthy. */
	failingSince: number | null;
	/** When the last good scrape completed (ms); the figures are stale when failure != null. */
	lastGoodAt: number | null;
	consecutiveFailures: number;
	/** Latency of the last request, ms. */
	lastLatencyMs: number | null;
	paused: boolean;
};
