// Kubelet /metrics text -> PlegSample: the one reader of the Prometheus text format in pleg-top. The poller, the
// overview, --once, the lab recorder (plegLines) and replay all read through this module.
// The kubelet answers with a large text every second, of which pleg-top needs a few dozen PLEG and CRI lines
// (bench/README.md). So the payload is first cut to the lines of the families in names.ts (a scan of line starts,
// no regex over the whole body), and each kept line is read by the line reader (sample-line.ts), so an error names its line in
// the original payload. Every other line only has its first character checked.
//
// The PLEG families are put together here, by name, not by parse-prometheus-text-format: the library folds the
// labelled series of a histogram into the last one and drops their _sum/_count (a relist histogram with an extra
// label read as 0 relists), rejects a tab between the tokens of a TYPE line, takes an exemplar for a timestamp and
// names no line in its errors. It reads whole bodies where none of that matters (readFamilies), after the line
// reader has checked each line and written it back in the plain form it accepts.
import {isAscii} from 'node:buffer';
import parsePrometheusTextFormat, {type PromFamily} from 'parse-prometheus-text-format';
import type {Bucket, Histogram, PlegSample, RawLines, Summary} from '../types.js';
import {eventedPlegGateName, families, type FamilyKey} from './names.js';
import {criRoleOf, criSampleOf, type CriLine, type CriRole} from './cri-parse.js';
import {parseValue} from './parse-value.js';
import {byUpperBound} from '../histogram/quantile.js';
import {readMetaLine, readSampleLine, type SampleLine} from './sample-line.js';
import {visibleLine} from '../text/untrusted-text.js';

/** The payload is not Prometheus text. `line` is 1-based in the original payload, null when no line is to blame. */
export class MetricsParseError extends Error {
	readonly line: number | null;
	/** What is wrong and the whole text of the line to blame, for a caller that redacts it before cutting it short. */
	readonly detail: {reason: string; text: string} | null;

	constructor(message: string, line: number | null, detail: {reason: string; text: string} | null = null) {
		super(message);
		this.name = 'MetricsParseError';
		this.line = line;
		this.detail = detail;
	}
}

/** The families whose absence makes a body "not the kubelet's /metrics": every kubelet exposes one of them. */
export const plegFamilyNames: readonly string[] = Object.values(families).filter((name) => name.startsWith('kubelet_pleg_'));

/**
 * Valid exposition text without a single kubelet_pleg_* sample: the wrong endpoint (cAdvisor's /metrics/cadvisor,
 * a node exporter, …). No figure can be judged from it, so it is an error like an unreadable body.
 */
export class NoPlegSeriesError extends MetricsParseError {
	/** A few of the families the body does hold (payload order), to say what it is instead; may be empty. */
	readonly found: readonly string[];

	constructor(found: readonly string[]) {
		super(`no PLEG series: none of ${plegFamilyNames.join(', ')}`, null);
		this.name = 'NoPlegSeriesError';
		this.found = found;
	}
}

/** A line kept from the payload; `offset` is where it starts (its line number is counted only for an error). */
type KeptLine = {offset: number; text: string};
type KeptCriLine = KeptLine & {role: CriRole};

type Part = 'bucket' | 'sum' | 'count' | 'value';
type Role = {family: FamilyKey; part: Part};

const histogramFamilies: ReadonlySet<FamilyKey> = new Set(['relistDuration', 'relistInterval']);
const summaryFamilies: ReadonlySet<FamilyKey> = new Set(['legacyRelistLatency', 'legacyRelistInterval']);
const counterFamilies: ReadonlySet<FamilyKey> = new Set(['discardEvents', 'eventedConnectionSuccess', 'eventedConnectionError']);

const familyEntries = Object.entries(families) as Array<[FamilyKey, string]>; // keys of the literal
const familyKeys: ReadonlyMap<string, FamilyKey> = new Map(familyEntries.map(([key, name]) => [name, key]));

