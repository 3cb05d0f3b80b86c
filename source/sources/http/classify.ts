// Every way a request to the API server can fail, turned into a Failure in the user's terms.
import http from 'node:http';
import type {LoadedKubeconfig} from '../kube/kubeconfig.js';
import {BodyCutError, RequestTimeoutError, type HttpAnswer} from './https-request.js';
import {redact, sourceFailure, type SourceFailure} from '../failure.js';

/** Which call failed: decides the RBAC rule and how 404/502/503 read. */
export type Target = 'metrics' | 'node' | 'list';

export type FailureContext = {
	loaded: LoadedKubeconfig;
	node: string;
	target: Target;
	/** Request path, e.g. /api/v1/nodes/worker-1/proxy/metrics. */
	path: string;
	timeoutMs: number;
	/** Credential values to strip from server text. */
	secrets: string[];
};

/** The `Status` object kube-apiserver returns with every error. */
export type ApiStatus = {message: string | null; reason: string | null; code: number | null; kind: string | null};

export function readStatus(body: string): ApiStatus | null {
	try {
		const value = JSON.parse(body) as Record<string, unknown>;
		if (value?.['kind'] !== 'Status') {
			return null;
		}

		const details = value['details'] as Record<string, unknown> | undefined;
		return {
			message: typeof value['message'] === 'string' ? value['message'] : null,
			reason: typeof value['reason'] === 'string' ? value['reason'] : null,
			code: typeof value['code'] === 'number' ? value['code'] : null,
			kind: typeof details?.['kind'] === 'string' ? details['kind'] : null,
		};
	} catch {
		return null;
	}
}

function isHtml(answer: HttpAnswer): boolean {
	return /text\/html/i.test(String(answer.headers['content-type'] ?? '')) || /^\s*<(!doctype html|html)/i.test(answer.body);
}

/** What the server said, in one line: the Status message, an HTML page's title, or the first line of text. */
export function serverMessage(answer: HttpAnswer, secrets: string[]): string {
	const status = readStatus(answer.body);
	let text: string;
	if (status?.message) {
		text = status.message;
	} else if (isHtml(answer)) {
		const title = /<title[^>]*>([^<]*)<\/title>/i.exec(answer.body)?.[1]?.trim();
		text = title ? `an HTML page titled "${title}"` : 'an HTML page';
	} else {
		text = answer.body.trim().split('\n')[0]?.trim() ?? '';
		text = text === '' ? '(empty body)' : text;
	}

	const line = redact(text, secrets);
	return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function seconds(ms: number): string {
	return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}s` : `${ms}ms`;
}

function clusterWhere(loaded: LoadedKubeconfig): string {
	return `cluster "${loaded.clusterName}" in ${loaded.origins.cluster}`;
}

function field(error: unknown, name: string): string | undefined {
	const value = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
	return typeof value === 'string' ? value : undefined;
}

const networkCauses: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ETIMEDOUT: 'connection timed out',
	ECONNRESET: 'connection reset',
	EPIPE: 'connection closed',
	EHOSTUNREACH: 'no route to host',
	ENETUNREACH: 'network unreachable',
	ECONNABORTED: 'connection aborted',
};

export function networkCause(code: string, host: string): string | null {
	if (code === 'ENOTFOUND') {
		return `DNS lookup of ${host} failed`;
	}

	if (code === 'EAI_AGAIN') {
		return `DNS lookup of ${host} failed (temporary failure)`;
	}

	return networkCauses[code] ?? null;
}

export const untrustedReasons: Record<string, string> = {
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is not signed by the configured CA',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is not signed by the configured CA',
	UNABLE_TO_GET_ISSUER_CERT: 'its issuer is not the configured CA',
	SELF_SIGNED_CERT_IN_CHAIN: 'it is not signed by the configured CA',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
	CERT_UNTRUSTED: 'it is not trusted for this purpose',
	CERT_SIGNATURE_FAILURE: 'its signature does not verify',
	CERT_REJECTED: 'it was rejected',
	INVALID_CA: 'a CA in its chain is not valid',
	CERT_HAS_EXPIRED: 'it has expired',
	CERT_NOT_YET_VALID: 'it is not valid yet (is the clock right?)',
};

/** Which kubeconfig setting decides whom the client trusts. */
function trustSetting(loaded: LoadedKubeconfig): string {
	const cluster = loaded.kubeConfig.getCluster(loaded.clusterName);
	if (cluster?.caFile) {
		return `certificate-authority ${cluster.caFile} of ${clusterWhere(loaded)}`;
	}

	if (cluster?.caData) {
		return `certificate-authority-data of ${clusterWhere(loaded)}`;
	}

	return `the system's trusted CAs (${clusterWhere(loaded)} sets neither certificate-authority nor certificate-authority-data)`;
}

