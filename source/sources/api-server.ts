// The kubelet's /metrics through the API server's node proxy, the Node object and the node's Events. Auth and
// TLS come from the kubeconfig through client-node (kube/credentials.ts); requests go through the one transport.
import type {MetricsAnswer, MetricsSource, NodeEvents, NodeInfo} from '../domain/types.js';
import {
	classifyAnswer,
	forbiddenFailure,
	htmlInsteadOfMetrics,
	isNodeNotFound,
	notFoundFailure,
	type Call,
	type Peer,
	type Refusal,
} from './http/classify.js';
import {createTransport, transportWarnings, type Transport} from './http/transport.js';
import type {HttpAnswer} from './http/https-request.js';
import {dateHeaderSeconds} from './http/date-header.js';
import {cutToPlegLines} from '../domain/exposition/parse.js';
import {sendsToken} from './http/flag-auth.js';
import {kubeconfigAuth} from './kube/credentials.js';
import type {LoadedKubeconfig} from './kube/kubeconfig.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import {nodeInfoFromJson} from './node-info.js';
import {malformedWhy} from './json-boundary.js';
import {
	countPods,
	json,
	listNodeNames,
	listNodes,
	namesForNotFound,
	readEvents,
	rules,
	watchNodes,
	type ApiCalls,
	type NodeListing,
	type NodeWatchEnd,
} from './api-reads.js';
import type {NodeWatchEvent} from './node-info.js';

export type ApiServerOptions = {
	loaded: LoadedKubeconfig;
	/** Limit for each request (connect to last body byte), ms. */
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** How long resolved credentials are reused before asking client-node again, ms. @default 60000 */
	credentialTtlMs?: number;
	/** The engine's clock, ms: ages the credential cache. */
	now: () => number;
};

/** The API server of one node: the node's source, and the fleet's reads (the node list, other nodes). */
export type ApiServerSourceOptions = ApiServerOptions & {node: string};

/** One node through the API server: its metrics, its Node object and its Events. */
type NodeSource = MetricsSource & {
	fetchNode(signal: AbortSignal): Promise<NodeInfo>;
	fetchEvents(signal: AbortSignal): Promise<NodeEvents>;
};

/** The API server itself, for every node (the overview, completion): no node of its own. */
export type ApiServer = {
	/** The server as labels name it after "NODE via ", with the short form of any warning. */
	readonly where: string;
	/** Warnings to say once on stderr at start (e.g. a token sent without TLS). */
	readonly notes: readonly string[];
	/** Names of all nodes (for the not-found message). Throws SourceFailure 'forbidden' when listing is not allowed. */
	listNodeNames: (signal: AbortSignal) => Promise<string[]>;
	/**
	 * Every Node object (GET /api/v1/nodes, 500 a page), for the overview, or those matching a label selector (-l, as kubectl's: `pool=gpu,zone!=a`). */
	listNodes: (signal: AbortSignal, selector?: string) => Promise<NodeInfo[]>;
	/** The same, with the list's resourceVersion (where a watch goes on from). */
	listNodesAt: (signal: AbortSignal, selector?: string) => Promise<NodeListing>;
	/** Watches the nodes from a list's resourceVersion until the server ends the watch (api-reads.ts watchNodes). */
	watchNodes: (
		signal: AbortSignal,
		from: {resourceVersion: string; selector?: string},
		onEvent: (event: NodeWatchEvent) => void,
	) => Promise<NodeWatchEnd>;
	/**
	 * The same source for another node: shares this source's credentials and its one keep-alive agent, so the
	 * overview polls every node over the same few connections. `close` of the result does nothing (the parent owns the agent).
	 */
	forNode: (node: string) => NodeSource;
	close: () => void;
};

export type ApiServerSource = NodeSource & Omit<ApiServer, 'where' | 'notes'>;

const metricsAccept = 'text/plain;version=0.0.4';

const proxyNote =
	'note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server';

/** The Node object and the metrics proxy, the two calls the one-node screen needs: a 403 on one asks after the other. */
type NodeCall = 'node' | 'proxy';

