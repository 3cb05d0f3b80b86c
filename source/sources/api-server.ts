// The kubelet's /metrics through the API server's node proxy, the Node object and the node's Events. Auth and
// TLS come from the kubeconfig through client-node (kube/credentials.ts); requests go through the one transport.
import type {MetricsAnswer, MetricsSource, NodeEvent, NodeEvents, NodeInfo, PodCount} from '../domain/types.js';
import {maxPodPages, podListAccept, podListPath, podPageFromJson} from './pod-count.js';
import {
	classifyAnswer,
	forbiddenFailure,
	htmlInsteadOfMetrics,
	isNodeNotFound,
	notFoundFailure,
	type Call,
	type NodeNames,
	type Peer,
	type Refusal,
	type Rule,
} from './http/classify.js';
import {createTransport, transportWarnings} from './http/transport.js';
import type {BodyReader} from './http/body-text.js';
import type {HttpAnswer} from './http/https-request.js';
import {dateHeaderSeconds} from './http/date-header.js';
import {cutToPlegLines} from '../domain/exposition/parse.js';
import {sendsToken} from './http/flag-auth.js';
import {kubeconfigAuth} from './kube/credentials.js';
import {kubectlTargetOf, type LoadedKubeconfig} from './kube/kubeconfig.js';
import {kubectlCommand} from '../domain/next-steps.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import {eventPageFromJson, newestEvents, type EventPage} from './node-events.js';
import {nodeInfoFromJson, nodeInfosFromJson, nodeNamesFromJson} from './node-info.js';

export type ApiServerSourceOptions = {
	loaded: LoadedKubeconfig;
	node: string;
	/** Limit for each request (connect to last body byte), ms. */
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** How long resolved credentials are reused before asking client-node again, ms. @default 60000 */
	credentialTtlMs?: number;
	/** The engine's clock, ms: ages the credential cache. */
	now: () => number;
};

/** One node through the API server: its metrics, its Node object and its Events. */
export type NodeSource = MetricsSource & {
	fetchNode(signal: AbortSignal): Promise<NodeInfo>;
	fetchEvents(signal: AbortSignal): Promise<NodeEvents>;
};

export type ApiServerSource = NodeSource & {
	/** Names of all nodes (for the not-found message). Throws SourceFailure 'forbidden' when listing is not allowed. */
	listNodeNames(signal: AbortSignal): Promise<string[]>;
	/** Every Node object (GET /api/v1/nodes, 500 a page), for the overview. Throws SourceFailure (403 names `list` on `nodes`). */
	/** Every node, or those matching a label selector (-l, as kubectl's: `pool=gpu,zone!=a`). */
	listNodes: (signal: AbortSignal, selector?: string) => Promise<NodeInfo[]>;
	/**
	 * The same source for another node: shares this source's credentials and its one keep-alive agent, so the
	 * overview polls every node over the same few connections. `close` of the result does nothing (the parent owns the agent).
	 */
	forNode: (node: string) => NodeSource;
	close(): void;
};

const metricsAccept = 'text/plain;version=0.0.4';
// Metadata only: the names are all pleg-top needs, and a full NodeList of a large cluster is megabytes.
const listAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const json = 'application/json';
/** Events read a page at a time, at most this many pages (kube-apiserver keeps an Event 1 h by default: 2000 in an hour is a flood). */
const eventPageSize = 500;
const eventPages = 4;

/** The RBAC rule behind each call. */
const rules = {
	node: {verb: 'get', resource: 'nodes'},
	proxy: {verb: 'get', resource: 'nodes/proxy'},
	list: {verb: 'list', resource: 'nodes'},
	// Every recorder files a Node's Events in "default" (a Node has no namespace of its own), so a Role there is enough.
	events: {verb: 'list', resource: 'events', namespace: 'default'},
} as const satisfies Record<string, Rule>;

const proxyNote =
	'note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server';

/** The Node object and the metrics proxy, the two calls the one-node screen needs: a 403 on one asks after the other. */
type NodeCall = 'node' | 'proxy';

