// The write-down of `pleg-top lab`: here the tool knows what it did, so each stretch is named by its phase ("idle",
// "up 0→12", "hold 12"). The loop in a paragraph with the period's, the threshold's and Healthy()'s file:line for
// the node's kubelet; per phase the relists, mean, p99, rate, the multiple of the idle mean, threshold / mean and
// what the CRI list calls cost per relist and per running container; for a sweep, the cost per pod fitted over the
// levels. Plain text for the terminal, Markdown for --summary. Pure.
import {fitLine} from '../domain/lab/lab-pods.js';
import {formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../domain/text/format.js';
import {formatGoDuration} from '../domain/text/go-duration.js';
import type {KubeletConstants, Quantile, Scrape, SourceConstant} from '../domain/types.js';
import type {LabSummary, SegmentSummary} from './lab-session.js';
import {wrap} from './write-down.js';
import {thresholdToMean} from '../domain/health/health.js';

/** A phase as the lab ran it: its name, the mark that opened it (ms) and the pods Running on the node at its end. */
export type PhaseMark = {name: string; kind: 'idle' | 'up' | 'down' | 'hold'; markedAt: number; runningAtEnd: number};

/** One phase's figures. */
export type PhaseRow = {
	name: string;
	kind: PhaseMark['kind'];
	runningPods: number;
	/** kubelet_running_containers{container_state="running"} at the phase's last scrape; null when not exposed. */
	runningContainers: number | null;
	relists: number | null;
	meanSeconds: number | null;
	p99: Quantile | null;
	ratePerSecond: number | null;
	/** mean / the idle phase's mean. */
	idleMultiple: number | null;
	/** threshold / mean. */
	thresholdRatio: number | null;
	/** (Δsum ListPodSandbox + Δsum ListContainers) / Δrelists: what the two list calls take per relist, s. */
	listSecondsPerRelist: number | null;
	/** listSecondsPerRelist / running containers, s. */
	listSecondsPerContainer: number | null;
};

/** The segments of the summary matched to the phases by their marks; a phase with no scrape of its own has none. */
function phaseRows(lab: LabSummary, phases: readonly PhaseMark[], constants: KubeletConstants): PhaseRow[] {
	const rows: PhaseRow[] = [];
	let idleMean: number | null = null;
	for (const phase of phases) {
		const segment = lab.segments.find((each) => each.markedAt === phase.markedAt);
		// A phase shorter than a scrape has no figures of its own (its mark moved on to the next phase's).
		if (!segment) {
			rows.push(emptyRow(phase));
			continue;
		}

		const row = rowOf(phase, segment, constants, idleMean);
		if (phase.kind === 'idle') idleMean = row.meanSeconds;
		rows.push(phase.kind === 'idle' ? {...row, idleMultiple: row.meanSeconds === null ? null : 1} : row);
	}

	return rows;
}

function emptyRow(phase: PhaseMark): PhaseRow {
	const none = {runningContainers: null, relists: null, meanSeconds: null, p99: null, ratePerSecond: null, idleMultiple: null};
	return {
		name: phase.name,
		kind: phase.kind,
		runningPods: phase.runningAtEnd,
		...none,
		thresholdRatio: null,
		listSecondsPerRelist: null,
		listSecondsPerContainer: null,
	};
}

function listSeconds(scrape: Scrape): number | null {
	const operations = scrape.sample.cri?.operations;
	const sandbox = operations?.listPodSandbox?.duration;
	const containers = operations?.listContainers?.duration;
	return sandbox && containers ? sandbox.sum + containers.sum : null;
}

function rowOf(phase: PhaseMark, segment: SegmentSummary, constants: KubeletConstants, idleMean: number | null): PhaseRow {
	const figures = segment.figures;
	const mean = figures?.meanSeconds ?? null;
	const last = segment.edges?.last;
	const first = segment.edges?.first;
	const containers = last?.sample.cri?.runningContainers?.['running'] ?? null;
	const [before, after] = [first && listSeconds(first), last && listSeconds(last)];
	const relists = figures?.count ?? null;
	const perRelist = before != null && after != null && relists ? Math.max(0, after - before) / relists : null;
	return {
		name: phase.name,
		kind: phase.kind,
		runningPods: phase.runningAtEnd,
		runningContainers: containers,
		relists,
		meanSeconds: mean,
		p99: figures?.p99 ?? null,
		ratePerSecond: figures?.ratePerSecond ?? null,
		idleMultiple: mean !== null && idleMean ? mean / idleMean : null,
		thresholdRatio: thresholdToMean(constants.threshold.seconds, mean),
		listSecondsPerRelist: perRelist,
		listSecondsPerContainer: perRelist !== null && containers ? perRelist / containers : null,
	};
}

function where(constant: SourceConstant): string {
	return `${constant.name}, ${constant.location ?? 'line not read for this version'}`;
}

/** The loop in a paragraph, with the three places in the kubelet's source it rests on. */
function loopParagraph(constants: KubeletConstants, kubeletVersion: string | null): string {
	const {period, threshold} = constants;
	return (
		`The kubelet's PLEG (kubelet ${kubeletVersion ?? 'version unknown'}) relists every ${formatGoDuration(period.seconds)} (${where(period)}): ` +
		"each relist calls the runtime's ListPodSandbox and ListContainers for every pod and container on the node, forever, " +
		'and turns what changed into pod lifecycle events. ' +
		`Healthy() (${constants.healthyLocation ?? 'line not read for this version'}) fails and the node goes NotReady ("PLEG is not healthy") ` +
		`once the last relist started more than ${formatGoDuration(threshold.seconds)} ago (${where(threshold)}).`
	);
}

/** The fitted relist cost per pod over the sweep's levels (hold phases and idle), s per pod; null with fewer than two levels. */
export function costPerPod(rows: readonly PhaseRow[]): {slope: number; intercept: number} | null {
	const points = rows
		.filter((row) => (row.kind === 'hold' || row.kind === 'idle') && row.meanSeconds !== null)
		.map((row) => ({x: row.runningPods, y: row.meanSeconds!})); // filtered above
	return fitLine(points);
}

const header = [
	'phase',
	'pods',
	'containers',
	'relists',
	'mean',
	'p99',
	'rate',
	'× idle mean',
	'threshold / mean',
	'CRI list / relist',
	'per container',
];

function cells(row: PhaseRow): string[] {
	return [
		row.name,
		String(row.runningPods),
		row.runningContainers === null ? '—' : String(row.runningContainers),
		row.relists === null ? '—' : formatCount(row.relists),
		formatSeconds(row.meanSeconds),
		formatQuantile(row.p99),
		formatRate(row.ratePerSecond),
		formatRatio(row.idleMultiple),
		formatRatio(row.thresholdRatio),
		formatSeconds(row.listSecondsPerRelist),
		formatSeconds(row.listSecondsPerContainer),
	];
}

/** The terminal's table is narrower: short headings, said once in the line under it. */
const shortHeader = ['phase', 'pods', 'ctrs', 'relists', 'mean', 'p99', 'rate', '×idle', 'thr/mean', 'list/relist', '/ctr'];
const legend =
	'ctrs: running containers; ×idle: mean / the idle mean; thr/mean: threshold / mean; list/relist: ListPodSandbox + ListContainers time per relist; /ctr: that per running container.';

/**
 * The phases as a plain table no wider than `width`: where all the columns do not fit, in pieces of the columns
 * that do, each starting with the phase, so no row is left to the terminal to wrap mid-cell.
 */
export function phaseTableText(rows: readonly PhaseRow[], width: number): string {
	const table = [shortHeader, ...rows.map(cells)];
	const widths = shortHeader.map((_, column) => Math.max(...table.map((row) => [...row[column]!].length))); // in bounds
	const pieces: number[][] = [];
	let piece = [0];
	let used = widths[0]!; // the phase column is always there
	for (let column = 1; column < widths.length; column++) {
		const more = 2 + widths[column]!; // in bounds
		if (used + more > width && piece.length > 1) {
			pieces.push(piece);
			piece = [0];
			used = widths[0]!; // as above
		}
		piece.push(column);
		used += more;
	}
	pieces.push(piece);
	const text = (columns: number[]) =>
		table
			.map((row) =>
				columns
					.map((column) => row[column]!.padEnd(widths[column]!))
					.join('  ')
					.trimEnd(),
			)
			.join('\n'); // in bounds
	return pieces.map(text).join('\n\n');
}

function markdownTable(rows: readonly PhaseRow[]): string {
	return [header, header.map(() => '---'), ...rows.map(cells)].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/** What the phases say, in a sentence or two: the busiest phase against idle, and the sweep's cost per pod. */
function findings(rows: readonly PhaseRow[], sweep: boolean): string {
	const idle = rows.find((row) => row.kind === 'idle');
	const busiest = rows.filter((row) => row.kind !== 'idle' && row.meanSeconds !== null).sort((a, b) => b.meanSeconds! - a.meanSeconds!)[0]; // filtered above
	const parts: string[] = [];
	if (idle?.meanSeconds != null && busiest) {
		parts.push(
			`The slowest phase, ${busiest.name}, relisted in ${formatSeconds(busiest.meanSeconds)} on average: ${formatRatio(busiest.idleMultiple)} the idle mean of ${formatSeconds(idle.meanSeconds)}.`,
		);
	}

	const held = rows.filter((row) => row.kind === 'hold' && row.listSecondsPerContainer !== null).at(-1);
	if (held)
		parts.push(
			`Held at ${held.runningPods} pods, the two CRI list calls took ${formatSeconds(held.listSecondsPerRelist)} a relist: ${formatSeconds(held.listSecondsPerContainer)} per running container.`,
		);
	const fit = sweep ? costPerPod(rows) : null;
	if (fit)
		parts.push(
			`Fitted over the levels, each running pod adds ${formatSeconds(fit.slope)} to the mean relist (${formatSeconds(fit.intercept)} with none).`,
		);
	return parts.join(' ');
}

export type LabWriteDown = {text: string; markdown: string; rows: PhaseRow[]};

export function labWriteDown(
	lab: LabSummary,
	phases: readonly PhaseMark[],
	options: {runId: string; sweep: boolean; width?: number},
): LabWriteDown {
	const figures = lab.figures;
	if (!figures || !lab.session) {
		const text = `pleg-top saw no scrape of ${lab.node}: nothing to write down.`;
		return {text: text + '\n', markdown: `# PLEG lab: ${lab.node}\n\n${text}\n`, rows: []};
	}

	const width = Math.max(20, options.width ?? 80);
	const rows = phaseRows(lab, phases, figures.constants);
	const loop = loopParagraph(figures.constants, figures.kubeletVersion);
	const found = findings(rows, options.sweep);
	const measured = `Measured on ${lab.node}, lab run ${options.runId}, phase by phase (each mean and p99 over the phase's own scrapes):`;
	const table = `${phaseTableText(rows, width)}\n${wrap(legend, width)}`;
	const text = [wrap(loop, width), wrap(measured, width), table, ...(found ? [wrap(found, width)] : [])].join('\n\n') + '\n';
	const markdown =
		[`# PLEG lab: ${lab.node}, run ${options.runId}`, loop, measured, markdownTable(rows), ...(found ? [found] : [])].join('\n\n') + '\n';
	return {text, markdown, rows};
}
