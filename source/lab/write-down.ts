// The write-down printed on quit: what happened in the session, from its own figures. The loop in one sentence
// with its constants' file:line; each stretch between marks with its mean and p99 (and any time past the
// threshold in it); each span in which the health rule failed; and threshold / mean. The stretches are named by
// their marks, never "idle" or "churn": pleg-top does not know what the operator did, only what it measured.
// Plain text wrapped to a width for the terminal, Markdown for --summary.
// The function's own module: the package index loads all ~250 date-fns functions at start-up.
import {format} from 'date-fns/format';
import {formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../domain/text/format.js';
import {formatGoDuration} from '../domain/text/go-duration.js';
import type {LabSummary, SegmentSummary, UnhealthyCause, UnhealthySpan} from './lab-session.js';
import type {KubeletConstants, SourceConstant} from '../domain/types.js';
import {thresholdToMean} from '../domain/health/health.js';

export type WriteDown = {
	/** Paragraphs for the terminal, wrapped to the width asked for. */
	text: string;
	/** The same words as Markdown, with tables of the figures. */
	markdown: string;
};

export type WriteDownOptions = {
	/** Columns to wrap the text to (the terminal's width). @default 80 */
	width?: number;
};

/** A stretch of the session and the words that name it: "before the mark at 14:00:20", "since the mark at …". */
type Named = {segment: SegmentSummary; name: string};

export function writeDown(lab: LabSummary, options: WriteDownOptions = {}): WriteDown {
	const width = Math.max(20, options.width ?? 80);
	const figures = lab.figures;
	if (!lab.session || !figures) {
		const text = `pleg-top saw no scrape of ${lab.node}: nothing to write down.`;
		return {text: wrap(text, width) + '\n', markdown: `# PLEG write-down\n\n${text}\n`};
	}

	const {constants} = figures;
	const who = `${lab.node} (kubelet ${figures.kubeletVersion ?? 'version unknown'})`;
	const paragraphs = (clock: Clock) => {
		const stretches = namedSegments(lab, clock);
		return [
			loopSentence(constants),
			measuredSentences(who, lab.session!, stretches, clock), // checked above
			unhealthySentences(lab.unhealthy, constants.threshold.seconds, clock),
			ratioSentence(constants, stretches),
		];
	};

	// A file is read elsewhere and later: its times carry their zone offset ("06:00:38+02:00").
	const heading = `# PLEG write-down: ${lab.node}, ${format(lab.session.from, 'yyyy-MM-dd HH:mm xxx')}`;
	const stretches = namedSegments(lab, zonedClock);
	const tables = [
		segmentTable(constants, stretches, zonedClock),
		...(lab.unhealthy.length > 0 ? [spanTable(lab.unhealthy, zonedClock)] : []),
	];
	return {
		text:
			paragraphs(localClock)
				.map((paragraph) => wrap(paragraph, width))
				.join('\n\n') + '\n',
		markdown: [heading, ...paragraphs(zonedClock).map(markdownCode), ...tables].join('\n\n') + '\n',
	};
}

/** The whole session alone when no mark was set; else each stretch, named by the marks around it. */
function namedSegments(lab: LabSummary, clock: Clock): Named[] {
	const {segments} = lab;
	if (segments.length <= 1) return [{segment: lab.session!, name: 'over the whole session'}]; // checked by the caller
	return segments.map((segment, index) => {
		const next = segments[index + 1];
		if (index === 0) return {segment, name: `before the mark at ${clock(next!.markedAt!)}`}; // marks start each later segment
		if (!next) return {segment, name: `since the mark at ${clock(segment.markedAt!)}`}; // marks start each later segment
		return {segment, name: `from the mark at ${clock(segment.markedAt!)} to the one at ${clock(next.markedAt!)}`}; // marks start each later segment
	});
}

/** A time of day as the write-down says it. */
type Clock = (at: number) => string;

/** On the terminal that ran the session: its own zone, as the screen's clock. */
const localClock: Clock = (at) => format(at, 'HH:mm:ss');

/** In the --summary file: with the zone offset. */
const zonedClock: Clock = (at) => format(at, 'HH:mm:ssxxx');

/** "relistThreshold, pkg/kubelet/pleg/generic.go:83" (or "… line not read for this version"). */
function where(constant: SourceConstant): string {
	return `${constant.name}, ${constant.location ?? 'line not read for this version'}`;
}

function loopSentence(constants: KubeletConstants): string {
	const {period, threshold} = constants;
	const loop = constants.evented ? "The kubelet's Generic PLEG (Evented PLEG on)" : "The kubelet's PLEG";
	return (
		`${loop} relists every ${formatGoDuration(period.seconds)} (${where(period)}): it lists every pod sandbox and ` +
		'container from the container runtime and turns what changed into pod lifecycle events; ' +
		`Healthy() fails and the node goes NotReady ("PLEG is not healthy") once the last relist started more than ` +
		`${formatGoDuration(threshold.seconds)} ago (${where(threshold)}).`
	);
}

/**
 * A duration in Go's style, rounded in the direction that keeps a bound true: 'up' for "at most", 'down' for
 * "at least", 'nearest' for a measured span. To 0.1 s below a minute, to the second above.
 */
export function boundedDuration(seconds: number, direction: 'up' | 'down' | 'nearest'): string {
	const step = Math.abs(seconds) < 60 ? 0.1 : 1;
	const round = direction === 'up' ? Math.ceil : direction === 'down' ? Math.floor : Math.round;
	// A hair of floating-point noise must not push 1.2000000001 s up to 1.3 s.
	const steps = round(Number((seconds / step).toFixed(6)));
	return formatGoDuration(Number((steps * step).toFixed(1)));
}

/**
 * An age read at a scrape, to the gauge's whole second (it is Unix seconds): 'up' for a maximum, never below what
 * was read; 'down' for "at least", the whole seconds the screen and the kubelet's message show.
 */
export function ageRead(seconds: number, direction: 'up' | 'down' = 'up'): string {
	// A hair of floating-point noise must not push 208.0000001 s up to 3m29s.
	const whole = Number(seconds.toFixed(6));
	return formatGoDuration(direction === 'up' ? Math.ceil(whole) : Math.floor(whole));
}

/** "16 relists in 20s" / "no relist completed in 3m20s" / "a single scrape". */
function extent(segment: SegmentSummary): string {
	const {figures} = segment;
	if (!figures) return 'a single scrape';
	const span = boundedDuration(figures.spanSeconds, 'nearest');
	const count =
		figures.count === 0
			? `no relist completed in ${span}`
			: `${formatCount(figures.count)} relist${figures.count === 1 ? '' : 's'} in ${span}`;
	const restarts =
		segment.restarts > 0 ? `, across ${segment.restarts === 1 ? 'a kubelet restart' : `${segment.restarts} kubelet restarts`}` : '';
	return count + restarts;
}

/** "mean relist 5.0 ms, p99 5.0 ms" or "no relist completed, so no mean". */
function meanAndP99(segment: SegmentSummary): string {
	const mean = segment.figures?.meanSeconds ?? null;
	if (mean === null) return 'no mean relist (none completed)';
	return `mean relist ${formatSeconds(mean)}, p99 ${formatQuantile(segment.figures?.p99 ?? null)}`;
}

/** The highest age read at a scrape (between scrapes it may have been higher). */
function highestAge(segment: SegmentSummary): string {
	const age = segment.maxLastSeenAgeSeconds;
	return age === null ? 'no last-seen age known' : `the last-seen age was at most ${ageRead(age)} at every scrape`;
}

/** Why Healthy() failed, in the kubelet's terms: its own message for a kubelet that has not relisted since it started. */
const causeWords: Record<UnhealthyCause, string> = {
	threshold: 'last-seen age past the threshold',
	'yet-to-be-successful': '"pleg has yet to be successful": no relist had succeeded since the kubelet started',
};

/** "last-seen age past the threshold", or each cause in the order seen. */
export function causesText(causes: readonly UnhealthyCause[]): string {
	return causes.map((cause) => causeWords[cause]).join(', then ');
}

/** Only the threshold failed: the time is time past it. Otherwise it is time not healthy, with the reason. */
export function onlyThreshold(causes: readonly UnhealthyCause[]): boolean {
	return causes.every((cause) => cause === 'threshold');
}

function pastThreshold(segment: SegmentSummary, clock: Clock): string {
	if (segment.unhealthySeconds <= 0) return '';
	const time = boundedDuration(segment.unhealthySeconds, 'down');
	const causes = segment.unhealthyCauses;
	const before = segment.unhealthyBeforeFrom === null ? '' : ` (from ${clock(segment.unhealthyBeforeFrom)}, before the first scrape)`;
	return onlyThreshold(causes)
		? `, past the threshold for at least ${time}${before}`
		: `, not healthy for at least ${time}${before} (${causesText(causes)})`;
}

function measuredSentences(who: string, session: SegmentSummary, stretches: Named[], clock: Clock): string {
	const measured = `Measured on ${who} from ${clock(session.from)} to ${clock(session.to)} (${extent(session)})`;
	if (stretches.length === 1) {
		return (
			`${measured}: ${meanAndP99(session)}; ${highestAge(session)}${pastThreshold(session, clock)}. ` +
			'No mark was set: press b when something is about to change (before a churn, say), and the write-down measures each side of the mark.'
		);
	}

	const first = stretches[0]!; // non-empty
	const baselineMean = first.segment.figures?.meanSeconds ?? null;
	const sentences = stretches.map(({segment, name}, index) => {
		const mean = segment.figures?.meanSeconds ?? null;
		const multiple =
			index > 0 && mean !== null && baselineMean !== null && baselineMean > 0
				? ` (${formatRatio(mean / baselineMean)} the mean ${first.name})`
				: '';
		return `${capitalise(name)} (${extent(segment)}): ${meanAndP99(segment)}${multiple}; ${highestAge(segment)}${pastThreshold(segment, clock)}.`;
	});
	return [`${measured}.`, ...sentences].join(' ');
}

function unhealthySentences(spans: readonly UnhealthySpan[], thresholdSeconds: number, clock: Clock): string {
	if (spans.length === 0) {
		return `PLEG was healthy at every scrape: the last-seen age never passed the ${formatGoDuration(thresholdSeconds)} threshold when it was read.`;
	}

	const times = spans.length === 1 ? 'once' : `${spans.length} times`;
	// One reason for every span goes up front; spans of different reasons each say their own.
	const reasons = new Set(spans.map((span) => causesText(span.causes)));
	if (reasons.size === 1)
		return `PLEG was not healthy (${[...reasons][0]!}) ${times}: ${spans.map((span) => spanText(span, clock)).join('; ')}.`; // non-empty
	return `PLEG was not healthy ${times}: ${spans.map((span) => `${spanText(span, clock)} (${causesText(span.causes)})`).join('; ')}.`;
}

/** The span's length: at least to its lower-bound end, at most to the first healthy scrape. */
function spanLength(span: UnhealthySpan): {atLeast: string; atMost: string | null} {
	const atLeast = boundedDuration((span.endAtLeast - span.from) / 1000, 'down');
	const atMost = span.healthyAgainAt === null ? null : boundedDuration((span.healthyAgainAt - span.from) / 1000, 'up');
	return {atLeast, atMost};
}

function lengthText(span: UnhealthySpan): string {
	const {atLeast, atMost} = spanLength(span);
	if (atMost === null) return `at least ${atLeast} so far`;
	return atLeast === atMost ? atLeast : `${atLeast} to ${atMost}`;
}

function spanText(span: UnhealthySpan, clock: Clock): string {
	const from = span.fromGauge ? `from ${clock(span.from)}` : `seen from ${clock(span.from)}`;
	const end =
		span.healthyAgainAt === null
			? `, still not healthy at the last scrape (${clock(span.lastUnhealthyAt)})`
			: `, healthy again by ${clock(span.healthyAgainAt)}`;
	const age = span.maxAgeSeconds === null ? '' : `, the age reaching at least ${ageRead(span.maxAgeSeconds, 'down')}`;
	// The threshold says nothing about a kubelet that has not relisted since it started.
	const threshold = span.causes.includes('threshold') ? ` (threshold ${formatGoDuration(span.thresholdSeconds)})` : '';
	return `${from} for ${lengthText(span)}${end}${age}${threshold}`;
}

/** "threshold / mean = 180 s / 4.2 ms = ×42,857 before the mark at …": how many mean relists fit in the threshold. */
function ratioSentence(constants: KubeletConstants, stretches: Named[]): string {
	const threshold = constants.threshold.seconds;
	const ratios = stretches.map(({segment, name}) => {
		const mean = segment.figures?.meanSeconds ?? null;
		return mean === null || mean <= 0
			? `no mean ${name}`
			: `${formatSeconds(threshold)} / ${formatSeconds(mean)} = ${formatRatio(threshold / mean)} ${name}`;
	});
	return `threshold / mean: ${ratios.join(', ')}. That many mean relists fit in the threshold before the node goes NotReady.`;
}

function segmentTable(constants: KubeletConstants, stretches: Named[], clock: Clock): string {
	const header = ['', ...stretches.map(({name}) => name)];
	const cell = (segment: SegmentSummary, value: (figures: NonNullable<SegmentSummary['figures']>) => string) =>
		segment.figures ? value(segment.figures) : '—';
	const column = (value: (segment: SegmentSummary) => string) => stretches.map(({segment}) => value(segment));
	const rows: string[][] = [
		['from – to', ...column((segment) => `${clock(segment.from)} – ${clock(segment.to)}`)],
		['relists', ...column(extent)],
		['mean', ...column((segment) => formatSeconds(segment.figures?.meanSeconds ?? null))],
		['p99', ...column((segment) => cell(segment, (figures) => formatQuantile(figures.p99)))],
		['rate', ...column((segment) => cell(segment, (figures) => formatRate(figures.ratePerSecond)))],
		['interval', ...column((segment) => cell(segment, (figures) => formatSeconds(figures.intervalMeanSeconds)))],
		[
			'highest last-seen age at a scrape',
			...column((segment) => (segment.maxLastSeenAgeSeconds === null ? '—' : ageRead(segment.maxLastSeenAgeSeconds))),
		],
		['not healthy (at least)', ...column((segment) => boundedDuration(segment.unhealthySeconds, 'down'))],
		[
			'threshold / mean',
			...column((segment) => formatRatio(thresholdToMean(constants.threshold.seconds, segment.figures?.meanSeconds ?? null))),
		],
	];
	return markdownTable(header, rows);
}

function spanTable(spans: readonly UnhealthySpan[], clock: Clock): string {
	const header = ['not healthy from', 'for', 'healthy again', 'age reached at least', 'threshold', 'why'];
	const rows = spans.map((span) => [
		span.fromGauge ? clock(span.from) : `${clock(span.from)} (first seen)`,
		lengthText(span),
		span.healthyAgainAt === null ? 'not by the last scrape' : `by ${clock(span.healthyAgainAt)}`,
		span.maxAgeSeconds === null ? '—' : ageRead(span.maxAgeSeconds, 'down'),
		formatGoDuration(span.thresholdSeconds),
		causesText(span.causes),
	]);
	return markdownTable(header, rows);
}

function markdownTable(header: string[], rows: string[][]): string {
	return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** file:line references and Go identifiers as code in Markdown. */
function markdownCode(paragraph: string): string {
	return paragraph.replace(/\b(pkg\/[\w/.-]+\.go:\d+|\w+Pleg\w*|relistThreshold|plegRelistPeriod|Healthy\(\))/g, '`$1`');
}

/** A unit after a number ("4 s", "6.8 ms,") stays on the number's line. */
const unit = /^(?:µs|ms|s|seconds?|minutes?|hours?)[,.;:)]*$/;

/** Greedy word wrap; words longer than the width stay whole, and so do "number unit" pairs. */
export function wrap(text: string, width: number): string {
	const words: string[] = [];
	for (const word of text.split(' ')) {
		const previous = words.at(-1);
		if (previous !== undefined && unit.test(word) && /\d$/.test(previous)) words[words.length - 1] = `${previous} ${word}`;
		else words.push(word);
	}

	const lines: string[] = [];
	let line = '';
	for (const word of words) {
		if (line !== '' && line.length + 1 + word.length > width) {
			lines.push(line);
			line = word;
		} else {
			line = line === '' ? word : `${line} ${word}`;
		}
	}

	return [...lines, line].join('\n');
}