/** One node's source through the API server, which also lists and reads the others (over the same connections). */
export function createApiServerSource(options: ApiServerSourceOptions): ApiServerSource {
	const {listNodeNames, listNodes, listNodesAt, watchNodes: watch, forNode, close} = createApiServer(options);
	return {...forNode(options.node), listNodeNames, listNodes, listNodesAt, watchNodes: watch, forNode, close};
}

export function createApiServer(options: ApiServerOptions): ApiServer {
	const server = connect(options);
	// A listed name is shown in its visible form (untrusted-text.ts); one that had controls is still addressed by
	// the name the API server holds.
	const heldNames = new Map<string, string>();
	const {calls} = server;
	return {
		where: server.where,
		notes: server.notes,
		listNodeNames: (signal) => listNodeNames(calls, signal),
		listNodes: async (signal, selector) => (await listNodes(calls, heldNames, signal, selector)).nodes,
		listNodesAt: (signal, selector) => listNodes(calls, heldNames, signal, selector),
		watchNodes: (signal, from, onEvent) => watchNodes(calls, heldNames, signal, from, onEvent),
		forNode: (name) => nodeSource(server, name, heldNames.get(name) ?? name),
		close() {
			server.transport.close();
		},
	};
}

/** One API server's connection: its transport, what it warns of, and its calls with every failure guarded. */
type Connection = {
	loaded: LoadedKubeconfig;
	peer: Peer;
	transport: Transport;
	where: string;
	notes: readonly string[];
	calls: ApiCalls;
};

function connect(options: ApiServerOptions): Connection {
	const {loaded} = options;
	const auth = kubeconfigAuth(loaded, {ttlMs: options.credentialTtlMs ?? 60_000, now: options.now, requestTimeoutMs: options.timeoutMs});
	const peer = {kind: 'api-server', url: loaded.server, loaded} as const satisfies Peer;
	const transport = createTransport({peer, auth, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes});
	const warnings = transportWarnings(loaded.server, {
		insecureSkipTlsVerify: loaded.kubeConfig.getCluster(loaded.clusterName)?.skipTLSVerify === true,
		insecureBy: `insecure-skip-tls-verify of cluster "${loaded.clusterName}" in ${loaded.origins.cluster}`,
		sendsToken: sendsToken({loaded}),
	});
	// Defence in depth: whatever built the text, no known credential leaves this module.
	const guard = (failure: SourceFailure) => new SourceFailure(redactFailure(failure.failure, transport.secrets()));
	const guarded = (error: unknown) => {
		throw error instanceof SourceFailure ? guard(error) : error;
	};

	const calls: ApiCalls = {
		loaded,
		get: async (path, accept, signal, readBody) => transport.get(path, {Accept: accept}, signal, readBody).catch(guarded),
		stream: async (path, accept, signal, idleMs, onLine) =>
			transport.stream(path, {Accept: accept, 'Accept-Encoding': 'identity'}, signal, idleMs, onLine).catch(guarded),
		classify: (answer: HttpAnswer, call: Call) => guard(classifyAnswer(answer, peer, call, transport.secrets())),
		guard,
	};
	return {loaded, peer, transport, where: `${loaded.server}${warnings.labelSuffix}`, notes: warnings.notes, calls};
}

