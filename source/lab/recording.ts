// The --record format: one JSON object per line, one line per successful scrape, so a file cut short by a crash
// is still a recording up to its last whole line. A line carries the exposition lines pleg-top parses (so a replay
// runs the same parse/derive code on them) and the figures the screen showed at that scrape (for scripts: jq).
// Only metric lines and figures are written: no URL, header or credential.
import {createLabSession, type LabSession} from './lab-session.js';
import {parsePlegSample, plegLines} from '../domain/exposition/parse.js';
import {jsonReport} from '../report/report.js';
import type {Figures, NodeInfo, Scrape} from '../domain/types.js';
import {clusterText, safeJson, visibleLine} from '../domain/text/untrusted-text.js';
import {messageOf} from '../domain/text/thrown.js';

export type RecordLine = {
	/** Format version. */
	v: 1;
	/** `at` as an ISO 8601 UTC time, for people reading the file. */
	time: string;
	/** When the scrape completed, ms since the epoch, on the recording machine's clock. */
	at: number;
	node: string;
	kubeletVersion: string | null;
	/** The PLEG exposition lines as scraped (TYPE and sample lines; see recordLines). */
	lines: string[];
	/** jsonReport() of the figures at this scrape. */
	figures: Record<string, unknown>;
	/** `b` was pressed since the previous line: the baseline is the previous line's scrape. */
	mark?: true;
	/** When `b` was pressed, ms since the epoch. */
	markAt?: number;
	/** The answer's Date header, Unix seconds on the node's clock; null: the answer had none. Absent in older recordings. */
	date?: number | null;
	/** The node's clock is the recording machine's own (the demo). */
	sameClock?: true;
	/** The run's --window, seconds: a replay windows as the live run did. Absent in older recordings. */
	windowSeconds?: number;
	/** The run's --interval, ms: the cadence a replay shows. Absent in older recordings. */
	intervalMs?: number;
};

/** What a record keeps of the run besides the scrape's lines and figures (RecordLine's fields of the same names). */
export type RecordContext = {
	dateSeconds?: number | null;
	sameClock?: boolean;
	windowSeconds?: number;
	intervalMs?: number;
};

/**
 * The record of one scrape: its lines, the figures at it, the mark set since the previous one (ms), if any, and
 * the run's context (the Date, --window, --interval) when given.
 */
export function toRecordLine(lines: string[], figures: Figures, markAt: number | null, context: RecordContext = {}): RecordLine {
	return {
		v: 1,
		time: new Date(figures.now).toISOString(),
		at: figures.now,
		node: figures.node,
		kubeletVersion: figures.kubeletVersion,
		lines,
		figures: jsonReport(figures),
		...(markAt === null ? {} : {mark: true as const, markAt}),
		...(context.dateSeconds === undefined ? {} : {date: context.dateSeconds}),
		...(context.sameClock ? {sameClock: true as const} : {}),
		...(context.windowSeconds === undefined ? {} : {windowSeconds: context.windowSeconds}),
		...(context.intervalMs === undefined ? {} : {intervalMs: context.intervalMs}),
	};
}

/** The scrape a record stands for: its time, its lines parsed, and what its answer said of the node's clock. */
function recordedScrape(record: RecordLine): Scrape {
	return {
		at: record.at,
		sample: parsePlegSample(recordExposition(record)),
		latencyMs: 0,
		dateSeconds: recordedDate(record),
		...(record.sameClock ? {sameClock: true} : {}),
	};
}

/**
 * The Date of a record's answer. An older recording has none: the Date its live run's offset implies stands in,
 * so it replays on the clock it was judged on (none when that run did not know the offset either).
 */
export function recordedDate(record: RecordLine): number | null {
	if (record.date !== undefined) return record.date;
	const offset = record.figures['clockOffsetSeconds'];
	return typeof offset === 'number' && Number.isFinite(offset) ? Math.floor(record.at / 1000 + offset) : null;
}

/**
 * A recording folded through the same lab session as a live run, without waiting: a mark goes in before the
 * scrape of its line (so its baseline is the previous scrape, as it was live), the recorded kubelet version as
 * the Node object's. Throws MetricsParseError (with the record's line number) on lines that are not exposition.
 */
export function labFromRecording(records: Iterable<RecordLine>, windowSeconds: number): LabSession {
	let lab: LabSession | null = null;
	let previousAt: number | null = null;
	let index = 0;
	// One record at a time: a recording streamed from its file is never held whole.
	for (const record of records) {
		lab ??= createLabSession({node: record.node, windowSeconds});
		if (record.mark) lab.mark(record.markAt ?? previousAt ?? record.at);
		if (record.kubeletVersion !== null) lab.node(recordedNode(record));
		try {
			lab.scrape(recordedScrape(record));
		} catch (error) {
			throw new RecordingError(index + 1, `recorded lines do not parse: ${messageOf(error)}`);
		}

		previousAt = record.at;
		index++;
	}

	return lab ?? createLabSession({node: 'unknown', windowSeconds});
}

/** The Node object as the record saw it: its kubelet version and, when the figures carry it, the Ready condition. */
export function recordedNode(record: RecordLine): NodeInfo {
	return {name: record.node, kubeletVersion: record.kubeletVersion, ready: recordedReady(record.figures['readyCondition'])};
}

/** Above this a recorded `since` is already ms (a file written before JSON times were seconds): 1e11 s is the year 5138. */
const secondsBound = 1e11;

