// The one failure classifier: every way a request to the API server, a kubelet or Prometheus can fail, turned
// into a Failure in the user's terms: the URL, the status and what the server said, the RBAC rule to ask for
// and the `kubectl auth can-i` command that checks it. A Peer says who answers and where pleg-top got its
// address and credentials; the decisions (which status or socket error means what) are the same for all.
import http from 'node:http';
import * as v from 'valibot';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import {kubectlCommand} from '../../domain/incident/next-steps.js';
import {kubectlTargetOf, type LoadedKubeconfig} from '../kube/kubeconfig.js';
import type {HttpAnswer} from './https-request.js';
import {BodyCutError, BodyEncodingError, BodyTooLargeError, RequestTimeoutError} from './request-errors.js';
import {redact, sourceFailure, type SourceFailure} from '../failure.js';
import {maybe, readJson} from '../json-boundary.js';
import {formatByteSize} from '../../domain/text/format.js';

/** Who answers a transport: the API server named by the kubeconfig, or a server named by a flag. */
export type Peer =
	| {kind: 'api-server'; url: string; loaded: LoadedKubeconfig}
	| {
			kind: 'kubelet' | 'prometheus';
			url: string;
			flag: '--kubelet-url' | '--prometheus' | '--history-from';
			/** --kubelet-ca, when given. */
			caFile?: string;
			/** --token-file, when given. */
			tokenFile?: string;
			/** The kubeconfig whose user authenticates (and whose cluster CA is trusted) when there is no --token-file. */
			loaded?: LoadedKubeconfig;
	  };

/** An RBAC rule of the core API group; `namespace` set = a Role in that namespace, else a ClusterRole. */
export type Rule = {verb: string; resource: string; namespace?: string};

/** The longest wait a Retry-After header is honoured for, s: beyond it the next request goes out anyway. */
const maxRetryAfterSeconds = 60;

/** The `Status` object kube-apiserver returns with every error. */
export type ApiStatus = {message: string | null; reason: string | null; code: number | null; kind: string | null};

/** The fields of a Status pleg-top reads; any other shape is not a Status it can quote. */
const statusSchema = v.object({
	kind: v.literal('Status'),
	message: maybe(v.string()),
	reason: maybe(v.string()),
	code: maybe(v.number()),
	details: maybe(v.object({kind: maybe(v.string())})),
});

/** The Status in an error answer, or null when the body is not one (a proxy's page, another shape). */
export function readStatus(body: string): ApiStatus | null {
	let status: v.InferOutput<typeof statusSchema>;
	try {
		status = readJson(statusSchema, body);
	} catch {
		// Not a Status: the answer is quoted by its first line instead (serverMessage).
		return null;
	}

	return {message: status.message ?? null, reason: status.reason ?? null, code: status.code ?? null, kind: status.details?.kind ?? null};
}

function isHtml(answer: HttpAnswer): boolean {
	return /text\/html/i.test(String(answer.headers['content-type'] ?? '')) || /^\s*<(!doctype html|html)/i.test(answer.body);
}

