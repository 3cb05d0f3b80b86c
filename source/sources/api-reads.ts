// The API server's reads beyond one node's two calls: the node list (names, or Node objects page by page), the pods
// bound to a node, and a node's Events. Each takes the calls of one API server (api-server.ts): its requests, with
// every failure classified and every credential masked.
import type {NodeEvent, NodeEvents, NodeInfo, PodCount} from '../domain/types.js';
import {kubectlCommand} from '../domain/next-steps.js';
import type {BodyReader} from './http/body-text.js';
import type {Call, NodeNames, Rule} from './http/classify.js';
import type {HttpAnswer} from './http/https-request.js';
import {kubectlTargetOf, type LoadedKubeconfig} from './kube/kubeconfig.js';
import {sourceFailure, SourceFailure} from './failure.js';
import {malformedWhy} from './json-boundary.js';
import {eventPageFromJson, newestEvents, type EventPage} from './node-events.js';
import {nodeInfosFromJson, nodeNamesFromJson} from './node-info.js';
import {maxPodPages, podListAccept, podListPath, podPageFromJson} from './pod-count.js';

/** The requests of one API server, as its reads make them. */
export type ApiCalls = {
	readonly loaded: LoadedKubeconfig;
	get(path: string, accept: string, signal: AbortSignal, readBody?: BodyReader): Promise<HttpAnswer>;
	/** A failure for an answer that is not the one asked for. */
	classify(answer: HttpAnswer, call: Call): SourceFailure;
	/** The failure with every known credential masked. */
	guard(failure: SourceFailure): SourceFailure;
};

// Metadata only: the names are all pleg-top needs, and a full NodeList of a large cluster is megabytes.
const listAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
export const json = 'application/json';
/** Events read a page at a time, as `kubectl describe node` reads them: one page held at once, however many there are. */
const eventPageSize = 500;

/** The RBAC rule behind each call. */
export const rules = {
	node: {verb: 'get', resource: 'nodes'},
	proxy: {verb: 'get', resource: 'nodes/proxy'},
	list: {verb: 'list', resource: 'nodes'},
	// Every recorder files a Node's Events in "default" (a Node has no namespace of its own), so a Role there is enough.
	events: {verb: 'list', resource: 'events', namespace: 'default'},
} as const satisfies Record<string, Rule>;

/** Names of all nodes (for the not-found message). Throws SourceFailure 'forbidden' when listing is not allowed. */
export async function listNodeNames(calls: ApiCalls, signal: AbortSignal): Promise<string[]> {
	const path = '/api/v1/nodes?limit=500';
	const answer = await calls.get(path, listAccept, signal);
	if (answer.status !== 200) {
		throw calls.classify(answer, {path, rule: rules.list, action: 'list nodes'});
	}

	try {
		return nodeNamesFromJson(answer.body);
	} catch (error) {
		throw calls.guard(
			sourceFailure('parse', `the node list from ${calls.loaded.server} could not be read${malformedWhy(error)}`, [`request: GET ${path}`]),
		);
	}
}

/** The node names a not-found message offers, or why there are none. */
export async function namesForNotFound(calls: ApiCalls, signal: AbortSignal): Promise<NodeNames> {
	try {
		return {names: await listNodeNames(calls, signal)};
	} catch (error) {
		if (error instanceof SourceFailure) {
			return error.failure.kind === 'forbidden' ? {forbidden: true} : {error: error.failure.summary};
		}

		throw error;
	}
}

/**
 * Every node, or those matching `selector`, 500 a page. The names the API server holds for names shown in their
 * visible form go into `heldNames`.
 */
