// A loopback HTTPS server that answers like kube-apiserver for the calls pleg-top makes:
// GET /api/v1/nodes, /api/v1/nodes/NAME, /api/v1/nodes/NAME/proxy/metrics and a node's Events
// (/api/v1/namespaces/NS/events?fieldSelector=involvedObject.kind=Node,involvedObject.name=NAME), and a watch of
// the nodes (GET /api/v1/nodes?watch=true&resourceVersion=RV: JSON lines, as kube-apiserver streams them). It authenticates
// a bearer token or a client certificate signed by the test CA, answers errors with real `Status` bodies, and can
// be told to misbehave per node or globally while a test runs.
import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import type tls from 'node:tls';
import {fileURLToPath} from 'node:url';
import zlib from 'node:zlib';

const tlsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tls');

/** The test TLS material (see test/fixtures/tls/README.md), as PEM text. */
export const testTls = {
	caCert: fs.readFileSync(path.join(tlsDir, 'ca.crt'), 'utf8'),
	otherCaCert: fs.readFileSync(path.join(tlsDir, 'other-ca.crt'), 'utf8'),
	serverCert: fs.readFileSync(path.join(tlsDir, 'server.crt'), 'utf8'),
	serverKey: fs.readFileSync(path.join(tlsDir, 'server.key'), 'utf8'),
	wrongHostCert: fs.readFileSync(path.join(tlsDir, 'wrong-host.crt'), 'utf8'),
	wrongHostKey: fs.readFileSync(path.join(tlsDir, 'wrong-host.key'), 'utf8'),
	clientCert: fs.readFileSync(path.join(tlsDir, 'client.crt'), 'utf8'),
	clientKey: fs.readFileSync(path.join(tlsDir, 'client.key'), 'utf8'),
	dir: tlsDir,
};

export type FakeNode = {
	name: string;
	/** metadata.uid. @default "uid-NAME" */
	uid?: string;
	/** status.nodeInfo.kubeletVersion. @default "v1.28.4" */
	kubeletVersion?: string;
	/** The Ready condition. @default True, KubeletReady */
	ready?: {
		status: 'True' | 'False' | 'Unknown';
		reason?: string;
		message?: string;
		lastTransitionTime?: string;
		lastHeartbeatTime?: string;
	};
	/** status.nodeInfo.containerRuntimeVersion. @default "containerd://1.7.2" */
	containerRuntimeVersion?: string;
	/** The node's Events, as v1 Event fields (involvedObject is filled in); served from their namespace, default "default". */
	events?: Array<Record<string, unknown> & {namespace?: string}>;
	/** Labels besides kubernetes.io/hostname (the node list's labelSelector matches them: k=v terms only). */
	labels?: Record<string, string>;
	/** spec.taints. @default none */
	taints?: Array<{key: string; value?: string; effect: string}>;
	/** status.allocatable.pods. @default absent */
	allocatablePods?: number;
	/** Pods bound to the node (GET /api/v1/pods?fieldSelector=spec.nodeName=NAME, metadata only). @default 0 */
	pods?: number;
	/** /metrics body; called once per request with the 1-based number of metrics requests for this node. */
	metrics?: (requestNumber: number) => string | Buffer;
	/**
	 * The node's clock − the test process' clock, s: /metrics answers carry a Date header from it, as the kubelet's
	 * passes through kube-apiserver's node proxy; null: no Date at all (a hop that drops it).
	 * @default the server's own Date (this process' clock)
	 */
	clockOffsetSeconds?: number | null;
};

/** Which endpoint. */
type Route = 'list' | 'node' | 'metrics' | 'events' | 'pods' | 'watch';

