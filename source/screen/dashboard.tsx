// Layout only: which panes show, where, at this width × height. Every pane builds its rows
// at a known width (layout/line.ts), so rows are counted before anything renders, and the
// layout gives up whole panes instead of letting the terminal wrap or cut a figure. What is
// static goes first: the kubelet source pane folds into one row, then that row goes; only then
// the panes that change every scrape (history, then baseline; the stats last). The verdict and
// the last-seen age always show. `k` shows the kubelet source pane the other way round.
import {Box} from 'ink';
import type {LogView} from '../domain/history/bounded-log.js';
import type {EventsFigures, FeedStatus, Figures, HistoryPoint, NodeInfo} from '../domain/types.js';
import {anatomyPaneLines} from './panes/anatomy-pane.js';
import {baselinePaneLines} from './panes/baseline-pane.js';
import {clockTime} from './layout/clock-time.js';
import {compactLine} from './panes/compact-line.js';
import {constantsPaneLines, constantsSummaryLine} from './panes/constants-pane.js';
import {helpBodyLines, helpScreenLines, helpScroll, type HelpScroll} from './panes/help-screen.js';
import {rowsText, type HelpSearch} from './panes/help-search.js';
import {historyChartLines, type NamedMark} from './panes/history-chart.js';
import {lastSeenGaugeLines} from './panes/last-seen-gauge.js';
import {cellWidth, fitItems, seg, spread, type Item, type Line} from './layout/line.js';
import type {Tone} from './layout/theme.js';
import {LineView, Lines} from './layout/line-view.js';
import {shortName} from './node-names.js';
import {relistStatsLines} from './panes/relist-stats.js';
import {eventsPaneLines, eventsPaneRows} from './panes/events-pane.js';
import {nextStepsPaneLines} from './panes/next-steps-pane.js';
import {runtimeCallsLines} from './panes/runtime-calls.js';
import {rawPaneLines, rawPaneScroll} from './panes/raw-pane.js';
import {bandOf} from '../domain/health/health.js';
import {clockOffsetText} from '../domain/health/clock-offset.js';
import {evictionInSeconds} from '../domain/incident/eviction.js';
import {pasteTarget, showsNextSteps, stepsFor, type PasteContext} from '../domain/incident/next-steps.js';
import {staleBannerLines, statusLines} from './panes/status-line.js';
import {readyLines, verdictLines} from './panes/verdict-line.js';

export type DashboardProps = {
	/** null = waiting for the first scrape. */
	figures: Figures | null;
	status: FeedStatus;
	history: LogView<HistoryPoint>;
	node: NodeInfo | null;
	/** The node's Events: shown from here while there are no figures (a kubelet never read); else from the figures. */
	events?: EventsFigures | null;
	/** The source's label, e.g. "worker-1 via https://10.0.0.1:6443". */
	sourceLabel: string;
	/** Poll interval, seconds. */
	intervalSeconds: number;
	/** ms since the epoch on the clock the engine reads: this machine's live, the simulated kubelet's in the demo, the recording's in a replay. */
	now: number;
	/** Terminal columns and rows the dashboard may use. */
	width: number;
	height: number;
	showHelp: boolean;
	/** `/` in the help: the search typed or done. */
	helpSearch?: HelpSearch | null;
	/** First row of the help's text shown (↑↓ PgUp PgDn scroll it); kept within the text. @default 0 */
	helpOffset?: number;
	/**
	 * `k` pressed an odd number of times: the kubelet source pane shows the other way from what the layout would
	 * choose (open where it would fold into one row, one row where it would be open).
	 */
	toggleConstants?: boolean;
	/** `a`: the relist anatomy pane takes the place of the constants pane and the history chart. */
	showAnatomy?: boolean;
	/** `w` (--raw): the raw kubelet_pleg_* lines take the place of every pane below the gauge. */
	showRaw?: boolean;
	/** The first raw line shown (↑↓ PgUp PgDn scroll them); kept within the lines. @default 0 */
	rawOffset?: number;
	/** What q does: quit, or back to the node table this screen was opened from. @default 'quit' */
	quitHint?: 'quit' | 'back';
	/** The demo scenario's name when the demo source runs. */
	demoScenario?: string;
	/** What the header says of where the figures come from besides the source: the kubeconfig context, a replay. */
	context?: HeaderContext;
	/** `pleg-top lab`: each phase's mark with its name, drawn by letter on the history chart. */
	markNames?: readonly NamedMark[];
};

