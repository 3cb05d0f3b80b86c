// The README's commands as a reader copies them: the lines of its ```sh blocks and its inline `code` spans, by
// section, with the trailing `# comment` dropped. The install and README-example tests run what this returns.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readme(): string {
	return readFileSync(path.join(root, 'README.md'), 'utf8');
}

/** The README, then every page of docs/ in name order: all the commands a reader may copy. */
export function documentation(): string {
	const pages = readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort();
	return [readme(), ...pages.map((name) => readFileSync(path.join(root, 'docs', name), 'utf8'))].join('\n');
}

/** The text under the `## TITLE` heading, up to the next `## ` heading. */
export function section(text: string, title: string): string {
	const start = text.search(new RegExp(`^## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
	if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
	const rest = text.slice(start + 1);
	const end = rest.search(/^## /m);
	return end < 0 ? rest : rest.slice(0, end);
}

/** Each ```sh block's command lines (indentation and comments dropped, empty lines left out). */
export function shellBlocks(text: string): string[][] {
	const blocks: string[][] = [];
	for (const match of text.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)) {
		blocks.push(
			match[2]!
				.split('\n')
				.map((line) => withoutComment(line.trim()))
				.filter((line) => line !== ''),
		);
	}

	return blocks;
}

/** The `code` spans of the prose (outside ``` blocks). */
export function inlineSpans(text: string): string[] {
	const prose = text.replace(/^( *)```[\s\S]*?^\1```$/gm, '');
	return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** The line without a `#` comment that starts after white space outside quotes, as sh reads it. */
function withoutComment(line: string): string {
	let quote: string | null = null;
	for (let index = 0; index < line.length; index++) {
		const char = line[index]!;
		if (quote !== null) {
			if (char === quote) quote = null;
		} else if (char === "'" || char === '"') {
			quote = char;
		} else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]!))) {
			return line.slice(0, index).trimEnd();
		}
	}

	return line;
}

/**
 * Splits a command line into simple commands at `&&`, `||`, `|` and `;` outside quotes, and each into words
 * (quotes removed). Enough for the README's lines, which use no expansions but `~`.
 */
export function simpleCommands(line: string): string[][] {
	const commands: string[][] = [];
	let words: string[] = [];
	let word: string | null = null;
	let quote: string | null = null;
	const endWord = () => {
		if (word !== null) words.push(word);
		word = null;
	};

	const endCommand = () => {
		endWord();
		if (words.length > 0) commands.push(words);
		words = [];
	};

	for (let index = 0; index < line.length; index++) {
		const char = line[index]!;
		if (quote !== null) {
			if (char === quote) quote = null;
			else word = (word ?? '') + char;
		} else if (char === "'" || char === '"') {
			quote = char;
			word ??= '';
		} else if (/\s/.test(char)) {
			endWord();
		} else if (char === '&' || char === '|' || char === ';') {
			if ((char === '&' || char === '|') && line[index + 1] === char) index++;
			endCommand();
		} else {
			word = (word ?? '') + char;
		}
	}

	if (quote !== null) throw new Error(`unbalanced ${quote} in: ${line}`);
	endCommand();
	return commands;
}