/** Every sample name of a kept family and what it holds: histograms by _bucket/_sum/_count, summaries by name/_sum/_count. */
const roles: ReadonlyMap<string, Role> = new Map(
	familyEntries.flatMap(([family, name]): Array<[string, Role]> => {
		if (histogramFamilies.has(family)) {
			return [
				[`${name}_bucket`, {family, part: 'bucket'}],
				[`${name}_sum`, {family, part: 'sum'}],
				[`${name}_count`, {family, part: 'count'}],
			];
		}

		if (summaryFamilies.has(family)) {
			return [
				[name, {family, part: 'value'}],
				[`${name}_sum`, {family, part: 'sum'}],
				[`${name}_count`, {family, part: 'count'}],
			];
		}

		// A counter read through OpenMetrics (or a relabelling agent) carries `_total`: the same series.
		return counterFamilies.has(family)
			? [
					[name, {family, part: 'value'}],
					[`${name}_total`, {family, part: 'value'}],
				]
			: [[name, {family, part: 'value'}]];
	}),
);

/** What each family is shown as, to begin its notes as Figures.unavailable lines begin. */
const figureNames: Record<FamilyKey, string> = {
	relistDuration: 'relist duration',
	relistInterval: 'interval',
	legacyRelistLatency: 'relist duration',
	legacyRelistInterval: 'interval',
	lastSeen: 'last seen',
	discardEvents: 'discard events',
	buildInfo: 'kubelet version',
	featureEnabled: 'evented PLEG',
	eventedConnectionSuccess: 'evented PLEG',
	eventedConnectionError: 'evented PLEG',
};

const metricTypes = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePlegSample(text: string): PlegSample {
	checkPayload(text);
	const {kept, cri, firstBad, raw} = keepPlegLines(text);
	const bad = firstBadLine();
	checkLastLine(text, bad);
	if (firstBad !== -1) {
		const read = readSampleLine(lineAt(text, firstBad).trim());
		bad.at(firstBad, typeof read === 'string' ? read : 'malformed sample');
	}

	const {read, plegSeen} = readPlegLines(kept, bad);
	const criLines: CriLine[] = [];
	for (const line of cri) {
		const sample = readSampleLine(line.text);
		if (typeof sample === 'string') {
			bad.at(line.offset, sample);
			break;
		}

		criLines.push({role: line.role, sample});
	}

	if (bad.offset !== Infinity) {
		throw lineError(text, bad.offset, bad.reason);
	}

	if (!plegSeen) {
		throw new NoPlegSeriesError(someFamilies(text));
	}

	const notes: string[] = [];
	return {...sampleFrom(read, notes), cri: criSampleOf(criLines), ...(notes.length > 0 ? {notes} : {}), raw: rawLinesOf(raw)};
}

/** The most kubelet_pleg_* lines a sample keeps for the raw view (a kubelet writes 10 to 40); past it they are counted. */
export const maxRawLines = 100;
/** A raw line longer than this is cut (a kubelet's are under 80 characters). */
export const maxRawLineLength = 300;

/** The kubelet_pleg_* sample lines keepPlegLines met, as the raw view shows them; bounded (the body may be anyone's). */
function rawLinesOf({lines, omitted}: RawLines): RawLines {
	const shown = lines.map((text) => visibleLine(text.length > maxRawLineLength ? `${text.slice(0, maxRawLineLength)}…` : text));
	return {lines: detached(shown), omitted};
}

/**
 * The same strings, copied out of the payload: a slice keeps the whole body it was cut from alive, and a sample is
 * held for the whole window. One join (a new flat string; two items at least, as V8 returns a lone one as is) and
 * one split.
 */
function detached(lines: string[]): string[] {
	return lines.length === 0 ? [] : [...lines, ''].join('\n').split('\n').slice(0, -1);
}

/** The earliest bad line found, whichever check found it: the error names the first bad line of the payload. */
function firstBadLine() {
	return {
		offset: Infinity,
		reason: '',
		at(offset: number, reason: string) {
			if (offset < this.offset) {
				this.offset = offset;
				this.reason = reason;
			}
		},
	};
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
		const reason = 'HTML response, not Prometheus text';
		const line = lineAt(text, first);
		throw new MetricsParseError(`${reason}: ${excerpt(line)}`, lineOf(text, first), {reason, text: line});
	}
}

/**
 * The lines a recording keeps of a payload: the TYPE and sample lines parsePlegSample reads (the feature gates
 * only for EventedPLEG), as written, in payload order. HELP text is left out: nothing read depends on it.
 */
