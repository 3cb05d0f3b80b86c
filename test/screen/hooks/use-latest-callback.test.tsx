// useLatestCallback (source/screen/hooks/use-latest-callback.ts): one function for the life of a component, so
// ink's useInput subscribes once, and a key still reaches the handler of the latest render.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import React from 'react';
import {Text, useInput} from 'ink';
import {render} from 'ink-testing-library';
import {useLatestCallback} from '../../../source/screen/hooks/use-latest-callback.js';
import {until} from '../../helpers/until.js';

test('the function is the same at every render and calls the callback of the latest one', () => {
	const seen: Array<(label: string) => void> = [];
	const calls: string[] = [];
	function Probe({generation}: {readonly generation: number}) {
		seen.push(
			useLatestCallback((label: string) => {
				calls.push(`${label} by render ${generation}`);
			}),
		);
		return <Text>render {generation}</Text>;
	}

	const app = render(<Probe generation={1} />);
	app.rerender(<Probe generation={2} />);
	app.rerender(<Probe generation={3} />);
	app.unmount();
	assert.equal(seen.length, 3);
	assert.ok(seen.every((each) => each === seen[0]));
	seen[0]!('called');
	assert.deepEqual(calls, ['called by render 3']);
});

test("through ink's useInput, a key after several renders reaches the latest render's handler", async () => {
	const keys: string[] = [];
	function Keys({generation}: {readonly generation: number}) {
		useInput(
			useLatestCallback((input) => {
				keys.push(`${input} at render ${generation}`);
			}),
		);
		return <Text>render {generation}</Text>;
	}

	const app = render(<Keys generation={1} />);
	try {
		for (let generation = 2; generation <= 4; generation++) app.rerender(<Keys generation={generation} />);
		// ink reads stdin once its input effects have run: it listens for 'readable' then.
		await until(() => app.stdin.listenerCount('readable') > 0, "ink's stdin listener");
		app.stdin.write('q');
		await until(() => keys.length > 0, 'the key handled');
		assert.deepEqual(keys, ['q at render 4']);
	} finally {
		app.unmount();
	}
});