/** What the server said, in one line: the Status message, an HTML page's title, or the first line of text. */
function serverMessage(answer: HttpAnswer, secrets: readonly string[]): string {
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

/** "403 Forbidden". */
function statusLine(status: number): string {
	return `${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
}

function field(error: unknown, name: string): string | undefined {
	const value: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, name) : undefined;
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

function networkCause(code: string, host: string): string | null {
	if (code === 'ENOTFOUND') {
		return `DNS lookup of ${host} failed`;
	}

	if (code === 'EAI_AGAIN') {
		return `DNS lookup of ${host} failed (temporary failure)`;
	}

	return networkCauses[code] ?? null;
}

const untrustedReasons: Record<string, string> = {
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

// The words each peer is named by. Everything below builds messages from these.

/** How a summary names the server: the API server by its URL, the others by what they are. */
function peerName(peer: Peer): string {
	switch (peer.kind) {
		case 'api-server': {
			return peer.url;
		}

		case 'kubelet': {
			return `the kubelet at ${peer.url}`;
		}

		case 'prometheus': {
			return `Prometheus at ${peer.url}`;
		}
	}
}

/** The server as the subject of a sentence: "the API server asked to wait 30s". */
function speaker(peer: Peer): string {
	return peer.kind === 'api-server' ? 'the API server' : peer.kind === 'kubelet' ? 'the kubelet' : 'Prometheus';
}

/** A detail line quoting the answer. The API server's Status message says what the status means; other servers' bodies often do not. */
function quote(answer: HttpAnswer, peer: Peer, secrets: readonly string[]): string {
	const message = serverMessage(answer, secrets);
	switch (peer.kind) {
		case 'api-server': {
			return `API server: ${message}`;
		}

		case 'kubelet': {
			return `kubelet: ${statusLine(answer.status)}: ${message}`;
		}

		case 'prometheus': {
			return `server: ${statusLine(answer.status)}: ${message}`;
		}
	}
}

function clusterWhere(loaded: LoadedKubeconfig): string {
	return `cluster "${loaded.clusterName}" in ${loaded.origins.cluster}`;
}

/** Where the server's address comes from. */
function origin(peer: Peer): string {
	return peer.kind === 'api-server' ? `the API server of ${clusterWhere(peer.loaded)}` : `the server comes from ${peer.flag}`;
}

/** Who pleg-top is to the server. */
function identity(peer: Peer): string {
	if (peer.kind === 'api-server') {
		return `context "${peer.loaded.contextName}" (user "${peer.loaded.userName}")`;
	}

	if (peer.tokenFile) {
		return `the token in --token-file ${peer.tokenFile}`;
	}

	if (peer.loaded) {
		return `user "${peer.loaded.userName}" of context "${peer.loaded.contextName}"`;
	}

	return peer.kind === 'kubelet' ? 'an anonymous client' : 'a request without a token (give one with --token-file)';
}

/** The kubectl command that asks the API server whether pleg-top's identity holds `rule`. */
function canI(peer: Peer, rule: Rule): string {
	const what = ['auth', 'can-i', rule.verb, rule.resource, ...(rule.namespace === undefined ? [] : ['-n', rule.namespace])];
	const loaded = peer.kind === 'api-server' || !peer.tokenFile ? peer.loaded : undefined;
	// Without a kubeconfig user, SUBJECT is for the reader to fill in: left unquoted, as a placeholder.
	return loaded ? kubectlCommand(kubectlTargetOf(loaded), what) : `${kubectlCommand(null, what)} --as SUBJECT`;
}

// Request errors: the socket, DNS, TLS, the timeout and a cut body.

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

const neverInsecure = "pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig";

/** What decides trust, and the way out, for a certificate that is not trusted. */
function trustLine(peer: Peer): string {
	if (peer.kind === 'api-server') {
		return `trust comes from ${trustSetting(peer.loaded)}`;
	}

	const whose = `${speaker(peer)}'s certificate`;
	if (peer.caFile) {
		return `trust comes from --kubelet-ca ${peer.caFile}: is it the CA that signed ${whose}?`;
	}

	const ways = `give the CA that signed ${whose} with --kubelet-ca FILE, or accept any certificate with --insecure-skip-tls-verify (then labelled TLS NOT VERIFIED)`;
	const {loaded} = peer;
	const cluster = loaded?.kubeConfig.getCluster(loaded.clusterName);
	return loaded && (cluster?.caData || cluster?.caFile)
		? `trust comes from ${trustSetting(loaded)}, which did not sign ${whose}: ${ways}`
		: ways;
}

function hostHint(peer: Peer): string {
	return peer.kind === 'api-server'
		? `the host comes from clusters[].cluster.server of ${clusterWhere(peer.loaded)}: use a name the certificate lists, or set tls-server-name`
		: `use a host name the certificate lists in ${peer.flag}, or --insecure-skip-tls-verify`;
}

function tlsFailure(error: unknown, peer: Peer, secrets: readonly string[]): SourceFailure | null {
	const code = field(error, 'code') ?? '';
	const name = peerName(peer);
	// The API server's trust is the kubeconfig's to fix; a flag-named server may be accepted unverified.
	const closing = peer.kind === 'api-server' ? [neverInsecure] : [];
	if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
		const host = field(error, 'host') ?? new URL(peer.url).hostname;
		return sourceFailure('tls', `the certificate of ${name} is not valid for host ${host}`, [
			`TLS: ${field(error, 'reason') ?? code}`,
			hostHint(peer),
			...closing,
		]);
	}

	const reason = untrustedReasons[code];
	if (reason !== undefined) {
		return sourceFailure('tls', `the certificate of ${name} is not trusted: ${reason}`, [trustLine(peer), `TLS: ${code}`, ...closing]);
	}

	if (code.startsWith('ERR_SSL_')) {
		const hint =
			peer.kind === 'api-server'
				? `a server that refuses the client certificate of user "${peer.loaded.userName}" (${peer.loaded.origins.user}) ends the handshake this way`
				: `is ${peer.flag} an https:// URL of a TLS server?`;
		return sourceFailure('tls', `the TLS handshake with ${peer.url} failed`, [`TLS: ${code}`, hint]);
	}

	if (code.startsWith('ERR_OSSL_')) {
		// Key material that OpenSSL cannot load is a configuration problem (exit 2), not the server's.
		const message = redact(field(error, 'message') ?? code, secrets);
		if (peer.kind === 'api-server') {
			const {loaded} = peer;
			return sourceFailure('config', `the certificates or keys for context "${loaded.contextName}" cannot be used`, [
				message,
				`check certificate-authority(-data) of ${clusterWhere(loaded)} and client-certificate(-data)/client-key(-data) of user "${loaded.userName}" in ${loaded.origins.user}`,
			]);
		}

		const user =
			peer.loaded && !peer.tokenFile ? ` and the client certificate of user "${peer.loaded.userName}" in ${peer.loaded.origins.user}` : '';
		return sourceFailure('config', `the certificates or keys for ${peer.flag} ${peer.url} cannot be used`, [
			message,
			`check ${peer.caFile ? `--kubelet-ca ${peer.caFile}` : 'the CA'}${user}`,
		]);
	}

	return null;
}

