// Renders Line[] built by the panes. A pane is ONE <Text> holding its rows as pre-styled strings joined by newlines:
// a row of eight coloured segments as eight nested <Text>s cost eight layout nodes and eight style passes every
// frame, and one <Text> per row still cost React and yoga a node each (bench/README.md). A pane whose text did not change is not rendered again (memo on the string). Rows
// truncate instead of wrapping, each on its own (patches/ink+6.8.0+002+truncate-row-by-row.patch): a safety net only, since
// every builder already fits its rows to the width.
import {createContext, memo, useContext} from 'react';
import {Box, Text} from 'ink';
import chalk, {type ChalkInstance, type ForegroundColorName} from 'chalk';
import {type Line} from './line.js';
import {toneStyle, type ThemeName, type Tone} from './theme.js';

/** The palette every pane below it is painted with (--theme, or the terminal's COLORFGBG). */
export const ThemeContext = createContext<ThemeName>('dark');

/** The same chalk ink colours <Text> with, so NO_COLOR / FORCE_COLOR=0 turn these colours off too. */
function paint(text: string, tone: Tone | undefined, theme: ThemeName): string {
	const style = toneStyle(tone, theme);
	let brush: ChalkInstance = chalk;
	if (style.color) brush = style.color.startsWith('#') ? brush.hex(style.color) : brush[style.color as ForegroundColorName]; // the theme's colour names
	if (style.bold) brush = brush.bold;
	if (style.dimColor) brush = brush.dim;
	if (style.inverse) brush = brush.inverse;
	return brush === chalk ? text : brush(text);
}

/** One row as the string the terminal gets; an empty row is one space so it keeps its height. */
export function rowText(line: Line, theme: ThemeName = 'dark'): string {
	let text = '';
	for (const segment of line) text += paint(segment.text, segment.tone, theme);
	return text === '' ? ' ' : text;
}

const Row = memo(function Row({text}: {readonly text: string}) {
	return <Text wrap="truncate-end">{text}</Text>;
});

export function LineView({line}: {readonly line: Line}) {
	return <Row text={rowText(line, useContext(ThemeContext))} />;
}

export function Lines({lines, width}: {readonly lines: Line[]; readonly width?: number}) {
	const theme = useContext(ThemeContext);
	return (
		<Box flexDirection="column" width={width} flexShrink={0}>
			<Row text={lines.map((line) => rowText(line, theme)).join('\n')} />
		</Box>
	);
}
