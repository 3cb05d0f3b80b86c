// The lab session of a live or replayed run, and its file I/O: --record (one line appended per scrape),
// reading a recording for --replay, and the files written on quit (--summary, --plot).
// Each record is written with one write(2) on a file opened O_APPEND, so a run killed at any moment
// (SIGKILL included) leaves a file whose every line is a whole record.
import {accessSync, closeSync, constants, openSync, readSync, statSync, writeFileSync, writeSync} from 'node:fs';
import path from 'node:path';
import {createLabSession, type LabSummary} from './lab-session.js';
import {plotSvg} from './plot-svg.js';
import {formatRecordLine, readRecords, RecordingError, recordLines, toRecordLine, type RecordingRow, type RecordLine} from './recording.js';
import {sourceFailure} from '../sources/failure.js';
import type {MetricsSource, Scrape} from '../domain/types.js';
import {writeDown} from './write-down.js';
import {codeOf, messageOf} from '../domain/text/thrown.js';

export type LabRecorder = {
	/** The source to poll: the given one, with its Node objects passed to the session as well. */
	source: MetricsSource;
	/** Each payload the poller accepted, with the scrape it parsed into. */
	payload: (text: string, scrape: Scrape) => void;
	/** `b` (or a recorded mark in a replay), ms. */
	mark: (at: number) => void;
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
	/** --interval, ms: recorded with each line, for the replay's cadence. */
	intervalMs?: number;
};