/** A path as messages show it: a long query string (a PromQL query) would fill the screen. */
function shownPath(path: string): string {
	const mark = path.indexOf('?');
	return mark !== -1 && path.length > 80 ? `${path.slice(0, mark)}?…` : path;
}

/** Socket, DNS, TLS, timeout and cut-body errors. Abort is not classified: the caller rethrows it. */
export function classifyRequestError(error: unknown, peer: Peer, path: string, secrets: readonly string[]): SourceFailure {
	const name = peerName(peer);
	const request = `request: GET ${shownPath(path)}`;
	if (error instanceof RequestTimeoutError) {
		return sourceFailure('timeout', `no answer from ${name} within ${formatGoDuration(error.timeoutMs / 1000)}`, [
			request,
			...proxyLine(peer),
		]);
	}

	if (error instanceof BodyCutError) {
		return sourceFailure('network', `the answer from ${name} was cut off before its end`, [
			request,
			'the connection closed in the middle of the body',
		]);
	}

	if (error instanceof BodyTooLargeError) {
		const url = `${peer.url.replace(/\/$/, '')}${shownPath(path)}`;
		const after = error.decoded ? ' after decompression' : '';
		return sourceFailure('http', `the body from ${url} passed ${formatByteSize(error.limitBytes)}${after}; raise --max-body-size`, [
			"pleg-top stopped reading it there: a kubelet's /metrics is a few MB; something in the way may send without end",
		]);
	}

	if (error instanceof BodyEncodingError) {
		return sourceFailure('network', `the answer from ${name} could not be read: ${error.message}`, [
			request,
			'the answer said Content-Encoding: gzip; something between pleg-top and the server may have cut or altered it',
		]);
	}

	const tls = tlsFailure(error, peer, secrets);
	if (tls !== null) {
		return tls;
	}

	const code = field(error, 'code') ?? '';
	const cause =
		networkCause(code, new URL(peer.url).hostname) ?? tunnelRefusal(error) ?? redact(field(error, 'message') ?? String(error), secrets);
	return sourceFailure('network', `cannot reach ${name}: ${cause}`, [origin(peer), request, ...proxyLine(peer)]);
}

/** A proxy that answered the CONNECT with another status than 200 (hpagent says "Bad response: 407"), in words. */
function tunnelRefusal(error: unknown): string | null {
	const status = /^Bad response: (\d{3})$/.exec(field(error, 'message') ?? '')?.[1];
	if (status === undefined) return null;
	const why = status === '407' ? ': the proxy wants credentials (user:password@ in the proxy URL)' : '';
	return `the proxy answered ${statusLine(Number(status))} to CONNECT${why}`;
}

/**
 * Through a proxy (the cluster's proxy-url, or HTTPS_PROXY and the like), a refused or unanswered connection may
 * be the proxy's: the line names it (without the user and password a proxy URL may carry).
 */
function proxyLine(peer: Peer): string[] {
	const proxy = peer.kind === 'api-server' ? peer.loaded.proxy : undefined;
	return proxy ? [`through ${proxy.said}: the error may be the proxy's`] : [];
}

// Answers: any status but 2xx.

