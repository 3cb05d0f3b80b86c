// A terminal screen as tmux captured it (`capture-pane -p -e`: text with ANSI SGR colour codes) turned
// into an SVG of monospace text: one <text> per row, one <tspan> per run of equal style. Every run is
// placed at its column and stretched to its cell count, so the grid holds whatever font the viewer has.

export type Style = {
	fg: string | null;
	bg: string | null;
	bold: boolean;
	dim: boolean;
	italic: boolean;
	underline: boolean;
	inverse: boolean;
};

export type Run = {column: number; text: string; style: Style};

/** Dark terminal palette (xterm-like, softened for a page). Index = SGR colour number 0-15. */
const palette = [
	'#1d1f21',
	'#e0534a',
	'#5fbf5f',
	'#e5c07b',
	'#6aa5e8',
	'#c678dd',
	'#56b6c2',
	'#c5c8c6',
	'#7f848e',
	'#ff6e67',
	'#8ae28a',
	'#f4d98b',
	'#8cbcf4',
	'#dd9cf0',
	'#7fd4de',
	'#ffffff',
];

const background = '#16181c';
const foreground = '#d7dae0';

export const plainStyle: Style = {fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false};

/** xterm's 256-colour cube and grey ramp. */
function color256(index: number): string {
	if (index < 16) return palette[index]!;
	if (index >= 232) {
		const level = 8 + (index - 232) * 10;
		return rgb(level, level, level);
	}

	const cube = index - 16;
	const step = (value: number) => (value === 0 ? 0 : 55 + value * 40);
	return rgb(step(Math.floor(cube / 36)), step(Math.floor(cube / 6) % 6), step(cube % 6));
}

