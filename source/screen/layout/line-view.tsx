// Renders Line[] built by the panes. Each row is one <Text> that truncates instead of
// wrapping: a safety net only, since every builder already fits its rows to the width.
import React from 'react';
import {Box, Text} from 'ink';
import {lineWidth, type Line} from './line.js';
import {toneStyle} from './theme.js';

export function LineView({line}: {readonly line: Line}) {
	if (lineWidth(line) === 0) {
		return <Text> </Text>;
	}

	return (
		<Text wrap="truncate-end">
			{line.map((segment, index) => (
				// Segments never reorder, so the index is a stable key.
				<Text key={index} {...toneStyle(segment.tone)}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
}

export function Lines({lines, width}: {readonly lines: Line[]; readonly width?: number}) {
	return (
		<Box flexDirection="column" width={width} flexShrink={0}>
			{lines.map((line, index) => (
				<LineView key={index} line={line} />
			))}
		</Box>
	);
}
