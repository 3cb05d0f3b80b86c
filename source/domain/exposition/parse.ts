// Kubelet /metrics text -> PlegSample.
// The kubelet answers with ~250 KB of text every second, of which pleg-top needs ~40 PLEG lines and ~100 CRI lines.
// So the payload is first cut to the lines of the families in names.ts (a scan of line starts, no regex over the
// whole body), those lines are checked here (so an error can name its line in the original payload; the library's
// errors carry no line number), and only the PLEG ones are handed to parse-prometheus-text-format. The CRI families
// carry labels, which the library collapses into the last series: they are read line by line (cri-parse.ts).
import parsePrometheusTextFormat, {type PromFamily, type PromSample} from 'parse-prometheus-text-format';
import type {Bucket, Histogram, PlegSample, Summary} from '../types.js';
import {eventedPlegGateName, families, suffixedFamilies} from './names.js';
import {criRoleOf, criSampleOf, type CriLine, type CriRole} from './cri-parse.js';
import {parseValue} from './parse-value.js';
import {readSampleLine} from './sample-line.js';

/** The payload is not Prometheus text. `line` is 1-based in the original payload, null when no line is to blame. */
export class MetricsParseError extends Error {
	readonly line: number | null;

	constructor(message: string, line: number | null) {
		super(message);
		this.name = 'MetricsParseError';
		this.line = line;
	}
}

/** A line kept from the payload; `offset` is where it starts (its line number is counted only for an error). */
type KeptLine = {offset: number; text: string};
type KeptCriLine = KeptLine & {role: CriRole};

const familyNames: ReadonlySet<string> = new Set(Object.values(families));

/** Every sample name a kept family may use: the family itself plus _bucket/_sum/_count for histograms and summaries. */
const sampleNames: ReadonlySet<string> = new Set(
	[...familyNames].flatMap(name =>
		suffixedFamilies.has(name) ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
	),
);

const metricTypes = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePlegSample(text: string): PlegSample {
	checkPayload(text);
	checkLastLine(text);
	const {kept, cri} = keepPlegLines(text);
	for (const line of kept) {
		checkLine(text, line);
	}

	return {...sampleFrom(parseKept(text, kept)), cri: criSampleOf(cri.map(line => readCriLine(text, line)))};
}

/** A CRI sample line read by hand (the library would collapse its labelled series); errors name the line. */
function readCriLine(payload: string, line: KeptCriLine): CriLine {
	const read = readSampleLine(line.text);
	if (typeof read === 'string') {
		throw lineError(payload, line.offset, read);
	}

	return {role: line.role, sample: read};
}

/** Rejects bodies that are not text at all: empty, binary, HTML (an error page from a proxy). */
function checkPayload(text: string): void {
	const first = text.search(/\S/);
	if (first === -1) {
		throw new MetricsParseError('empty response', null);
	}

	const nul = text.indexOf('\0');
	if (nul !== -1) {
		throw new MetricsParseError('binary response (NUL byte), not Prometheus text', lineOf(text, nul));
	}

	// U+FFFD is what a UTF-8 decoder puts in place of bytes that are not UTF-8 (e.g. a gzip body read as text).
	const replacement = text.indexOf('\uFFFD');
	if (replacement !== -1) {
		throw new MetricsParseError('binary response (invalid UTF-8), not Prometheus text', lineOf(text, replacement));
	}

	if (text.charAt(first) === '<') {
		throw new MetricsParseError(
			`HTML response, not Prometheus text: ${excerpt(lineAt(text, first))}`,
			lineOf(text, first),
		);
	}
}

/**
 * The exposition lines parsePlegSample reads (HELP, TYPE and samples of the families in names.ts, and the CRI
 * sample lines of the relist operations), as written, in payload order.
 */
export function plegLines(text: string): string[] {
	const {kept, cri} = keepPlegLines(text);
	return [...kept, ...cri].sort((a, b) => a.offset - b.offset).map(line => line.text);
}

/**
 * The lines of the families in names.ts, in payload order: `kept` for the library, `cri` (sample lines of the
 * labelled CRI families, for the relist operations only) for the line reader. One pass over the line starts; a
 * line is looked at further only when its first characters can begin a kept name, which is decided by a few
 * character codes (measured: a few indexOf searches for the prefixes cost more than this whole loop).
 */
