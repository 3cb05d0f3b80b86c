// The kubelet's /metrics through the API server's node proxy. Auth and TLS come from client-node
// (applyToHTTPSOptions); the request goes through one keep-alive agent of our own, because the library's
// request helper costs about three times as much CPU per scrape (practice.md, measured costs).
import http from 'node:http';
import https from 'node:https';
import type {MetricsSource, NodeInfo} from '../domain/types.js';
import {
	classifyAnswer,
	classifyRequestError,
	htmlInsteadOfMetrics,
	isNodeNotFound,
	notFoundFailure,
	type FailureContext,
	type NodeNames,
	type Target,
} from './http/classify.js';
import {createCredentials, type RequestAuth} from './kube/credentials.js';
import {getText, StaleSocketError, type HttpAnswer} from './http/https-request.js';
import type {LoadedKubeconfig} from './kube/kubeconfig.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import {nodeInfoFromJson, nodeInfosFromJson, nodeNamesFromJson} from './node-info.js';

export type ApiServerSourceOptions = {
	loaded: LoadedKubeconfig;
	node: string;
	/** Limit for each request (connect to last body byte), ms. */
	timeoutMs: number;
	/** How long resolved credentials are reused before asking client-node again, ms. @default 60000 */
	credentialTtlMs?: number;
};

export type ApiServerSource = MetricsSource & {
	fetchNode(signal: AbortSignal): Promise<NodeInfo>;
	/** Names of all nodes (for the not-found message). Throws SourceFailure 'forbidden' when listing is not allowed. */
	listNodeNames(signal: AbortSignal): Promise<string[]>;
	/** Every Node object (GET /api/v1/nodes, 500 a page), for the overview. Throws SourceFailure (403 names `list` on `nodes`). */
	listNodes(signal: AbortSignal): Promise<NodeInfo[]>;
	/**
	 * The same source for another node: shares this source's credentials and its one keep-alive agent, so the
	 * overview polls every node over the same few connections. `close` of the result does nothing (the parent owns the agent).
	 */
	forNode(node: string): MetricsSource & {fetchNode(signal: AbortSignal): Promise<NodeInfo>};
	close(): void;
};

const metricsAccept = 'text/plain;version=0.0.4';
// Metadata only: the names are all pleg-top needs, and a full NodeList of a large cluster is megabytes.
const listAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const userAgent = 'pleg-top';

/** One keep-alive agent, rebuilt only when the TLS material changes (an exec plugin can return a new client cert). */
function createAgentKeeper(server: URL) {
	let current: {agent: http.Agent; key: string} | null = null;
	const text = (value: unknown) => (value === undefined ? '' : String(value));
	return {
		agentFor(auth: RequestAuth): http.Agent {
			if (auth.proxyAgent) {
				return auth.proxyAgent;
			}

			const {tls} = auth;
			const key = [tls.ca, tls.cert, tls.key, tls.rejectUnauthorized, tls.servername].map(text).join('\u0000');
			if (current?.key !== key) {
				current?.agent.destroy();
				const agent = server.protocol === 'http:' ? new http.Agent({keepAlive: true}) : new https.Agent({keepAlive: true, ...tls});
				current = {agent, key};
			}

			return current.agent;
		},
		destroy() {
			current?.agent.destroy();
			current = null;
		},
	};
}

function encodeNode(node: string): string {
	return encodeURIComponent(node);
}

