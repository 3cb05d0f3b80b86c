import type {NodeInfo} from '../domain/types.js';

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

function text(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : null;
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
	metadata?: {name?: unknown};
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

	return {
		name: text(value.metadata?.name) ?? node,
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

/** Every item of a v1 NodeList that has a name, as NodeInfo; `continue` is the list's next-page token (null on the last page). */
export function nodeInfosFromJson(body: string): {nodes: NodeInfo[]; continueToken: string | null} {
	const value = JSON.parse(body) as {items?: NodeJson[]; metadata?: {continue?: unknown}};
	const items = Array.isArray(value?.items) ? value.items : [];
	const nodes = items.filter((item) => text(item?.metadata?.name) !== null).map((item) => nodeInfoFromObject({kind: 'Node', ...item}, ''));
	return {nodes, continueToken: text(value?.metadata?.continue)};
}