export type Fault =
	/** Answer with this status and a Status body shaped like kube-apiserver's (or `message` when given), plus `headers` (e.g. Retry-After). */
	| {type: 'status'; code: number; message?: string; reason?: string; headers?: Record<string, string>}
	/** Wait before answering normally (or before the next fault in `then`). */
	| {type: 'delay'; ms: number; then?: Fault}
	/** 200 with an HTML page, as a login portal or a misrouted proxy would. */
	| {type: 'html'}
	/** 200 with this JSON body instead of the normal one (an object of another shape). */
	| {type: 'body'; body: string}
	/** 200 with only the first half of the normal body (a complete response whose content is cut). */
	| {type: 'truncated'}
	| {type: 'empty'}
	/** 200 with bytes that are not text. */
	| {type: 'binary'}
	/** Headers and half the body, then the socket is destroyed. */
	| {type: 'close-mid-body'}
	/** A whole answer that says gzip, whose gzip stream stops halfway (a proxy that cut it and fixed the length). */
	| {type: 'bad-gzip'}
	/** The socket is destroyed without any answer (a server closing an idle keep-alive connection). */
	| {type: 'destroy-socket'}
	/**
	 * 200, chunked, metric comment lines without end until the client closes; `sent` counts the bytes written (each
	 * write waits for the last to drain, so it is what the client was given) and `closed` is set once it closed.
	 */
	| {type: 'endless'; sent: {bytes: number; closed: boolean}}
	/** 200, gzip, `mebibytes` MiB of zero bytes in 1 MiB gzip members (about 1 KB each): a gzip bomb. */
	| {type: 'gzip-bomb'; mebibytes: number}
	/** 200 stating a Content-Length of `mebibytes` MiB, then 1 KiB of it, and the connection held open. */
	| {type: 'stated-length'; mebibytes: number};

type FaultScope = {route?: Route; node?: string};