/** What a request was for, so a refusal names the rule and a 404 or 502 reads right. */
export type Call = {
	path: string;
	/** The RBAC rule this request needs: a 403 names it. */
	rule?: Rule;
	/** The action in words for a 403, e.g. 'get nodes/proxy on node "worker-1"'. */
	action?: string;
	/** Extra lines for a 403 (what the right grants, what else would do). */
	forbiddenNotes?: string[];
	/** The node whose kubelet the API server proxies to: a 502/503 then means that kubelet is unreachable. */
	proxiedNode?: string;
	/** Summary and hint for a 404 from a flag-named server (a wrong URL). */
	notFound?: {summary: string; hint?: string};
};

function credentialHint(loaded: LoadedKubeconfig): string {
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

	if (user?.username) {
		return `the user name and password (users[].user.username and password of ${where}) were rejected: a wrong password? (kube-apiserver itself takes no basic auth since v1.19)`;
	}

	return `${where} has no credentials (no token, client certificate or exec plugin)`;
}

function unauthorized(answer: HttpAnswer, peer: Peer, secrets: readonly string[]): SourceFailure {
	if (peer.kind === 'api-server') {
		const {loaded} = peer;
		return sourceFailure('unauthorized', `${peer.url} rejected the credentials of ${identity(peer)}`, [
			quote(answer, peer, secrets),
			credentialHint(loaded),
			`check: ${kubectlCommand(kubectlTargetOf(loaded), ['auth', 'whoami'])}`,
		]);
	}

	const hints =
		peer.kind === 'kubelet'
			? [
					'the kubelet checks bearer tokens with the API server only when its webhook authentication is on (authentication.webhook.enabled); otherwise it takes client certificates signed by its client CA',
				]
			: [];
	return sourceFailure('unauthorized', `${peerName(peer)} rejected ${identity(peer)}`, [quote(answer, peer, secrets), ...hints]);
}

/** One refused request: the answer and the rule it needed. */
export type Refusal = {answer: HttpAnswer; rule?: Rule};

/** "needed: get on nodes and nodes/proxy (ClusterRole rule: ...)": one line per scope, one rule covering them all. */
function neededLines(rules: readonly Rule[]): string[] {
	const scopes = new Map<string | undefined, Rule[]>();
	for (const rule of rules) {
		scopes.set(rule.namespace, [...(scopes.get(rule.namespace) ?? []), rule]);
	}

	return [...scopes].map(([namespace, scoped]) => {
		const list = (values: string[]) => [...new Set(values)].map((value) => `"${value}"`).join(', ');
		const words = scoped.map((rule) => `${rule.verb} on ${rule.resource}`).join(' and ');
		const where = namespace === undefined ? '' : ` in namespace ${namespace}`;
		const kind = namespace === undefined ? 'ClusterRole rule' : `Role rule in namespace ${namespace}`;
		return `needed: ${words}${where} (${kind}: apiGroups [""], resources [${list(scoped.map((rule) => rule.resource))}], verbs [${list(scoped.map((rule) => rule.verb))}])`;
	});
}

/**
 * A 403, or several: the server's words for each, every rule that is missing (not only the first refused), the
 * can-i command for each, and `notes`.
 */
export function forbiddenFailure(
	peer: Peer,
	refusals: readonly Refusal[],
	action: string,
	notes: readonly string[],
	secrets: readonly string[],
): SourceFailure {
	const rules = refusals.flatMap((refusal) => (refusal.rule ? [refusal.rule] : []));
	const summary =
		peer.kind === 'api-server'
			? `${identity(peer)} is not allowed to ${action}`
			: `${peerName(peer)} does not allow ${identity(peer)} to ${action}`;
	return sourceFailure('forbidden', summary, [
		...refusals.map((refusal) => quote(refusal.answer, peer, secrets)),
		...neededLines(rules),
		...rules.map((rule) => `check: ${canI(peer, rule)}`),
		...notes,
	]);
}

/** Seconds the server asked to wait (Retry-After: seconds, or an HTTP date read against its own Date header); null when it did not ask. */
function retryAfterSeconds(answer: HttpAnswer): number | null {
	const value = String(answer.headers['retry-after'] ?? '').trim();
	let seconds = Number.NaN;
	if (/^\d+$/.test(value)) {
		seconds = Number(value);
	} else if (value !== '') {
		// The server's clock against the server's clock: no skew with the local one.
		seconds = Math.ceil((Date.parse(value) - Date.parse(String(answer.headers.date ?? ''))) / 1000);
	}

	return Number.isFinite(seconds) && seconds >= 1 ? seconds : null;
}

