// The write-down printed on quit: what the churn exercise asks people to note, from the session's own figures.
// The loop in one sentence with its constants' file:line, the idle (before the last mark) and churn (since the
// last mark) mean relist durations, and threshold / mean. Plain text for the terminal, Markdown for --summary.
// The function's own module: the package index loads all ~250 date-fns functions at start-up.
import {format} from 'date-fns/format';
import {formatAge, formatCount, formatQuantile, formatRate, formatRatio, formatSeconds} from '../domain/format.js';
import {formatGoDuration} from '../domain/go-duration.js';
import type {LabSummary, SegmentSummary} from './lab-session.js';
import type {KubeletConstants, SourceConstant} from '../domain/types.js';

export type WriteDown = {
	/** Paragraphs for the normal screen, wrapped to 80 columns. */
	text: string;
	/** The same words as Markdown, with a table of the figures. */
	markdown: string;
};

/** Idle = the segment before the last mark; churn = since the last mark. No mark: the whole session alone. */
export function writeDownSegments(lab: LabSummary): {idle: SegmentSummary; churn: SegmentSummary | null} | null {
	const {segments, session} = lab;
	if (segments.length >= 2) return {idle: segments.at(-2)!, churn: segments.at(-1)!};
	return session ? {idle: session, churn: null} : null;
}

export function writeDown(lab: LabSummary): WriteDown {
	const parts = writeDownSegments(lab);
	const figures = lab.figures;
	if (!parts || !figures) {
		const text = `pleg-top saw no scrape of ${lab.node}: nothing to write down.`;
		return {text: text + '\n', markdown: `# PLEG write-down\n\n${text}\n`};
	}

	const {constants} = figures;
	const who = `${lab.node} (kubelet ${figures.kubeletVersion ?? 'version unknown'})`;
	const paragraphs = [loopSentence(constants), measuredSentence(who, parts.idle, parts.churn), ratioSentence(constants, parts.idle, parts.churn)];
	const heading = `# PLEG write-down: ${lab.node}, ${format(parts.idle.from, 'yyyy-MM-dd HH:mm')}`;
	const table = figureTable(constants, parts.idle, parts.churn);
	return {
		text: paragraphs.map(paragraph => wrap(paragraph, 80)).join('\n\n') + '\n',
		markdown: [heading, ...paragraphs.map(markdownCode), table].join('\n\n') + '\n',
	};
}

/** "relistThreshold, pkg/kubelet/pleg/generic.go:83" (or "… line not read for this version"). */
function where(constant: SourceConstant): string {
	return `${constant.name}, ${constant.location ?? 'line not read for this version'}`;
}

function loopSentence(constants: KubeletConstants): string {
	const {period, threshold} = constants;
	const loop = constants.evented ? 'The kubelet\'s Generic PLEG (Evented PLEG on)' : 'The kubelet\'s PLEG';
	return (
		`${loop} relists every ${formatGoDuration(period.seconds)} (${where(period)}): it lists every pod sandbox and ` +
		'container from the container runtime and turns what changed into pod lifecycle events; ' +
		`Healthy() fails and the node goes NotReady ("PLEG is not healthy") once the last relist started more than ` +
		`${formatGoDuration(threshold.seconds)} ago (${where(threshold)}).`
	);
}

function meanOf(segment: SegmentSummary): string {
	const mean = segment.figures?.meanSeconds ?? null;
	return mean === null ? 'no relist completed' : formatSeconds(mean);
}

/** "97 relists in 1 minute 40 seconds" */
function extent(segment: SegmentSummary): string {
	const {figures} = segment;
	const restarts = segment.restarts > 0 ? `, after a kubelet restart` : '';
	return figures ? `${formatCount(figures.count)} relists in ${formatAge(figures.spanSeconds)}${restarts}` : 'a single scrape';
}

function measuredSentence(who: string, idle: SegmentSummary, churn: SegmentSummary | null): string {
	if (!churn) {
		return (
			`Measured on ${who} over the whole session (${extent(idle)}): mean relist ${meanOf(idle)}, ` +
			`p99 ${formatQuantile(idle.figures?.p99 ?? null)}, last-seen age at most ${formatAge(idle.maxLastSeenAgeSeconds)}. ` +
			'No baseline was marked: press b while the node is idle, then start the churn, to compare the two.'
		);
	}

	const idleMean = idle.figures?.meanSeconds ?? null;
	const churnMean = churn.figures?.meanSeconds ?? null;
	const multiple = idleMean !== null && churnMean !== null && idleMean > 0 ? `: ${formatRatio(churnMean / idleMean)} the idle mean` : '';
	return (
		`Measured on ${who}: idle, the mean relist took ${meanOf(idle)} (${extent(idle)} before the mark at ` +
		`${format(churn.markedAt ?? churn.from, 'HH:mm:ss')}); during churn, since the mark, it took ${meanOf(churn)} ` +
		`(${extent(churn)})${multiple}. The last-seen age reached ${formatAge(idle.maxLastSeenAgeSeconds)} idle ` +
		`and ${formatAge(churn.maxLastSeenAgeSeconds)} during churn.`
	);
}

/** "threshold / mean = 180 s / 4.2 ms = ×42,857 idle, …": how many mean relists fit in the threshold. */
function ratioSentence(constants: KubeletConstants, idle: SegmentSummary, churn: SegmentSummary | null): string {
	const threshold = constants.threshold.seconds;
	const ratio = (segment: SegmentSummary, label: string) => {
		const mean = segment.figures?.meanSeconds ?? null;
		return mean === null || mean <= 0
			? `no mean ${label}`
			: `${formatSeconds(threshold)} / ${formatSeconds(mean)} = ${formatRatio(threshold / mean)} ${label}`;
	};

	const ratios = churn ? `${ratio(idle, 'idle')}, ${ratio(churn, 'during churn')}` : ratio(idle, 'over the session');
	return `threshold / mean: ${ratios}. That many mean relists fit in the threshold before the node goes NotReady.`;
}

function figureTable(constants: KubeletConstants, idle: SegmentSummary, churn: SegmentSummary | null): string {
	const columns = churn ? [idle, churn] : [idle];
	const header = churn ? ['', 'idle (before mark)', 'churn (since mark)'] : ['', 'whole session'];
	const cell = (segment: SegmentSummary, value: (figures: NonNullable<SegmentSummary['figures']>) => string) =>
		segment.figures ? value(segment.figures) : '—';
	const rows: string[][] = [
		['mean', ...columns.map(meanOf)],
		['p99', ...columns.map(segment => cell(segment, figures => formatQuantile(figures.p99)))],
		['rate', ...columns.map(segment => cell(segment, figures => formatRate(figures.ratePerSecond)))],
		['interval', ...columns.map(segment => cell(segment, figures => formatSeconds(figures.intervalMeanSeconds)))],
		['relists', ...columns.map(extent)],
		['max last-seen age', ...columns.map(segment => formatAge(segment.maxLastSeenAgeSeconds))],
		[
			'threshold / mean',
			...columns.map(segment => {
				const mean = segment.figures?.meanSeconds ?? null;
				return formatRatio(mean === null || mean <= 0 ? null : constants.threshold.seconds / mean);
			}),
		],
	];
	return [header, header.map(() => '---'), ...rows].map(row => `| ${row.join(' | ')} |`).join('\n');
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
