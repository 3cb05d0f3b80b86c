// The API server's reads beyond one node's two calls: the node list (names, or Node objects page by page), the pods
// bound to a node, and a node's Events. Each takes the calls of one API server (api-server.ts): its requests, with
// every failure classified and every credential masked.
import type {NodeEvent, NodeEvents, NodeInfo, PodCount} from '../domain/types.js';
import {kubectlCommand} from '../domain/incident/next-steps.js';
import type {BodyReader} from './http/body-text.js';
import type {Call, NodeNames, Rule} from './http/classify.js';
import type {HttpAnswer} from './http/https-request.js';
import {kubectlTargetOf, type LoadedKubeconfig} from './kube/kubeconfig.js';
import {sourceFailure, SourceFailure} from './failure.js';
import {malformedWhy} from './json-boundary.js';
import {eventPageFromJson, newestEvents, type EventPage} from './node-events.js';
import {nodeInfosFromJson, nodeNamesFromJson, nodeWatchEventFromJson, type NodeWatchEvent} from './node-info.js';
import type {StreamEnd} from './http/line-stream.js';
import {maxPodPages, podListAccept, podListPath, podPageFromJson} from './pod-count.js';

/** The requests of one API server, as its reads make them. */
export type ApiCalls = {
	readonly loaded: LoadedKubeconfig;
	get(path: string, accept: string, signal: AbortSignal, readBody?: BodyReader): Promise<HttpAnswer>;
	/** A streaming GET: each line as it comes (transport.ts stream). */
	stream(path: string, accept: string, signal: AbortSignal, idleMs: number, onLine: (line: string) => void): Promise<StreamEnd>;
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

/** The nodes listed, and the list's resourceVersion (where a watch goes on from; null when the server gave none). */
export type NodeListing = {nodes: NodeInfo[]; resourceVersion: string | null};

/**
 * Every node, or those matching `selector`, 500 a page. The names the API server holds for names shown in their
 * visible form go into `heldNames`.
 */
export async function listNodes(
	calls: ApiCalls,
	heldNames: Map<string, string>,
	signal: AbortSignal,
	selector?: string,
): Promise<NodeListing> {
	const labels = selector === undefined ? '' : `&labelSelector=${encodeURIComponent(selector)}`;
	const nodes: NodeInfo[] = [];
	let continueToken: string | null = null;
	let resourceVersion: string | null = null;
	do {
		const path: string = `/api/v1/nodes?limit=500${labels}${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
		const answer = await calls.get(path, json, signal);
		if (answer.status !== 200) throw listFailure(calls, answer, path);
		try {
			const page = nodeInfosFromJson(answer.body);
			nodes.push(...page.nodes);
			for (const [shown, heldName] of page.addresses) heldNames.set(shown, heldName);
			continueToken = page.continueToken;
			// Every page of one list is a snapshot at the first page's version.
			resourceVersion ??= page.resourceVersion;
		} catch (error) {
			throw calls.guard(
				sourceFailure('parse', `the node list from ${calls.loaded.server} could not be read${malformedWhy(error)}`, [
					`request: GET ${path}`,
					'expected v1 NodeList JSON',
				]),
			);
		}
	} while (continueToken !== null);

	return {nodes, resourceVersion};
}

function listFailure(calls: ApiCalls, answer: HttpAnswer, path: string): SourceFailure {
	return calls.classify(answer, {
		path,
		rule: rules.list,
		action: 'list nodes',
		// All that the overview needs, not only what was refused first.
		forbiddenNotes: [
			`the overview then reads each node through get on nodes/proxy: check: ${kubectlCommand(kubectlTargetOf(calls.loaded), ['auth', 'can-i', 'get', 'nodes/proxy'])}`,
		],
	});
}

/** How a watch of the nodes ended: the server closed it (watch again from `resourceVersion`), or the version is gone (list again). */
export type NodeWatchEnd = {type: 'closed'; resourceVersion: string} | {type: 'gone'};

/** The server ends a watch after this long (kubectl picks 5 to 10 minutes), s; a quiet one is given a minute more. */
const watchSeconds = 300;

/**
 * Watches the nodes (those matching `selector`) from `resourceVersion`, as kubectl get -w and informers do: each
 * change to `onEvent` as its line comes, until the server ends the watch. Throws
 * SourceFailure for an answer that is not a watch (403 without the watch right, …).
 */
export async function watchNodes(
	calls: ApiCalls,
	heldNames: Map<string, string>,
	signal: AbortSignal,
	from: {resourceVersion: string; selector?: string},
	onEvent: (event: NodeWatchEvent) => void,
): Promise<NodeWatchEnd> {
	const labels = from.selector === undefined ? '' : `&labelSelector=${encodeURIComponent(from.selector)}`;
	const path = `/api/v1/nodes?watch=true&allowWatchBookmarks=true&timeoutSeconds=${watchSeconds}&resourceVersion=${encodeURIComponent(from.resourceVersion)}${labels}`;
	let resourceVersion = from.resourceVersion;
	let gone = false;
	const end = await calls.stream(path, json, signal, (watchSeconds + 60) * 1000, (line) => {
		let event: NodeWatchEvent;
		try {
			event = nodeWatchEventFromJson(line);
		} catch {
			throw calls.guard(
				sourceFailure('parse', `the node watch from ${calls.loaded.server} sent a line that is not a watch event`, [
					`request: GET ${path}`,
				]),
			);
		}

		if (event.type === 'error') {
			gone ||= event.code === 410;
			return;
		}

		if (event.resourceVersion !== null) resourceVersion = event.resourceVersion;
		if (event.type !== 'bookmark' && event.node.name !== event.held) heldNames.set(event.node.name, event.held);
		if (event.type !== 'bookmark') onEvent(event);
	});
	if (end.status === 410 || gone) return {type: 'gone'};
	if (end.status !== 200) throw listFailure(calls, {status: end.status, headers: end.headers, body: end.body}, path);
	return {type: 'closed', resourceVersion};
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
