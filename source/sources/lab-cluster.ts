// The lab's writes to the cluster and the reads it plans with, through the kubeconfig's credentials: the Node
// (hostname label, taints, allocatable pods), SelfSubjectAccessReviews, the namespace and the Deployment, the
// scale subresource, a watch of the Deployment's pods, and the namespace's deletion. JSON in and out; the answers
// are checked at the boundary. The only module of the lab that does network I/O.
import http from 'node:http';
import https from 'node:https';
import * as v from 'valibot';
import type {AccessCheck, LabNode} from '../domain/lab/lab-plan.js';
import {labPodOf, type LabPod} from '../domain/lab/lab-pods.js';
import {visibleLine} from '../domain/text/untrusted-text.js';
import type {LoadedKubeconfig} from './kube/kubeconfig.js';
import {kubeconfigAuth} from './kube/credentials.js';
import {redact, sourceFailure, SourceFailure} from './failure.js';
import type {FailureKind} from '../domain/types.js';
import {messageOf} from '../domain/text/thrown.js';

/** A watch event as the lab uses it: the pod as it is now, or gone. */
export type PodChange = {type: 'upsert'; pod: LabPod} | {type: 'delete'; name: string} | {type: 'reset'; pods: LabPod[]};

/** What the lab asks of the cluster: the HTTP implementation here, the demo's in demo/. */
export type LabCluster = {
	/** "https://10.0.0.1:6443" or "the demo's simulated cluster". */
	readonly where: string;
	readNode(signal: AbortSignal): Promise<LabNode>;
	/** Pods bound to the node, every namespace. */
	podsOnNode(signal: AbortSignal): Promise<number>;
	/** Each check's answer: allowed, and the authorizer's reason when it says one. */
	review(checks: readonly AccessCheck[], signal: AbortSignal): Promise<Array<{allowed: boolean; reason: string | null}>>;
	/** The namespace's labels and phase; null when there is none. */
	namespace(signal: AbortSignal): Promise<{labels: Record<string, string>; phase: string | null} | null>;
	createNamespace(manifest: object, signal: AbortSignal): Promise<void>;
	createDeployment(manifest: object, signal: AbortSignal): Promise<void>;
	scale(replicas: number, signal: AbortSignal): Promise<void>;
	/** Why the Deployment makes no pods (its ReplicaFailure condition: a quota, a refused pod), else null. */
	deploymentProblem(signal: AbortSignal): Promise<string | null>;
	/**
	 * Follows the Deployment's pods (every node: an unscheduled pod has none) until `signal` aborts: a `reset` with the
	 * list first (and after a 410 or a watch the server ended), then each change. Rejects on a failure it cannot mend.
	 */
	watchPods(labelSelector: string, onChange: (change: PodChange) => void, signal: AbortSignal): Promise<void>;
	/** DELETE the namespace (a 404 is fine: already gone). */
	deleteNamespace(signal: AbortSignal): Promise<void>;
	close(): void;
};

/** A failed request: `transient` when trying again may mend it (no answer, 429, 5xx). */
export class LabRequestError extends SourceFailure {
	readonly status: number | null;
	readonly transient: boolean;
	constructor(kind: FailureKind, summary: string, details: string[], status: number | null) {
		super({kind, summary, details});
		this.status = status;
		this.transient = status === null || status === 429 || status >= 500;
	}
}

type Answer = {status: number; body: string};

const statusSchema = v.object({message: v.optional(v.string()), reason: v.optional(v.string())});
const nodeSchema = v.object({
	metadata: v.object({name: v.string(), labels: v.optional(v.record(v.string(), v.string()))}),
	spec: v.optional(v.object({taints: v.optional(v.array(v.object({key: v.string(), value: v.optional(v.string()), effect: v.string()})))})),
	status: v.optional(
		v.object({
			allocatable: v.optional(v.record(v.string(), v.string())),
			nodeInfo: v.optional(v.object({kubeletVersion: v.optional(v.string())})),
		}),
	),
});
const listSchema = v.object({
	metadata: v.optional(v.object({resourceVersion: v.optional(v.string()), continue: v.optional(v.string())})),
	items: v.array(v.unknown()),
});
const namespaceSchema = v.object({
	metadata: v.object({labels: v.optional(v.record(v.string(), v.string()))}),
	status: v.optional(v.object({phase: v.optional(v.string())})),
});
const deploymentSchema = v.object({
	status: v.optional(
		v.object({
			conditions: v.optional(
				v.array(v.object({type: v.string(), status: v.string(), reason: v.optional(v.string()), message: v.optional(v.string())})),
			),
		}),
	),
});
const reviewSchema = v.object({status: v.optional(v.object({allowed: v.optional(v.boolean()), reason: v.optional(v.string())}))});
const watchEventSchema = v.object({type: v.string(), object: v.optional(v.unknown())});