function rgb(red: number, green: number, blue: number): string {
	return `#${[red, green, blue].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

/** Reads a 38/48 extended colour (5;n or 2;r;g;b) from `codes` at `index`; returns the colour and how many codes it used. */
function extendedColor(codes: number[], index: number): {color: string | null; used: number} {
	if (codes[index + 1] === 5) return {color: color256(codes[index + 2] ?? 0), used: 3};
	if (codes[index + 1] === 2) return {color: rgb(codes[index + 2] ?? 0, codes[index + 3] ?? 0, codes[index + 4] ?? 0), used: 5};
	return {color: null, used: 1};
}

/** Applies one SGR sequence's parameters to a style. */
export function applySgr(style: Style, parameters: string): Style {
	const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
	let next = {...style};
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index]!;
		if (code === 0) next = {...plainStyle};
		else if (code === 1) next.bold = true;
		else if (code === 2) next.dim = true;
		else if (code === 3) next.italic = true;
		else if (code === 4) next.underline = true;
		else if (code === 7) next.inverse = true;
		else if (code === 22) next = {...next, bold: false, dim: false};
		else if (code === 23) next.italic = false;
		else if (code === 24) next.underline = false;
		else if (code === 27) next.inverse = false;
		else if (code >= 30 && code <= 37) next.fg = palette[code - 30]!;
		else if (code >= 90 && code <= 97) next.fg = palette[code - 90 + 8]!;
		else if (code === 39) next.fg = null;
		else if (code >= 40 && code <= 47) next.bg = palette[code - 40]!;
		else if (code >= 100 && code <= 107) next.bg = palette[code - 100 + 8]!;
		else if (code === 49) next.bg = null;
		else if (code === 38 || code === 48) {
			const {color, used} = extendedColor(codes, index);
			if (code === 38) next.fg = color;
			else next.bg = color;
			index += used - 1;
		}
	}

	return next;
}

function sameStyle(a: Style, b: Style): boolean {
	return (
		a.fg === b.fg &&
		a.bg === b.bg &&
		a.bold === b.bold &&
		a.dim === b.dim &&
		a.italic === b.italic &&
		a.underline === b.underline &&
		a.inverse === b.inverse
	);
}

/** One captured row -> runs of equal style, with the column (terminal cell) each starts at. */
export function parseRow(row: string, initial: Style = plainStyle): {runs: Run[]; style: Style} {
	const runs: Run[] = [];
	let style = initial;
	let column = 0;
	let current: Run | null = null;
	// SGR sequences change the style; any other escape sequence is dropped.
	const pattern = /\u001B\[([\d;]*)m|\u001B\[[\d;?]*[A-Za-z]|\u001B[()][\dA-Z]|([^\u001B]+)/gu;
	for (const match of row.matchAll(pattern)) {
		if (match[1] !== undefined) {
			style = applySgr(style, match[1]);
			continue;
		}

		const text = match[2];
		if (text === undefined) continue;
		for (const char of text) {
			if (!current || !sameStyle(current.style, style)) {
				current = {column, text: '', style};
				runs.push(current);
			}

			current.text += char;
			column++;
		}
	}

	return {runs, style};
}

export type SvgOptions = {columns: number; rows: number; title: string; fontSize?: number};

const fontFamily = 'DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace';

function escapeXml(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function colorsOf(style: Style): {fg: string; bg: string | null} {
	const fg = style.fg ?? foreground;
	if (style.inverse) return {fg: style.bg ?? background, bg: fg};
	return {fg, bg: style.bg};
}

function tspan(run: Run, cellWidth: number): string {
	const {fg} = colorsOf(run.style);
	const cells = [...run.text].length;
	const attributes = [
		`x="${(run.column * cellWidth).toFixed(1)}"`,
		`textLength="${(cells * cellWidth).toFixed(1)}"`,
		'lengthAdjust="spacingAndGlyphs"',
		`fill="${fg}"`,
	];
	if (run.style.bold) attributes.push('font-weight="bold"');
	if (run.style.dim) attributes.push('fill-opacity="0.6"');
	if (run.style.italic) attributes.push('font-style="italic"');
	if (run.style.underline) attributes.push('text-decoration="underline"');
	return `<tspan ${attributes.join(' ')}>${escapeXml(run.text)}</tspan>`;
}

/** The captured screen (rows joined by "\n") as a standalone SVG document. */
export function ansiToSvg(screen: string, options: SvgOptions): string {
	const fontSize = options.fontSize ?? 14;
	// DejaVu Sans Mono's advance is 0.602 em; rows at 1.3 em leave room for box-drawing glyphs.
	const cellWidth = Math.round(fontSize * 0.602 * 10) / 10;
	const rowHeight = Math.round(fontSize * 1.3);
	const padding = 12;
	const width = Math.ceil(options.columns * cellWidth + padding * 2);
	const height = options.rows * rowHeight + padding * 2;
	const rows = screen.split('\n').slice(0, options.rows);
	const body: string[] = [];
	let style = plainStyle;
	for (const [index, row] of rows.entries()) {
		const parsed = parseRow(row, style);
		style = parsed.style;
		const runs = parsed.runs.filter((run) => run.text.trim() !== '' || colorsOf(run.style).bg !== null);
		const y = index * rowHeight;
		for (const run of runs) {
			const {bg} = colorsOf(run.style);
			if (bg)
				body.push(
					`<rect x="${(run.column * cellWidth).toFixed(1)}" y="${y}" width="${([...run.text].length * cellWidth).toFixed(1)}" height="${rowHeight}" fill="${bg}"/>`,
				);
		}

		const spans = runs.filter((run) => run.text.trim() !== '').map((run) => tspan(run, cellWidth));
		if (spans.length > 0) body.push(`<text y="${y + Math.round(rowHeight * 0.75)}" xml:space="preserve">${spans.join('')}</text>`);
	}

	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(options.title)}">`,
		`<title>${escapeXml(options.title)}</title>`,
		`<rect width="100%" height="100%" rx="6" fill="${background}"/>`,
		`<g transform="translate(${padding} ${padding})" font-family="${fontFamily}" font-size="${fontSize}">`,
		...body,
		'</g>',
		'</svg>',
		'',
	].join('\n');
}
