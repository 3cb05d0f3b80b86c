// The node list as kubectl get -w and informers read it: list, then watch from the list's resourceVersion, so a
// node's Ready change arrives within a second instead of at the next re-list. A watch the server ends is watched
// again from the last version seen; 410 Gone (the version is too old) lists again; a server without a watch (or
// a user without the right) is re-listed every `relistMs`. A failed list is retried after a back-off.
import type {Failure, NodeInfo} from '../domain/types.js';
import {backoffDelay} from '../domain/backoff.js';
import {toFailure} from '../sources/to-failure.js';
import type {NodeWatchEnd} from '../sources/api-reads.js';
import type {NodeWatchEvent} from '../sources/node-info.js';
import type {Timers} from './engine.js';

/** Where the nodes come from (the API server, with the nodes picked). */
export type NodeLister = {
	readonly label: string;
	listNodes(signal: AbortSignal): Promise<NodeInfo[]>;
	/** The list with its resourceVersion; absent: the list alone, re-listed every relistMs. */
	listNodesAt?(signal: AbortSignal): Promise<{nodes: NodeInfo[]; resourceVersion: string | null}>;
	/** A watch from `resourceVersion` until the server ends it; absent: no watch. */
	watchNodes?(signal: AbortSignal, resourceVersion: string, onEvent: (event: NodeWatchEvent) => void): Promise<NodeWatchEnd>;
};

/** One change a watch brought: a node added or changed, or deleted. */
type NodeChange = {node: NodeInfo; deleted: boolean};

export type NodeWatchListener = {
	onList(nodes: NodeInfo[]): void;
	/** The changes of one chunk of the watch, together. */
	onChanges(changes: NodeChange[]): void;
	onFailure(failure: Failure): void;
};

export type NodeWatchOptions = {
	relistMs: number;
	timers: Timers;
	/** Back-off cap after failed lists, ms. @default 30000 */
	maxBackoffMs?: number;
};

export type NodeWatch = {stop(): void};

export function startNodeWatch(lister: NodeLister, options: NodeWatchOptions, listener: NodeWatchListener): NodeWatch {
	const controller = new AbortController();
	const {signal} = controller;
	let failures = 0;
	let timer: unknown;
	const wait = async (ms: number) =>
		new Promise<void>((resolve) => {
			timer = options.timers.setTimeout(resolve, ms);
		});
	const backoff = () => backoffDelay(failures, 1000, options.maxBackoffMs ?? 30_000);

	async function list(): Promise<string | null> {
		if (lister.listNodesAt) {
			const listing = await lister.listNodesAt(signal);
			listener.onList(listing.nodes);
			return listing.resourceVersion;
		}

		listener.onList(await lister.listNodes(signal));
		return null;
	}

	async function run(): Promise<void> {
		let watching = lister.watchNodes !== undefined;
		while (!signal.aborted) {
			let resourceVersion: string | null;
			try {
				resourceVersion = await list();
				failures = 0;
			} catch (error) {
				if (signal.aborted) return;
				failures++;
				listener.onFailure(toFailure(error, lister));
				await wait(backoff());
				continue;
			}

			if (!watching || resourceVersion === null) {
				await wait(options.relistMs);
				continue;
			}

			watching = await watchFrom(resourceVersion);
		}
	}

	/** Watches until the version is gone (list again) or the watch fails; false when it never can work. */
	async function watchFrom(from: string): Promise<boolean> {
		let resourceVersion = from;
		const batch = createBatch(listener);
		while (!signal.aborted) {
			try {
				const end = await lister.watchNodes!(signal, resourceVersion, batch.add); // watching: defined
				if (end.type === 'gone') return true;
				resourceVersion = end.resourceVersion;
			} catch (error) {
				if (signal.aborted) return true;
				const failure = toFailure(error, lister);
				// Without the watch right (or a server that has none) the list is read again every relistMs instead.
				if (failure.kind === 'forbidden' || failure.kind === 'not-found') return false;
				failures++;
				await wait(backoff());
				return true;
			}
		}

		return true;
	}

	void run();
	return {
		stop() {
			controller.abort();
			if (timer !== undefined) options.timers.clearTimeout(timer);
		},
	};
}

/** The watch's lines of one chunk (handed on in one turn of the event loop) as one batch of changes. */
function createBatch(listener: NodeWatchListener) {
	let changes: NodeChange[] = [];
	return {
		add: (event: NodeWatchEvent): void => {
			if (event.type !== 'node' && event.type !== 'deleted') return;
			if (changes.length === 0) {
				queueMicrotask(() => {
					const done = changes;
					changes = [];
					listener.onChanges(done);
				});
			}

			changes.push({node: event.node, deleted: event.type === 'deleted'});
		},
	};
}