export function createApiServerSource(options: ApiServerSourceOptions): ApiServerSource {
	const {loaded, node, timeoutMs} = options;
	const server = new URL(loaded.server);
	const credentials = createCredentials(loaded, {ttlMs: options.credentialTtlMs ?? 60_000, now: () => Date.now()});
	const agents = createAgentKeeper(server);
	// Keep any path prefix of the server URL (Rancher and other proxies serve the API under one).
	const base = loaded.server.replace(/\/$/, '');

	function context(target: Target, path: string, forNode = node): FailureContext {
		return {loaded, node: forNode, target, path, timeoutMs, secrets: credentials.secrets()};
	}

	async function send(auth: RequestAuth, path: string, accept: string, signal: AbortSignal): Promise<HttpAnswer> {
		const headers = {...auth.headers, Accept: accept, 'Accept-Encoding': 'gzip', 'User-Agent': userAgent};
		const request = () => getText({url: new URL(base + path), agent: agents.agentFor(auth), headers, timeoutMs, signal});
		// A GET that never reached the server is sent once more on a fresh connection.
		return request().catch(async (error: unknown) => {
			if (error instanceof StaleSocketError) {
				return request();
			}

			throw error;
		});
	}

	async function get(target: Target, path: string, accept: string, signal: AbortSignal, forNode = node): Promise<HttpAnswer> {
		try {
			let answer = await send(await credentials.get(), path, accept, signal);
			// kubectl drops cached exec/token-file credentials on a 401 and tries once more.
			if (answer.status === 401 && credentials.canRefresh) {
				answer = await send(await credentials.refresh(), path, accept, signal);
			}

			return answer;
		} catch (error) {
			if (signal.aborted || error instanceof SourceFailure) {
				throw error;
			}

			throw classifyRequestError(error, context(target, path, forNode));
		}
	}

	function guard(failure: SourceFailure): SourceFailure {
		// Defence in depth: whatever built the text, no known credential leaves this module.
		return new SourceFailure(redactFailure(failure.failure, credentials.secrets()));
	}

	async function listNodeNames(signal: AbortSignal): Promise<string[]> {
		const path = '/api/v1/nodes?limit=500';
		try {
			const answer = await get('list', path, listAccept, signal);
			if (answer.status !== 200) {
				throw classifyAnswer(answer, context('list', path));
			}

			return nodeNamesFromJson(answer.body);
		} catch (error) {
			if (error instanceof SyntaxError) {
				throw guard(sourceFailure('parse', `the node list from ${loaded.server} is not JSON`, [`request: GET ${path}`]));
			}

			throw error instanceof SourceFailure ? guard(error) : error;
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

	async function failFor(answer: HttpAnswer, target: Target, path: string, signal: AbortSignal, forNode = node): Promise<never> {
		if (isNodeNotFound(answer)) {
			throw guard(notFoundFailure(answer, context(target, path, forNode), await namesForNotFound(signal)));
		}

		throw guard(classifyAnswer(answer, context(target, path, forNode)));
	}

	async function listNodes(signal: AbortSignal): Promise<NodeInfo[]> {
		const nodes: NodeInfo[] = [];
		let continueToken: string | null = null;
		do {
			const path: string = `/api/v1/nodes?limit=500${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
			const answer = await get('list', path, 'application/json', signal).catch(error => {
				throw error instanceof SourceFailure ? guard(error) : error;
			});
			if (answer.status !== 200) {
				throw guard(classifyAnswer(answer, context('list', path)));
			}

			try {
				const page = nodeInfosFromJson(answer.body);
				nodes.push(...page.nodes);
				continueToken = page.continueToken;
			} catch {
				throw guard(sourceFailure('parse', `the node list from ${loaded.server} could not be read`, [`request: GET ${path}`, 'expected v1 NodeList JSON']));
			}
		} while (continueToken !== null);

		return nodes;
	}

	function nodeSource(name: string): MetricsSource & {fetchNode(signal: AbortSignal): Promise<NodeInfo>} {
		return {
			label: `${name} via ${loaded.server}`,
			node: name,
			async fetchMetrics(signal) {
				const path = `/api/v1/nodes/${encodeNode(name)}/proxy/metrics`;
				const answer = await get('metrics', path, metricsAccept, signal, name).catch(error => {
					throw error instanceof SourceFailure ? guard(error) : error;
				});
				if (answer.status !== 200) {
					return failFor(answer, 'metrics', path, signal, name);
				}

				const html = htmlInsteadOfMetrics(answer, context('metrics', path, name));
				if (html !== null) {
					throw guard(html);
				}

				return answer.body;
			},
			async fetchNode(signal) {
				const path = `/api/v1/nodes/${encodeNode(name)}`;
				const answer = await get('node', path, 'application/json', signal, name).catch(error => {
					throw error instanceof SourceFailure ? guard(error) : error;
				});
				if (answer.status !== 200) {
					return failFor(answer, 'node', path, signal, name);
				}

				try {
					return nodeInfoFromJson(answer.body, name);
				} catch {
					throw guard(sourceFailure('parse', `the Node object for "${name}" from ${loaded.server} could not be read`, [`request: GET ${path}`, 'expected v1 Node JSON']));
				}
			},
		};
	}

	return {
		...nodeSource(node),
		listNodeNames,
		listNodes,
		forNode: nodeSource,
		close() {
			agents.destroy();
		},
	};
}
