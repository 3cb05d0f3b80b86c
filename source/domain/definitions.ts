// The one definition of every figure pleg-top shows, and of every key it reads.
// Pure data: the help screen (screen/panes/help-screen.ts), `--help` and the README all render these,
// so a formula or a key is written once. The numbers quoted here are the ones the code uses: domain/health/health.ts
// for the bands and the countdown, domain/incident/incident.ts for the spans, the feed and window code for the rest.

export type Definition = {
	/** Stable id, e.g. "last-seen-age". */
	id: string;
	/** The label shown on screen. */
	label: string;
	/** How it is computed, in one sentence with its units. */
	formula: string;
};

export type KeyBinding = {
	/** As typed, e.g. "q" or "Ctrl-C". */
	keys: string[];
	action: string;
	/** One word for the status row's key hints. */
	hint: string;
	/** Only the demo source reacts to it. */
	demoOnly: boolean;
};

export const definitions = [
	{
		id: 'last-seen-age',
		label: 'Last seen age',
		formula:
			"(now + node clock offset) − kubelet_pleg_last_seen_seconds: on the node's clock, as the kubelet judges it (the offset applied beyond ±2 s; the gauge has 1 s resolution); a gauge that is not a number, infinite or negative is no time: read as absent, and said",
	},
	{
		id: 'node-clock',
		label: 'Node clock offset',
		formula:
			"node clock − local clock (JSON clockOffsetSeconds, clockOffsetSource), best source first: relist: the highest gauge − local time where the gauge advanced with the relist count (kept through a stall; lowered only by 5 in a row 2 s below it); date-header: the answer's Date (the kubelet's, through the proxy), midpoint of [Date − answered, Date + 1 − sent] over the scrapes; heartbeat: Ready lastHeartbeatTime − read time, a bound, above 2 s; same-clock (0): the demo, whose simulated kubelet runs on pleg-top's own clock; unknown (null): none, e.g. a stall from the start with no Date. Applied and shown beyond ±2 s ('node clock 3m20s behind'); 'node clock unknown' past the ok band",
	},
	{id: 'never-succeeded', label: 'No successful relist yet', formula: 'the gauge is 0: no relist has succeeded since the kubelet started'},
	{
		id: 'clock-skew',
		label: 'Node clock ahead',
		formula:
			'the gauge is in the future of the node clock as estimated (of the local clock while none is); the age shows 0, never negative',
	},
	{
		id: 'count-unchanged',
		label: 'Count unchanged for',
		formula: 'no usable gauge (kubelet < 1.18, or a gauge that is no time): seconds since the relist count last changed',
	},
	{
		id: 'verdict',
		label: 'Verdict',
		formula:
			"the kubelet's Healthy() rule, age > threshold (strictly) is unhealthy; in its own words. ? unknown while the last scrape failed: the last good scrape's age and verdict, an age past the threshold only as pleg-top's estimate (JSON healthy: null)",
	},
	{
		id: 'gauge-bands',
		label: 'Bands',
		formula:
			'in whole seconds of the age: ✓ ok ≤ min(5 × period, threshold / 2) (5 s: period + relist time + 1 s truncation + check cadence; 300 s evented), ! warn above, !! critical ≥ threshold / 2 (90 s; 300 s evented), ✗ unhealthy when age > threshold (the verdict), ? unknown while the verdict is. The screen, JSON `band` and --fail-on use these',
	},
	{
		id: 'countdown',
		label: 'NotReady in',
		formula:
			"while healthy past the ok band: threshold − the whole seconds of the age, pleg-top's estimate of when the kubelet's rule trips if no relist succeeds meanwhile (the node turns NotReady at its next status update); red from threshold / 2. JSON secondsToThreshold: threshold − age, negative once past, null when unknown",
	},
	{
		id: 'unhealthy-for',
		label: 'Unhealthy for / since',
		formula:
			'since = the start the rule was judged from (the gauge; else when the relist count last changed, "at least") + threshold; for = now − since, null while stale. Recovered: from since to the first scrape that saw it healthy again',
	},
	{
		id: 'flaps',
		label: 'Flaps / transitions / Ready flips',
		formula:
			'flaps: healthy → unhealthy changes seen this session; JSON transitions: changes either way; Ready flips: changes of the Node Ready status between reads of the Node object (every 10 s)',
	},
	{
		id: 'terminal-title',
		label: 'Terminal title and bell',
		formula:
			"title 'pleg-top NODE: …' (healthy, NotReady in N, critical, NotReady in N, UNHEALTHY N, unknown), rewritten when it changes, at most once a scrape, cleared on exit; the bell once on entering critical (≥ threshold / 2) or unhealthy from a better state, and on entering unknown (--no-bell: never). A failed scrape turns both unknown only after 2 failed scrapes in a row or once the last good one is 5 s old (a kubelet never read: at its first failed read); unhealthy is never held back. A node opened from the overview's table takes the title and bell while it shows",
	},
	{id: 'gauge-scale', label: 'Gauge scale', formula: 'log scale from 0.5 s to 2 × threshold; ticks at the relist period and the threshold'},
	{
		id: 'window-mean',
		label: 'Mean (window)',
		formula:
			"Δ_sum / Δ_count of kubelet_pleg_relist_duration_seconds over --window; across a kubelet restart (_count or a bucket went down) a counter that went down adds its new value, as increase() does; a _sum that fell while _count did not is no restart: the count stands, the mean is left out and a note says so; with --history-from the window starts at Prometheus' counters and the chart's first 15 minutes are Prometheus' (History from Prometheus)",
	},
	{
		id: 'quantiles',
		label: 'p50 / p90 / p99',
		formula: 'histogram_quantile on bucket deltas over the window; "≥ 10 s" if the rank is in +Inf',
	},
	{
		id: 'relists-in-window',
		label: 'Relists in window',
		formula: 'Δ_count over the window (failed relists count too; a restart inside it spans, marked R on the history)',
	},
	{id: 'no-relist', label: 'No relist completed', formula: 'Δ_count = 0 in the window: there is no mean, so none is shown (never "0 ms")'},
	{id: 'rate', label: 'Rate', formula: 'Δ_count / Δt, relists per second (≈ 1 / (period + relist time) when healthy)'},
	{id: 'interval-mean', label: 'Interval mean', formula: 'Δ_sum / Δ_count of kubelet_pleg_relist_interval_seconds over the window'},
	{
		id: 'interval-p99',
		label: 'Interval p99',
		formula:
			"the 0.99 rank in the bucket deltas of kubelet_pleg_relist_interval_seconds over the window (the Grafana kubelet dashboard's panel), shown as the bound of the bucket holding it, ≤ 2.5s, not interpolated: ~1 s intervals all fall in (1, 2.5], where histogram_quantile's interpolation says 2.48 s on every healthy node; ≥ 10s in +Inf. ≈ period + duration p99 when healthy",
	},
	{id: 'lifetime-mean', label: 'Lifetime mean', formula: 'sum / count since kubelet start (days of fast relists hide a recent stall)'},
	{
		id: 'discard-events',
		label: 'Discard events',
		formula: 'kubelet_pleg_discard_events total (+ new in window): events lost to a full channel',
	},
	{
		id: 'threshold-period',
		label: 'threshold / period',
		formula: 'relist threshold / relist period from the kubelet source: ×180 (×2 evented)',
	},
	{id: 'threshold-mean', label: 'threshold / mean', formula: 'relist threshold / window mean: how many mean relists fit before NotReady'},
	{
		id: 'constants-row',
		label: 'Kubelet source row',
		formula:
			"the period's and threshold's file:line for the node's version; a version not read takes its own minor's row, else the row below, and says which",
	},
	{
		id: 'evented',
		label: 'Evented PLEG',
		formula:
			'gate on: relist every 300 s, unhealthy after 10 min, last seen = health-check time; fell back to generic (1 s / 3 min again) when stream errors came with no stream obtained, or when ≥ 3 relists ran at ≥ 0.2/s with no stream obtained',
	},
	{id: 'baseline', label: 'Baseline (b)', formula: 'the window at the mark vs Δ since the mark; ×N = since-mark mean / baseline mean'},
	{
		id: 'stale',
		label: 'STALE',
		formula: 'the last scrape failed: figures are from the last good one, whose age and time are shown; the verdict is ? unknown meanwhile',
	},
	{
		id: 'segment',
		label: 'Segment (--replay --once)',
		formula:
			'baseline = first scrape to the scrape before the first b; then each b to the next: Δsum / Δcount, p99, Δcount / Δt over it; the highest last-seen age read at its scrapes (to the ms); time not healthy in it (at least), and why: past the threshold, or "pleg has yet to be successful" (no relist since the kubelet started)',
	},
	{
		id: 'unhealthy-span',
		label: 'Unhealthy span (write-down, --replay --once)',
		formula:
			'from = last successful relist start (gauge) + threshold; lasted at least until the last unhealthy scrape (or the start of the relist that ended it), at most until the first healthy scrape; the highest age read in it. `--replay FILE --once` exits 1 when there is one',
	},
	{
		id: 'write-down',
		label: 'Write-down (on quit)',
		formula:
			'each stretch between marks, named by its marks ("before the mark at 14:00:20", "since the mark at …"): Δsum / Δcount, p99, highest age read, time past the threshold; every unhealthy span; threshold / mean for each stretch, with the threshold\'s file:line',
	},
	{
		id: 'demo-time',
		label: 'Demo time (--demo-speed N)',
		formula:
			"every figure is on the simulated kubelet's own clock, which runs N times faster: windows, rates, ages, times of day; a scrape every --interval of that time, at most 4 a real second",
	},
	{
		id: 'record',
		label: 'Recording (--record)',
		formula:
			'one JSON line per scrape: time, node, kubelet version, the PLEG exposition lines as scraped, the --once JSON figures; mark after a b',
	},
	{
		id: 'history-from',
		label: 'History from Prometheus (--history-from)',
		formula:
			"at start, the node's last 15 minutes from that Prometheus (with --prometheus NODE, that one), read once. Chart: a point per 2 s step (not under --interval), mean rate(_sum[R]) / rate(_count[R]) of the relist duration, R = --window, at least 1m; age timestamp(gauge) − gauge, at Prometheus' scrape; P marks its end. --history-from's window starts at the kubelet's counters as Prometheus stored them one --window ago: increase from there, histogram_quantile on the bucket deltas, no relist counted twice; not across a restart. A failure (the URL and status, or no series for the node) is a line under unavailable. JSON historyFrom {url, points, fromSeconds, untilSeconds, error}",
	},
	{
		id: 'plot',
		label: 'Plot (--plot)',
		formula:
			'windowed mean, p99 and last-seen age per scrape on a log axis (whole decades), b marks as vertical lines, the threshold as a horizontal one; past 4,096 scrapes neighbouring points merge in pairs, each keeping the higher of each figure',
	},
	{
		id: 'cri-operation',
		label: 'CRI call (a)',
		formula:
			'per operation_type of kubelet_runtime_operations_duration_seconds over the window: Δcount / Δt, Δsum / Δcount, p99 of the bucket deltas, Δerrors_total; every kubelet caller counted',
	},
	{
		id: 'cri-trouble',
		label: 'CRI calls in the main view',
		formula:
			'per operation over the window, shown only when one is non-zero or relists stall: Δerrors_total; timeouts = Δ(+Inf) − Δ(le=119.2) of kubelet_runtime_operations_duration_seconds, calls that ran into the default 2-minute --runtime-request-timeout (where the buckets stop at 10 s: "over 10s", not called timeouts); "0 completed": no call of it returned in the window (a hung call counts only when it returns). In-flight calls: no kubelet exposes them',
	},
	{
		id: 'events',
		label: 'Events',
		formula:
			'the node\'s Events as `kubectl describe node` lists them (involvedObject.kind=Node, its name, namespace default), read with the Node object every 10 s (the overview: only for the node opened from the table, while it shows) across the list\'s pages (500 a page, at most 4), also while the kubelet was never read: newest first (by lastTimestamp, else the series\' or eventTime), age since then (kubectl\'s style), ×count. "N Events" is how many the API server holds; "at least N" when more pages were left unread. A 403 is one row naming the rule (list on events in namespace default); JSON events / eventsError',
	},
	{
		id: 'cluster-text',
		label: 'Cluster text (^[, \\u009b)',
		formula:
			"every string from the cluster (Events, the Node's versions and conditions, node names, server and plugin messages, metric labels) is shown with its control characters made visible, as kubectl does since CVE-2021-25743: ESC as ^[, other C0 as ^X (CR ^M, BS ^H, BEL ^G), DEL ^?, C1 and bidi overrides as \\u009b; a line break as a space. JSON carries the same text, and its writer escapes any control character left (U+007F–U+009F too, as \\u00XX)",
	},
	{
		id: 'eviction',
		label: 'Pods evicted in',
		formula:
			"once the Node's Ready condition is False or Unknown: its lastTransitionTime + 300 s (the default tolerationSeconds for the not-ready and unreachable NoExecute taints) − now, with ~ (the API server's clock, and the taint lands a little after the condition); shown with the next steps, with the pods bound to the node (spec.nodeName, counted while it is not Ready; a refusal to list pods is said). JSON podsEvictedInSeconds: negative once passed, null while Ready; podsOnNode, podsOnNodeError",
	},
	{
		id: 'next-steps',
		label: 'Next steps',
		formula:
			"shown from the critical band on (≥ threshold / 2), when unhealthy or unknown; the --once text adds them when unhealthy. One command a row, the node filled in; every kubectl line (and every check: hint) carries the --kubeconfig given and the context used, quoted for a POSIX shell. kubectl describe node, and once unhealthy kubectl cordon; then on the node (ssh: kubectl debug needs the same runtime to start its pod) the runtime the Node reports (containerd://, cri-o:// → unit crio, docker://; containerd when not read): systemctl status, journalctl --since -15m, crictl --timeout 5s info, crictl pods --state notready, the kubelet's PLEG lines of the last 30 minutes. A short screen shows the first ones under the heading, or folds the block into one row",
	},
	{
		id: 'status-calls-per-relist',
		label: 'Status calls per relist',
		formula:
			"(Δpodsandbox_status + Δcontainer_status calls) / Δrelists; other loops call them too, so at most this many are the relist's (list calls are left out: other loops make most of those)",
	},
	{
		id: 'list-share',
		label: 'List share of relist',
		formula:
			'(window mean list_podsandbox + window mean list_containers) / window mean relist; above 100% other callers and failed relists blur it, shown as ≈ all (JSON caps it at 1)',
	},
	{
		id: 'relist-per-container',
		label: 'Relist per container',
		formula: 'window mean relist / kubelet_running_containers{container_state="running"}, seconds per running container',
	},
	{
		id: 'anatomy-reading',
		label: 'Anatomy reading',
		formula:
			'status calls ≥ 1 per relist taking more of the relist than the list calls: per-pod status inspection; list share ≥ 50% with list means ≥ 100 ms together: runtime answers slowly; below 100 ms with < 1 status call per relist: idle',
	},
	{
		id: 'raw-lines',
		label: 'Raw lines (w, --raw)',
		formula:
			"the kubelet_pleg_* sample lines of the last good scrape as the kubelet wrote them (what grep ^kubelet_pleg shows, no HELP or TYPE), in payload order, with the scrape's age on top; control characters made visible (Cluster text); at most 100 lines, each cut at 300 characters with …, the rest counted ('N more lines not kept'). --once --raw prints them instead of the report, with the usual exit code; -o json and JSON lines add raw (the lines) and rawOmitted (the count not kept). None with --prometheus: it reads no /metrics text",
	},
	{
		id: 'overview-slow',
		label: 'Slow (overview)',
		formula: 'window p99 ≥ 10 × the median window p99 of the other nodes read now (at least two); ranked below warnings, above ok',
	},
	{
		id: 'overview-last-seen',
		label: 'Last seen, read (overview)',
		formula:
			"last seen: the age the kubelet's gauge gave at the node's last good read (now − gauge, less the time since that read); read: how long ago that read was, pleg-top's own polling gap, or on --prometheus when Prometheus scraped the gauge (timestamp(kubelet_pleg_last_seen_seconds)). The status is judged on the first only: a read older than 2 × the per-node interval + 5 s makes the node stale (unknown), never lagging or unhealthy; on --prometheus the interval is the node's scrape interval as seen (1m until two scrapes were seen). JSON (--once overview): lastSeenAtReadSeconds, readAgeSeconds; band is the band at the read",
	},
	{
		id: 'overview-notready-in',
		label: 'NotReady in (overview)',
		formula:
			"past the ok band: threshold − the whole seconds of (last seen at the read + read), pleg-top's estimate as the one-node countdown; due now once none is left, ranked with the unhealthy until the next read; — in the ok band. Last seen + read + NotReady in = threshold; a narrow table drops all three. JSON (--once overview): notReadyInSeconds, negative once past",
	},
	{
		id: 'overview-rank',
		label: 'Overview order',
		formula:
			'unhealthy, and critical with NotReady due now; critical (by NotReady in, soonest first); errors and unknowns (stale, waiting); warn (lagging, not ready); slow; ok; gone last. Rows of equal rank stay in name order',
	},
] as const satisfies readonly Definition[];

