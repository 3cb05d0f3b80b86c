import type {NodeInfo} from '../types.js';

type Condition = {type?: unknown; status?: unknown; reason?: unknown; message?: unknown; lastTransitionTime?: unknown};

function text(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : null;
}

function readyOf(conditions: unknown): NodeInfo['ready'] {
	if (!Array.isArray(conditions)) {
		return null;
	}

	const ready = (conditions as Condition[]).find(condition => condition?.type === 'Ready');
	if (ready === undefined) {
		return null;
	}

	const status = ready.status === 'True' || ready.status === 'False' ? ready.status : 'Unknown';
	const since = text(ready.lastTransitionTime) === null ? Number.NaN : Date.parse(String(ready.lastTransitionTime));
	return {
		status,
		reason: text(ready.reason),
		message: text(ready.message),
		since: Number.isNaN(since) ? null : since,
	};
}

/** The parts of a v1 Node object pleg-top shows. Throws on input that is not a Node. */
export function nodeInfoFromJson(body: string, node: string): NodeInfo {
	const value = JSON.parse(body) as {kind?: unknown; metadata?: {name?: unknown}; status?: {nodeInfo?: {kubeletVersion?: unknown}; conditions?: unknown}};
	if (typeof value !== 'object' || value === null || (value.kind !== undefined && value.kind !== 'Node')) {
		throw new TypeError('not a Node object');
	}

	return {
		name: text(value.metadata?.name) ?? node,
		kubeletVersion: text(value.status?.nodeInfo?.kubeletVersion),
		ready: readyOf(value.status?.conditions),
	};
}

/** metadata.name of every item of a NodeList (or PartialObjectMetadataList). */
export function nodeNamesFromJson(body: string): string[] {
	const value = JSON.parse(body) as {items?: Array<{metadata?: {name?: unknown}}>};
	const items = Array.isArray(value?.items) ? value.items : [];
	return items.map(item => text(item?.metadata?.name)).filter((name): name is string => name !== null);
}