export type HeaderContext = {
	/** The kubeconfig context and its cluster, when the kubeconfig was read; --kubeconfig when given (for pasted commands). */
	/** `inCluster`: the pod's service account, which kubectl in the pod takes by itself (no context to paste). */
	kube?: {context: string; cluster: string; kubeconfig?: string; inCluster?: boolean};
	/**
	 * --replay: the file and --speed; `ended` once the recording has run out; `reached`: the recorded seconds per real
	 * second measured, said when short of --speed.
	 */
	replay?: {file: string; speed: number; ended?: boolean; reached?: number | null};
	/** `pleg-top lab`: the phase and the pods Running on the node, e.g. "lab 2/8 up 0→12 · 7/12 Running". */
	lab?: string;
};

/** Below these the full layout cannot show its essentials: one compact row instead. */
const minFullWidth = 40;
/** At this width the constants pane goes beside the figures instead of below them. */
const sideBySideWidth = 90;
const columnGap = 2;

/** How the help scrolls on the dashboard (below its header row) at this size: for the screens' scroll keys. */
export function dashboardHelpScroll(width: number, height: number, node?: string, paste?: PasteContext): HelpScroll {
	return helpScroll({width, height: height - 1, node, paste});
}

/** The help's rows as text on the dashboard, for its search: the rows it shows at this width (as dashboardHelpScroll). */
export function dashboardHelpRows(width: number, node?: string, paste?: PasteContext): string[] {
	return rowsText(helpBodyLines(width, node, paste));
}

/** How the raw pane scrolls on the dashboard (in the rows below the gauge) at this size: for the screen's scroll keys. */
export function dashboardRawScroll(props: DashboardProps): HelpScroll {
	const room = rawRoom(props);
	return room ? rawPaneScroll({raw: room.figures.raw, width: props.width, height: room.rows}) : {page: 1, maxOffset: 0};
}

/** The essentials and the rows the raw pane has below them; undefined where the dashboard shows no panes. */
function rawRoom(props: DashboardProps): {figures: Figures; essentials: Essentials; rows: number} | undefined {
	const {figures, width, height} = props;
	if (!figures || width < minFullWidth || props.showHelp) return undefined;
	const essentials = chooseEssentials(props, figures, headerLine(props), staleBannerLines({status: props.status, now: props.now, width}));
	return essentials && {figures, essentials, rows: height - essentials.rows};
}

/** Where pasted commands go (the kubeconfig and context read) and the node's runtime, for the next steps. */
export function pasteContext({context, node}: Pick<DashboardProps, 'context' | 'node'>): PasteContext {
	const kube = context?.kube;
	return {
		target: kube ? pasteTarget(kube) : null,
		runtimeVersion: node?.containerRuntimeVersion ?? null,
	};
}

/** A block of rows: one column of lines, or two panes side by side. */
export type Block = {kind: 'lines'; lines: Line[]} | {kind: 'columns'; left: Line[]; leftWidth: number; right: Line[]; rightWidth: number};

export function blockHeight(block: Block): number {
	return block.kind === 'lines' ? block.lines.length : Math.max(block.left.length, block.right.length);
}

