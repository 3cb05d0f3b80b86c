import assert from 'node:assert/strict';

/**
 * Polls `read` until it gives a value (anything but undefined or false) and returns that value; past `timeoutMs` the
 * test fails naming `what` (a function is asked at the failure, so it can say what was last seen). A wait for a
 * condition with a deadline, never a fixed sleep: a loaded machine only makes it take longer.
 */
export async function until<T>(
	read: () => T | undefined | false | Promise<T | undefined | false>,
	what: string | (() => string),
	timeoutMs = 20_000,
	everyMs = 50,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'string' ? what : what()}`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
