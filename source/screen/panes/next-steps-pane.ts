// What to run next, with the node's name in, one command a row so a row pastes as it is. A command wider than its
// row breaks at a blank with a trailing backslash, which a shell reads as one command; the ones that run on the node
// carry a shell comment saying so, harmless when pasted.
import {nextSteps, type NextStep} from '../../domain/next-steps.js';
import {cellWidth, seg, type Line} from '../layout/line.js';

export type NextStepsPaneProps = {
	node: string;
	width: number;
	/** Without the title row: for a short screen. @default false */
	compact?: boolean;
};

const indent = '  ';
const onNode = '  # on the node';

export function nextStepsPaneLines({node, width, compact = false}: NextStepsPaneProps): Line[] {
	const title: Line[] = compact ? [] : [[seg('next steps', 'title'), seg(' · ready to paste', 'dim')]];
	return [...title, ...nextSteps(node).flatMap((step) => stepLines(step, width))];
}

function stepLines(step: NextStep, width: number): Line[] {
	const comment = step.where === 'on the node' && cellWidth(indent + step.command + onNode) <= width ? onNode : '';
	return breakCommand(step.command, width - cellWidth(indent)).map((row, index, rows) => {
		const line: Line = [seg(indent), seg(row, 'value')];
		if (comment && index === rows.length - 1) {
			line.push(seg(comment, 'dim'));
		}

		return line;
	});
}

/**
 * The command in rows of at most `width` cells: whole words, each row but the last ending " \", the next ones
 * indented. A word wider than a row stays whole (the view cuts the row; a cut command would not run either way).
 */
function breakCommand(command: string, width: number): string[] {
	if (cellWidth(command) <= width) {
		return [command];
	}

	const rows: string[] = [];
	let current = '';
	for (const word of command.split(' ')) {
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