export async function listNodes(
	calls: ApiCalls,
	heldNames: Map<string, string>,
	signal: AbortSignal,
	selector?: string,
): Promise<NodeInfo[]> {
	const labels = selector === undefined ? '' : `&labelSelector=${encodeURIComponent(selector)}`;
	const nodes: NodeInfo[] = [];
	let continueToken: string | null = null;
	do {
		const path: string = `/api/v1/nodes?limit=500${labels}${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
		const answer = await calls.get(path, json, signal);
		if (answer.status !== 200) {
			throw calls.classify(answer, {
				path,
				rule: rules.list,
				action: 'list nodes',
				// All that the overview needs, not only what was refused first.
				forbiddenNotes: [
					`the overview then reads each node through get on nodes/proxy: check: ${kubectlCommand(kubectlTargetOf(calls.loaded), ['auth', 'can-i', 'get', 'nodes/proxy'])}`,
				],
			});
		}

		try {
			const page = nodeInfosFromJson(answer.body);
			nodes.push(...page.nodes);
			for (const [shown, heldName] of page.addresses) heldNames.set(shown, heldName);
			continueToken = page.continueToken;
		} catch (error) {
			throw calls.guard(
				sourceFailure('parse', `the node list from ${calls.loaded.server} could not be read${malformedWhy(error)}`, [
					`request: GET ${path}`,
					'expected v1 NodeList JSON',
				]),
			);
		}
	} while (continueToken !== null);

	return nodes;
}

/** The pods bound to the node, or why not: a refusal or failure is said, never thrown (they are context). */
export async function countPods(calls: ApiCalls, held: string, signal: AbortSignal): Promise<PodCount> {
	let count = 0;
	let continueToken: string | null = null;
	try {
		for (let page = 0; page < maxPodPages; page++) {
			const path = podListPath(held, continueToken);
			const answer = await calls.get(path, podListAccept, signal);
			if (answer.status === 403) return {count: null, error: 'not allowed to list pods (list on pods)'};
			if (answer.status !== 200) return {count: null, error: `GET /api/v1/pods answered ${answer.status}`};
			const parsed = podPageFromJson(answer.body);
			count += parsed.items;
			continueToken = parsed.continueToken;
			if (continueToken === null) return {count, error: null};
		}

		return {count: null, error: `more than ${maxPodPages * 500} pods`};
	} catch (error) {
		if (signal.aborted) throw error;
		if (error instanceof SourceFailure) return {count: null, error: error.failure.summary};
		return {count: null, error: `the pod list could not be read${malformedWhy(error)}`};
	}
}

/**
 * The node's Events, every page, as `kubectl describe node` reads them: the API server lists them by name, not
 * by time, so the newest can be on any page. Only the newest are kept between pages, so memory is one page.
 */
export async function readEvents(calls: ApiCalls, held: string, name: string, signal: AbortSignal): Promise<NodeEvents> {
	// What `kubectl describe node` shows under Events: no uid in the selector, so both the kubelet's
	// Events (uid = node name) and the node controller's (uid = the Node's uid) come back.
	const selector = encodeURIComponent(`involvedObject.kind=Node,involvedObject.name=${held}`);
	const first = `/api/v1/namespaces/default/events?fieldSelector=${selector}&limit=${eventPageSize}`;
	let newest: NodeEvent[] = [];
	let total = 0;
	let continueToken: string | null = null;
	do {
		const path: string = continueToken === null ? first : `${first}&continue=${encodeURIComponent(continueToken)}`;
		const page = await readEventPage(calls, path, first, name, signal);
		newest = newestEvents([...newest, ...page.events]);
		total += page.events.length;
		continueToken = page.continueToken;
	} while (continueToken !== null);

	return {events: newest, error: null, total: {count: total, atLeast: false}};
}

/** One page of the node's Events; a refusal or a body that is not an EventList throws a SourceFailure. */
async function readEventPage(calls: ApiCalls, path: string, first: string, name: string, signal: AbortSignal): Promise<EventPage> {
	const answer = await calls.get(path, json, signal);
	if (answer.status !== 200) {
		throw calls.classify(answer, {
			path: first,
			rule: rules.events,
			action: 'list events in namespace "default"',
			forbiddenNotes: ["only the node's Events are missing: the PLEG figures do not need this right"],
		});
	}

	try {
		return eventPageFromJson(answer.body);
	} catch (error) {
		throw calls.guard(
			sourceFailure('parse', `the Events of node "${name}" from ${calls.loaded.server} could not be read${malformedWhy(error)}`, [
				`request: GET ${path}`,
				'expected v1 EventList JSON',
			]),
		);
	}
}
