// What to run next, one command a row so a row pastes as it is: the kubectl lines first, then under one dim row
// saying so, the lines that run in a shell on the node. A command wider than its row breaks between shell words
// with a trailing backslash, which a shell reads as one command (never inside a quoted word, where it would not).
// The pane keeps its heading or folds whole into one row: commands without their heading would read as Events.
import {evictionText, podsText} from '../../domain/incident/eviction.js';
import type {PodCount} from '../../domain/types.js';
import {nextSteps, onNodeNote, type NextStep, type StepsFor} from '../../domain/incident/next-steps.js';
import {cellWidth, seg, wrapWords, type Line} from '../layout/line.js';

export type NextStepsPaneProps = {
	steps: StepsFor;
	width: number;
	/** At most this many commands (the first ones), then a row counting the rest: for a short screen. @default all */
	commands?: number;
	/** One row instead of the commands: for a shorter screen still. @default false */
	folded?: boolean;
	/** Seconds until pods with the default toleration are evicted (negative: since); null while the Node is Ready. */
	evictionInSeconds?: number | null;
	/** The pods on the node (counted while it is not Ready), said beside the horizon. */
	pods?: PodCount | null;
};

const indent = '  ';

export function nextStepsPaneLines({
	steps,
	width,
	commands,
	folded = false,
	evictionInSeconds = null,
	pods = null,
}: NextStepsPaneProps): Line[] {
	const all = nextSteps(steps);
	// How long before cordoning is too late to matter, and for how many pods: in the heading's block, folded or not.
	const count: Line = pods ? [seg(` · ${podsText(pods)}`, pods.count === null ? 'dim' : 'value')] : [];
	const eviction: Line[] = evictionInSeconds === null ? [] : [[seg(indent), seg(evictionText(evictionInSeconds), 'warn'), ...count]];
	if (folded) {
		return [[seg('next steps', 'title'), seg(' · folded for room: ? lists the commands', 'dim')], ...eviction];
	}

	const lines: Line[] = [[seg('next steps', 'title'), seg(' · ready to paste', 'dim')], ...eviction];
	const shown = all.slice(0, commands ?? all.length);
	for (const [index, step] of shown.entries()) {
		if (step.where === 'on the node' && all[index - 1]?.where !== 'on the node') {
			lines.push(...wrapWords(onNodeNote, width, 2, 'dim', 2));
		}

		lines.push(...stepLines(step, width));
	}

	if (shown.length < all.length) {
		lines.push([seg(`${indent}… and more: ? lists every command`, 'dim')]);
	}

	return lines;
}

function stepLines(step: NextStep, width: number): Line[] {
	return breakCommand(step.command, width - cellWidth(indent)).map((row) => [seg(indent), seg(row, 'value')]);
}

/** The command's shell words: split at blanks outside single quotes (a `\'` between quoted parts is one character). */
export function shellWords(command: string): string[] {
	const words: string[] = [];
	let current = '';
	let quoted = false;
	for (let index = 0; index < command.length; index++) {
		const char = command[index]!; // in bounds
		if (char === ' ' && !quoted) {
			if (current) words.push(current);
			current = '';
			continue;
		}

		if (char === '\\' && !quoted && index + 1 < command.length) {
			current += char + command[++index]!; // in bounds
			continue;
		}

		if (char === "'") quoted = !quoted;
		current += char;
	}

	if (current) words.push(current);
	return words;
}

/**
 * The command in rows of at most `width` cells: whole shell words, each row but the last ending " \", the next ones
 * indented. A word wider than a row stays whole (the view cuts the row; a cut command would not run either way).
 */
export function breakCommand(command: string, width: number): string[] {
	if (cellWidth(command) <= width) {
		return [command];
	}

	const rows: string[] = [];
	let current = '';
	for (const word of shellWords(command)) {
		const candidate = current ? `${current} ${word}` : rows.length > 0 ? `${indent}${word}` : word;
		if (current && cellWidth(`${candidate} \\`) > width) {
			rows.push(`${current} \\`);
			current = `${indent}${word}`;
		} else {
			current = candidate;
		}
	}

	rows.push(current);
	return rows;
}
