// `?`: every figure with its formula, and the keys, rendered from core/definitions.ts
// (the same data `--help` and the README use, so the three cannot drift apart).
import React from 'react';
import {definitions, keyBindings} from '../../domain/definitions.js';
import {flowItems, seg, wrapWords, type Line} from '../layout/line.js';
import {Lines} from '../layout/line-view.js';

export type HelpScreenProps = {
	width: number;
	/** Rows available; when the text is taller, the last row says how much is cut. Unlimited when absent. */
	height?: number;
};

export function helpScreenLines({width, height}: HelpScreenProps): Line[] {
	const lines: Line[] = [...wrapWords('pleg-top — what each figure means (? or Esc closes)', width, 1, 'title')];
	for (const {label, formula} of definitions) {
		const wrapped = wrapWords(`${label}: ${formula}`, width, 8, undefined, 2);
		lines.push(...wrapped.map((line, index) => (index === 0 ? boldLabel(line, label) : line)));
	}

	lines.push([seg('keys', 'title')]);
	const keyItems = keyBindings.map(binding => [seg(binding.keys.join(' / '), 'value'), seg(` ${binding.action}`)]);
	lines.push(...flowItems(keyItems, width, {separator: '   ', indent: 2}));
	if (height !== undefined && lines.length > height) {
		const kept = lines.slice(0, Math.max(0, height - 1));
		const more = lines.length - kept.length;
		kept.push(...wrapWords(`… ${more} more rows: a taller terminal shows them`, width, 1, 'dim'));
		return kept;
	}

	return lines;
}

export function HelpScreen(props: HelpScreenProps) {
	return <Lines lines={helpScreenLines(props)} width={props.width} />;
}

/** The first row of an entry starts with its label: show the label bold. */
function boldLabel(line: Line, label: string): Line {
	const text = line.map(segment => segment.text).join('');
	if (!text.startsWith(`${label}:`)) {
		return line;
	}

	return [seg(label, 'title'), seg(text.slice(label.length))];
}
