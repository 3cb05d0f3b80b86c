// The Node object's fields as pleg-top shows them. Every string is the cluster's: clusterText makes it one visible
// line here, where it enters, so no screen, title, report or file downstream writes a control character.
import * as v from 'valibot';
import type {NodeInfo} from '../domain/types.js';
import {clusterText as text} from '../domain/text/untrusted-text.js';
import {checked, continueOf, MalformedJsonError, maybe, readJson} from './json-boundary.js';

/** The fields of a node condition pleg-top shows: status stays a string (an unknown one reads as Unknown). */
const conditionSchema = v.object({
	type: maybe(v.string()),
	status: maybe(v.string()),
	reason: maybe(v.string()),
	message: maybe(v.string()),
	lastTransitionTime: maybe(v.string()),
	lastHeartbeatTime: maybe(v.string()),
});

/** The parts of a v1 Node pleg-top shows; `kind` is absent on the items of a NodeList. */
const nodeSchema = v.object({
	kind: maybe(v.literal('Node')),
	metadata: maybe(v.object({name: maybe(v.string()), uid: maybe(v.string()), resourceVersion: maybe(v.string())})),
	status: maybe(
		v.object({
			nodeInfo: maybe(v.object({kubeletVersion: maybe(v.string()), containerRuntimeVersion: maybe(v.string())})),
			conditions: maybe(v.array(conditionSchema)),
		}),
	),
});

const nodeListSchema = v.object({
	items: v.array(nodeSchema),
	metadata: maybe(v.object({continue: maybe(v.string()), resourceVersion: maybe(v.string())})),
});

/** A line of a watch of the nodes: the object is a Node, or a Status for ERROR; both only as far as read. */
const watchLineSchema = v.object({
	type: v.string(),
	object: v.looseObject({
		metadata: maybe(v.looseObject({name: maybe(v.string()), resourceVersion: maybe(v.string())})),
		code: maybe(v.number()),
		message: maybe(v.string()),
	}),
});

/** A NodeList or PartialObjectMetadataList: only the names are read. */
const nameListSchema = v.object({items: v.array(v.object({metadata: maybe(v.object({name: maybe(v.string())}))}))});

type NodeJson = v.InferOutput<typeof nodeSchema>;
type Condition = v.InferOutput<typeof conditionSchema>;

/** An RFC 3339 time as ms since the epoch; null when absent or not a time. */
function timeOf(value: string | null | undefined): number | null {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(ms) ? null : ms;
}

function readyOf(conditions: Condition[] | null | undefined): NodeInfo['ready'] {
	const ready = conditions?.find((condition) => condition.type === 'Ready');
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

/** The parts of a v1 Node object pleg-top shows. Throws MalformedJsonError naming the field on a body that is not a Node. */
export function nodeInfoFromJson(body: string, node: string): NodeInfo {
	return infoOf(readJson(nodeSchema, body), node);
}

/** The same from an already parsed Node object (an item of a NodeList, a watch event's object). Throws as above. */
export function nodeInfoFromObject(value: unknown, node: string): NodeInfo {
	return infoOf(checked(nodeSchema, value), node);
}

function infoOf(value: NodeJson, node: string): NodeInfo {
	const uid = text(value.metadata?.uid);
	return {
		name: text(value.metadata?.name) ?? node,
		...(uid === null ? {} : {uid}),
		kubeletVersion: text(value.status?.nodeInfo?.kubeletVersion),
		ready: readyOf(value.status?.conditions),
		containerRuntimeVersion: text(value.status?.nodeInfo?.containerRuntimeVersion),
	};
}

/** metadata.name of every item of a NodeList (or PartialObjectMetadataList). Throws MalformedJsonError on another body. */
export function nodeNamesFromJson(body: string): string[] {
	const list = readJson(nameListSchema, body);
	return list.items.map((item) => text(item.metadata?.name)).filter((name): name is string => name !== null);
}

/** A name as the API server holds it, unchanged: the one to put in a URL. */
function rawName(item: NodeJson): string | null {
	const name = item.metadata?.name;
	return typeof name === 'string' && name !== '' ? name : null;
}

/** A list's or an object's resourceVersion as sent; null when it has none. */
function versionOf(metadata: {resourceVersion?: string | null | undefined} | null | undefined): string | null {
	const version = metadata?.resourceVersion;
	return typeof version === 'string' && version !== '' ? version : null;
}

/**
 * Every item of a v1 NodeList that has a name, as NodeInfo (its name visible); `addresses` maps each shown name
 * that differs from the name held (one with controls) back to the held one, so the node stays reachable;
 * `continueToken` is the list's next-page token as sent (null on the last page); `resourceVersion` the list's,
 * from which a watch of the nodes goes on (null when it has none). Throws MalformedJsonError.
 */
export function nodeInfosFromJson(body: string): {
	nodes: NodeInfo[];
	addresses: Map<string, string>;
	continueToken: string | null;
	resourceVersion: string | null;
} {
	const list = readJson(nodeListSchema, body);
	const nodes: NodeInfo[] = [];
	const addresses = new Map<string, string>();
	for (const item of list.items) {
		const held = rawName(item);
		if (held === null) continue;
		const node = infoOf(item, '');
		nodes.push(node);
		if (node.name !== held) addresses.set(node.name, held);
	}

	return {nodes, addresses, continueToken: continueOf(list.metadata), resourceVersion: versionOf(list.metadata)};
}

/** One line of a watch of the nodes: a Node that was added or changed, one deleted, or where the watch stands. */
export type NodeWatchEvent =
	| {type: 'node'; node: NodeInfo; held: string; resourceVersion: string | null}
	| {type: 'deleted'; node: NodeInfo; held: string; resourceVersion: string | null}
	| {type: 'bookmark'; resourceVersion: string | null}
	/** The watch ended with a Status: 410 Gone (the version is too old: list again) or another code. */
	| {type: 'error'; code: number | null; message: string | null};

/** A watch line (`{"type":"MODIFIED","object":{…}}`, kube-apiserver's JSON stream). Throws MalformedJsonError on one that is not. */
export function nodeWatchEventFromJson(line: string): NodeWatchEvent {
	const {type, object} = readJson(watchLineSchema, line);
	const resourceVersion = versionOf(object.metadata);
	if (type === 'BOOKMARK') return {type: 'bookmark', resourceVersion};
	if (type === 'ERROR') return {type: 'error', code: object.code ?? null, message: text(object.message)};
	if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') throw new MalformedJsonError('type', `not a watch event type`);
	const node = nodeInfoFromObject(object, '');
	const held = typeof object.metadata?.name === 'string' && object.metadata.name !== '' ? object.metadata.name : null;
	if (held === null) throw new MalformedJsonError('object.metadata.name', 'missing');
	return {type: type === 'DELETED' ? 'deleted' : 'node', node, held, resourceVersion};
}
