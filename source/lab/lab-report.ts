// `--replay FILE --once`: a recording summarised without waiting: the figures of the whole recording and of each
// segment between baseline marks (deltas from its first to its last scrape), as JSON or as text with the write-down.
import {formatAge, formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../domain/format.js';
import type {LabSummary, SegmentSummary} from './lab-session.js';
import {writeDown} from './write-down.js';

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
		spanSeconds: figures?.spanSeconds ?? 0,
		count: figures?.count ?? 0,
		meanSeconds: mean,
		p50Seconds: figures?.p50?.seconds ?? null,
		p90Seconds: figures?.p90?.seconds ?? null,
		p99Seconds: figures?.p99?.seconds ?? null,
		// true = the quantile fell in the +Inf bucket: the value is the top finite bound, a lower bound.
		p99AtLeast: figures?.p99?.atLeast ?? null,
		ratePerSecond: figures?.ratePerSecond ?? null,
		intervalMeanSeconds: figures?.intervalMeanSeconds ?? null,
		discardEvents: figures?.discardEvents ?? null,
		maxLastSeenAgeSeconds: summary.maxLastSeenAgeSeconds,
		restarts: summary.restarts,
		// This segment's mean / the baseline's (the stretch before the first mark).
		meanRatioToBaseline: mean !== null && baselineMean !== null && baselineMean > 0 ? mean / baselineMean : null,
		thresholdToMeanRatio: mean !== null && mean > 0 && thresholdSeconds !== null ? thresholdSeconds / mean : null,
	};
}

/** One row per segment (and the whole recording), then the write-down. */
export function labTextReport(lab: LabSummary): string {
	const baselineMean = lab.segments[0]?.figures?.meanSeconds ?? null;
	const header = ['segment', 'span', 'relists', 'mean', 'p99', 'rate', 'interval', 'max age', '× baseline'];
	const row = (summary: SegmentSummary) => {
		const {figures} = summary;
		const mean = figures?.meanSeconds ?? null;
		return [
			summary.label,
			formatAge(figures?.spanSeconds ?? 0),
			formatCount(figures?.count ?? 0),
			formatSeconds(mean),
			formatQuantile(figures?.p99 ?? null),
			formatRate(figures?.ratePerSecond ?? null),
			formatSeconds(figures?.intervalMeanSeconds ?? null),
			formatAge(summary.maxLastSeenAgeSeconds),
			formatRatio(mean !== null && baselineMean !== null && baselineMean > 0 ? mean / baselineMean : null),
		];
	};

	const rows = [header, ...lab.segments.map(row), ...(lab.session ? [row(lab.session)] : [])];
	const widths = header.map((_, column) => Math.max(...rows.map(cells => [...cells[column]!].length)));
	const table = rows.map(cells => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
	return `${table.join('\n')}\n\n${writeDown(lab).text}`;
}

function iso(at: number | null): string | null {
	return at === null ? null : new Date(at).toISOString();
}