export function plegLines(text: string): string[] {
	const {kept, cri} = keepPlegLines(text);
	return [...kept, ...cri].sort((a, b) => a.offset - b.offset).map((line) => line.text);
}

/**
 * The lines of the families in names.ts, in payload order: `kept` (TYPE and sample lines of the PLEG families),
 * `cri` (sample lines of the labelled CRI families, for the relist operations only), and the offset of the first
 * line that cannot begin an exposition line (-1 when none). One pass over the line starts; a line is looked at
 * further only when its first characters can begin a kept name, which is decided by a few character codes
 * (measured: a few indexOf searches for the prefixes cost more than this whole loop).
 */
function keepPlegLines(text: string): {kept: KeptLine[]; cri: KeptCriLine[]; firstBad: number; raw: RawLines} {
	const kept: KeptLine[] = [];
	const raw: RawLines = {lines: [], omitted: 0};
	const cri: KeptCriLine[] = [];
	let firstBad = -1;
	let offset = text.charCodeAt(0) === charBom ? 1 : 0;
	while (offset < text.length) {
		// Most lines of a cut body (cutToPlegLines) are empty: stepped over without a search.
		if (text.charCodeAt(offset) === charNewline) {
			offset++;
			continue;
		}

		let end = text.indexOf('\n', offset);
		if (end === -1) {
			end = text.length;
		}

		let start = offset;
		let first = text.charCodeAt(start);
		// Blanks before a line are allowed (rare: the kubelet writes none).
		while ((first === charSpace || first === charTab) && start < end) {
			first = text.charCodeAt(++start);
		}

		if (first === charK) {
			const kind = mayBeKept(text, start);
			if (kind === pleg) {
				const line = text.slice(start, end).trimEnd();
				const name = nameAt(line);
				// ~200 feature gates on a 1.28 kubelet: only the EventedPLEG one is read.
				if (roles.has(name) && (name !== families.featureEnabled || line.includes(eventedPlegGateName))) {
					kept.push({offset: start, text: line});
				}

				// What `grep ^kubelet_pleg` shows, of a family read here or not (a newer kubelet's), for the raw view.
				if (name.startsWith('kubelet_pleg_')) {
					if (raw.lines.length < maxRawLines) raw.lines.push(line);
					else raw.omitted++;
				}
			} else if (kind === runtime) {
				const role = criRoleOf(text, start, end);
				if (role) {
					cri.push({offset: start, text: text.slice(start, end).trimEnd(), role});
				}
			}
		} else if (first === charHash) {
			const at = typeNameAt(text, start, end);
			if (at !== -1 && mayBeKept(text, at) === pleg) {
				const line = text.slice(start, end).trimEnd();
				if (familyKeys.has(nameAt(text.slice(at, end)))) {
					kept.push({offset: start, text: line});
				}
			}
		} else if (firstBad === -1 && start < end && !canStartLine(first)) {
			firstBad = start;
		}

		offset = end + 1;
	}

	return {kept, cri, firstBad, raw};
}

/**
 * The body's text as parsePlegSample reads it, cut from its bytes: the lines it could read or blame kept as they are,
 * every other line left empty, so an error names the same line number. null when only the whole text reads the same:
 * not ASCII, a NUL byte, nothing but whitespace, or no PLEG sample line (the "no PLEG series" error names families
 * from anywhere in the body). A returned text has overwritten `bytes`, which must be the caller's own.
 * Why: the whole body as one string is a large object V8 maps, fills and unmaps every scrape (bench/README.md).
 */
export function cutToPlegLines(bytes: Buffer): string | null {
	if (!isAscii(bytes) || bytes.indexOf(0) !== -1) {
		return null;
	}

	const firstContent = nextContent(bytes);
	if (firstContent === -1) {
		return null;
	}

	// Phase one decides, phase two rewrites: `bytes` stays whole until the cut is sure to be used.
	const {kept, lines, plegSeen} = linesToKeep(bytes, firstContent);
	if (!plegSeen) {
		return null;
	}

	const written = writeKeptLines(bytes, kept, lines);
	return bytes.toString('latin1', 0, written);
}