/** The whole screen as blocks; [] means "use the compact row". Pure, so tests can count rows. */
export function dashboardBlocks(props: DashboardProps): Block[] {
	const {width, height} = props;
	if (width < minFullWidth) {
		return [];
	}

	const header = headerLine(props);
	if (props.showHelp) {
		const node = props.figures?.node ?? props.node?.name;
		const paste = pasteContext(props);
		const search = props.helpSearch ?? null;
		return [lines([header]), lines(helpScreenLines({width, height: height - 1, offset: props.helpOffset, node, paste, search}))];
	}

	const raw = props.showRaw ? rawRoom(props) : undefined;
	if (raw) {
		const pane = rawPaneLines({raw: raw.figures.raw, now: props.now, width, height: raw.rows, offset: props.rawOffset});
		return withSpacers([...raw.essentials.top, lines(pane), raw.essentials.status], height);
	}

	const {figures} = props;
	const stale = staleBannerLines({status: props.status, now: props.now, width});
	if (!figures) {
		return unreadBlocks(props, header, stale);
	}

	const essentials = chooseEssentials(props, figures, header, stale);
	if (!essentials) {
		return [];
	}

	const room = height - essentials.rows;
	const optional = chooseOptional(props, figures, room, essentials.top.length);
	const blocks = [...essentials.top, ...optional, essentials.status];
	return withSpacers(blocks, height);
}

export function Dashboard(props: DashboardProps) {
	const blocks = dashboardBlocks(props);
	if (blocks.length === 0) {
		return (
			<Box width={props.width}>
				<LineView line={compactLine({figures: props.figures, status: props.status, sourceLabel: props.sourceLabel, width: props.width})} />
			</Box>
		);
	}

	return (
		<Box flexDirection="column" width={props.width}>
			{blocks.map((block, index) => (
				// Blocks are rebuilt from props each render in a fixed order.
				<BlockView key={index} block={block} />
			))}
		</Box>
	);
}

/** What is known before any good scrape, fullest first: Ready rows, Events, next steps, failure details. */
const unreadVariants = [
	...[5, 4, 3, 2, 1].map((events) => ({ready: 2, events, steps: 'full', details: 3}) as const),
	{ready: 2, events: 1, steps: 'folded', details: 3},
	{ready: 1, events: 1, steps: 'folded', details: 1},
	{ready: 1, events: 0, steps: 'folded', details: 1},
	{ready: 1, events: 0, steps: 'none', details: 0},
	{ready: 0, events: 0, steps: 'none', details: 0},
] as const;

/**
 * A kubelet never read (unreachable, refused, timing out) still has a Node object and Events: the screen says
 * Ready/NotReady and lists them, and once a read has failed (the verdict would be unknown) the next steps with the
 * eviction horizon, as for a node whose reads went stale. Parts give way from the bottom up on a short screen.
 */
function unreadBlocks(props: DashboardProps, header: Line, stale: Line[]): Block[] {
	const {width, height, node} = props;
	// Once a request has failed, "connecting" is no longer true: the STALE banner says no good scrape came yet.
	const waiting = stale.length > 0 ? stale : [firstFitting([`connecting to ${props.sourceLabel} …`, 'connecting …'], width, 'dim')];
	const name = node?.name;
	const steps =
		props.status.failure && name
			? {
					steps: {...pasteContext(props), node: name},
					width,
					evictionInSeconds: evictionInSeconds(node.ready, props.now),
					pods: node.pods ?? null,
				}
			: null;
	for (const variant of unreadVariants) {
		const blocks = [
			lines([header, ...waiting]),
			lines(node && variant.ready > 0 ? readyLines(node, width, variant.ready) : []),
			lines(variant.events > 0 ? eventsPaneLines({events: props.events ?? null, width, maxEvents: variant.events}) : []),
			lines(steps && variant.steps !== 'none' ? nextStepsPaneLines({...steps, folded: variant.steps === 'folded'}) : []),
			lines(statusLines({...statusProps(props), maxDetails: variant.details})),
		];
		if (rowsOf(blocks) <= height) return withSpacers(blocks, height);
	}

	return [];
}

function BlockView({block}: {readonly block: Block}) {
	if (block.kind === 'lines') {
		return <Lines lines={block.lines} />;
	}

	return (
		<Box flexDirection="row">
			<Lines lines={block.left} width={block.leftWidth} />
			<Box width={columnGap} flexShrink={0} />
			<Lines lines={block.right} width={block.rightWidth} />
		</Box>
	);
}

