// The lab session of a live or replayed run, and its file I/O: --record (one line appended per scrape),
// reading a recording for --replay, and the files written on quit (--summary, --plot).
// Each record is written with one write(2) on a file opened O_APPEND, so a run killed at any moment
// (SIGKILL included) leaves a file whose every line is a whole record.
import {closeSync, openSync, readFileSync, writeFileSync, writeSync} from 'node:fs';
import {createLabSession, type LabSummary} from './lab-session.js';
import {plotSvg} from './plot-svg.js';
import {formatRecordLine, parseRecording, recordLines, toRecordLine, type RecordLine} from './recording.js';
import {sourceFailure} from '../sources/failure.js';
import type {MetricsSource, Scrape} from '../domain/types.js';
import {writeDown} from './write-down.js';

export type LabRecorder = {
	/** The source to poll: the given one, with its Node objects passed to the session as well. */
	source: MetricsSource;
	/** Each payload the poller accepted, with the scrape it parsed into. */
	payload(text: string, scrape: Scrape): void;
	/** `b` (or a recorded mark in a replay), ms. */
	mark(at: number): void;
	summary(): LabSummary;
	/** Why recording stopped (the file could not be written), else null. */
	readonly recordError: string | null;
	close(): void;
};

export type LabRecorderOptions = {
	source: MetricsSource;
	windowSeconds: number;
	/** --record FILE: append one JSON line per scrape. Opened at once, so a bad path fails before the screen. */
	file?: string;
};

export function createLabRecorder({source, windowSeconds, file}: LabRecorderOptions): LabRecorder {
	const lab = createLabSession({node: source.node, windowSeconds});
	let fd = file === undefined ? null : openRecordFile(file);
	let recordError: string | null = null;
	const observed: MetricsSource = {
		label: source.label,
		...(source.metricsUrl === undefined ? {} : {metricsUrl: source.metricsUrl}),
		node: source.node,
		fetchMetrics: async (signal) => source.fetchMetrics(signal),
		// The Date header passes through unrecorded, like the Events: it is for the clock offset of this run.
		...(source.fetchMetricsDated && {fetchMetricsDated: async (signal: AbortSignal) => source.fetchMetricsDated!(signal)}),
		...(source.fetchNode && {
			async fetchNode(signal: AbortSignal) {
				const node = await source.fetchNode!(signal);
				lab.node(node);
				return node;
			},
		}),
		// The node's Events pass through unrecorded: a recording replays the figures, not the Events.
		...(source.fetchEvents && {fetchEvents: async (signal: AbortSignal) => source.fetchEvents!(signal)}),
		close: () => source.close?.(),
	};

	const write = (record: RecordLine) => {
		if (fd === null) return;
		try {
			appendWhole(fd, formatRecordLine(record));
		} catch (error) {
			// A full disk must not end the watch: stop recording and say so on quit.
			recordError = `recording to ${file} stopped: ${(error as Error).message}`;
			closeSync(fd);
			fd = null;
		}
	};

	return {
		source: observed,
		payload(text, scrape) {
			// The poller's own sample: the recorded lines parse to the same one (test/lab/recording.test.ts),
			// so neither the 250 KB filter nor a second parse runs each second unless a file is being written.
			// The session computes the figures of a scrape only when they are read: here, for a record line.
			const scraped = lab.scrape({...scrape, latencyMs: 0});
			if (fd !== null) write(toRecordLine(recordLines(text), scraped.figures, scraped.markAt));
		},
		mark: (at) => {
			lab.mark(at);
		},
		summary: () => lab.summary(),
		get recordError() {
			return recordError;
		},
		close() {
			if (fd !== null) closeSync(fd);
			fd = null;
		},
	};
}

function openRecordFile(file: string): number {
	try {
		return openSync(file, 'a', 0o644);
	} catch (error) {
		throw sourceFailure(
			'config',
			`cannot open the --record file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
		);
	}
}

/** One write of one buffer; a short write (not seen on regular files) is finished rather than left half a line. */
function appendWhole(fd: number, line: string): void {
	const buffer = Buffer.from(line, 'utf8');
	let written = writeSync(fd, buffer);
	while (written < buffer.length) written += writeSync(fd, buffer, written);
}

/** --replay FILE: its records; a missing or malformed file is a usage problem (exit 2), said with its line. */
export function readRecording(file: string): RecordLine[] {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw sourceFailure(
			'config',
			`cannot read the recording ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
		);
	}

	let records: RecordLine[];
	try {
		records = parseRecording(text);
	} catch (error) {
		throw sourceFailure('config', `${file}: ${(error as Error).message}`);
	}

	if (records.length === 0) throw sourceFailure('config', `${file} holds no recorded scrape`);
	return records;
}

export type QuitFiles = {summary?: string; plot?: string};

/**
 * On quit: the write-down (Markdown to --summary) and the plot (to --plot). Returns the plain write-down, wrapped
 * to `width` columns (the terminal's; default 80), and the lines that say what was written or what failed.
 */
export function writeQuitFiles(lab: LabSummary, files: QuitFiles, options: {width?: number} = {}): {text: string; notes: string[]} {
	const down = writeDown(lab, {width: options.width});
	const notes: string[] = [];
	const save = (file: string | undefined, what: string, content: () => string) => {
		if (file === undefined) return;
		try {
			writeFileSync(file, content());
			notes.push(`${what} written to ${file}`);
		} catch (error) {
			notes.push(`pleg-top: could not write the ${what} to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
		}
	};

	save(files.summary, 'write-down', () => down.markdown);
	save(files.plot, 'plot', () => plotSvg(lab));
	return {text: down.text, notes};
}