/**
 * The lines cutToPlegLines keeps, as (line number, start, end) triples: the first and the last line that hold more
 * than whitespace (checkPayload, checkLastLine); every line whose first character cannot begin one (firstBad); every
 * `# TYPE` line; and every line that mayBeKept's first look (kube[l]et_[p|e|r|d]…, kube[r]…) would read further, a
 * superset of what keepPlegLines keeps. `lines` counts the body's line endings, `plegSeen` says whether a PLEG
 * sample line is among them.
 */
function linesToKeep(bytes: Buffer, firstContent: number): {kept: number[]; lines: number; plegSeen: boolean} {
	const firstLine = bytes.lastIndexOf(charNewline, firstContent) + 1;
	const lastLine = bytes.lastIndexOf(charNewline, lastContent(bytes)) + 1;
	const kept: number[] = [];
	let plegSeen = false;
	let lines = 0;
	let offset = 0;
	while (offset < bytes.length) {
		let end = bytes.indexOf(charNewline, offset);
		if (end === -1) {
			end = bytes.length;
		}

		let start = offset;
		// Below: in bounds.
		while (start < end && isBlank(bytes[start]!)) {
			start++;
		}

		const first = bytes[start]!; // in bounds
		let keep = offset === firstLine || offset === lastLine;
		if (start < end) {
			if (first === charK) {
				const fifth = bytes[start + 4];
				const ninth = bytes[start + 8];
				if (fifth === charR || (fifth === charL && (ninth === charP || ninth === charE || ninth === charR || ninth === charD))) {
					keep = true;
					plegSeen ||= ninth === charP && isPlegSample(bytes, start, end);
				}
			} else if (first === charHash) {
				keep ||= isTypeLine(bytes, start, end);
			} else {
				keep ||= !canStartLine(first);
			}
		}

		if (keep) {
			kept.push(lines, offset, end);
		}

		lines += end < bytes.length ? 1 : 0;
		offset = end + 1;
	}

	return {kept, lines, plegSeen};
}

/** Writes the kept lines over the front of `bytes`, each at its own line number; returns the bytes written. */
function writeKeptLines(bytes: Buffer, kept: number[], lines: number): number {
	let written = 0;
	let newlines = 0;
	for (let index = 0; index < kept.length; index += 3) {
		const line = kept[index]!; // in bounds
		const start = kept[index + 1]!; // in bounds
		const end = kept[index + 2]!; // in bounds
		// The lines left out before this one: their line endings only.
		for (; newlines < line; newlines++) {
			bytes[written++] = charNewline;
		}

		bytes.copyWithin(written, start, end);
		written += end - start;
		if (end < bytes.length) {
			bytes[written++] = charNewline;
			newlines++;
		}
	}

	for (; newlines < lines; newlines++) {
		bytes[written++] = charNewline;
	}

	return written;
}

/** A sample line of a kubelet_pleg_* family keepPlegLines keeps (the one test parsePlegSample's plegSeen makes). */
function isPlegSample(bytes: Buffer, start: number, end: number): boolean {
	if (plegPrefix.compare(bytes, start, start + plegPrefix.length) !== 0) {
		return false;
	}

	const role = roles.get(nameAt(bytes.toString('latin1', start, end).trimEnd()));
	return role !== undefined && families[role.family].startsWith('kubelet_pleg_');
}

const plegPrefix = Buffer.from('kubelet_pleg_', 'latin1');
const typeWord = Buffer.from('TYPE', 'latin1');

/** `#<blanks>TYPE<blank>…`, as typeNameAt reads it (a superset: the name is not looked at). */
function isTypeLine(bytes: Buffer, start: number, end: number): boolean {
	let at = start + 1;
	// Below: in bounds.
	if (at >= end || !isBlank(bytes[at]!)) {
		return false;
	}

	// Below: in bounds.
	while (at < end && isBlank(bytes[at]!)) {
		at++;
	}

	return at + 4 < end && typeWord.compare(bytes, at, at + 4) === 0 && isBlank(bytes[at + 4]!); // in bounds
}

/** Where the first character that is not whitespace (as String#trim and \S see it in ASCII) is; -1 for none. */
function nextContent(bytes: Buffer): number {
	for (let at = 0; at < bytes.length; at++) {
		// Below: in bounds.
		if (!isAsciiSpace(bytes[at]!)) {
			return at;
		}
	}

	return -1;
}