/** The first text that fits the width, else the last one (a row never wraps: the view truncates it). */
function firstFitting(texts: string[], width: number, tone: Tone): Line {
	return [seg(texts.find((text) => cellWidth(text) <= width) ?? texts.at(-1)!, tone)]; // non-empty
}

function lines(rows: Line[]): Block {
	return {kind: 'lines', lines: rows};
}

function rowsOf(blocks: Block[]): number {
	let rows = 0;
	for (const block of blocks) rows += blockHeight(block);
	return rows;
}

/** " (reaching ×230)" while a replay runs measurably short of --speed (this machine cannot show lines faster). */
export function reachingText({speed, reached, ended}: NonNullable<HeaderContext['replay']>): string {
	if (ended || reached === undefined || reached === null || reached >= speed * 0.9) return '';
	return ` (reaching ×${reached >= 10 ? Math.round(reached) : Number(reached.toFixed(1))})`;
}

/**
 * "pleg-top · worker-1 · prod (cluster eu-1) · kubelet v1.28.0 · containerd://1.7.2 · via https://…" with the clock
 * on the right; a replay says "REPLAY FILE ×speed" (and "end of recording") instead of the source. The node is
 * named once: the source's label loses its leading node name. What does not fit goes, from the right.
 */
function headerLine({figures, node, sourceLabel, demoScenario, context, now, width}: DashboardProps): Line {
	const name = figures?.node ?? node?.name ?? null;
	const version = figures?.kubeletVersion ?? node?.kubeletVersion ?? null;
	const items: Item[] = [[seg('pleg-top', 'title')]];
	const time = clockTime(now);
	if (name) {
		// A name longer than the row (up to 253 characters) is cut in the middle, never left out: it says which node. Cut,
		// it leaves half the row to what follows (the context, the kubelet).
		const room = width - time.length - 1 - cellWidth('pleg-top · ');
		items.push([seg(shortName(name, cellWidth(name) <= room ? room : Math.max(Math.min(room, 40), Math.floor(room / 2))), 'value')]);
	}

	// Beside the node it is about, ahead of what drops first at a narrow width: every age below is read on it.
	const clock = figures ? clockOffsetText(figures) : null;
	if (clock) {
		items.push([seg(clock, 'warn')]);
	}

	const replay = context?.replay;
	if (replay) {
		items.push([seg(`REPLAY ${replay.file} ×${replay.speed}${reachingText(replay)}`, 'warn')]);
		if (replay.ended) {
			items.push([seg('end of recording', 'warn')]);
		}
	}

	// What the lab is doing is the one item, after the node, a narrow header must keep.
	if (context?.lab) {
		items.push([seg(context.lab, 'warn')]);
	}

	const kube = context?.kube;
	if (kube) {
		items.push([seg(kube.context === kube.cluster ? kube.context : `${kube.context} (cluster ${kube.cluster})`)]);
	}

	// Before the version: what the demo is doing is the one item a narrow header must not drop.
	// During the lab the pods are the lab's, not the demo's idle: "demo" alone says it is simulated.
	if (demoScenario) {
		items.push([seg(context?.lab && demoScenario === 'idle' ? 'demo' : `demo: ${demoScenario}`, 'warn')]);
	}

	if (version) {
		items.push([seg(`kubelet ${version}`)]);
	}

	if (node?.containerRuntimeVersion) {
		items.push([seg(node.containerRuntimeVersion)]);
	}

	const source = withoutNode(sourceLabel, name);
	if (!replay && source && source !== name) {
		items.push([seg(source, 'dim')]);
	}

	const left = fitItems(items, width - time.length - 1);
	return spread(left, [seg(time, 'dim')], width);
}

/** The source's label without the node it starts with ("worker-1 via https://…" → "via https://…"): named once. */
function withoutNode(label: string, name: string | null): string {
	if (name === null) {
		return label;
	}

	const prefix = [`${name} · `, `${name} `].find((start) => label.startsWith(start));
	return prefix ? label.slice(prefix.length) : label;
}