export type LabClusterOptions = {loaded: LoadedKubeconfig; node: string; namespace: string; timeoutMs: number; now: () => number};

/** The requests of the lab: JSON to the API server with the kubeconfig's credentials, over one keep-alive agent. */
function labRequests(options: LabClusterOptions) {
	const {loaded} = options;
	const auth = kubeconfigAuth(loaded, {ttlMs: 60_000, now: options.now, requestTimeoutMs: options.timeoutMs});
	const base = loaded.server.replace(/\/$/, '');
	const agent = base.startsWith('http:') ? new http.Agent({keepAlive: true}) : null;
	let tlsAgent: https.Agent | null = null;

	async function send(
		method: string,
		path: string,
		body: unknown,
		signal: AbortSignal,
		contentType = 'application/json',
		onLine?: (line: string) => void,
	): Promise<Answer> {
		const credentials = await auth.get();
		const url = new URL(base + path);
		tlsAgent ??= url.protocol === 'https:' ? new https.Agent({keepAlive: true, ...credentials.tls}) : null;
		const payload = body === undefined ? undefined : JSON.stringify(body);
		return requestText({
			url,
			method,
			agent: credentials.proxyAgent ?? agent ?? tlsAgent!, // set for https
			headers: {
				'User-Agent': 'pleg-top',
				Accept: 'application/json',
				...credentials.headers,
				...(payload === undefined ? {} : {'Content-Type': contentType}),
			},
			payload,
			timeoutMs: options.timeoutMs,
			signal,
			onLine,
		}).catch((error: unknown) => {
			if (signal.aborted) throw error;
			throw new LabRequestError('network', `${method} ${path} failed: ${redact(messageOf(error), auth.secrets())}`, [], null);
		});
	}

	/** The answer when its status is one of `ok`, else a LabRequestError that quotes the server's Status message. */
	async function call(
		method: string,
		path: string,
		ok: number[],
		signal: AbortSignal,
		body?: unknown,
		contentType?: string,
	): Promise<Answer> {
		const answer = await send(method, path, body, signal, contentType);
		if (ok.includes(answer.status)) return answer;
		throw failureOf(method, path, answer, () => auth.secrets());
	}

	return {
		base,
		send,
		call,
		secrets: () => auth.secrets(),
		close: () => {
			agent?.destroy();
			tlsAgent?.destroy();
		},
	};
}