function keepPlegLines(text: string): {kept: KeptLine[]; cri: KeptCriLine[]} {
	const kept: KeptLine[] = [];
	const cri: KeptCriLine[] = [];
	let offset = 0;
	while (offset < text.length) {
		let end = text.indexOf('\n', offset);
		if (end === -1) {
			end = text.length;
		}

		const first = text.charCodeAt(offset);
		const isMeta = first === charHash;
		const kind = first === charK || isMeta ? mayBeKept(text, isMeta ? offset + 7 : offset) : none;
		if (kind === pleg) {
			const line = text.slice(offset, end).trimEnd();
			const name = nameAt(isMeta ? line.slice(7) : line);
			const keep = isMeta ? familyNames.has(name) && /^# (?:HELP|TYPE) /.test(line) : sampleNames.has(name);
			if (keep) {
				kept.push({offset, text: line});
			}
		} else if (kind === runtime && !isMeta) {
			// HELP/TYPE of the CRI families are not needed: their types are known by name.
			const role = criRoleOf(text, offset, end);
			if (role) {
				cri.push({offset, text: text.slice(offset, end).trimEnd(), role});
			}
		}

		offset = end + 1;
	}

	return {kept, cri};
}

const charK = 0x6b; // 'k'
const charHash = 0x23; // '#'
const charP = 0x70; // 'p'
const charE = 0x65; // 'e'
const charL = 0x6c; // 'l'
const charR = 0x72; // 'r'
const charD = 0x64; // 'd'

const none = 0;
/** kubelet_pleg_*, kubelet_evented_pleg_*, kubernetes_*: for the library. */
const pleg = 1;
/** kubelet_r* or kubelet_d*: maybe a CRI family (runtime_operations, running_*, docker_operations). */
const runtime = 2;

/** Which kind of kept name can start at `at`, from a few character codes. */
function mayBeKept(text: string, at: number): typeof none | typeof pleg | typeof runtime {
	if (text.charCodeAt(at) !== charK) {
		return none;
	}

	const fifth = text.charCodeAt(at + 4); // kube[l]et_ or kube[r]netes_
	if (fifth === charR) {
		return text.startsWith('kubernetes_build_info', at) || text.startsWith('kubernetes_feature_enabled', at) ? pleg : none;
	}

	if (fifth !== charL) {
		return none;
	}

	const ninth = text.charCodeAt(at + 8); // kubelet_[p]leg_, kubelet_[e]vented_pleg_, kubelet_[r]un…, kubelet_[d]ocker_
	if (ninth === charR || ninth === charD) {
		return text.startsWith('kubelet_', at) ? runtime : none;
	}

	return (ninth === charP && text.startsWith('kubelet_pleg_', at)) ||
		(ninth === charE && text.startsWith('kubelet_evented_pleg_', at))
		? pleg
		: none;
}