function lastContent(bytes: Buffer): number {
	let at = bytes.length - 1;
	// Below: in bounds.
	while (at >= 0 && isAsciiSpace(bytes[at]!)) {
		at--;
	}

	return at;
}

/** Tab, line feed, vertical tab, form feed, carriage return, space. */
function isAsciiSpace(code: number): boolean {
	return (code >= 0x09 && code <= 0x0d) || code === charSpace;
}

const charNewline = 0x0a;
const charK = 0x6b; // 'k'
const charHash = 0x23; // '#'
const charP = 0x70; // 'p'
const charE = 0x65; // 'e'
const charL = 0x6c; // 'l'
const charR = 0x72; // 'r'
const charD = 0x64; // 'd'
const charT = 0x54; // 'T'
const charSpace = 0x20;
const charTab = 0x09;
const charBom = 0xfeff;

const none = 0;
/** kubelet_pleg_*, kubelet_evented_pleg_*, kubernetes_*: read here. */
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

	return (ninth === charP && text.startsWith('kubelet_pleg_', at)) || (ninth === charE && text.startsWith('kubelet_evented_pleg_', at))
		? pleg
		: none;
}

/** Where the metric name of a `#<blanks>TYPE<blanks>name` line starts; -1 for any other comment (HELP included). */
function typeNameAt(text: string, start: number, end: number): number {
	let at = start + 1;
	if (!isBlank(text.charCodeAt(at))) {
		return -1;
	}

	while (isBlank(text.charCodeAt(++at)));
	if (text.charCodeAt(at) !== charT || !text.startsWith('TYPE', at) || !isBlank(text.charCodeAt(at + 4))) {
		return -1;
	}

	at += 4;
	while (isBlank(text.charCodeAt(++at)));
	return at < end ? at : -1;
}

function isBlank(code: number): boolean {
	return code === charSpace || code === charTab;
}

/** A metric name's first character, a comment's '#', or the CR of a CRLF blank line. */
function canStartLine(code: number): boolean {
	return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a || code === 0x0d;
}