/** A 429 (or a 503 of the API server itself) with Retry-After: wait as asked, at most maxRetryAfterSeconds, and say so. */
function throttled(answer: HttpAnswer, peer: Peer, path: string, asked: number, secrets: readonly string[]): SourceFailure {
	const waits = Math.min(asked, maxRetryAfterSeconds);
	const wait =
		asked > waits
			? `asked to wait ${formatGoDuration(asked)}; pleg-top waits at most ${formatGoDuration(waits)}`
			: `asked to wait ${formatGoDuration(asked)}`;
	return sourceFailure(
		'http',
		`${speaker(peer)} ${wait} (${statusLine(answer.status)} to GET ${shownPath(path)})`,
		[
			quote(answer, peer, secrets),
			`the next request goes out in ${formatGoDuration(waits)}, as its Retry-After header asked, instead of the usual back-off`,
		],
		waits,
	);
}

/** Any answer but 2xx, except the API server's node-not-found 404 (which needs the node list: notFoundFailure). */
export function classifyAnswer(answer: HttpAnswer, peer: Peer, call: Call, secrets: readonly string[]): SourceFailure {
	if (answer.status === 401) {
		return unauthorized(answer, peer, secrets);
	}

	if (answer.status === 403) {
		return forbiddenFailure(
			peer,
			[{answer, rule: call.rule}],
			call.action ?? `GET ${shownPath(call.path)}`,
			call.forbiddenNotes ?? [],
			secrets,
		);
	}

	const asked = retryAfterSeconds(answer);
	if (asked !== null && (answer.status === 429 || (answer.status === 503 && call.proxiedNode === undefined))) {
		return throttled(answer, peer, call.path, asked, secrets);
	}

	if (call.proxiedNode !== undefined && (answer.status === 502 || answer.status === 503)) {
		const node = call.proxiedNode;
		const target = peer.kind === 'api-server' ? kubectlTargetOf(peer.loaded) : null;
		return sourceFailure('kubelet-unreachable', `the API server cannot reach the kubelet on node "${node}"`, [
			`API server (${answer.status}): ${serverMessage(answer, secrets)}`,
			'that is itself a sign of node trouble: the kubelet is down or the node is cut off from the control plane',
			`check: ${kubectlCommand(target, ['get', 'node', node, '-o', 'wide'])}`,
		]);
	}

	if (answer.status === 404 && call.notFound !== undefined) {
		return sourceFailure('not-found', call.notFound.summary, [
			quote(answer, peer, secrets),
			...(call.notFound.hint ? [call.notFound.hint] : []),
		]);
	}

	return sourceFailure('http', `${peerName(peer)} answered ${statusLine(answer.status)} to GET ${shownPath(call.path)}`, [
		quote(answer, peer, secrets),
	]);
}

/** A 404 that the API server itself gave for the node (not a kubelet 404 passed through the proxy). */
export function isNodeNotFound(answer: HttpAnswer): boolean {
	const status = readStatus(answer.body);
	return (
		answer.status === 404 &&
		status !== null &&
		status.reason === 'NotFound' &&
		(status.kind === 'nodes' || /^nodes? "/.test(status.message ?? ''))
	);
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

export function notFoundFailure(
	answer: HttpAnswer,
	peer: Extract<Peer, {kind: 'api-server'}>,
	node: string,
	names: NodeNames,
	secrets: readonly string[],
): SourceFailure {
	return sourceFailure('not-found', `node "${node}" does not exist in cluster "${peer.loaded.clusterName}"`, [
		quote(answer, peer, secrets),
		nodeNamesLine(names),
	]);
}

/** A 200 that is an HTML page (a proxy or login portal in the way, or a wrong port), not kubelet metrics. */
export function htmlInsteadOfMetrics(answer: HttpAnswer, peer: Peer, secrets: readonly string[]): SourceFailure | null {
	if (!isHtml(answer)) {
		return null;
	}

	// A body that is not metrics is a parse failure like any other: same words, same line number.
	const line = answer.body.slice(0, answer.body.search(/\S|$/)).split('\n').length;
	const hint =
		peer.kind === 'kubelet'
			? `is ${peer.flag} the kubelet (port 10250)?`
			: 'is a proxy or a login portal between pleg-top and the API server?';
	return sourceFailure(
		'parse',
		`metrics could not be parsed (line ${line}): ${peerName(peer)} answered with an HTML page, not kubelet metrics`,
		[`content-type: ${String(answer.headers['content-type'] ?? '(none)')}; the page: ${serverMessage(answer, secrets)}`, hint],
	);
}
