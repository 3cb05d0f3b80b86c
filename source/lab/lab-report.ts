// `--replay FILE --once`: a recording summarised without waiting: the figures of the whole recording and of each
// segment between baseline marks (deltas from its first to its last scrape), every span in which the health rule
// failed, as JSON or as text with the write-down; and its exit code (1 when the recording holds such a span).
import {format} from 'date-fns/format';
import {formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../domain/text/format.js';
import type {LabSummary, SegmentSummary, UnhealthySpan} from './lab-session.js';
import {ms, ns, sig} from '../report/report.js';
import {ageRead, boundedDuration, causesText, onlyThreshold, writeDown, type WriteDownOptions} from './write-down.js';
import {thresholdToMean} from '../domain/health/health.js';

/** 1 when PLEG was not healthy at any scrape of the recording (as `--once` exits 1 on an unhealthy node), else 0. */
export function labExitCode(lab: LabSummary): number {
	return lab.unhealthy.length > 0 ? 1 : 0;
}

export function labJsonReport(lab: LabSummary, lines: number): object {
	const baselineMean = lab.segments[0]?.figures?.meanSeconds ?? null;
	const threshold = lab.figures?.constants.threshold ?? null;
	const period = lab.figures?.constants.period ?? null;
	const segment = (summary: SegmentSummary) => segmentJson(summary, baselineMean, threshold?.seconds ?? null);
	return {
		node: lab.node,
		kubeletVersion: lab.figures?.kubeletVersion ?? null,
		recording: {
			lines,
			from: iso(lab.points[0]?.at ?? null),
			to: iso(lab.points.at(-1)?.at ?? null),
			marks: lab.segments.flatMap(({markedAt}) => (markedAt === null ? [] : [iso(markedAt)])),
		},
		constants: {
			relistPeriodSeconds: period?.seconds ?? null,
			relistThresholdSeconds: threshold?.seconds ?? null,
			periodSource: period?.location ?? null,
			thresholdSource: threshold?.location ?? null,
		},
		session: lab.session && segment(lab.session),
		segments: lab.segments.map(segment),
		unhealthy: lab.unhealthy.map(spanJson),
		writeDown: writeDown(lab).text,
	};
}

function segmentJson(summary: SegmentSummary, baselineMean: number | null, thresholdSeconds: number | null): object {
	const {figures} = summary;
	const mean = figures?.meanSeconds ?? null;
	return {
		label: summary.label,
		markedAt: iso(summary.markedAt),
		from: iso(summary.from),
		to: iso(summary.to),
		// Rounded as live --once -o json rounds the same figures (report.ts): sums' digits, ms, nine significant digits.
		spanSeconds: ms(figures?.spanSeconds ?? 0),
		count: figures?.count ?? 0,
		meanSeconds: ns(mean),
		p50Seconds: ns(figures?.p50?.seconds),
		p90Seconds: ns(figures?.p90?.seconds),
		p99Seconds: ns(figures?.p99?.seconds),
		// true = the quantile fell in the +Inf bucket: the value is the top finite bound, a lower bound.
		p99AtLeast: figures?.p99?.atLeast ?? null,
		ratePerSecond: sig(figures?.ratePerSecond),
		intervalMeanSeconds: ns(figures?.intervalMeanSeconds),
		discardEvents: figures?.discardEvents ?? null,
		maxLastSeenAgeSeconds: ms(summary.maxLastSeenAgeSeconds),
		restarts: summary.restarts,
		// Time in it during which the health rule surely failed (a lower bound).
		unhealthySeconds: ms(summary.unhealthySeconds),
		// This segment's mean / the baseline's (the stretch before the first mark).
		meanRatioToBaseline: sig(mean !== null && baselineMean !== null && baselineMean > 0 ? mean / baselineMean : null),
		thresholdToMeanRatio: sig(thresholdToMean(thresholdSeconds, mean)),
	};
}

/** A span with both bounds of its length; times ISO 8601, lengths and ages in seconds. */
function spanJson(span: UnhealthySpan): object {
	return {
		from: iso(span.from),
		// true: `from` is the last successful relist start + the threshold; false: only the first scrape that saw it.
		fromGauge: span.fromGauge,
		lastUnhealthyAt: iso(span.lastUnhealthyAt),
		healthyAgainAt: iso(span.healthyAgainAt),
		atLeastSeconds: ms((span.endAtLeast - span.from) / 1000),
		// null while it was still going on at the last scrape.
		atMostSeconds: span.healthyAgainAt === null ? null : ms((span.healthyAgainAt - span.from) / 1000),
		maxAgeSeconds: ms(span.maxAgeSeconds),
		thresholdSeconds: span.thresholdSeconds,
		message: span.message,
	};
}

/** One row per segment (and the whole recording), the spans in which PLEG was not healthy, then the write-down. */
export function labTextReport(lab: LabSummary, options: WriteDownOptions = {}): string {
	const baselineMean = lab.segments[0]?.figures?.meanSeconds ?? null;
	const header = ['segment', 'span', 'relists', 'mean', 'p99', 'rate', 'interval', 'max age', 'not healthy', '× baseline'];
	const row = (summary: SegmentSummary) => {
		const {figures} = summary;
		const mean = figures?.meanSeconds ?? null;
		return [
			summary.label,
			boundedDuration(figures?.spanSeconds ?? 0, 'nearest'),
			formatCount(figures?.count ?? 0),
			formatSeconds(mean),
			formatQuantile(figures?.p99 ?? null),
			formatRate(figures?.ratePerSecond ?? null),
			formatSeconds(figures?.intervalMeanSeconds ?? null),
			// The highest age read at a scrape, to the millisecond: a maximum is never shown lower than it was.
			summary.maxLastSeenAgeSeconds === null ? '—' : ageRead(summary.maxLastSeenAgeSeconds),
			summary.unhealthySeconds > 0 ? `≥ ${boundedDuration(summary.unhealthySeconds, 'down')}` : '0s',
			formatRatio(mean !== null && baselineMean !== null && baselineMean > 0 ? mean / baselineMean : null),
		];
	};

	const rows = [header, ...lab.segments.map(row), ...(lab.session ? [row(lab.session)] : [])];
	const widths = header.map((_, column) => Math.max(...rows.map((cells) => [...cells[column]!].length))); // in bounds
	const table = rows.map((cells) =>
		cells
			.map((cell, column) => cell.padEnd(widths[column]!)) // in bounds
			.join('  ')
			.trimEnd(),
	);
	const spans =
		lab.unhealthy.length === 0 ? 'PLEG not healthy: at no scrape' : ['PLEG not healthy:', ...lab.unhealthy.map(spanLine)].join('\n');
	return `${table.join('\n')}\n\n${spans}\n\n${writeDown(lab, options).text}`;
}

/** "  14:04:09 – 14:07:00  2m46s to 2m51s  age reached ≥ 4m51s  threshold 3m0s" */
function spanLine(span: UnhealthySpan): string {
	const atLeast = boundedDuration((span.endAtLeast - span.from) / 1000, 'down');
	const atMost = span.healthyAgainAt === null ? null : boundedDuration((span.healthyAgainAt - span.from) / 1000, 'up');
	const length = atMost === null ? `≥ ${atLeast}, still at the last scrape` : atLeast === atMost ? atLeast : `${atLeast} to ${atMost}`;
	const from = `${clock(span.from)}${span.fromGauge ? '' : ' (first seen)'}`;
	const to = span.healthyAgainAt === null ? '…' : clock(span.healthyAgainAt);
	const age = span.maxAgeSeconds === null ? '' : `  age reached ≥ ${ageRead(span.maxAgeSeconds, 'down')}`;
	const why = onlyThreshold(span.causes) ? `threshold ${boundedDuration(span.thresholdSeconds, 'nearest')}` : causesText(span.causes);
	return `  ${from} – ${to}  ${length}${age}  ${why}`;
}

function clock(at: number): string {
	return format(at, 'HH:mm:ss');
}

function iso(at: number | null): string | null {
	return at === null ? null : new Date(at).toISOString();
}
