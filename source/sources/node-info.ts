// The Node object's fields as pleg-top shows them. Every string is the cluster's: clusterText makes it one visible
// line here, where it enters, so no screen, title, report or file downstream writes a control character.
import type {NodeInfo} from '../domain/types.js';
import {clusterText as text} from '../domain/untrusted-text.js';

type Condition = {
	type?: unknown;
	status?: unknown;
	reason?: unknown;
	message?: unknown;
	lastTransitionTime?: unknown;
	lastHeartbeatTime?: unknown;
};

/** An RFC 3339 time as ms since the epoch; null when absent or not a time. */
function timeOf(value: unknown): number | null {
	const ms = text(value) === null ? Number.NaN : Date.parse(String(value));
	return Number.isNaN(ms) ? null : ms;
}

function readyOf(conditions: unknown): NodeInfo['ready'] {
	if (!Array.isArray(conditions)) {
		return null;
	}

	const ready = (conditions as Condition[]).find((condition) => condition?.type === 'Ready');
	if (ready === undefined) {
		return null;
	}

	const status = ready.status === 'True' || ready.status === 'False' ? ready.status : 'Unknown';
	const heartbeat = timeOf(ready.lastHeartbeatTime);
	return {
		status,
		reason: text(ready.reason),
		message: text(ready.message),
		since: timeOf(ready.lastTransitionTime),
		heartbeatSeconds: heartbeat === null ? null : heartbeat / 1000,
	};
}

type NodeJson = {
	kind?: unknown;
	metadata?: {name?: unknown; uid?: unknown; resourceVersion?: unknown};
	status?: {nodeInfo?: {kubeletVersion?: unknown; containerRuntimeVersion?: unknown}; conditions?: unknown};
};

/** The parts of a v1 Node object pleg-top shows. Throws on input that is not a Node. */
export function nodeInfoFromJson(body: string, node: string): NodeInfo {
	return nodeInfoFromObject(JSON.parse(body) as NodeJson, node);
}

/** The same from an already parsed Node object (an item of a NodeList). Throws on a value that is not a Node. */
export function nodeInfoFromObject(value: NodeJson, node: string): NodeInfo {
	if (typeof value !== 'object' || value === null || (value.kind !== undefined && value.kind !== 'Node')) {
		throw new TypeError('not a Node object');
	}

	const uid = text(value.metadata?.uid);
	return {
		name: text(value.metadata?.name) ?? node,
		...(uid === null ? {} : {uid}),
		kubeletVersion: text(value.status?.nodeInfo?.kubeletVersion),
		ready: readyOf(value.status?.conditions),
		containerRuntimeVersion: text(value.status?.nodeInfo?.containerRuntimeVersion),
	};
}

/** metadata.name of every item of a NodeList (or PartialObjectMetadataList). */
export function nodeNamesFromJson(body: string): string[] {
	const value = JSON.parse(body) as {items?: Array<{metadata?: {name?: unknown}}>};
	const items = Array.isArray(value?.items) ? value.items : [];
	return items.map((item) => text(item?.metadata?.name)).filter((name): name is string => name !== null);
}

/** A name as the API server holds it, unchanged: the one to put in a URL. */
function rawName(item: NodeJson | undefined): string | null {
	const name = item?.metadata?.name;
	return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * Every item of a v1 NodeList that has a name, as NodeInfo (its name visible); `addresses` maps each shown name
 * that differs from the name held (one with controls) back to the held one, so the node stays reachable;
 * `continueToken` is the list's next-page token as sent (null on the last page).
 */
export function nodeInfosFromJson(body: string): {
	nodes: NodeInfo[];
	addresses: Map<string, string>;
	continueToken: string | null;
	/** The list's resourceVersion, from which a watch of the nodes goes on; null when it has none. */
	resourceVersion: string | null;
} {
	const value = JSON.parse(body) as {items?: NodeJson[]; metadata?: {continue?: unknown; resourceVersion?: unknown}};
	const items = Array.isArray(value?.items) ? value.items : [];
	const nodes: NodeInfo[] = [];
	const addresses = new Map<string, string>();
	for (const item of items) {
		const held = rawName(item);
		if (held === null) continue;
		const node = nodeInfoFromObject({kind: 'Node', ...item}, '');
		nodes.push(node);
		if (node.name !== held) addresses.set(node.name, held);
	}

	const token = value?.metadata?.continue;
	const version = value?.metadata?.resourceVersion;
	return {
		nodes,
		addresses,
		continueToken: typeof token === 'string' && token !== '' ? token : null,
		resourceVersion: typeof version === 'string' && version !== '' ? version : null,
	};
}

/** One line of a watch of the nodes: a Node that was added or changed, one deleted, or where the watch stands. */
export type NodeWatchEvent =
	| {type: 'node'; node: NodeInfo; held: string; resourceVersion: string | null}
	| {type: 'deleted'; node: NodeInfo; held: string; resourceVersion: string | null}
	| {type: 'bookmark'; resourceVersion: string | null}
	/** The watch ended with a Status: 410 Gone (the version is too old: list again) or another code. */
	| {type: 'error'; code: number | null; message: string | null};

/** A watch line (`{"type":"MODIFIED","object":{…}}`, kube-apiserver's JSON stream). Throws on one that is not. */
export function nodeWatchEventFromJson(line: string): NodeWatchEvent {
	const value = JSON.parse(line) as {type?: unknown; object?: NodeJson & {code?: unknown; message?: unknown}};
	const object = value?.object;
	if (typeof object !== 'object' || object === null) throw new TypeError('not a watch event');
	const version = typeof object.metadata?.resourceVersion === 'string' ? object.metadata.resourceVersion : null;
	if (value.type === 'BOOKMARK') return {type: 'bookmark', resourceVersion: version};
	if (value.type === 'ERROR') {
		return {type: 'error', code: typeof object.code === 'number' ? object.code : null, message: text(object.message)};
	}

	const held = rawName(object);
	if (held === null || (value.type !== 'ADDED' && value.type !== 'MODIFIED' && value.type !== 'DELETED')) {
		throw new TypeError('not a Node watch event');
	}

	const node = nodeInfoFromObject({kind: 'Node', ...object}, '');
	return {type: value.type === 'DELETED' ? 'deleted' : 'node', node, held, resourceVersion: version};
}
