// ink keeps the texts it measured and wrapped in module-level caches (patches/ink+6.8.0+001+bounded-caches.patch):
// a screen left open for days draws new texts every second, so both caches must stay bounded however many
// distinct frames ink draws, and a frame must still measure and wrap as before.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Box, Text} from 'ink';
import {render} from 'ink-testing-library';
import React from 'react';
import {inkModule} from '../helpers/ink-build.js';

type Cache = {cacheLimit: number; cacheSize(): number};
const measureCache = await inkModule<Cache>('measure-text.js');
const wrapCache = await inkModule<Cache>('wrap-text.js');

/** A frame as the screen draws one: a clock, figures that change each tick, and a row too wide for its box. */
function Frame({tick}: {tick: number}): React.ReactElement {
	return (
		<Box width={30}>
			<Text wrap="truncate-end">{`pleg-top · node-a · ${tick}\nlast seen ${tick % 97}s ago · relists ${tick} · mean ${tick / 7}ms`}</Text>
		</Box>
	);
}

test('100,000 distinct frames leave ink measuring and wrapping with bounded caches', () => {
	const {rerender, lastFrame, unmount} = render(<Frame tick={0} />);
	let largest = 0;
	for (let tick = 1; tick <= 100_000; tick++) {
		rerender(<Frame tick={tick} />);
		largest = Math.max(largest, measureCache.cacheSize(), wrapCache.cacheSize());
	}

	// The last frame is still measured and cut as ink does: the wide row ends in an ellipsis at the box's width.
	assert.deepEqual(lastFrame()!.split('\n'), ['pleg-top · node-a · 100000', 'last seen 90s ago · relists 1…']);
	unmount();
	assert.ok(measureCache.cacheSize() > 0 && wrapCache.cacheSize() > 0, 'ink did not measure through the patched caches');
	assert.ok(largest <= Math.max(measureCache.cacheLimit, wrapCache.cacheLimit), `a cache held ${largest} texts`);
});