function statusProps(props: DashboardProps) {
	return {
		status: props.status,
		intervalSeconds: props.intervalSeconds,
		now: props.now,
		width: props.width,
		demo: props.demoScenario !== undefined,
		quitHint: props.quitHint ?? 'quit',
	};
}

type Essentials = {top: Block[]; status: Block; rows: number};

/**
 * Header, STALE banner, verdict and gauge, status: never dropped. On short terminals the
 * verdict and failure details shrink first (fewer wrapped rows, then no Ready row).
 */
function chooseEssentials(props: DashboardProps, figures: Figures, header: Line, stale: Line[]): Essentials | undefined {
	const {width, height} = props;
	const headerBlock = lines([header, ...stale]);
	const gauge = lines(
		lastSeenGaugeLines({
			lastSeen: figures.lastSeen,
			constants: figures.constants,
			width,
			stale: stale.length > 0,
			atLeast: figures.clock?.atLeast === true,
		}),
	);
	const variants = [
		{maxLinesEach: 2, hideNode: false, maxDetails: 3},
		{maxLinesEach: 1, hideNode: false, maxDetails: 1},
		{maxLinesEach: 1, hideNode: true, maxDetails: 0},
	];
	// Fullest first, and each variant built only when the one before it did not fit.
	for (const variant of variants) {
		const verdict = lines(verdictLines({verdict: figures.verdict, node: props.node, width, figures, ...variant}));
		const status = lines(statusLines({...statusProps(props), maxDetails: variant.maxDetails}));
		const top = [headerBlock, verdict, gauge];
		const rows = rowsOf(top) + blockHeight(status);
		if (rows <= height) {
			return {top, status, rows};
		}
	}

	return undefined;
}

/** How the kubelet source pane shows: whole, folded into one row, or not at all. */
type ConstantsForm = 'full' | 'line' | 'none';

/** Builds a part of an arrangement on first use and keeps it: each pane's rows are built at most once a frame. */
type Part<T> = () => T;

function once<T>(build: () => T): Part<T> {
	let value: {built: T} | undefined;
	return () => (value ??= {built: build()}).built;
}

/** `once` for a builder with one argument (the Events pane's count, the constants pane's form). */
function oncePer<K, T>(build: (key: K) => T): (key: K) => T {
	const cache = new Map<K, {built: T}>();
	return (key) => {
		let value = cache.get(key);
		if (!value) {
			value = {built: build(key)};
			cache.set(key, value);
		}

		return value.built;
	};
}

/**
 * The figures below the gauge. Static before dynamic: with every dynamic pane, the constants pane whole, else one
 * row, else none; only then the history goes, then the baseline. The pane shows whole only with a blank row to
 * spare between the blocks (`blocksAbove` of them above these): a screen packed to its last row with reference
 * text reads worse than one row of it. With `k` (toggleConstants) the pane shows the other way: one row where it
 * would be whole, whole (the history and baseline giving way) where it would fold.
 */
