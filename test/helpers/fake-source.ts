// A MetricsSource whose answers the test hands out one by one, counting calls and aborts.
import {afterEach, beforeEach, mock} from 'node:test';
import type {MetricsSource, NodeInfo} from '../../source/domain/types.js';

type Pending = {resolve(text: string): void; reject(error: unknown): void; signal: AbortSignal};

export class ScriptedSource implements MetricsSource {
	readonly label = 'scripted test source';
	readonly node = 'node-a';
	calls = 0;
	aborts = 0;
	inFlight = 0;
	maxInFlight = 0;
	nodeCalls = 0;
	readonly pending: Pending[] = [];

	async fetchMetrics(signal: AbortSignal): Promise<string> {
		this.calls++;
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		// As every real source does, the abort listener goes when the request ends: the poller reuses a signal.
		let onAbort: (() => void) | undefined;
		try {
			return await new Promise<string>((resolve, reject) => {
				this.pending.push({resolve, reject, signal});
				onAbort = () => {
					this.aborts++;
					reject(new Error('aborted'));
				};

				signal.addEventListener('abort', onAbort);
			});
		} finally {
			this.inFlight--;
			signal.removeEventListener('abort', onAbort!);
		}
	}

	async fetchNode(): Promise<NodeInfo> {
		this.nodeCalls++;
		return {name: this.node, kubeletVersion: 'v1.21.2', ready: null};
	}

	/** Answer the oldest open request. */
	answer(text: string): void {
		const next = this.pending.shift();
		if (!next) throw new Error('no request is waiting');
		next.resolve(text);
	}

	fail(error: unknown): void {
		const next = this.pending.shift();
		if (!next) throw new Error('no request is waiting');
		next.reject(error);
	}
}

/** Let resolved promises run their continuations (the poller awaits between steps). */
export async function flush(): Promise<void> {
	for (let i = 0; i < 10; i++) await Promise.resolve();
}

/**
 * A mocked setTimeout and a clock that moves with it, reset before each test of the calling describe():
 * `advance(ms)` moves both, then lets the promises that the fired timers started settle.
 */
export function useMockClock(startMs: number): {
	now: () => number;
	advance: (ms: number) => Promise<void>;
	moveClock: (ms: number) => void;
} {
	let clock = startMs;
	beforeEach(() => {
		clock = startMs;
		mock.timers.enable({apis: ['setTimeout']});
	});
	afterEach(() => {
		mock.timers.reset();
	});
	return {
		now: () => clock,
		async advance(ms) {
			clock += ms;
			mock.timers.tick(ms);
			await flush();
		},
		/** The clock alone: time that passes while no timer is due (a request answered mid-interval). */
		moveClock(ms) {
			clock += ms;
		},
	};
}