/** The metric name at the start of `line`: up to '{', a blank or the end. */
function nameAt(line: string): string {
	const end = line.search(/[{ \t]/);
	return end === -1 ? line : line.slice(0, end);
}

/** A body cut short ends in the middle of a line: check the last line, whatever family it belongs to. */
function checkLastLine(text: string, bad: ReturnType<typeof firstBadLine>): void {
	const offset = text.trimEnd().lastIndexOf('\n') + 1;
	const line = lineAt(text, offset).trim();
	if (!line.startsWith('#')) {
		const read = readSampleLine(line);
		if (typeof read === 'string') {
			bad.at(offset, read);
		}
	}
}

/** One series of a family (its labels other than `le`/`quantile`) while the lines are read. */
type Series = {
	labels: Record<string, string>;
	buckets: Map<number, number>;
	quantiles: Map<number, number>;
	sum: number | null;
	count: number | null;
	value: number | null;
};

type FamilyRead = {
	/** By series key (the labels other than le/quantile), in payload order. */
	series: Map<string, Series>;
	/** part, series key and bound of every sample read: a repeat is a second copy of the family. */
	seen: Set<string>;
	typed: boolean;
	/** The family appears a second time in the body; only the first is read. */
	duplicate: boolean;
};

/**
 * Reads the kept PLEG lines into their families, by name: a family without a TYPE line (or `untyped`) reads the
 * same. A second copy of a family (a second TYPE line, a TYPE after its samples, its lines again after another
 * family's, or a series repeated) is left out: the first one is read, as Prometheus keeps the first sample of a
 * series. Stops at the first bad line, noted in `bad`.
 */
function readPlegLines(kept: KeptLine[], bad: ReturnType<typeof firstBadLine>): {read: Map<FamilyKey, FamilyRead>; plegSeen: boolean} {
	const read = new Map<FamilyKey, FamilyRead>();
	const familyOf = (key: FamilyKey): FamilyRead => {
		let family = read.get(key);
		if (!family) {
			family = {series: new Map(), seen: new Set(), typed: false, duplicate: false};
			read.set(key, family);
		}

		return family;
	};

	let plegSeen = false;
	let current: FamilyKey | null = null;
	for (const {offset, text} of kept) {
		if (text.charCodeAt(0) === charHash) {
			const meta = readMetaLine(text);
			if (typeof meta === 'string') {
				bad.at(offset, meta);
				break;
			}

			if (meta === null || !metricTypes.has(meta.text)) {
				bad.at(offset, `unknown metric type for ${meta?.name ?? 'a family'}`);
				break;
			}

			const key = familyKeys.get(meta.name)!; // set for every key
			const family = familyOf(key);
			family.duplicate ||= family.typed || family.series.size > 0;
			family.typed = true;
			current = key;
			continue;
		}

		const sample = readSampleLine(text);
		if (typeof sample === 'string') {
			bad.at(offset, sample);
			break;
		}

		const role = roles.get(sample.name)!; // set for every key
		const family = familyOf(role.family);
		family.duplicate ||= current !== role.family && (family.typed || family.series.size > 0);
		current = role.family;
		plegSeen ||= families[role.family].startsWith('kubelet_pleg_');
		if (!family.duplicate) {
			add(family, role, sample);
		}
	}

	return {read, plegSeen};
}

function add(family: FamilyRead, {family: key, part}: Role, {labels, value}: SampleLine): void {
	const bound = part === 'bucket' ? 'le' : part === 'value' && summaryFamilies.has(key) ? 'quantile' : null;
	const seriesKey = keyOf(labels, bound);
	const boundText = bound === null ? '' : (labels[bound] ?? '');
	const id = `${part}\u0000${seriesKey}\u0000${boundText}`;
	if (family.seen.has(id)) {
		family.duplicate = true;
		return;
	}

	family.seen.add(id);
	let series = family.series.get(seriesKey);
	if (!series) {
		const own = bound === null ? labels : Object.fromEntries(Object.entries(labels).filter(([name]) => name !== bound));
		series = {labels: own, buckets: new Map(), quantiles: new Map(), sum: null, count: null, value: null};
		family.series.set(seriesKey, series);
	}

	if (part === 'sum') {
		series.sum = value;
	} else if (part === 'count') {
		series.count = value;
	} else if (bound === null) {
		series.value = value;
	} else {
		const at = parseValue(boundText);
		if (at !== undefined && !Number.isNaN(at)) {
			(part === 'bucket' ? series.buckets : series.quantiles).set(at, value);
		}
	}
}

/** The series' labels other than `skip`, as one string; '' for the kubelet's label-less PLEG series. */
function keyOf(labels: Record<string, string>, skip: string | null): string {
	let names: string[] | null = null;
	for (const name in labels) {
		if (name !== skip) {
			(names ??= []).push(name);
		}
	}

	return names === null
		? ''
		: names
				.sort()
				.map((name) => `${name}=${labels[name]}`)
				.join('\u0000');
}

function sampleFrom(read: Map<FamilyKey, FamilyRead>, notes: string[]): Omit<PlegSample, 'cri'> {
	for (const [key, family] of read) {
		if (family.duplicate) {
			notes.push(`${figureNames[key]}: ${families[key]} appears more than once in the body; the first one is read`);
		}
	}

	const legacyLatency = summaryOf('legacyRelistLatency', read, notes);
	const legacyInterval = summaryOf('legacyRelistInterval', read, notes);
	return {
		relistDuration: histogramOf('relistDuration', read, notes),
		relistInterval: histogramOf('relistInterval', read, notes),
		legacyRelistLatency: legacyLatency && microsecondsToSeconds(legacyLatency),
		legacyRelistInterval: legacyInterval && microsecondsToSeconds(legacyInterval),
		lastSeenSeconds: gaugeOf('lastSeen', read, notes),
		discardEvents: counterOf('discardEvents', read, notes),
		eventedPlegGate: eventedGateOf(read.get('featureEnabled')),
		eventedConnectionSuccess: counterOf('eventedConnectionSuccess', read, notes),
		eventedConnectionError: counterOf('eventedConnectionError', read, notes),
		kubeletVersion: versionOf(read.get('buildInfo')),
	};
}

/** "2 series of NAME that differ by label instance" */
function seriesPhrase(key: FamilyKey, all: Series[]): string {
	const names = [...new Set(all.flatMap((series) => Object.keys(series.labels)))].sort();
	return `${all.length} series of ${families[key]} that differ by label${names.length === 1 ? '' : 's'} ${names.join(', ')}`;
}

/** The family's histogram; the series that differ only by other labels are added up, as sum without(those labels). */
function histogramOf(key: FamilyKey, read: Map<FamilyKey, FamilyRead>, notes: string[]): Histogram | null {
	const all = [...(read.get(key)?.series.values() ?? [])];
	const complete = all.filter((series) => series.buckets.size > 0 && series.sum !== null && series.count !== null);
	if (complete.length === 0) {
		return null;
	}

	if (all.length > 1) {
		const bounds = [...complete[0]!.buckets.keys()]; // non-empty
		const sameBounds = complete.every((series) => series.buckets.size === bounds.length && bounds.every((le) => series.buckets.has(le)));
		if (complete.length < all.length || !sameBounds) {
			const why = sameBounds ? 'some lack buckets, _sum or _count' : 'their bucket bounds differ';
			notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}, not added up: ${why}`);
			return null;
		}

		notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}, added up`);
	}

	const buckets: Bucket[] = [];
	// Below: non-empty.
	for (const le of complete[0]!.buckets.keys()) {
		let count = 0;
		for (const series of complete) {
			count += series.buckets.get(le)!; // set for every key
		}

		if (!Number.isNaN(count)) {
			buckets.push({le, count});
		}
	}

	return {buckets: buckets.sort(byUpperBound), sum: total(complete, 'sum'), count: total(complete, 'count')};
}