/**
 * A record's readyCondition (JSON: `since` in Unix seconds, as jsonReport writes it) as the Node object's Ready
 * condition (`since` in ms). The file is untrusted: anything that is not such a condition is none.
 */
function recordedReady(value: unknown): NodeInfo['ready'] {
	if (typeof value !== 'object' || value === null) return null;
	const {status, reason, message, since} = value as Record<string, unknown>; // checked object
	if (status !== 'True' && status !== 'False' && status !== 'Unknown') return null;
	// A recording is a file anyone could have written: its cluster text is shown visible, as it was when live.
	const text = (field: unknown) => clusterText(field);
	const at = typeof since === 'number' && Number.isFinite(since) && since >= 0 ? since : null;
	return {
		status,
		reason: text(reason),
		message: text(message),
		since: at === null ? null : at >= secondsBound ? at : Math.round(at * 1000),
	};
}

/** A recording line that is not a record; `line` is 1-based. */
export class RecordingError extends Error {
	readonly line: number;

	constructor(line: number, reason: string) {
		super(`line ${line}: ${reason}`);
		this.name = 'RecordingError';
		this.line = line;
	}
}

/**
 * The lines parsePlegSample reads, as the exposition reader picks them (TYPE and sample lines; of the ~200 feature
 * gates of a 1.28 kubelet only EventedPLEG; no HELP text).
 */
export function recordLines(text: string): string[] {
	return plegLines(text);
}

/** The recorded lines as a /metrics body again, for parsePlegSample. */
export function recordExposition(record: Pick<RecordLine, 'lines'>): string {
	return record.lines.join('\n') + '\n';
}

/** One record as it is appended: JSON and its newline, written in one call so the file only ever holds whole lines. */
export function formatRecordLine(record: RecordLine): string {
	return safeJson(record) + '\n';
}

/** One line of a recording file, without its newline; `line` is 1-based; `terminated`: a newline followed it. */
export type RecordingRow = {row: string; line: number; terminated: boolean};

/**
 * A recording file's text -> its records, oldest first (the whole text at once: for tests and small files; --replay
 * streams the file through readRecords).
 */
export function parseRecording(text: string): RecordLine[] {
	const rows = text.split('\n');
	return [...readRecords(rows.map((row, index) => ({row, line: index + 1, terminated: index < rows.length - 1})))];
}

/**
 * Rows of a recording file -> its records, one at a time, holding none of them. Blank lines are skipped. A last line
 * without its newline that does not parse is dropped (a copy taken while the file was written); any other bad line
 * throws RecordingError naming it. A record stamped before the one above it is rejected, not sorted: its figures
 * would be impossible (negative spans, a relist burst), and sorting a file of any length needs it all in memory.
 */
export function* readRecords(rows: Iterable<RecordingRow>): Generator<RecordLine, void, undefined> {
	let previous: {at: number; line: number} | null = null;
	for (const {row, line, terminated} of rows) {
		if (row.trim() === '') continue;
		let record: RecordLine;
		try {
			record = checkRecord(JSON.parse(row), line);
		} catch (error) {
			if (!terminated && error instanceof SyntaxError) continue;
			if (error instanceof RecordingError) throw error;
			throw new RecordingError(line, `not JSON (${messageOf(error)})`);
		}

		if (previous && record.at < previous.at) {
			throw new RecordingError(
				line,
				`recorded at ${iso(record.at)}, before line ${previous.line} (${iso(previous.at)}): the lines are not in time ` +
					"order, and pleg-top rejects the recording rather than show impossible figures; sort it first: jq -c -s 'sort_by(.at)[]'",
			);
		}

		previous = {at: record.at, line};
		yield record;
	}
}

function iso(at: number): string {
	return new Date(at).toISOString();
}

function checkRecord(value: unknown, line: number): RecordLine {
	const record = value as Partial<RecordLine> | null; // checked below
	if (typeof record !== 'object' || record === null) {
		throw new RecordingError(line, 'not a pleg-top record (expected a JSON object)');
	}

	// A Date holds ±8.64e15 ms; anything beyond is no time.
	if (typeof record.at !== 'number' || !(Math.abs(record.at) <= 8.64e15)) {
		throw new RecordingError(line, 'no "at" time (ms since the epoch)');
	}

	if (!Array.isArray(record.lines) || !record.lines.every((entry) => typeof entry === 'string')) {
		throw new RecordingError(line, 'no "lines" (the recorded exposition lines)');
	}

	if (typeof record.node !== 'string') {
		throw new RecordingError(line, 'no "node"');
	}

	return {
		v: 1,
		time: typeof record.time === 'string' ? record.time : new Date(record.at).toISOString(),
		at: record.at,
		node: visibleLine(record.node),
		kubeletVersion: clusterText(record.kubeletVersion),
		lines: record.lines,
		figures: typeof record.figures === 'object' && record.figures !== null ? record.figures : {},
		...(record.mark === true ? {mark: true as const} : {}),
		...(typeof record.markAt === 'number' ? {markAt: record.markAt} : {}),
		...recordedContext(record),
	};
}

/** The run's context a record carries, each field kept only when it is what it says (the file is untrusted). */
function recordedContext(record: Partial<RecordLine>): Partial<RecordLine> {
	const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;
	return {
		...(record.date === null || positive(record.date) ? {date: record.date} : {}),
		...(record.sameClock === true ? {sameClock: true as const} : {}),
		...(positive(record.windowSeconds) ? {windowSeconds: record.windowSeconds} : {}),
		...(positive(record.intervalMs) ? {intervalMs: record.intervalMs} : {}),
	};
}