/** The metric name at the start of `line`: up to '{', a blank or the end. */
function nameAt(line: string): string {
	const end = line.search(/[{ \t]/);
	return end === -1 ? line : line.slice(0, end);
}

/** A body cut short ends in the middle of a line: check the last line, whatever family it belongs to. */
function checkLastLine(text: string): void {
	const offset = text.trimEnd().lastIndexOf('\n') + 1;
	const line = {offset, text: lineAt(text, offset)};
	if (!line.text.startsWith('#')) {
		checkLine(text, line);
	}
}

const sampleLine =
	/^[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[ \t]*(?:[a-zA-Z_][a-zA-Z0-9_]*[ \t]*=[ \t]*"(?:[^"\\]|\\.)*"[ \t]*(?:,[ \t]*)?)*\})?[ \t]+(\S+)(?:[ \t]+-?\d+)?[ \t]*$/;

/** Throws MetricsParseError naming the line when a kept line is not valid exposition text. */
function checkLine(payload: string, {offset, text}: KeptLine): void {
	if (text.startsWith('#')) {
		checkMetaLine(payload, offset, text);
		return;
	}

	const match = sampleLine.exec(text);
	if (!match) {
		const noValue = /^[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?[ \t]*$/.test(text);
		throw lineError(payload, offset, noValue ? 'sample has no value' : 'malformed sample');
	}

	if (parseValue(match[1] ?? '') === undefined) {
		throw lineError(payload, offset, 'value is not a number');
	}
}

function checkMetaLine(payload: string, offset: number, text: string): void {
	const [, keyword, name, rest] = /^# (HELP|TYPE) (\S+)(?:[ \t]+(.*))?$/.exec(text) ?? [];
	if (keyword === 'TYPE' && !metricTypes.has(rest ?? '')) {
		throw lineError(payload, offset, `unknown metric type for ${name}`);
	}
}

function lineError(payload: string, offset: number, reason: string): MetricsParseError {
	const line = lineOf(payload, offset);
	return new MetricsParseError(`line ${line}: ${reason}: ${excerpt(lineAt(payload, offset))}`, line);
}

/** Hands the kept lines to the library; its errors name the offending line, which is mapped back to a number. */
function parseKept(payload: string, kept: KeptLine[]): PromFamily[] {
	// A HELP line with no text is legal but the library rejects it ("# HELP name" after trimming); HELP carries
	// nothing pleg-top uses, so such a line is dropped rather than failing the whole payload.
	const lines = kept.filter(({text}) => !/^# HELP \S+\s*$/.test(text));
	try {
		// The library writes out the last family before adding the last line's sample, so without a final
		// newline the last sample is lost (the v1.14.10 dump has none): always end with one.
		return parsePrometheusTextFormat(lines.map(({text}) => `${text}\n`).join(''));
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const bad = lines.find(({text}) => message.endsWith(text.trim()));
		throw bad ? lineError(payload, bad.offset, 'rejected by the parser') : new MetricsParseError(message, null);
	}
}

function sampleFrom(parsed: PromFamily[]): PlegSample {
	const byName = new Map(parsed.map(family => [family.name, family]));
	const get = (name: string) => byName.get(name);
	const legacyLatency = summaryOf(get(families.legacyRelistLatency));
	const legacyInterval = summaryOf(get(families.legacyRelistInterval));
	return {
		relistDuration: histogramOf(get(families.relistDuration)),
		relistInterval: histogramOf(get(families.relistInterval)),
		legacyRelistLatency: legacyLatency && microsecondsToSeconds(legacyLatency),
		legacyRelistInterval: legacyInterval && microsecondsToSeconds(legacyInterval),
		lastSeenSeconds: scalarOf(get(families.lastSeen)),
		discardEvents: scalarOf(get(families.discardEvents)),
		eventedPlegGate: eventedGateOf(get(families.featureEnabled)),
		eventedConnectionSuccess: scalarOf(get(families.eventedConnectionSuccess)),
		eventedConnectionError: scalarOf(get(families.eventedConnectionError)),
		kubeletVersion: versionOf(get(families.buildInfo)),
	};
}

function numberOf(text: string | undefined): number | null {
	const value = text === undefined ? undefined : parseValue(text);
	return value === undefined ? null : value;
}

function firstSample(family: PromFamily | undefined, type: string): PromSample | undefined {
	return family?.type === type ? family.metrics[0] : undefined;
}

function histogramOf(family: PromFamily | undefined): Histogram | null {
	const sample = firstSample(family, 'HISTOGRAM');
	const sum = numberOf(sample?.sum);
	const count = numberOf(sample?.count);
	if (!sample?.buckets || sum === null || count === null) {
		return null;
	}

	// The library returns buckets in JavaScript key order ("1", "5", "10" before "0.005"): sort by the bound.
	const buckets: Bucket[] = Object.entries(sample.buckets)
		.map(([le, value]) => ({le: parseValue(le) ?? Number.NaN, count: numberOf(value) ?? Number.NaN}))
		.filter(bucket => !Number.isNaN(bucket.le) && !Number.isNaN(bucket.count))
		.sort((a, b) => a.le - b.le);
	return {buckets, sum, count};
}

function summaryOf(family: PromFamily | undefined): Summary | null {
	const sample = firstSample(family, 'SUMMARY');
	const sum = numberOf(sample?.sum);
	const count = numberOf(sample?.count);
	if (!sample || sum === null || count === null) {
		return null;
	}

	// A NaN quantile means no observation in the summary's decay window: there is nothing to show for it.
	const quantiles = Object.entries(sample.quantiles ?? {})
		.map(([q, value]) => ({q: Number(q), seconds: numberOf(value) ?? Number.NaN}))
		.filter(entry => !Number.isNaN(entry.q) && !Number.isNaN(entry.seconds))
		.sort((a, b) => a.q - b.q);
	return {quantiles, sum, count};
}

function microsecondsToSeconds(summary: Summary): Summary {
	return {
		quantiles: summary.quantiles.map(({q, seconds}) => ({q, seconds: seconds / 1e6})),
		sum: summary.sum / 1e6,
		count: summary.count,
	};
}

/** The value of a label-less gauge or counter. */
function scalarOf(family: PromFamily | undefined): number | null {
	if (family?.type !== 'GAUGE' && family?.type !== 'COUNTER' && family?.type !== 'UNTYPED') {
		return null;
	}

	return numberOf(family.metrics[0]?.value);
}

function eventedGateOf(family: PromFamily | undefined): boolean | null {
	const gate = family?.metrics.find(sample => sample.labels?.['name'] === eventedPlegGateName);
	const value = numberOf(gate?.value);
	return value === null ? null : value > 0;
}

function versionOf(family: PromFamily | undefined): string | null {
	const labels = family?.metrics[0]?.labels;
	// gitVersion up to 1.18, git_version from 1.19 (component-base metrics).
	return labels?.['git_version'] ?? labels?.['gitVersion'] ?? null;
}

function lineOf(text: string, index: number): number {
	let line = 1;
	for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
		line++;
	}

	return line;
}

/** The whole line around `index`, without its line ending. */
function lineAt(text: string, index: number): string {
	const start = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
	const end = text.indexOf('\n', index);
	return text.slice(start, end === -1 ? text.length : end).trimEnd();
}

function excerpt(text: string): string {
	const trimmed = text.trim();
	return trimmed.length > 80 ? `${trimmed.slice(0, 77)}...` : trimmed;
}