const neverInsecure = 'pleg-top does not switch certificate verification off: give the cluster\'s CA in the kubeconfig';

function tlsFailure(error: unknown, context: FailureContext): SourceFailure | null {
	const {loaded} = context;
	const code = field(error, 'code') ?? '';
	const server = loaded.server;
	if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
		const host = field(error, 'host') ?? new URL(server).hostname;
		return sourceFailure('tls', `the certificate of ${server} is not valid for host ${host}`, [
			`TLS: ${field(error, 'reason') ?? code}`,
			`the host comes from clusters[].cluster.server of ${clusterWhere(loaded)}: use a name the certificate lists, or set tls-server-name`,
			neverInsecure,
		]);
	}

	const reason = untrustedReasons[code];
	if (reason !== undefined) {
		return sourceFailure('tls', `the certificate of ${server} is not trusted: ${reason}`, [`trust comes from ${trustSetting(loaded)}`, `TLS: ${code}`, neverInsecure]);
	}

	if (code.startsWith('ERR_SSL_')) {
		return sourceFailure('tls', `the TLS handshake with ${server} failed`, [`TLS: ${code}`, `a server that refuses the client certificate of user "${loaded.userName}" (${loaded.origins.user}) ends the handshake this way`]);
	}

	if (code.startsWith('ERR_OSSL_')) {
		return sourceFailure('config', `the certificates or keys for context "${loaded.contextName}" cannot be used`, [
			`${redact(field(error, 'message') ?? code, context.secrets)}`,
			`check certificate-authority(-data) of ${clusterWhere(loaded)} and client-certificate(-data)/client-key(-data) of user "${loaded.userName}" in ${loaded.origins.user}`,
		]);
	}

	return null;
}

/** Socket, DNS, TLS, timeout and cut-body errors. Abort is not classified: the caller rethrows it. */
export function classifyRequestError(error: unknown, context: FailureContext): SourceFailure {
	const server = context.loaded.server;
	const request = `request: GET ${context.path}`;
	if (error instanceof RequestTimeoutError) {
		return sourceFailure('timeout', `no answer from ${server} within ${seconds(error.timeoutMs)}`, [request]);
	}

	if (error instanceof BodyCutError) {
		return sourceFailure('network', `the answer from ${server} was cut off before its end`, [request, 'the connection closed in the middle of the body']);
	}

	const tls = tlsFailure(error, context);
	if (tls !== null) {
		return tls;
	}

	const code = field(error, 'code') ?? '';
	const cause = networkCause(code, new URL(server).hostname) ?? redact(field(error, 'message') ?? String(error), context.secrets);
	return sourceFailure('network', `cannot reach ${server}: ${cause}`, [`the API server of ${clusterWhere(context.loaded)}`, request]);
}

function credentialHint(context: FailureContext): string {
	const {loaded} = context;
	const user = loaded.kubeConfig.getUser(loaded.userName);
	const where = `user "${loaded.userName}" in ${loaded.origins.user}`;
	if (user?.exec) {
		return `the token from the credential plugin (users[].user.exec of ${where}) was rejected`;
	}

	if (user?.token) {
		return `the token (users[].user.token of ${where}) was rejected: expired or revoked?`;
	}

	if (user?.authProvider) {
		return `the token from the auth provider of ${where} was rejected`;
	}

	if (user?.certFile || user?.certData) {
		return `the client certificate of ${where} was not accepted: signed by another CA, or expired?`;
	}

	return `${where} has no credentials (no token, client certificate or exec plugin)`;
}

type Rule = {verb: string; resource: string};

const rules: Record<Target, Rule> = {
	metrics: {verb: 'get', resource: 'nodes/proxy'},
	node: {verb: 'get', resource: 'nodes'},
	list: {verb: 'list', resource: 'nodes'},
};

