// The throttle ink paces its renders and writes with, as patched (patches/ink+6.8.0+007+throttle-without-idle-timers.patch):
// es-toolkit's pacing, and no timer left behind by a call it runs at once.
import assert from 'node:assert/strict';
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, test} from 'node:test';
import {inkModule} from '../helpers/ink-build.js';

type Throttled<F extends (...args: never[]) => unknown> = ((...args: Parameters<F>) => void) & {flush(): void; cancel(): void};
const {throttle} = await inkModule<{
	throttle: <F extends (...args: never[]) => unknown>(
		run: F,
		windowMs?: number,
		edges?: {leading?: boolean; trailing?: boolean},
	) => Throttled<F>;
}>('throttle.js');

const pendingTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe("ink's render pacing, patched", () => {
	test('a call outside a window runs at once and leaves no timer behind', () => {
		const calls: number[] = [];
		const paced = throttle((value: number) => calls.push(value), 40, {leading: true, trailing: true});
		const before = pendingTimers();
		paced(1);
		assert.deepEqual(calls, [1]);
		assert.equal(pendingTimers(), before);
	});

	test('calls inside a window run once, with the latest arguments and `this`, when the window ends', async () => {
		const calls: Array<[string, number]> = [];
		const paced = throttle(function (this: {name: string}, value: number) {
			calls.push([this.name, value]);
		}, 40);
		const first = {name: 'first', paced};
		const second = {name: 'second', paced};
		first.paced(1);
		first.paced(2);
		second.paced(3);
		assert.deepEqual(calls, [['first', 1]]);
		await sleep(120);
		assert.deepEqual(calls, [
			['first', 1],
			['second', 3],
		]);
		// Once its window has passed too, the next call runs at once. The window starts when the waiting call ran,
		// which a busy event loop can delay past the 120 ms above: wait a whole window after it.
		await sleep(50);
		paced.call(first, 4);
		assert.deepEqual(calls.at(-1), ['first', 4]);
	});

	test('flush runs the waiting call now and once; cancel drops it', async () => {
		const calls: number[] = [];
		const paced = throttle((value: number) => calls.push(value), 40);
		paced(1);
		paced(2);
		paced.flush();
		assert.deepEqual(calls, [1, 2]);
		paced(3);
		paced.cancel();
		await sleep(100);
		assert.deepEqual(calls, [1, 2]);
		paced.flush();
		assert.deepEqual(calls, [1, 2], 'nothing was waiting after the cancel');
	});

	test("a window of 0 ms (ink's writer) runs every call at once and arms no timer", () => {
		const calls: number[] = [];
		const paced = throttle((value: number) => calls.push(value), undefined, {leading: true, trailing: true});
		const before = pendingTimers();
		paced(1);
		paced(2);
		paced(3);
		assert.deepEqual(calls, [1, 2, 3]);
		assert.equal(pendingTimers(), before);
	});
});
