// Frame helpers for the view tests: render at a chosen width, read the ANSI-stripped frame.
import {stripVTControlCharacters} from 'node:util';
import React from 'react';
import {Box} from 'ink';
import {render} from 'ink-testing-library';

/** Render `element` inside a Box of `width` columns and return the last frame without ANSI codes. */
export function frameOf(element: React.ReactElement, width: number): string {
	const {lastFrame, unmount} = render(React.createElement(Box, {width}, element));
	const frame = stripVTControlCharacters(lastFrame() ?? '');
	unmount();
	return frame;
}

export {cells} from './pane-rows.js';
