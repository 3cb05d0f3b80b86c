// The unit tests draw with the renderer that ships (issue 27): ink loaded with every module scripts/build.mjs swaps
// into it, read from the same list (scripts/substitutions.mjs). Both tests fail when the tests' ink is ink as
// installed, and the second names any substitution the test process did not take.
import assert from 'node:assert/strict';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import React from 'react';
import {Box, Text} from 'ink';
import {render, swapsTaken} from '../helpers/shipped-ink.js';

type Entry = {name: string; importer: string | string[]; specifier: string | string[]; inTests: 'required' | 'if loaded' | 'never'};
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const {substitutions, untakenSwaps} = (await import(path.join(root, 'scripts', 'substitutions.mjs'))) as {
	substitutions: Entry[];
	untakenSwaps: (entries: Entry[], applied: Map<string, Set<string>>) => string | null;
};

test('a <Text> of several rows is cut row by row, as the bundle cuts it (ink 6.8 as installed draws "shor…" alone)', () => {
	const {lastFrame, unmount} = render(
		<Box width={10}>
			<Text wrap="truncate-end">{`short\n${'x'.repeat(30)}\nafter`}</Text>
		</Box>,
	);
	assert.equal(lastFrame(), 'short\nxxxxxxxxx…\nafter');
	unmount();
});

test("every substitution the tests require took in this process, counted as the build counts the bundle's", async () => {
	const required = substitutions.filter((entry) => entry.inTests === 'required');
	// The renderer's eight: all of ink's but the devtools one, which ink loads only under DEV=true.
	assert.equal(required.length, 8);
	assert.equal(untakenSwaps(required, await swapsTaken()), null);
});