function total(all: Series[], part: 'sum' | 'count' | 'value'): number {
	return all.reduce((sum, series) => sum + series[part]!, 0); // in bounds
}

/** The family's summary; series that differ by other labels add up their _sum and _count, but not their quantiles. */
function summaryOf(key: FamilyKey, read: Map<FamilyKey, FamilyRead>, notes: string[]): Summary | null {
	const all = [...(read.get(key)?.series.values() ?? [])];
	const complete = all.filter((series) => series.sum !== null && series.count !== null);
	if (complete.length === 0) {
		return null;
	}

	if (all.length > 1) {
		if (complete.length < all.length) {
			notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}, not added up: some lack _sum or _count`);
			return null;
		}

		notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}, _sum and _count added up; quantiles cannot be, none shown`);
		return {quantiles: [], sum: total(complete, 'sum'), count: total(complete, 'count')};
	}

	// A NaN quantile means no observation in the summary's decay window: there is nothing to show for it.
	const quantiles = [...complete[0]!.quantiles] // non-empty
		.map(([q, seconds]) => ({q, seconds}))
		.filter((entry) => !Number.isNaN(entry.seconds))
		.sort((a, b) => a.q - b.q);
	return {quantiles, sum: complete[0]!.sum!, count: complete[0]!.count!}; // non-empty, complete
}

function microsecondsToSeconds(summary: Summary): Summary {
	return {
		quantiles: summary.quantiles.map(({q, seconds}) => ({q, seconds: seconds / 1e6})),
		sum: summary.sum / 1e6,
		count: summary.count,
	};
}

