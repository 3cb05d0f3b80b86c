// The retry schedule after failed requests, shared by the poller (which waits it) and the status line (which shows it).

/** Next delay after a failure: max(interval, 1 s) doubled per consecutive failure, capped (ms). */
export function backoffDelay(consecutiveFailures: number, intervalMs: number, maxBackoffMs = 10_000, minBackoffMs = 1000): number {
	const first = Math.max(intervalMs, minBackoffMs);
	return Math.min(first * 2 ** Math.max(0, consecutiveFailures - 1), Math.max(maxBackoffMs, first));
}

/** The wait after a failure (ms): what the server asked for (Retry-After, capped where it was read), else the back-off. */
export function retryDelay(
	retryAfterSeconds: number | undefined,
	consecutiveFailures: number,
	intervalMs: number,
	maxBackoffMs?: number,
	minBackoffMs?: number,
): number {
	return retryAfterSeconds === undefined
		? backoffDelay(consecutiveFailures, intervalMs, maxBackoffMs, minBackoffMs)
		: retryAfterSeconds * 1000;
}