function chooseOptional(props: DashboardProps, figures: Figures, room: number, blocksAbove: number): Block[] {
	const {width} = props;
	// The stats alone are also the 'none' and 'line' forms' first block and the fallback: one build for all of them.
	const stats = once(() => relistStatsLines({figures, width}));
	// The baseline and (without the anatomy) the history are in the first arrangement tried: always built.
	const baseline = figures.baseline ? [lines(baselinePaneLines({baseline: figures.baseline, now: props.now, width}))] : [];
	if (props.showAnatomy) {
		const statsOnly = lines(stats());
		const anatomy = lines(anatomyPaneLines({anatomy: figures.anatomy ?? null, width}));
		return (
			[[statsOnly, anatomy, ...baseline], [statsOnly, anatomy], [anatomy]].find((blocks) => rowsOf(blocks) <= room) ??
			fallback(stats(), room)
		);
	}

	const history = lines(
		historyChartLines({
			history: props.history,
			width,
			now: props.now,
			thresholdSeconds: figures.constants.threshold.seconds,
			intervalSeconds: props.intervalSeconds,
			markNames: props.markNames,
		}),
	);
	const dynamic: Block[][] = baseline.length > 0 ? [[...baseline, history], baseline, []] : [[history], []];
	const incident = incidentVariants(figures, width, pasteContext(props));
	const arranged = oncePer((form: ConstantsForm) => statsAndConstants(figures, width, form, stats));
	const attempt = (forms: ConstantsForm[], spaced: boolean, why: SizedBlocks, extra: Block[]) => {
		for (const form of forms) {
			const top = arranged(form);
			// Gaps: one below each block above and each of these (the status row closes the screen).
			const gaps = spaced && form === 'full' ? blocksAbove + top.length + why.blocks + extra.length : 0;
			if (rowsOf(top) + why.rows + rowsOf(extra) <= room - gaps) {
				return {form, blocks: [...top, ...why.build(), ...extra]};
			}
		}

		return undefined;
	};
	// The incident blocks down to their core come before the history and the baseline; below the core, after them.
	const choose = (forms: ConstantsForm[], spaced: boolean) => {
		for (const extra of dynamic) {
			for (const why of incident.core) {
				const found = attempt(forms, spaced, why(), extra);
				if (found) return found;
			}
		}

		for (const why of incident.rest) {
			for (const extra of dynamic) {
				const found = attempt(forms, spaced, why(), extra);
				if (found) return found;
			}
		}

		return undefined;
	};

	const auto = choose(['full', 'line', 'none'], true);
	const chosen = props.toggleConstants ? (choose(auto?.form === 'full' ? ['line', 'none'] : ['full'], false) ?? auto) : auto;
	return chosen?.blocks ?? fallback(stats(), room);
}

/** The incident blocks to try, fullest first: `core` before giving up the history, `rest` after; each sized when first tried. */
type IncidentVariants = {core: Array<Part<SizedBlocks>>; rest: Array<Part<SizedBlocks>>};

/** Blocks counted before they are built: the layout sizes many incident variants and shows one. */
type SizedBlocks = {rows: number; blocks: number; build: () => Block[]};

/** A pane's rows, built once, and their count: from the rows, or sooner where the pane counts them without building. */
type Pane = {rows: Part<number>; lines: Part<Line[]>};

function pane(build: () => Line[], count?: () => number): Pane {
	const built = once(build);
	return {rows: count ? once(count) : () => built().length, lines: built};
}

/** The panes that have rows, one block each (an empty pane takes no block and no gap). */
function sized(panes: Pane[]): SizedBlocks {
	const shown = panes.filter((each) => each.rows() > 0);
	return {
		rows: shown.reduce((sum, each) => sum + each.rows(), 0),
		blocks: shown.length,
		build: () => shown.map((each) => lines(each.lines())),
	};
}

/** Events beyond this many wait for `kubectl describe node`. */
const maxEventsShown = 5;
/** The next steps' command counts tried on a short screen, most first: below 1 the pane folds into one row. */
const commandCountsTried = [5, 4, 3, 2, 1];
/**
 * The commands kept before the history chart: `kubectl describe node` and `kubectl cordon`, the two an on-call
 * person runs first. Fewer (or the steps folded) only where the chart has gone and they still do not fit.
 */
const commandsBeforeHistory = 2;
/** The event counts tried, most first. */
const eventCountsTried = Array.from({length: maxEventsShown}, (_, index) => maxEventsShown - index);

/**
 * Why the relists stall and what to run, below the stats: the CRI calls' errors and timeouts, the node's Events and
 * the next steps. From the critical band on (or unknown), the CRI calls, one Event and the next steps are the core
 * that stays before the history; otherwise the CRI calls (shown only with an error or a timeout) and the Events
 * give way to the history, so an idle screen stays as it was.
 */