export type RecordedRequest = {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** Who the fake server authenticated (token's user or client cert CN); null = anonymous. */
	user: string | null;
	status: number;
	gzipped: boolean;
	/** When the request arrived (before any delay fault), ms of the test process' clock. */
	receivedAt: number;
};

export type FakeApiServerOptions = {
	nodes: FakeNode[];
	/** Accepted bearer tokens and the user name each one authenticates as. */
	tokens?: Record<string, string>;
	/** Server certificate; @default the 127.0.0.1/localhost cert signed by the test CA. */
	cert?: string;
	key?: string;
	/** Compress /metrics when the client accepts gzip. @default true */
	gzip?: boolean;
	/** Routes served before the fake's own (the lab's writes: fake-lab-cluster.ts); true when it answered. */
	extra?: (request: http.IncomingMessage, response: http.ServerResponse, user: string | null) => boolean;
};

export type FakeApiServer = {
	/** e.g. https://127.0.0.1:43121 */
	url: string;
	port: number;
	/**
	 * Set a fault for a route/node (no scope = every request); null clears it. Most specific scope wins.
	 * `times`: the fault clears itself after that many requests (default: stays).
	 */
	setFault(fault: Fault | null, scope?: FaultScope, times?: number): void;
	clearFaults(): void;
	/** Make GET /api/v1/nodes answer 403 (true) or normally (false). */
	forbidListing(forbidden: boolean): void;
	/** Replace the /metrics provider of a node. */
	setMetrics(node: string, metrics: FakeNode['metrics']): void;
	/** Change a node's Ready condition: a new resourceVersion, and a MODIFIED line to every watch of the nodes. */
	setReady(node: string, ready: FakeNode['ready']): void;
	/** Add a node (or replace one of that name, e.g. deleted and made again with another uid): an ADDED line. */
	addNode(node: FakeNode): void;
	/** Delete a node: a DELETED line. */
	deleteNode(node: string): void;
	/** End every open watch of the nodes as the server's timeout does (a clean end of the stream). */
	endWatches(): void;
	/** Move the version on and forget the ones before: a watch from an older one gets 410 Gone (ERROR line), as after compaction. */
	compact(): void;
	/** Open watches of the nodes now. */
	readonly watches: number;
	/** Set a node's clock offset (FakeNode.clockOffsetSeconds). */
	setClockOffset(node: string, seconds: number | null | undefined): void;
	readonly requests: RecordedRequest[];
	/** Highest number of requests being answered at the same time. */
	readonly maxInFlight: number;
	/** The same for one route only (the node refresh may overlap a metrics request; two metrics requests may not). */
	maxInFlightOn(route: Route): number;
	/** TLS connections accepted so far. */
	readonly connections: number;
	/** Resolves when the next request arrives (before any delay fault runs). */
	nextRequest(): Promise<RecordedRequest['path']>;
	close(): Promise<void>;
};

const defaultMetrics = () => '# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.7e+09\n';

function statusBody(code: number, reason: string, message: string, details?: Record<string, string>): string {
	return JSON.stringify({
		kind: 'Status',
		apiVersion: 'v1',
		metadata: {},
		status: 'Failure',
		message,
		reason,
		...(details ? {details} : {}),
		code,
	});
}

const reasons: Record<number, string> = {
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'NotFound',
	429: 'TooManyRequests',
	500: 'InternalError',
	503: 'ServiceUnavailable',
};

/** The messages kube-apiserver writes for these cases (apimachinery errors.NewForbidden/NewNotFound, proxy transport). */
function defaultStatus(
	code: number,
	route: Route,
	node: string | null,
	user: string | null,
): {reason: string; message: string; details?: Record<string, string>} {
	const who = user ?? 'system:anonymous';
	const named: Record<string, string> = node ? {name: node, kind: 'nodes'} : {kind: 'nodes'};
	switch (code) {
		case 401: {
			return {reason: 'Unauthorized', message: 'Unauthorized'};
		}

		case 403: {
			if (route === 'events') {
				return {
					reason: 'Forbidden',
					message: `events is forbidden: User "${who}" cannot list resource "events" in API group "" in the namespace "default"`,
					details: {kind: 'events'},
				};
			}

			if (route === 'pods') {
				return {
					reason: 'Forbidden',
					message: `pods is forbidden: User "${who}" cannot list resource "pods" in API group "" at the cluster scope`,
					details: {kind: 'pods'},
				};
			}

			if (route === 'list') {
				return {
					reason: 'Forbidden',
					message: `nodes is forbidden: User "${who}" cannot list resource "nodes" in API group "" at the cluster scope`,
					details: {kind: 'nodes'},
				};
			}

			const resource = route === 'metrics' ? 'nodes/proxy' : 'nodes';
			return {
				reason: 'Forbidden',
				message: `nodes "${node}" is forbidden: User "${who}" cannot get resource "${resource}" in API group "" at the cluster scope`,
				details: named,
			};
		}

		case 404: {
			return {reason: 'NotFound', message: `nodes "${node}" not found`, details: named};
		}

		case 502: {
			return {
				reason: '',
				message: `error trying to reach service: proxy error from 127.0.0.1:6443 while dialing 10.0.0.5:10250, code 502: 502 Bad Gateway`,
			};
		}

		case 503: {
			return {reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp 10.0.0.5:10250: connect: connection refused'};
		}

		default: {
			return {
				reason: reasons[code] ?? 'Unknown',
				message: `the server responded with the status code ${code} but did not return more information`,
			};
		}
	}
}

function nodeLabels(node: FakeNode): Record<string, string> {
	return {'kubernetes.io/hostname': node.name, ...node.labels};
}

function nodeObject(node: FakeNode): object {
	const ready = node.ready ?? {
		status: 'True',
		reason: 'KubeletReady',
		message: 'kubelet is posting ready status',
		lastTransitionTime: '2024-05-01T10:00:00Z',
	};
	return {
		kind: 'Node',
		apiVersion: 'v1',
		metadata: {name: node.name, uid: node.uid ?? `uid-${node.name}`, labels: nodeLabels(node)},
		...(node.taints ? {spec: {taints: node.taints}} : {}),
		status: {
			...(node.allocatablePods === undefined ? {} : {allocatable: {pods: String(node.allocatablePods)}}),
			nodeInfo: {
				kubeletVersion: node.kubeletVersion ?? 'v1.28.4',
				containerRuntimeVersion: node.containerRuntimeVersion ?? 'containerd://1.7.2',
			},
			conditions: [
				{
					type: 'MemoryPressure',
					status: 'False',
					reason: 'KubeletHasSufficientMemory',
					message: 'kubelet has sufficient memory available',
					lastTransitionTime: '2024-05-01T10:00:00Z',
				},
				{type: 'Ready', ...ready},
			],
		},
	};
}

/**
 * A list request's page: `limit` items after the key `after` (from the `continue` token the previous page gave;
 * null: from the start, undefined: a token that is not one); limit 0 = all.
 */
type Page = {limit: number; after: string | null | undefined};

/**
 * A continue token as kube-apiserver makes one (storage/etcd3 encodeContinue): base64url without padding of
 * {"v":"meta.k8s.io/v1","rv":…,"start":KEY + "\u0000"}, where KEY is the last item's name: the next page starts after it.
 */
export function continueToken(lastKey: string): string {
	return Buffer.from(JSON.stringify({v: 'meta.k8s.io/v1', rv: 1, start: `${lastKey}\u0000`})).toString('base64url');
}

/** The key a continue token starts after; null without one, undefined when it is not a token this server made. */
function continueStart(token: string | null): string | null | undefined {
	if (token === null || token === '') return null;
	try {
		const decoded = JSON.parse(Buffer.from(token, 'base64url').toString()) as {v?: unknown; start?: unknown};
		return decoded.v === 'meta.k8s.io/v1' && typeof decoded.start === 'string' && decoded.start.endsWith('\u0000')
			? decoded.start.slice(0, -1)
			: undefined;
	} catch {
		return undefined;
	}
}

/** An Event's key in the fake's store: its name, or its place when the test gave it none. */
function eventKey(event: Record<string, unknown>, index: number): string {
	const name = (event['metadata'] as {name?: unknown} | undefined)?.name;
	return typeof name === 'string' ? name : `event-${String(index).padStart(6, '0')}`;
}

type Parsed = {
	route: Route;
	node: string | null;
	namespace?: string;
	page?: Page;
	labelSelector?: string;
	/** A watch's resourceVersion and timeoutSeconds. */
	watch?: {resourceVersion: number; timeoutSeconds: number};
} | null;

/** The field selector's terms, e.g. {'involvedObject.kind': 'Node', 'involvedObject.name': 'worker-1'}. */
function selectorTerms(selector: string): Record<string, string> {
	return Object.fromEntries(
		selector
			.split(',')
			.filter(Boolean)
			.map((term) => term.split('=', 2) as [string, string]),
	);
}

function parsePath(url: URL): Parsed {
	const {pathname} = url;
	if (pathname === '/api/v1/nodes') {
		const labelSelector = url.searchParams.get('labelSelector') ?? '';
		if (url.searchParams.get('watch') === 'true') {
			const watch = {
				resourceVersion: Number(url.searchParams.get('resourceVersion') ?? 0),
				timeoutSeconds: Number(url.searchParams.get('timeoutSeconds') ?? 0),
			};
			return {route: 'watch', node: null, labelSelector, watch};
		}

		return {route: 'list', node: null, labelSelector};
	}

	if (pathname === '/api/v1/pods') {
		return {route: 'pods', node: selectorTerms(url.searchParams.get('fieldSelector') ?? '')['spec.nodeName'] ?? null};
	}

	const events = /^\/api\/v1\/namespaces\/([^/]+)\/events$/.exec(pathname);
	if (events) {
		const terms = selectorTerms(url.searchParams.get('fieldSelector') ?? '');
		const page = {limit: Number(url.searchParams.get('limit') ?? 0) || 0, after: continueStart(url.searchParams.get('continue'))};
		return {route: 'events', node: terms['involvedObject.name'] ?? null, namespace: decodeURIComponent(events[1]!), page};
	}

	const match = /^\/api\/v1\/nodes\/([^/]+)(\/proxy\/metrics)?$/.exec(pathname);
	if (!match) {
		return null;
	}

	return {route: match[2] ? 'metrics' : 'node', node: decodeURIComponent(match[1]!)};
}

export async function startFakeApiServer(options: FakeApiServerOptions): Promise<FakeApiServer> {
	const nodes = new Map(options.nodes.map((node) => [node.name, {...node}]));
	const nodeLog = createNodeLog();
	const metricsCount = new Map<string, number>();
	const tokens = options.tokens ?? {};
	const faults = new Map<string, Fault>();
	const remaining = new Map<Fault, number>();
	const requests: RecordedRequest[] = [];
	const sockets = new Set<net.Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let inFlight = 0;
	let maxInFlight = 0;
	const routeInFlight = new Map<Route, {now: number; max: number}>();
	let connections = 0;
	let waiters: Array<(path: string) => void> = [];

	const scopeKey = (scope: FaultScope = {}) => `${scope.route ?? '*'}|${scope.node ?? '*'}`;
	function faultFor(route: Route, node: string | null): Fault | undefined {
		const keys = [scopeKey({route, node: node ?? undefined}), scopeKey({node: node ?? undefined}), scopeKey({route}), scopeKey()];
		const key = keys.find((candidate) => faults.has(candidate));
		const fault = key === undefined ? undefined : faults.get(key);
		const left = fault === undefined ? undefined : remaining.get(fault);
		if (key !== undefined && left !== undefined) {
			if (left <= 1) {
				faults.delete(key);
			} else {
				remaining.set(fault!, left - 1);
			}
		}

		return fault;
	}

	function authenticate(request: http.IncomingMessage): string | null {
		const header = request.headers.authorization ?? '';
		const bearer = /^Bearer (.+)$/.exec(header)?.[1];
		if (bearer !== undefined) {
			return tokens[bearer] ?? null;
		}

		const socket = request.socket as tls.TLSSocket;
		if (socket.authorized) {
			const subject = socket.getPeerCertificate().subject as unknown as Record<string, string> | undefined;
			return subject?.['CN'] ?? null;
		}

		return null;
	}

	function normalBody(
		route: Route,
		node: FakeNode | undefined,
		namespace: string | undefined,
		page: Page = {limit: 0, after: null},
		labelSelector = '',
	): {type: string; body: string | Buffer} {
		if (route === 'events') {
			const all = (node?.events ?? [])
				.filter((event) => (event.namespace ?? 'default') === namespace)
				.map(({namespace: eventNamespace, ...event}) => ({
					...event,
					metadata: {namespace: eventNamespace ?? 'default', ...(event['metadata'] as object | undefined)},
					involvedObject: {kind: 'Node', name: node!.name, uid: node!.name},
				}));
			// Paged as kube-apiserver pages a list with `limit`: an opaque `continue` token while items remain, naming the
			// key the next page starts after (with a field selector it sends no remainingItemCount).
			const after = page.after === null ? -1 : all.findIndex((event, index) => eventKey(event, index) === page.after);
			// A key no longer held (the test removed it between pages) ends the list.
			const start = page.after !== null && after === -1 ? all.length : after + 1;
			const end = page.limit > 0 ? start + page.limit : all.length;
			const items = all.slice(start, end);
			const metadata =
				end < all.length ? {resourceVersion: '1', continue: continueToken(eventKey(all[end - 1]!, end - 1))} : {resourceVersion: '1'};
			return {type: 'application/json', body: JSON.stringify({kind: 'EventList', apiVersion: 'v1', metadata, items})};
		}

		if (route === 'pods') {
			// PartialObjectMetadataList, as asked: names only, one page (the fake holds few pods).
			const items = Array.from({length: node?.pods ?? 0}, (_, index) => ({metadata: {name: `pod-${index}`, namespace: 'default'}}));
			return {
				type: 'application/json',
				body: JSON.stringify({kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: {resourceVersion: '1'}, items}),
			};
		}

		if (route === 'list') {
			return {
				type: 'application/json',
				body: JSON.stringify({
					kind: 'NodeList',
					apiVersion: 'v1',
					metadata: {resourceVersion: String(nodeLog.version)},
					items: [...nodes.values()]
						.filter((each) => Object.entries(selectorTerms(labelSelector)).every(([key, value]) => nodeLabels(each)[key] === value))
						.map(nodeObject),
				}),
			};
		}

		if (route === 'node') {
			return {type: 'application/json', body: JSON.stringify(nodeObject(node!))};
		}

		const count = (metricsCount.get(node!.name) ?? 0) + 1;
		metricsCount.set(node!.name, count);
		return {type: 'text/plain; version=0.0.4; charset=utf-8', body: (node!.metrics ?? defaultMetrics)(count)};
	}

	function send(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		status: number,
		type: string,
		body: string | Buffer,
		headers: Record<string, string> = {},
	): boolean {
		const gzip =
			options.gzip !== false &&
			status === 200 &&
			type.startsWith('text/plain') &&
			/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
		const payload = gzip ? zlib.gzipSync(body) : Buffer.from(body);
		response.writeHead(status, {
			...headers,
			'Content-Type': type,
			'Content-Length': payload.length,
			...(gzip ? {'Content-Encoding': 'gzip'} : {}),
		});
		response.end(payload);
		return gzip;
	}

	function answer(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		user: string | null,
		fault: Fault | undefined,
		parsed: NonNullable<Parsed>,
	): {status: number; gzipped: boolean} {
		const node = parsed.node === null ? undefined : nodes.get(parsed.node);
		if (user === null) {
			const status = defaultStatus(401, parsed.route, parsed.node, user);
			send(request, response, 401, 'application/json', statusBody(401, status.reason, status.message));
			return {status: 401, gzipped: false};
		}

		if (fault?.type === 'status') {
			const status = defaultStatus(fault.code, parsed.route, parsed.node, user);
			send(
				request,
				response,
				fault.code,
				'application/json',
				statusBody(fault.code, fault.reason ?? status.reason, fault.message ?? status.message, status.details),
				fault.headers,
			);
			return {status: fault.code, gzipped: false};
		}

		// Events of an unknown node are an empty list, as kube-apiserver answers a selector that matches nothing.
		if (parsed.route !== 'events' && parsed.route !== 'pods' && parsed.node !== null && node === undefined) {
			const status = defaultStatus(404, parsed.route, parsed.node, user);
			send(request, response, 404, 'application/json', statusBody(404, status.reason, status.message, status.details));
			return {status: 404, gzipped: false};
		}

		if (parsed.route === 'watch') {
			nodeLog.watch(response, parsed.watch!, parsed.labelSelector ?? '');
			return {status: 200, gzipped: false};
		}

		// kube-apiserver refuses a continue token it cannot decode (400), rather than list from the start.
		if (parsed.page?.after === undefined && parsed.route === 'events') {
			send(request, response, 400, 'application/json', statusBody(400, 'BadRequest', 'continue key is not valid: malformed token'));
			return {status: 400, gzipped: false};
		}

		const normal = normalBody(parsed.route, node, parsed.namespace, parsed.page, parsed.labelSelector);
		switch (fault?.type) {
			case 'html': {
				send(
					request,
					response,
					200,
					'text/html; charset=utf-8',
					'<!DOCTYPE html><html><head><title>Sign in to Example Corp</title></head><body>Please sign in</body></html>',
				);
				return {status: 200, gzipped: false};
			}

			case 'body': {
				return {status: 200, gzipped: send(request, response, 200, 'application/json', fault.body)};
			}

			case 'empty': {
				return {status: 200, gzipped: send(request, response, 200, normal.type, '')};
			}

			case 'binary': {
				return {
					status: 200,
					gzipped: send(request, response, 200, normal.type, Buffer.from([0x00, 0xff, 0xfe, 0x1f, 0x8b, 0x08, 0x00, 0x80, 0x81])),
				};
			}

			case 'truncated': {
				const full = Buffer.from(normal.body);
				return {status: 200, gzipped: send(request, response, 200, normal.type, full.subarray(0, Math.floor(full.length / 2)))};
			}

			case 'bad-gzip': {
				const gzipped = zlib.gzipSync(normal.body);
				const cut = gzipped.subarray(0, Math.floor(gzipped.length / 2));
				response.writeHead(200, {'Content-Type': normal.type, 'Content-Encoding': 'gzip', 'Content-Length': cut.length});
				response.end(cut);
				return {status: 200, gzipped: true};
			}

			case 'endless': {
				const {sent} = fault;
				const line = Buffer.from(`# ${'endless '.repeat(8)}\n`.repeat(1024));
				response.writeHead(200, {'Content-Type': normal.type});
				const more = () => {
					while (!response.destroyed) {
						sent.bytes += line.length;
						if (!response.write(line)) return;
					}
				};

				response.on('drain', more);
				response.on('close', () => {
					sent.closed = true;
				});
				more();
				return {status: 200, gzipped: false};
			}

			case 'gzip-bomb': {
				const member = zlib.gzipSync(Buffer.alloc(1024 * 1024));
				const bomb = Buffer.concat(Array.from({length: fault.mebibytes}, () => member));
				response.writeHead(200, {'Content-Type': normal.type, 'Content-Encoding': 'gzip', 'Content-Length': bomb.length});
				response.end(bomb);
				return {status: 200, gzipped: true};
			}

			case 'stated-length': {
				response.writeHead(200, {'Content-Type': normal.type, 'Content-Length': fault.mebibytes * 1024 * 1024});
				response.write(Buffer.alloc(1024, '#'));
				return {status: 200, gzipped: false};
			}

			case 'close-mid-body': {
				const full = Buffer.from(normal.body);
				response.writeHead(200, {'Content-Type': normal.type, 'Content-Length': full.length});
				response.write(full.subarray(0, Math.floor(full.length / 2)), () => request.socket.destroy());
				return {status: 200, gzipped: false};
			}

			// handle() acts on a delay and a destroyed socket before it asks for an answer; no fault is the normal answer.
			case 'delay':
			case 'destroy-socket':
			case undefined: {
				// The kubelet's Date, on its own clock, copied through by the proxy (Go's ReverseProxy copies every header).
				const offset = parsed.route === 'metrics' ? node?.clockOffsetSeconds : undefined;
				response.sendDate = offset !== null;
				const date: Record<string, string> =
					offset === undefined || offset === null ? {} : {Date: new Date(Date.now() + offset * 1000).toUTCString()};
				return {status: 200, gzipped: send(request, response, 200, normal.type, normal.body, date)};
			}
		}
	}

	function handle(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		fault: Fault | undefined,
		parsed: NonNullable<Parsed>,
		receivedAt: number,
	): void {
		if (fault?.type === 'delay') {
			const timer = setTimeout(() => {
				timers.delete(timer);
				if (!response.destroyed) {
					handle(request, response, fault.then, parsed, receivedAt);
				}
			}, fault.ms);
			timers.add(timer);
			return;
		}

		if (fault?.type === 'destroy-socket') {
			request.socket.destroy();
			return;
		}

		const user = authenticate(request);
		const result = answer(request, response, user, fault, parsed);
		requests.push({method: request.method ?? 'GET', path: request.url ?? '', headers: request.headers, user, ...result, receivedAt});
	}

	const server = https.createServer(
		{
			cert: options.cert ?? testTls.serverCert,
			key: options.key ?? testTls.serverKey,
			ca: testTls.caCert,
			// Like kube-apiserver: ask for a client cert, accept the connection either way, authenticate per request.
			requestCert: true,
			rejectUnauthorized: false,
		},
		(request, response) => {
			const receivedAt = Date.now();
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
			response.on('close', () => inFlight--);
			const waiting = waiters;
			waiters = [];
			for (const resolve of waiting) {
				resolve(request.url ?? '');
			}

			if (options.extra?.(request, response, authenticate(request))) {
				requests.push({
					method: request.method ?? 'GET',
					path: request.url ?? '',
					headers: request.headers,
					user: authenticate(request),
					status: 0,
					gzipped: false,
					receivedAt,
				});
				return;
			}

			const url = new URL(request.url ?? '/', 'https://fake');
			const parsed = parsePath(url);
			if (parsed === null) {
				response.writeHead(404, {'Content-Type': 'text/plain'});
				response.end('404 page not found\n');
				return;
			}

			const counter = routeInFlight.get(parsed.route) ?? {now: 0, max: 0};
			routeInFlight.set(parsed.route, counter);
			counter.now++;
			counter.max = Math.max(counter.max, counter.now);
			response.on('close', () => counter.now--);
			handle(request, response, faultFor(parsed.route, parsed.node), parsed, receivedAt);
		},
	);
	server.on('secureConnection', (socket) => {
		connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as net.AddressInfo).port;

	return {
		url: `https://127.0.0.1:${port}`,
		port,
		setFault(fault, scope, times) {
			if (fault === null) {
				faults.delete(scopeKey(scope));
			} else {
				faults.set(scopeKey(scope), fault);
				if (times !== undefined) {
					remaining.set(fault, times);
				}
			}
		},
		clearFaults() {
			faults.clear();
		},
		forbidListing(forbidden) {
			if (forbidden) {
				faults.set(scopeKey({route: 'list'}), {type: 'status', code: 403});
			} else {
				faults.delete(scopeKey({route: 'list'}));
			}
		},
		setMetrics(node, metrics) {
			const entry = nodes.get(node);
			if (entry) {
				entry.metrics = metrics;
			}
		},
		setReady(node, ready) {
			const entry = nodes.get(node);
			if (entry) {
				entry.ready = ready;
				nodeLog.change('MODIFIED', entry);
			}
		},
		addNode(node) {
			nodes.set(node.name, {...node});
			nodeLog.change('ADDED', node);
		},
		deleteNode(node) {
			const entry = nodes.get(node);
			if (entry) {
				nodes.delete(node);
				nodeLog.change('DELETED', entry);
			}
		},
		endWatches() {
			nodeLog.endAll();
		},
		compact() {
			nodeLog.compact();
		},
		get watches() {
			return nodeLog.open;
		},
		setClockOffset(node, seconds) {
			const entry = nodes.get(node);
			if (entry) {
				entry.clockOffsetSeconds = seconds;
			}
		},
		requests,
		get maxInFlight() {
			return maxInFlight;
		},
		maxInFlightOn(route) {
			return routeInFlight.get(route)?.max ?? 0;
		},
		get connections() {
			return connections;
		},
		async nextRequest() {
			return new Promise((resolve) => waiters.push(resolve));
		},
		async close() {
			nodeLog.endAll();
			for (const timer of timers) {
				clearTimeout(timer);
			}

			for (const socket of sockets) {
				socket.destroy();
			}

			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await closed;
		},
	};
}

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * The nodes' resourceVersions and the changes since the last compaction, and the open watches: each gets the
 * changes after its version (or ERROR 410 when that is compacted away), then every change as it happens.
 */
function createNodeLog() {
	let version = 1;
	let oldest = 1;
	const changes: Array<{version: number; type: WatchType; node: FakeNode}> = [];
	const watchers = new Set<{response: http.ServerResponse; selector: string; timer: NodeJS.Timeout | undefined}>();
	const line = (type: WatchType, node: FakeNode, at: number) => {
		const object = nodeObject(node) as {metadata: Record<string, unknown>};
		object.metadata['resourceVersion'] = String(at);
		return JSON.stringify({type, object}) + '\n';
	};

	const matches = (node: FakeNode, selector: string) =>
		Object.entries(selectorTerms(selector)).every(([key, value]) => nodeLabels(node)[key] === value);
	const end = (watcher: {response: http.ServerResponse; timer: NodeJS.Timeout | undefined}) => {
		clearTimeout(watcher.timer);
		watchers.delete(watcher as never);
		if (!watcher.response.destroyed) watcher.response.end();
	};

	return {
		get version() {
			return version;
		},
		get open() {
			return watchers.size;
		},
		change(type: WatchType, node: FakeNode): void {
			version++;
			changes.push({version, type, node: {...node}});
			for (const watcher of watchers) if (matches(node, watcher.selector)) watcher.response.write(line(type, node, version));
		},
		compact(): void {
			// As etcd compacts past a watcher: other objects moved the version on, and what came before is forgotten.
			version++;
			oldest = version;
			changes.length = 0;
		},
		watch(response: http.ServerResponse, from: {resourceVersion: number; timeoutSeconds: number}, selector: string): void {
			response.writeHead(200, {'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked'});
			if (from.resourceVersion < oldest) {
				const status = {kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410};
				response.end(
					JSON.stringify({type: 'ERROR', object: {...status, message: `too old resource version: ${from.resourceVersion} (${oldest})`}}) +
						'\n',
				);
				return;
			}

			for (const change of changes) {
				if (change.version > from.resourceVersion && matches(change.node, selector)) {
					response.write(line(change.type, change.node, change.version));
				}
			}

			const watcher = {response, selector, timer: undefined as NodeJS.Timeout | undefined};
			if (from.timeoutSeconds > 0) watcher.timer = setTimeout(() => end(watcher), from.timeoutSeconds * 1000);
			watchers.add(watcher);
			response.on('close', () => end(watcher));
		},
		endAll(): void {
			for (const watcher of [...watchers]) end(watcher);
		},
	};
}