/** Every figure's id: a typo in a lookup is a type error, not a test failure. */
export type FigureId = (typeof definitions)[number]['id'];

export const keyBindings: readonly KeyBinding[] = [
	{
		keys: ['q', 'Ctrl-C'],
		action: 'quit (exit 0; Ctrl-C exits 130, as an interrupted command; Ctrl-\\ 131, as a quit)',
		hint: 'quit',
		demoOnly: false,
	},
	{keys: ['?'], action: 'keys, then what each figure means (this help)', hint: 'help', demoOnly: false},
	{keys: ['p'], action: 'pause / resume polling', hint: 'pause', demoOnly: false},
	{keys: ['b'], action: 'mark a baseline (press again to move it)', hint: 'mark', demoOnly: false},
	{keys: ['a'], action: 'relist anatomy', hint: 'anatomy', demoOnly: false},
	{keys: ['k'], action: 'kubelet source pane: open / fold into one row', hint: 'source', demoOnly: false},
	{keys: ['c'], action: 'demo: container churn on / off', hint: 'churn', demoOnly: true},
	{keys: ['s'], action: 'demo: stall the relist', hint: 'stall', demoOnly: true},
	{keys: ['r'], action: 'demo: recover (ends the stall, the churn and the slow runtime)', hint: 'recover', demoOnly: true},
	{keys: ['x'], action: 'demo: kubelet restart', hint: 'restart', demoOnly: true},
	{keys: ['l'], action: 'demo: slow runtime on / off', hint: 'slow', demoOnly: true},
	// After the demo's keys: the status row hints in this order, and the demo's must not give way to it.
	{
		keys: ['w'],
		action:
			'raw view: the kubelet_pleg_* lines of the last scrape as the kubelet wrote them, show / hide (↑ ↓ PgUp PgDn Home End scroll them)',
		hint: 'raw',
		demoOnly: false,
	},
	{keys: ['Ctrl-L'], action: 'clear and redraw the whole screen', hint: 'redraw', demoOnly: false},
];