export function createApiServerSource(options: ApiServerSourceOptions): ApiServerSource {
	const {loaded, node} = options;
	const auth = kubeconfigAuth(loaded, {ttlMs: options.credentialTtlMs ?? 60_000, now: options.now, requestTimeoutMs: options.timeoutMs});
	const peer: Peer = {kind: 'api-server', url: loaded.server, loaded};
	const transport = createTransport({peer, auth, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes});
	const warnings = transportWarnings(loaded.server, {
		insecureSkipTlsVerify: loaded.kubeConfig.getCluster(loaded.clusterName)?.skipTLSVerify === true,
		insecureBy: `insecure-skip-tls-verify of cluster "${loaded.clusterName}" in ${loaded.origins.cluster}`,
		sendsToken: sendsToken({loaded}),
	});

	function guard(failure: SourceFailure): SourceFailure {
		// Defence in depth: whatever built the text, no known credential leaves this module.
		return new SourceFailure(redactFailure(failure.failure, transport.secrets()));
	}

	async function get(path: string, accept: string, signal: AbortSignal, readBody?: BodyReader): Promise<HttpAnswer> {
		return transport.get(path, {Accept: accept}, signal, readBody).catch((error) => {
			throw error instanceof SourceFailure ? guard(error) : error;
		});
	}

	// A listed name is shown in its visible form (untrusted-text.ts); one that had controls is still addressed by
	// the name the API server holds.
	const heldNames = new Map<string, string>();

	const classify = (answer: HttpAnswer, call: Call) => guard(classifyAnswer(answer, peer, call, transport.secrets()));

	async function listNodeNames(signal: AbortSignal): Promise<string[]> {
		const path = '/api/v1/nodes?limit=500';
		const answer = await get(path, listAccept, signal);
		if (answer.status !== 200) {
			throw classify(answer, {path, rule: rules.list, action: 'list nodes'});
		}

		try {
			return nodeNamesFromJson(answer.body);
		} catch {
			throw guard(sourceFailure('parse', `the node list from ${loaded.server} is not JSON`, [`request: GET ${path}`]));
		}
	}

	async function namesForNotFound(signal: AbortSignal): Promise<NodeNames> {
		try {
			return {names: await listNodeNames(signal)};
		} catch (error) {
			if (error instanceof SourceFailure) {
				return error.failure.kind === 'forbidden' ? {forbidden: true} : {error: error.failure.summary};
			}

			throw error;
		}
	}

	async function listNodes(signal: AbortSignal, selector?: string): Promise<NodeInfo[]> {
		const labels = selector === undefined ? '' : `&labelSelector=${encodeURIComponent(selector)}`;
		const nodes: NodeInfo[] = [];
		let continueToken: string | null = null;
		do {
			const path: string = `/api/v1/nodes?limit=500${labels}${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
			const answer = await get(path, json, signal);
			if (answer.status !== 200) {
				throw classify(answer, {
					path,
					rule: rules.list,
					action: 'list nodes',
					// All that the overview needs, not only what was refused first.
					forbiddenNotes: [
						`the overview then reads each node through get on nodes/proxy: check: ${kubectlCommand(kubectlTargetOf(loaded), ['auth', 'can-i', 'get', 'nodes/proxy'])}`,
					],
				});
			}

			try {
				const page = nodeInfosFromJson(answer.body);
				nodes.push(...page.nodes);
				for (const [shown, heldName] of page.addresses) heldNames.set(shown, heldName);
				continueToken = page.continueToken;
			} catch {
				throw guard(
					sourceFailure('parse', `the node list from ${loaded.server} could not be read`, [
						`request: GET ${path}`,
						'expected v1 NodeList JSON',
					]),
				);
			}
		} while (continueToken !== null);

		return nodes;
	}

	function nodeSource(name: string): NodeSource {
		const held = heldNames.get(name) ?? name;
		/** The pods bound to the node, or why not: a refusal or failure is said, never thrown (they are context). */
		async function countPods(signal: AbortSignal): Promise<PodCount> {
			let count = 0;
			let continueToken: string | null = null;
			try {
				for (let page = 0; page < maxPodPages; page++) {
					const path = podListPath(held, continueToken);
					const answer = await get(path, podListAccept, signal);
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
				return {count: null, error: error instanceof SourceFailure ? error.failure.summary : 'the pod list could not be read'};
			}
		}

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
				await get(paths[other], other === 'node' ? json : metricsAccept, signal).then(
					(probe) => remember(other, probe),
					(error: unknown) => {
						if (signal.aborted) throw error;
					},
				);
			}

			const calls = (['node', 'proxy'] as const).filter((each) => refused.get(each));
			const refusals: Refusal[] = calls.map((each) => ({answer: refused.get(each)!, rule: rules[each]}));
			const action = `get ${calls.map((each) => rules[each].resource).join(' and ')} on node "${name}"`;
			return guard(forbiddenFailure(peer, refusals, action, calls.includes('proxy') ? [proxyNote] : [], transport.secrets()));
		}

		async function fetch(call: NodeCall, accept: string, signal: AbortSignal): Promise<HttpAnswer> {
			const path = paths[call];
			const answer = await get(path, accept, signal, call === 'proxy' ? cutToPlegLines : undefined);
			remember(call, answer);
			if (answer.status === 200) {
				return answer;
			}

			if (answer.status === 403) {
				throw await forbidden(call, signal);
			}

			if (isNodeNotFound(answer)) {
				throw guard(
					notFoundFailure(answer, peer as Extract<Peer, {kind: 'api-server'}>, name, await namesForNotFound(signal), transport.secrets()),
				);
			}

			throw classify(answer, {path, rule: rules[call], proxiedNode: call === 'proxy' ? name : undefined});
		}

		async function fetchMetricsDated(signal: AbortSignal): Promise<MetricsAnswer> {
			const answer = await fetch('proxy', metricsAccept, signal);
			const html = htmlInsteadOfMetrics(answer, peer, transport.secrets());
			if (html !== null) {
				throw guard(html);
			}

			return {text: answer.body, dateSeconds: dateHeaderSeconds(answer.headers)};
		}

		return {
			label: `${name} via ${loaded.server}${warnings.labelSuffix}`,
			metricsUrl: `${loaded.server.replace(/\/$/, '')}${paths.proxy}`,
			node: name,
			notes: warnings.notes,
			async fetchMetrics(signal) {
				return (await fetchMetricsDated(signal)).text;
			},
			fetchMetricsDated,
			async fetchNode(signal) {
				const answer = await fetch('node', json, signal);
				let info: NodeInfo;
				try {
					info = nodeInfoFromJson(answer.body, name);
				} catch {
					throw guard(
						sourceFailure('parse', `the Node object for "${name}" from ${loaded.server} could not be read`, [
							`request: GET ${paths.node}`,
							'expected v1 Node JSON',
						]),
					);
				}

				// Counted only while NotReady: that is when the eviction horizon needs it, and an idle node costs nothing.
				return info.ready && info.ready.status !== 'True' ? {...info, pods: await countPods(signal)} : info;
			},
			async fetchEvents(signal) {
				try {
					return await readEvents(held, name, signal);
				} catch (error) {
					if (error instanceof SourceFailure) {
						return {events: [], error: error.failure};
					}

					throw error;
				}
			},
		};
	}

	/**
	 * The node's Events, page by page: the API server lists them by name, not by time, so the newest can be on any
	 * page. At most eventPages pages of eventPageSize: past that the total is a lower bound, and says so.
	 */
	async function readEvents(held: string, name: string, signal: AbortSignal): Promise<NodeEvents> {
		// What `kubectl describe node` shows under Events: no uid in the selector, so both the kubelet's
		// Events (uid = node name) and the node controller's (uid = the Node's uid) come back.
		const selector = encodeURIComponent(`involvedObject.kind=Node,involvedObject.name=${held}`);
		const first = `/api/v1/namespaces/default/events?fieldSelector=${selector}&limit=${eventPageSize}`;
		let newest: NodeEvent[] = [];
		let total = 0;
		let continueToken: string | null = null;
		let pages = 0;
		do {
			const path: string = continueToken === null ? first : `${first}&continue=${encodeURIComponent(continueToken)}`;
			const answer = await get(path, json, signal);
			if (answer.status !== 200) {
				throw classify(answer, {
					path: first,
					rule: rules.events,
					action: 'list events in namespace "default"',
					forbiddenNotes: ["only the node's Events are missing: the PLEG figures do not need this right"],
				});
			}

			let page: EventPage;
			try {
				page = eventPageFromJson(answer.body);
			} catch {
				throw guard(
					sourceFailure('parse', `the Events of node "${name}" from ${loaded.server} could not be read`, [
						`request: GET ${path}`,
						'expected v1 EventList JSON',
					]),
				);
			}

			// Only the newest are kept between pages, so a flood costs one page of memory.
			newest = newestEvents([...newest, ...page.events]);
			total += page.events.length;
			continueToken = page.continueToken;
			pages++;
		} while (continueToken !== null && pages < eventPages);

		return {events: newest, error: null, total: {count: total, atLeast: continueToken !== null}};
	}

	return {
		...nodeSource(node),
		listNodeNames,
		listNodes,
		forNode: nodeSource,
		close() {
			transport.close();
		},
	};
}