function forbiddenFailure(answer: HttpAnswer, context: FailureContext): SourceFailure {
	const {verb, resource} = rules[context.target];
	const {loaded, node} = context;
	const what = context.target === 'list' ? 'list nodes' : `${verb} ${resource} on node "${node}"`;
	const details = [
		`API server: ${serverMessage(answer, context.secrets)}`,
		`needed: ${verb} on ${resource} (ClusterRole rule: apiGroups [""], resources ["${resource}"], verbs ["${verb}"])`,
		`check: kubectl --context ${loaded.contextName} auth can-i ${verb} ${resource}`,
	];
	if (context.target === 'metrics') {
		details.push('note: nodes/proxy is more than read access: it reaches every kubelet API on the node, exec into pods included; the narrower nodes/metrics works only when talking to the kubelet directly (port 10250), not through the API server');
	}

	return sourceFailure('forbidden', `context "${loaded.contextName}" (user "${loaded.userName}") is not allowed to ${what}`, details);
}

/** A 404 that the API server itself gave for the node (not a kubelet 404 passed through the proxy). */
export function isNodeNotFound(answer: HttpAnswer): boolean {
	const status = readStatus(answer.body);
	return answer.status === 404 && status !== null && status.reason === 'NotFound' && (status.kind === 'nodes' || /^nodes? "/.test(status.message ?? ''));
}

/** What is known about the node names for a not-found message. */
export type NodeNames = {names: string[]} | {forbidden: true} | {error: string};

function nodeNamesLine(names: NodeNames): string {
	if ('names' in names) {
		const shown = names.names.slice(0, 20).join(', ');
		const more = names.names.length > 20 ? ` and ${names.names.length - 20} more` : '';
		return names.names.length === 0 ? 'the cluster has no nodes' : `nodes that exist: ${shown}${more}`;
	}

	if ('forbidden' in names) {
		return 'listing nodes is not allowed (list on nodes), so the names that exist cannot be shown; try kubectl get nodes';
	}

	return `could not list nodes: ${names.error}`;
}

export function notFoundFailure(answer: HttpAnswer, context: FailureContext, names: NodeNames): SourceFailure {
	return sourceFailure('not-found', `node "${context.node}" does not exist in cluster "${context.loaded.clusterName}"`, [
		`API server: ${serverMessage(answer, context.secrets)}`,
		nodeNamesLine(names),
	]);
}

/** Any non-2xx answer except the node-not-found 404 (which needs the node list). */
export function classifyAnswer(answer: HttpAnswer, context: FailureContext): SourceFailure {
	const {loaded, node} = context;
	const message = serverMessage(answer, context.secrets);
	if (answer.status === 401) {
		return sourceFailure('unauthorized', `${loaded.server} rejected the credentials of context "${loaded.contextName}" (user "${loaded.userName}")`, [
			`API server: ${message}`,
			credentialHint(context),
			`check: kubectl --context ${loaded.contextName} auth whoami`,
		]);
	}

	if (answer.status === 403) {
		return forbiddenFailure(answer, context);
	}

	if (context.target === 'metrics' && (answer.status === 502 || answer.status === 503)) {
		return sourceFailure('kubelet-unreachable', `the API server cannot reach the kubelet on node "${node}"`, [
			`API server (${answer.status}): ${message}`,
			'that is itself a sign of node trouble: the kubelet is down or the node is cut off from the control plane',
			`check: kubectl --context ${loaded.contextName} get node ${node} -o wide`,
		]);
	}

	const statusText = http.STATUS_CODES[answer.status] ?? '';
	return sourceFailure('http', `${loaded.server} answered ${answer.status} ${statusText} to GET ${context.path}`.replace('  ', ' '), [`API server: ${message}`]);
}

/** A 200 that is an HTML page (a proxy or login portal in the way), not kubelet metrics. */
export function htmlInsteadOfMetrics(answer: HttpAnswer, context: FailureContext): SourceFailure | null {
	if (!isHtml(answer)) {
		return null;
	}

	// A body that is not metrics is a parse failure like any other (issue 3): same words, same line number.
	const line = answer.body.slice(0, answer.body.search(/\S|$/)).split('\n').length;
	return sourceFailure('parse', `metrics could not be parsed (line ${line}): ${context.loaded.server} answered with an HTML page, not kubelet metrics`, [
		`content-type: ${String(answer.headers['content-type'] ?? '(none)')}; the page: ${serverMessage(answer, context.secrets)}`,
		'is a proxy or a login portal between pleg-top and the API server?',
	]);
}