export function createLabRecorder({source, windowSeconds, file, intervalMs}: LabRecorderOptions): LabRecorder {
	const lab = createLabSession({node: source.node, windowSeconds});
	let fd = file === undefined ? null : openRecordFile(file);
	let recordError: string | null = null;
	const observed: MetricsSource = {
		label: source.label,
		...(source.sameClock && {sameClock: true}),
		...(source.metricsUrl === undefined ? {} : {metricsUrl: source.metricsUrl}),
		node: source.node,
		fetchMetrics: async (signal) => source.fetchMetrics(signal),
		// The Date header is recorded with each line: a replay judges the ages on the node's clock as the run did.
		...(source.fetchMetricsDated && {fetchMetricsDated: async (signal: AbortSignal) => source.fetchMetricsDated!(signal)}), // checked by the spread
		...(source.fetchNode && {
			async fetchNode(signal: AbortSignal) {
				const node = await source.fetchNode!(signal); // checked by the spread
				lab.node(node);
				return node;
			},
		}),
		// The node's Events pass through unrecorded: a recording replays the figures, not the Events.
		...(source.fetchEvents && {fetchEvents: async (signal: AbortSignal) => source.fetchEvents!(signal)}), // checked by the spread
		close: () => source.close?.(),
	};

	const write = (record: RecordLine) => {
		if (fd === null) return;
		try {
			appendWhole(fd, formatRecordLine(record));
		} catch (error) {
			// A full disk must not end the watch: stop recording and say so on quit.
			recordError = `recording to ${file} stopped: ${messageOf(error)}`;
			closeSync(fd);
			fd = null;
		}
	};

	return {
		source: observed,
		payload(text, scrape) {
			// The poller's own sample: the recorded lines parse to the same one (test/lab/recording.test.ts),
			// so neither the filter of the whole body nor a second parse runs each second unless a file is being written.
			// The session computes the figures of a scrape only when they are read: here, for a record line.
			const scraped = lab.scrape({...scrape, latencyMs: 0});
			if (fd === null) return;
			const context = {dateSeconds: scrape.dateSeconds ?? null, sameClock: scrape.sameClock === true, windowSeconds, intervalMs};
			write(toRecordLine(recordLines(text), scraped.figures, scraped.markAt, context));
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
		throw sourceFailure('config', `cannot open the --record file ${file}: ${codeOf(error) ?? messageOf(error)}`);
	}
}

/** One write of one buffer; a short write (not seen on regular files) is finished rather than left half a line. */
function appendWhole(fd: number, line: string): void {
	const buffer = Buffer.from(line, 'utf8');
	let written = writeSync(fd, buffer);
	while (written < buffer.length) written += writeSync(fd, buffer, written);
}

/** A recording line longer than this is no record (a 1.28 kubelet's is a few KB): it is not read into memory whole. */
export const maxRecordBytes = 16 * 1024 * 1024;

/**
 * --replay FILE: its records, read from the file one line at a time as they are asked for, so a recording of any
 * length replays in flat memory. Each iteration reads the file from its start. The first record is read at once: a
 * missing, empty or malformed start is a usage problem (exit 2), said with its line. A bad line further on throws
 * when it is reached (RecordingError, or an Error that names the file).
 */
export function readRecording(file: string): Iterable<RecordLine> {
	const records = () => readRecords(fileRows(file));
	const start = records();
	let first;
	try {
		first = start.next();
	} catch (error) {
		throw recordingFailure(file, error);
	} finally {
		// Closes the file.
		start.return();
	}

	if (first.done) throw sourceFailure('config', `${file} holds no recorded scrape`);
	return {[Symbol.iterator]: records};
}

/** A recording that cannot be read further is a usage problem (exit 2): the file, then the line when one is to blame. */
export function recordingFailure(file: string, error: unknown) {
	const message = messageOf(error);
	return sourceFailure('config', error instanceof RecordingError ? `${file}: ${message}` : message);
}

/** The file's lines, read in 64 KiB chunks; the file is closed when the rows end or the reader stops early. */
function* fileRows(file: string): Generator<RecordingRow, void, undefined> {
	const cannot = (error: unknown) => new Error(`cannot read the recording ${file}: ${codeOf(error) ?? messageOf(error)}`);
	let fd: number;
	try {
		fd = openSync(file, 'r');
	} catch (error) {
		throw cannot(error);
	}

	const readChunk = (chunk: Buffer) => {
		try {
			return readSync(fd, chunk);
		} catch (error) {
			throw cannot(error);
		}
	};

	try {
		const chunk = Buffer.alloc(64 * 1024);
		// The bytes of the line being read: a newline byte never occurs inside a UTF-8 sequence, so each line decodes whole.
		let pending: Buffer[] = [];
		let pendingBytes = 0;
		let line = 1;
		for (let read = readChunk(chunk); read > 0; read = readChunk(chunk)) {
			let start = 0;
			for (let end = chunk.indexOf(10, start); end !== -1 && end < read; end = chunk.indexOf(10, start)) {
				const row = Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8');
				pending = [];
				pendingBytes = 0;
				yield {row, line, terminated: true};
				line++;
				start = end + 1;
			}

			pendingBytes += read - start;
			if (pendingBytes > maxRecordBytes) throw new RecordingError(line, `longer than ${maxRecordBytes / 1024 / 1024} MiB: not a record`);
			// Copied: the chunk is read into again.
			if (read > start) pending.push(Buffer.from(chunk.subarray(start, read)));
		}

		if (pendingBytes > 0) yield {row: Buffer.concat(pending).toString('utf8'), line, terminated: false};
	} finally {
		closeSync(fd);
	}
}

export type QuitFiles = {summary?: string; plot?: string};

/**
 * At start, before an hour of lab: each file written on quit can be (its directory exists and may be written, and
 * it is no directory itself), or a usage failure (exit 2) naming the flag, the path and why, as --record's open does.
 */
export function checkQuitFiles(files: QuitFiles): void {
	for (const [flag, file] of [
		['--summary', files.summary],
		['--plot', files.plot],
	] as const) {
		const why = file === undefined ? null : unwritable(file);
		if (why !== null) throw sourceFailure('config', `cannot write the ${flag} file ${file}: ${why}`);
	}
}

/** Why `file` could not be written now, as the error code and its meaning; null when it could. */
function unwritable(file: string): string | null {
	const directory = path.dirname(path.resolve(file));
	try {
		const existing = statSync(file, {throwIfNoEntry: false});
		if (existing?.isDirectory()) return 'EISDIR (it is a directory)';
		if (existing) {
			accessSync(file, constants.W_OK);
			return null;
		}

		if (!statSync(directory).isDirectory()) return `ENOTDIR (${directory} is not a directory)`;
		accessSync(directory, constants.W_OK);
		return null;
	} catch (error) {
		const code = codeOf(error);
		if (code === 'ENOENT') return `ENOENT (no directory ${directory})`;
		if (code === 'ENOTDIR') return `ENOTDIR (a part of ${directory} is not a directory)`;
		if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `${code} (not allowed to write there)`;
		return code ?? messageOf(error);
	}
}

/**
 * On quit: the write-down (Markdown to --summary) and the plot (to --plot). Returns the plain write-down, wrapped
 * to `width` columns (the terminal's; default 80), and the lines that say what was written or what failed.
 */
export function writeQuitFiles(
	lab: LabSummary,
	files: QuitFiles,
	options: {width?: number} = {},
): {text: string; notes: string[]; markdown: string; failed: Array<keyof QuitFiles>} {
	const down = writeDown(lab, {width: options.width});
	const notes: string[] = [];
	const failed: Array<keyof QuitFiles> = [];
	const save = (which: keyof QuitFiles, what: string, content: () => string) => {
		const file = files[which];
		if (file === undefined) return;
		try {
			writeFileSync(file, content());
			notes.push(`${what} written to ${file}`);
		} catch (error) {
			failed.push(which);
			notes.push(`pleg-top: could not write the ${what} to ${file}: ${codeOf(error) ?? messageOf(error)}`);
		}
	};

	save('summary', 'write-down', () => down.markdown);
	save('plot', 'plot', () => plotSvg(lab));
	return {text: down.text, notes, markdown: down.markdown, failed};
}
