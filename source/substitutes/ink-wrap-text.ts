// ink's wrap-text.js, row by row and with a bounded cache. ink wraps or truncates a <Text> only when one of its
// rows is wider than its box (a safety net here: every pane fits its rows to the width). It truncates a text of
// several rows as one string, which would cut the rows after a wide one, and keeps every text it ever wrapped in
// a module-level object that is never emptied. pleg-top draws each pane as one <Text> of several rows (fewer
// nodes for React and yoga each frame), so the substitute truncates each row that is too wide on its own, wraps
// as ink does, and drops its cache whole past `cacheLimit` texts.
import cliTruncate from 'cli-truncate';
import wrapAnsi from 'wrap-ansi';
import {DroppingCache} from './dropping-cache.js';
import measureText from './ink-measure-text.js';

export const cacheLimit = 2000;
const cache = new DroppingCache<string>(cacheLimit);

export function cacheSize(): number {
	return cache.size;
}

function truncateRows(text: string, maxWidth: number, position: 'start' | 'middle' | 'end'): string {
	return text
		.split('\n')
		.map((row) => (measureText(row).width > maxWidth ? cliTruncate(row, maxWidth, {position}) : row))
		.join('\n');
}

/** `wrapType` as ink's Text takes it: 'wrap', or 'truncate', 'truncate-end', 'truncate-middle', 'truncate-start'. */
export default function wrapText(text: string, maxWidth: number, wrapType: string): string {
	const key = `${wrapType}\u0000${maxWidth}\u0000${text}`;
	const cached = cache.get(key);
	if (cached !== undefined) return cached;
	let wrapped = text;
	if (wrapType === 'wrap') {
		wrapped = wrapAnsi(text, maxWidth, {trim: false, hard: true});
	} else if (wrapType.startsWith('truncate')) {
		wrapped = truncateRows(text, maxWidth, wrapType === 'truncate-middle' ? 'middle' : wrapType === 'truncate-start' ? 'start' : 'end');
	}

	cache.set(key, wrapped);
	return wrapped;
}