function incidentVariants(figures: Figures, width: number, paste: PasteContext): IncidentVariants {
	const band = bandOf(figures);
	const stalled = figures.window?.count === 0 || band === 'critical' || band === 'unhealthy';
	const anatomy = figures.anatomy ?? null;
	// Most frames stop at the first variant: the panes of the later ones are built only if they are tried. The
	// Events pane counts its rows without building them: up to five counts are tried, one is shown.
	const runtime = pane(() => runtimeCallsLines({anatomy, stalled, width}));
	const compactRuntime = pane(() => runtimeCallsLines({anatomy, stalled, width, compact: true}));
	const events = oncePer((maxEvents: number) =>
		pane(
			() => eventsPaneLines({events: figures.events ?? null, width, maxEvents}),
			() => eventsPaneRows(figures.events ?? null, width, maxEvents),
		),
	);
	const variant = (...panes: Pane[]) => once(() => sized(panes));
	if (!showsNextSteps(figures)) {
		return {
			core: [...eventCountsTried.map((count) => variant(runtime, events(count))), variant(runtime), variant(compactRuntime), variant()],
			rest: [],
		};
	}

	// The steps keep their heading with fewer commands (the first ones: the kubectl lines, then the runtime's), or fold
	// whole into one row: commands without their heading would read as Events.
	const fill = {
		steps: stepsFor(figures, paste),
		width,
		evictionInSeconds: evictionInSeconds(figures.ready, figures.now),
		pods: figures.pods ?? null,
	};
	const steps = pane(() => nextStepsPaneLines(fill));
	const fewerSteps = (counts: number[]) =>
		counts.map((commands) =>
			variant(
				compactRuntime,
				events(1),
				pane(() => nextStepsPaneLines({...fill, commands})),
			),
		);
	const foldedSteps = pane(() => nextStepsPaneLines({...fill, folded: true}));
	return {
		core: [
			...eventCountsTried.map((count) => variant(runtime, events(count), steps)),
			variant(compactRuntime, events(1), steps),
			...fewerSteps(commandCountsTried.filter((count) => count >= commandsBeforeHistory)),
		],
		rest: [
			...fewerSteps(commandCountsTried.filter((count) => count < commandsBeforeHistory)),
			variant(compactRuntime, events(1), foldedSteps),
			variant(compactRuntime, foldedSteps),
			variant(foldedSteps),
			variant(),
		],
	};
}

/** Not even the stats fit whole: keep their first rows (each row holds whole figures). */
function fallback(stats: Line[], room: number): Block[] {
	return room > 0 ? [lines(stats.slice(0, room))] : [];
}

/** The stats with the constants pane: whole beside them from `sideBySideWidth` columns (below when narrower), one row below, or none. */
function statsAndConstants(figures: Figures, width: number, form: ConstantsForm, stats: Part<Line[]>): Block[] {
	const constantsProps = {
		constants: figures.constants,
		thresholdToPeriodRatio: figures.thresholdToPeriodRatio,
		thresholdToMeanRatio: figures.thresholdToMeanRatio,
	};
	if (form === 'none') {
		return [lines(stats())];
	}

	if (form === 'line') {
		return [lines(stats()), lines([constantsSummaryLine({...constantsProps, width})])];
	}

	if (width >= sideBySideWidth) {
		const rightWidth = Math.min(52, Math.floor(width * 0.45));
		const leftWidth = width - rightWidth - columnGap;
		return [
			{
				kind: 'columns',
				left: relistStatsLines({figures, width: leftWidth}),
				leftWidth,
				right: constantsPaneLines({...constantsProps, width: rightWidth}),
				rightWidth,
			},
		];
	}

	return [lines(stats()), lines(constantsPaneLines({...constantsProps, width}))];
}

/** A blank row between blocks while there is height to spare, from the top down. */
function withSpacers(blocks: Block[], height: number): Block[] {
	let spare = height - rowsOf(blocks);
	const spaced: Block[] = [];
	for (const [index, block] of blocks.entries()) {
		if (blockHeight(block) === 0) {
			continue;
		}

		if (index > 0 && spare > 0) {
			spaced.push(lines([[]]));
			spare--;
		}

		spaced.push(block);
	}

	return spaced;
}