/** A counter: the series that differ by other labels are added up. */
function counterOf(key: FamilyKey, read: Map<FamilyKey, FamilyRead>, notes: string[]): number | null {
	const all = [...(read.get(key)?.series.values() ?? [])].filter((series) => series.value !== null);
	if (all.length > 1) {
		notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}, added up`);
	}

	return all.length === 0 ? null : total(all, 'value');
}

/** A gauge that is a time (last seen): one series is read; times of several cannot be added up. */
function gaugeOf(key: FamilyKey, read: Map<FamilyKey, FamilyRead>, notes: string[]): number | null {
	const all = [...(read.get(key)?.series.values() ?? [])].filter((series) => series.value !== null);
	if (all.length > 1) {
		notes.push(`${figureNames[key]}: ${seriesPhrase(key, all)}; a time cannot be added up, none is read`);
		return null;
	}

	return all[0]?.value ?? null;
}

function eventedGateOf(family: FamilyRead | undefined): boolean | null {
	const gate = [...(family?.series.values() ?? [])].find((series) => series.labels['name'] === eventedPlegGateName);
	const value = gate?.value;
	return value === null || value === undefined || Number.isNaN(value) ? null : value > 0;
}

function versionOf(family: FamilyRead | undefined): string | null {
	const labels = family && [...family.series.values()][0]?.labels;
	// gitVersion up to 1.18, git_version from 1.19 (component-base metrics). A label value is the kubelet's to choose: shown visible.
	const version = labels?.['git_version'] ?? labels?.['gitVersion'];
	return version === undefined ? null : visibleLine(version);
}

/** A family of a whole body as parse-prometheus-text-format gives it (values are the strings it was handed). */
export type ExpositionFamily = PromFamily;

/**
 * Every family of a whole body, by parse-prometheus-text-format, once each line has been read by the line reader
 * (which checks it and names a bad one) and written back in the plain form the library accepts: one blank between
 * tokens, no exemplar or timestamp, no empty HELP. A labelled histogram or summary still comes out folded into
 * one series (the library's reading): parsePlegSample reads the families that carry labels. Throws
 * MetricsParseError naming the first bad line.
 */
export function readFamilies(text: string): ExpositionFamily[] {
	checkPayload(text);
	const plain: string[] = [];
	let offset = 0;
	while (offset < text.length) {
		let end = text.indexOf('\n', offset);
		if (end === -1) {
			end = text.length;
		}

		const line = text
			.slice(offset, end)
			.trim()
			.replace(/^\uFEFF/, '');
		if (line.startsWith('#')) {
			const meta = readMetaLine(line);
			if (typeof meta === 'string' || (meta?.keyword === 'TYPE' && !metricTypes.has(meta.text))) {
				throw lineError(text, offset, typeof meta === 'string' ? meta : `unknown metric type for ${meta.name}`);
			}

			// A HELP line with no text is legal but the library rejects it; HELP carries nothing read here.
			if (meta !== null && meta.text !== '') {
				plain.push(`# ${meta.keyword} ${meta.name} ${meta.text}`);
			}
		} else if (line !== '') {
			const sample = readSampleLine(line);
			if (typeof sample === 'string') {
				throw lineError(text, offset, sample);
			}

			plain.push(plainSample(sample));
		}

		offset = end + 1;
	}

	try {
		// The library writes out the last family before adding the last line's sample: end with a newline.
		return parsePrometheusTextFormat(plain.map((line) => `${line}\n`).join(''));
	} catch (error) {
		throw new MetricsParseError(`rejected by the parser: ${excerpt(error instanceof Error ? error.message : String(error))}`, null);
	}
}

function plainSample({name, labels, value}: SampleLine): string {
	const pairs = Object.entries(labels).map(([label, text]) => `${label}="${text.replace(/[\\"\n]/g, escape)}"`);
	const written = Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value);
	return `${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${written}`;
}

function escape(character: string): string {
	return character === '\n' ? '\\n' : `\\${character}`;
}

/** Longest stretch of a body read to say which families it holds instead of the PLEG ones. */
const diagnosisBytes = 64 * 1024;

/** The first three family names of a body (read from its first 64 KB), or none when that part is not readable. */
function someFamilies(text: string): string[] {
	const cut = text.length <= diagnosisBytes ? text : text.slice(0, text.lastIndexOf('\n', diagnosisBytes) + 1);
	try {
		return readFamilies(cut)
			.slice(0, 3)
			.map((family) => family.name);
	} catch {
		return [];
	}
}

function lineError(payload: string, offset: number, reason: string): MetricsParseError {
	const line = lineOf(payload, offset);
	const text = lineAt(payload, offset);
	return new MetricsParseError(`line ${line}: ${reason}: ${excerpt(text)}`, line, {reason, text});
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

/** A line as shown in an error: cut to 80 characters, control characters (a terminal escape) in the one visible form (^[). */
export function excerpt(text: string): string {
	const trimmed = visibleLine(text.trim());
	return trimmed.length > 80 ? `${trimmed.slice(0, 77)}...` : trimmed;
}