export function createLabCluster(options: LabClusterOptions): LabCluster {
	const {node, namespace} = options;
	const {base, send, call, secrets, close} = labRequests(options);
	const ns = encodeURIComponent(namespace);
	const podsPath = `/api/v1/namespaces/${ns}/pods`;
	return {
		where: base,
		async readNode(signal) {
			const answer = await call('GET', `/api/v1/nodes/${encodeURIComponent(node)}`, [200], signal);
			return labNodeOf(parse(nodeSchema, answer.body, 'the Node'), node);
		},
		async podsOnNode(signal) {
			const path = `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${node}`)}`;
			const answer = await call('GET', path, [200], signal);
			return parse(listSchema, answer.body, 'the pod list').items.length;
		},
		async review(checks, signal) {
			return Promise.all(
				checks.map(async (check) => {
					const body = {apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: {resourceAttributes: check}};
					const answer = await call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', [200, 201], signal, body);
					const status = parse(reviewSchema, answer.body, 'the SelfSubjectAccessReview').status;
					return {allowed: status?.allowed === true, reason: status?.reason ? visibleLine(status.reason) : null};
				}),
			);
		},
		async namespace(signal) {
			const answer = await call('GET', `/api/v1/namespaces/${ns}`, [200, 404], signal);
			if (answer.status === 404) return null;
			const parsed = parse(namespaceSchema, answer.body, 'the Namespace');
			return {labels: parsed.metadata.labels ?? {}, phase: parsed.status?.phase ?? null};
		},
		async createNamespace(manifest, signal) {
			await call('POST', '/api/v1/namespaces', [200, 201], signal, manifest);
		},
		async createDeployment(manifest, signal) {
			await call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, [200, 201], signal, manifest);
		},
		async scale(replicas, signal) {
			const path = `/apis/apps/v1/namespaces/${ns}/deployments/churn/scale`;
			await call('PATCH', path, [200], signal, {spec: {replicas}}, 'application/merge-patch+json');
		},
		async deploymentProblem(signal) {
			const answer = await call('GET', `/apis/apps/v1/namespaces/${ns}/deployments/churn`, [200], signal);
			const conditions = parse(deploymentSchema, answer.body, 'the Deployment').status?.conditions ?? [];
			const failure = conditions.find((condition) => condition.type === 'ReplicaFailure' && condition.status === 'True');
			return failure ? visibleLine(`${failure.reason ?? 'ReplicaFailure'}: ${failure.message ?? ''}`) : null;
		},
		watchPods: async (selector, onChange, signal) => watchLoop({call, send, podsPath, selector, onChange, signal, secrets}),
		async deleteNamespace(signal) {
			await call('DELETE', `/api/v1/namespaces/${ns}`, [200, 202, 404], signal);
		},
		close,
	};
}

function labNodeOf(json: v.InferOutput<typeof nodeSchema>, name: string): LabNode {
	const pods = json.status?.allocatable?.['pods'];
	return {
		name,
		hostname: json.metadata.labels?.['kubernetes.io/hostname'] ?? null,
		taints: json.spec?.taints ?? [],
		allocatablePods: pods !== undefined && /^\d+$/.test(pods) ? Number(pods) : null,
		kubeletVersion: json.status?.nodeInfo?.kubeletVersion ?? null,
	};
}

function parse<S extends v.GenericSchema>(schema: S, body: string, what: string): v.InferOutput<S> {
	let json: unknown;
	try {
		json = JSON.parse(body);
	} catch {
		throw sourceFailure('parse', `${what} from the API server is not JSON`);
	}

	const result = v.safeParse(schema, json);
	if (!result.success) throw sourceFailure('parse', `${what} from the API server is not the object expected`);
	return result.output;
}

function failureOf(method: string, path: string, answer: Answer, secrets: () => string[]): LabRequestError {
	let message: string | undefined;
	try {
		message = v.parse(statusSchema, JSON.parse(answer.body)).message;
	} catch {
		message = undefined;
	}

	const kind: FailureKind =
		answer.status === 401 ? 'unauthorized' : answer.status === 403 ? 'forbidden' : answer.status === 404 ? 'not-found' : 'http';
	const said = visibleLine(redact(message ?? answer.body.slice(0, 200), secrets()));
	return new LabRequestError(kind, `${method} ${path}: ${answer.status}${said ? ` ${said}` : ''}`, [], answer.status);
}

type WatchContext = {
	call: (method: string, path: string, ok: number[], signal: AbortSignal) => Promise<Answer>;
	send: (
		method: string,
		path: string,
		body: unknown,
		signal: AbortSignal,
		contentType: string,
		onLine: (line: string) => void,
	) => Promise<Answer>;
	podsPath: string;
	selector: string;
	onChange: (change: PodChange) => void;
	signal: AbortSignal;
	secrets: () => string[];
};

/** List, then watch from the list's resourceVersion; again from a list after a 410 or when the server ends the watch. */
async function watchLoop(context: WatchContext): Promise<void> {
	const {podsPath, selector, onChange, signal} = context;
	const query = `labelSelector=${encodeURIComponent(selector)}`;
	while (!signal.aborted) {
		const listed = await context.call('GET', `${podsPath}?${query}`, [200], signal);
		const list = parse(listSchema, listed.body, 'the pod list');
		onChange({type: 'reset', pods: list.items.map(labPodOf).filter((pod): pod is LabPod => pod !== null)});
		const version = list.metadata?.resourceVersion ?? '';
		const path = `${podsPath}?${query}&watch=true&allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=${encodeURIComponent(version)}`;
		await streamWatch(context, path);
	}
}

/** One watch request, each JSON line handed on as it comes; returns when the server ends it or asks for a relist. */
async function streamWatch(context: WatchContext, path: string): Promise<void> {
	const {onChange} = context;
	let gone = false;
	const onLine = (line: string) => {
		if (line.trim() === '' || gone) return;
		let event: v.InferOutput<typeof watchEventSchema>;
		try {
			event = v.parse(watchEventSchema, JSON.parse(line));
		} catch {
			return;
		}

		if (event.type === 'ERROR') {
			gone = true;
			return;
		}

		const pod = labPodOf(event.object);
		if (!pod) return;
		if (event.type === 'DELETED') onChange({type: 'delete', name: pod.name});
		else if (event.type === 'ADDED' || event.type === 'MODIFIED') onChange({type: 'upsert', pod});
	};

	const status = await streamLines(context, path, onLine);
	if (status !== 200 && status !== 410) throw new LabRequestError('http', `watch of the lab's pods: ${status}`, [], status);
}

