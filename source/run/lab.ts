// The end of a one-node run: the lab session's write-down (what was seen, on stderr, wrapped to the terminal; left
// out with --quiet, under JSON lines and after --once), the --summary and --plot files, and what was written where.
import type {NodeMode} from './mode.js';
import type {LabSummary} from '../lab/lab-session.js';
import {writeQuitFiles} from '../lab/recorder.js';
import type {Plan} from './plan.js';

export type LabIo = {
	stderr(text: string): void;
	/** No write-down text (the files and notes still are). */
	quiet: boolean;
	/** Wrap the write-down to this many columns (the terminal's); undefined: leave the lines as they are. */
	columns?: number;
};

/** The exit code of a run whose --summary or --plot could not be written on quit (sysexits' EX_IOERR). */
export const quitFilesExitCode = 74;

/**
 * Closes the recorder and writes what the run's lab flags ask for. `lab`: a summary already made (--replay --once).
 * Returns false when --summary or --plot could not be written: the write-down then goes to stderr whole, so an
 * hour of lab is not lost, and the run should end with quitFilesExitCode.
 */
export function finishLab(plan: Plan, mode: NodeMode, io: LabIo, lab?: LabSummary): boolean {
	const {recorder} = plan;
	recorder?.close();
	const summary = lab ?? recorder?.summary();
	if (!summary) return true;
	// The write-down's paragraphs are laid out for the terminal's width (80 columns when it is unknown).
	const files = {summary: mode.lab.summary, plot: mode.lab.plot};
	const {text, notes, markdown, failed} = writeQuitFiles(summary, files, {width: io.columns});
	// Nothing was measured when no scrape succeeded: the failure already said why.
	if (!io.quiet && summary.session) io.stderr('\n' + wrap(text, io.columns) + (text.endsWith('\n') ? '' : '\n'));
	if (failed.includes('summary')) io.stderr(`\nThe write-down meant for ${files.summary}:\n\n${markdown}`);
	if (!lab && mode.lab.record !== undefined) notes.push(`recording appended to ${mode.lab.record}`);
	if (recorder?.recordError) notes.push(`pleg-top: ${recorder.recordError}`);
	if (notes.length > 0) io.stderr(notes.join('\n') + '\n');
	return failed.length === 0;
}

/**
 * Each line broken at spaces to at most `columns` characters (a word longer than that stays whole). Continuation
 * lines keep the line's own indentation plus `hang` spaces, so a list item stays readable as one.
 */
export function wrap(text: string, columns: number | undefined, hang = 0): string {
	if (columns === undefined || columns < 20) return text;
	return text
		.split('\n')
		.map((line) => {
			if ([...line].length <= columns) return line;
			const indent = /^\s*/.exec(line)![0]; // always matches
			const next = indent + ' '.repeat(hang);
			const words = line.slice(indent.length).split(' ');
			const out: string[] = [];
			let current = indent;
			for (const word of words) {
				const candidate = current.trim() === '' ? indent + word : `${current} ${word}`;
				if ([...candidate].length > columns && current.trim() !== '') {
					out.push(current);
					current = next + word;
				} else {
					current = candidate;
				}
			}

			out.push(current);
			return out.join('\n');
		})
		.join('\n');
}