/** The keys of the overview (every node, no node named): its table, not the one-node screen it opens. */
const overviewKeyBindings: readonly KeyBinding[] = [
	{keys: ['↑', '↓', 'j', 'k'], action: 'select a node', hint: 'select', demoOnly: false},
	{keys: ['Enter'], action: "the selected node's one-node screen (q or Esc back to all nodes)", hint: 'open', demoOnly: false},
	{
		keys: ['s'],
		action: 'sort by the next column (status, node, Ready, kubelet, last seen, read, NotReady in, mean, p99, relists/s, discards)',
		hint: 'sort',
		demoOnly: false,
	},
	{keys: ['S'], action: 'reverse the sort', hint: 'reverse', demoOnly: false},
	{keys: ['/'], action: 'filter by node name: type part of it, Enter keeps it, Esc clears it', hint: 'filter', demoOnly: false},
	{keys: ['Esc'], action: 'clear the filter; close this help', hint: 'clear', demoOnly: false},
	{keys: ['?'], action: 'this help', hint: 'keys', demoOnly: false},
	{keys: ['q', 'Ctrl-C'], action: 'quit', hint: 'quit', demoOnly: false},
	{keys: ['Ctrl-L'], action: 'clear and redraw the whole screen', hint: 'redraw', demoOnly: false},
];