/** GET `path` as a stream of lines; resolves with the status once the body ends (or at once when it is not 200). */
async function streamLines(context: WatchContext, path: string, onLine: (line: string) => void): Promise<number> {
	const answer = await context.send('GET', path, undefined, context.signal, 'application/json', onLine).catch((error: unknown) => {
		if (context.signal.aborted) return {status: 200, body: ''};
		throw error;
	});
	return answer.status;
}

type TextRequest = {
	url: URL;
	method: string;
	agent: http.Agent;
	headers: Record<string, string>;
	payload: string | undefined;
	timeoutMs: number;
	signal: AbortSignal;
	/** Each complete line as it arrives (a watch); the answer's body is then empty. */
	onLine?: (line: string) => void;
};

/** One request, the body read whole (at most 16 MiB); rejects on a socket error, the timeout or the signal. */
async function requestText(request: TextRequest): Promise<Answer> {
	const {url, method, agent, headers, payload, timeoutMs} = request;
	const {signal} = request;
	signal.throwIfAborted();
	return new Promise<Answer>((resolve, reject) => {
		const outgoing = (url.protocol === 'http:' ? http : https).request(url, {method, agent, headers, timeout: timeoutMs});
		const onAbort = () => {
			outgoing.destroy();
			reject(signal.reason as Error); // an abort reason is an Error
		};

		signal.addEventListener('abort', onAbort, {once: true});
		const timer = setTimeout(() => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
		const done = () => {
			clearTimeout(timer);
			signal.removeEventListener('abort', onAbort);
		};

		outgoing.on('error', (error) => {
			done();
			reject(error);
		});
		outgoing.on('response', (response) => {
			const chunks: Buffer[] = [];
			let size = 0;
			// A watch that answers 200 streams for as long as the server keeps it: no timeout on its body.
			const lines = request.onLine && response.statusCode === 200 ? lineSplitter(request.onLine) : null;
			if (lines) clearTimeout(timer);
			response.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (lines) lines.push(chunk);
				else if (size > 16 * 1024 * 1024) outgoing.destroy(new Error('answer larger than 16 MiB'));
				else chunks.push(chunk);
			});
			response.on('end', () => {
				lines?.end();
				done();
				resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')});
			});
			response.on('error', (error) => {
				done();
				reject(error);
			});
		});
		outgoing.end(payload);
	});
}

/** Bytes in, whole lines out (a line may arrive in several chunks). */
function lineSplitter(onLine: (line: string) => void): {push(chunk: Buffer): void; end(): void} {
	let pending = '';
	return {
		push(chunk) {
			pending += chunk.toString('utf8');
			const parts = pending.split('\n');
			pending = parts.pop()!; // split gives one at least
			for (const part of parts) onLine(part);
		},
		end() {
			if (pending !== '') onLine(pending);
			pending = '';
		},
	};
}