/** One node's calls: the Node object and the metrics proxy, each remembered as refused (403) or allowed. */
function nodeCalls(server: Connection, name: string, held: string) {
	const {calls, peer} = server;
	const paths: Record<NodeCall, string> = {
		node: `/api/v1/nodes/${encodeURIComponent(held)}`,
		proxy: `/api/v1/nodes/${encodeURIComponent(held)}/proxy/metrics`,
	};
	// The last answer of each call: refused (with that answer), allowed, or not asked yet.
	const refused = new Map<NodeCall, HttpAnswer | null>();
	const remember = (call: NodeCall, answer: HttpAnswer) => refused.set(call, answer.status === 403 ? answer : null);

	/** A 403 names every call of this node that is refused, asking the other one once when its answer is unknown. */
	async function forbidden(call: NodeCall, signal: AbortSignal): Promise<SourceFailure> {
		const other: NodeCall = call === 'node' ? 'proxy' : 'node';
		if (!refused.has(other)) {
			// Only a 403 counts: any other outcome leaves the other call's right unknown, and the refusal in hand stands.
			await calls.get(paths[other], other === 'node' ? json : metricsAccept, signal).then(
				(probe) => remember(other, probe),
				(error: unknown) => {
					if (signal.aborted) throw error;
				},
			);
		}

		const refusedAnswers = (['node', 'proxy'] as const).flatMap((each) => {
			const answer = refused.get(each);
			return answer ? [{each, answer}] : [];
		});
		const refusedCalls = refusedAnswers.map(({each}) => each);
		const refusals: Refusal[] = refusedAnswers.map(({each, answer}) => ({answer, rule: rules[each]}));
		const action = `get ${refusedCalls.map((each) => rules[each].resource).join(' and ')} on node "${name}"`;
		const notes = refusedCalls.includes('proxy') ? [proxyNote] : [];
		return calls.guard(forbiddenFailure(peer, refusals, action, notes, server.transport.secrets()));
	}

	async function fetch(call: NodeCall, accept: string, signal: AbortSignal): Promise<HttpAnswer> {
		const path = paths[call];
		const answer = await calls.get(path, accept, signal, call === 'proxy' ? cutToPlegLines : undefined);
		remember(call, answer);
		if (answer.status === 200) return answer;
		if (answer.status === 403) throw await forbidden(call, signal);
		if (isNodeNotFound(answer)) {
			// The peer of an API server's connection is the API server's.
			const apiPeer = peer as Extract<Peer, {kind: 'api-server'}>; // the API server's peer
			const names = await namesForNotFound(calls, signal);
			throw calls.guard(notFoundFailure(answer, apiPeer, name, names, server.transport.secrets()));
		}

		throw calls.classify(answer, {path, rule: rules[call], proxiedNode: call === 'proxy' ? name : undefined});
	}

	return {paths, fetch};
}

/** One node's source through the API server: its metrics (dated), its Node object and its Events. */
function nodeSource(server: Connection, name: string, held: string): NodeSource {
	const {calls, peer, loaded} = server;
	const {paths, fetch} = nodeCalls(server, name, held);

	async function fetchMetricsDated(signal: AbortSignal): Promise<MetricsAnswer> {
		const answer = await fetch('proxy', metricsAccept, signal);
		const html = htmlInsteadOfMetrics(answer, peer, server.transport.secrets());
		if (html !== null) throw calls.guard(html);
		return {text: answer.body, dateSeconds: dateHeaderSeconds(answer.headers)};
	}

	async function fetchNode(signal: AbortSignal): Promise<NodeInfo> {
		const answer = await fetch('node', json, signal);
		let info: NodeInfo;
		try {
			info = nodeInfoFromJson(answer.body, name);
		} catch (error) {
			throw calls.guard(
				sourceFailure('parse', `the Node object for "${name}" from ${loaded.server} could not be read${malformedWhy(error)}`, [
					`request: GET ${paths.node}`,
					'expected v1 Node JSON',
				]),
			);
		}

		// Counted only while NotReady: that is when the eviction horizon needs it, and an idle node costs nothing.
		return info.ready && info.ready.status !== 'True' ? {...info, pods: await countPods(calls, held, signal)} : info;
	}

	return {
		label: `${name} via ${server.where}`,
		metricsUrl: `${loaded.server.replace(/\/$/, '')}${paths.proxy}`,
		node: name,
		notes: server.notes,
		async fetchMetrics(signal) {
			return (await fetchMetricsDated(signal)).text;
		},
		fetchMetricsDated,
		fetchNode,
		async fetchEvents(signal) {
			try {
				return await readEvents(calls, held, name, signal);
			} catch (error) {
				if (error instanceof SourceFailure) return {events: [], error: error.failure};
				throw error;
			}
		},
	};
}