/** Keys that work while the help shows, on either screen. */
const helpKeyBindings: readonly KeyBinding[] = [
	{keys: ['↑', '↓'], action: 'scroll one row', hint: 'scroll', demoOnly: false},
	{keys: ['PgUp', 'PgDn'], action: 'scroll one page', hint: 'page', demoOnly: false},
	{keys: ['Home', 'End'], action: 'the first / the last page', hint: 'ends', demoOnly: false},
	{
		keys: ['/', 'n', 'N'],
		action: 'search: type a word, Enter shows the first row holding it, n the next, N the one before; Esc while typing cancels',
		hint: 'search',
		demoOnly: false,
	},
	{keys: ['?', 'Esc'], action: 'close the help', hint: 'close', demoOnly: false},
];

export type KeyGroup = {
	/** Where the keys work, e.g. "one-node screen". */
	title: string;
	bindings: readonly KeyBinding[];
};

/** Every key pleg-top reads, grouped by where it works: what `?`, `--help` and the README list. */
export function keyGroups(): KeyGroup[] {
	return [
		{title: 'one-node screen (pleg-top NODE)', bindings: keyBindings.filter((binding) => !binding.demoOnly)},
		{title: 'overview (pleg-top with no node)', bindings: overviewKeyBindings},
		{title: 'demo (pleg-top --demo), on its one-node screen', bindings: keyBindings.filter((binding) => binding.demoOnly)},
		{title: 'while the help shows', bindings: helpKeyBindings},
	];
}

/** Look one definition up by id (typed, so a typo does not compile). */
export function definition(id: FigureId): Definition {
	const found = definitions.find((d) => d.id === id);
	if (!found) throw new Error(`no definition "${id}"`);
	return found;
}
