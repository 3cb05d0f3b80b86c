// Turns the kubeconfig user/cluster into what one request needs (headers + TLS material) through
// client-node's applyToHTTPSOptions, so token, tokenFile, client certs, exec plugins and auth providers
// all work as the library implements them; the request itself goes elsewhere (a keep-alive agent).
import type http from 'node:http';
import type https from 'node:https';
import {buildKubeConfig, type LoadedKubeconfig} from './kubeconfig.js';
import type {AuthProvider} from './token-file-auth.js';
import {
	credentialGoodUntil,
	execSpecOf,
	execTimeoutFor,
	ExecPluginTimeoutError,
	maxExecTimeoutMs,
	runExecPlugin,
	type ExecCredentialStatus,
	type ExecSpec,
} from './exec-plugin.js';
import {formatGoDuration} from '../../domain/text/go-duration.js';
import {redact, sourceFailure, type SourceFailure} from '../failure.js';
import type {AuthSource, RequestAuth as TransportAuth} from '../http/transport.js';

type Material = string | Buffer;

/** The transport's auth (proxyAgent set when the cluster has a proxy-url: client-node's agent), plus the secrets seen. */
type RequestAuth = TransportAuth & {
	/** Credential values to strip from any message (token, password, key). */
	secrets: string[];
};

export type Credentials = {
	/** Cached auth, re-resolved after `ttlMs`; an exec plugin's credential is kept until its expiry (exec-plugin.ts). */
	get(): Promise<RequestAuth>;
	/** Drops every cache (also the exec plugin's) and resolves again: used after a 401. */
	refresh(): Promise<RequestAuth>;
	/** True when a refresh can give different credentials (exec plugin, token file, auth provider). */
	readonly canRefresh: boolean;
	/** Every credential value seen so far, for redaction. */
	secrets(): string[];
};

type CredentialOptions = {
	/** How long resolved auth is reused, ms. */
	ttlMs: number;
	/** Clock for the cache, ms. */
	now: () => number;
	/** The request timeout, ms: an exec plugin gets as long, at most 30 s (exec-plugin.ts execTimeoutFor). */
	requestTimeoutMs: number;
};

function errorField(error: unknown, field: string): string | undefined {
	const value: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, field) : undefined;
	return typeof value === 'string' ? value : undefined;
}

function settingForFile(loaded: LoadedKubeconfig, file: string): string {
	const cluster = loaded.kubeConfig.getCluster(loaded.clusterName);
	const user = loaded.kubeConfig.getUser(loaded.userName);
	const inCluster = `of cluster "${loaded.clusterName}" in ${loaded.origins.cluster}`;
	const inUser = `of user "${loaded.userName}" in ${loaded.origins.user}`;
	if (cluster?.caFile === file) {
		return `certificate-authority ${inCluster}`;
	}

	if (user?.certFile === file) {
		return `client-certificate ${inUser}`;
	}

	if (user?.keyFile === file) {
		return `client-key ${inUser}`;
	}

	// The cast: client-node types authProvider as any.
	if ((user?.authProvider as AuthProvider)?.config?.path === file) {
		return `tokenFile ${inUser}`;
	}

	return `a file named by context "${loaded.contextName}"`;
}

function execCommand(loaded: LoadedKubeconfig): ExecSpec | null {
	return execSpecOf(loaded.kubeConfig.getUser(loaded.userName)?.exec);
}

function execFailure(loaded: LoadedKubeconfig, error: unknown, secrets: string[]): SourceFailure {
	const exec = execCommand(loaded)!; // called only for a user with a plugin
	const who = `the credential plugin of user "${loaded.userName}" (context "${loaded.contextName}")`;
	const command = `command: ${[exec.command, ...exec.args].join(' ')}`;
	if (error instanceof ExecPluginTimeoutError) {
		const name = exec.command.split(/[\\/]/).pop() ?? exec.command;
		const bound = formatGoDuration(error.timeoutMs / 1000);
		return sourceFailure('timeout', `exec plugin "${name}" (from kubeconfig user "${loaded.userName}") did not answer within ${bound}`, [
			command,
			`killed; it runs again at the next poll (it gets --timeout, at most ${formatGoDuration(maxExecTimeoutMs / 1000)})`,
			'if it waits for a login (browser, MFA), first run: kubectl get --raw /version',
		]);
	}

	if (errorField(error, 'code') === 'ENOENT' && errorField(error, 'syscall')?.startsWith('spawn')) {
		return sourceFailure('config', `${who} could not be started: ${exec.command} not found`, [
			command,
			`users[].user.exec.command in ${loaded.origins.user}`,
			...(exec.installHint ? exec.installHint.trim().split('\n') : []),
		]);
	}

	// JSON.parse quotes the plugin's stdout in its message, and stdout is the credential: never show it.
	if (error instanceof SyntaxError || error instanceof TypeError) {
		return sourceFailure('unauthorized', `${who} did not print an ExecCredential`, [
			command,
			'its output (not shown: it may hold a credential) is not ExecCredential JSON with a status',
		]);
	}

	const stderr = redact(error instanceof Error ? error.message : String(error), secrets).trimEnd();
	return sourceFailure('unauthorized', `${who} failed`, [
		command,
		...(stderr === '' ? ['it wrote nothing to stderr'] : ['its stderr:', ...stderr.split('\n')]),
	]);
}

function authFailure(loaded: LoadedKubeconfig, error: unknown, secrets: string[]): SourceFailure {
	const file = errorField(error, 'path');
	const code = errorField(error, 'code');
	if (execCommand(loaded) !== null && errorField(error, 'syscall')?.startsWith('spawn')) {
		return execFailure(loaded, error, secrets);
	}

	if (file !== undefined && (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')) {
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : 'it is a directory';
		return sourceFailure('config', `cannot read ${file}: ${why}`, [`it is the ${settingForFile(loaded, file)}`]);
	}

	if (execCommand(loaded) !== null) {
		return execFailure(loaded, error, secrets);
	}

	const message = redact(error instanceof Error ? error.message : String(error), secrets);
	return sourceFailure('config', `cannot use the credentials of user "${loaded.userName}" in ${loaded.origins.user}`, [message]);
}

// client-node refuses plain http:// servers unless insecure-skip-tls-verify is set; kubectl allows them
// (e.g. `kubectl proxy` on 127.0.0.1:8001). The check runs after every option was filled in, so the
// filled options are complete and usable.
function isPlainHttpRefusal(error: unknown): boolean {
	return error instanceof Error && error.message.startsWith('HTTP protocol is not allowed');
}

function collectSecrets(loaded: LoadedKubeconfig, headers: Record<string, string>, key: Material | undefined): string[] {
	const user = loaded.kubeConfig.getUser(loaded.userName);
	const found = [user?.token, user?.password, user?.keyData, headers['Authorization']?.replace(/^\w+\s+/, '')];
	if (typeof key === 'string') {
		found.push(key);
	}

	return found.filter((value): value is string => typeof value === 'string' && value !== '');
}

function toHeaders(options: https.RequestOptions): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (typeof value === 'string' || typeof value === 'number') {
			headers[name] = String(value);
		}
	}

	if (typeof options.auth === 'string') {
		headers['Authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
	}

	return headers;
}

/**
 * The kubeconfig without the exec plugin of `userName`: pleg-top runs that plugin itself (bounded, see
 * exec-plugin.ts), and client-node fills in everything else (CA, client certificate files, other auth).
 */
function withoutExec(kubeConfig: LoadedKubeconfig['kubeConfig'], userName: string): LoadedKubeconfig['kubeConfig'] {
	return buildKubeConfig({
		clusters: kubeConfig.getClusters(),
		users: kubeConfig.getUsers().map((user) => (user.name === userName ? {...user, exec: undefined} : user)),
		contexts: kubeConfig.getContexts(),
		currentContext: kubeConfig.getCurrentContext(),
	});
}

/** The plugin's credential laid over what client-node filled in, as client-node's own ExecAuth lays it. */
function applyExecCredential(options: https.RequestOptions, status: ExecCredentialStatus, userToken: string | undefined): void {
	if (status.clientCertificateData) options.cert = status.clientCertificateData;
	if (status.clientKeyData) options.key = status.clientKeyData;
	// A token written in the kubeconfig user wins over the plugin's, as in client-node.
	if (status.token && !userToken) options.headers = {...options.headers, Authorization: `Bearer ${status.token}`};
}

/** The exec plugin's credential, kept until it lapses; every token and key it hands out joins `known`. */
function execCredentials(spec: ExecSpec, options: CredentialOptions, known: Set<string>) {
	const timeoutMs = execTimeoutFor(options.requestTimeoutMs);
	let cached: {status: ExecCredentialStatus; until: number} | null = null;
	return {
		async get(): Promise<{status: ExecCredentialStatus; until: number}> {
			if (cached && options.now() < cached.until) return cached;
			const status = await runExecPlugin(spec, timeoutMs);
			for (const secret of [status.token, status.clientKeyData]) {
				if (secret) known.add(secret);
			}

			cached = {status, until: credentialGoodUntil(status, options.now())};
			return cached;
		},
		clear() {
			cached = null;
		},
	};
}

/** What client-node filled into `requestOptions`, as the transport's auth; its credential values join `known`. */
function requestAuthOf(loaded: LoadedKubeconfig, requestOptions: https.RequestOptions, known: Set<string>): RequestAuth {
	const headers = toHeaders(requestOptions);
	const key = requestOptions.key as Material | undefined; // kubeconfig: PEM text or file bytes
	for (const secret of collectSecrets(loaded, headers, key)) {
		known.add(secret);
	}

	return {
		headers,
		tls: {
			ca: requestOptions.ca as Material | undefined, // kubeconfig: one CA bundle, text or bytes
			cert: requestOptions.cert as Material | undefined, // kubeconfig: one certificate chain, text or bytes
			key,
			rejectUnauthorized: requestOptions.rejectUnauthorized,
			servername: requestOptions.servername ?? undefined,
		},
		// client-node made the proxy's agent (a proxy-url, or the environment's proxy put in its place).
		proxyAgent: loaded.proxy ? (requestOptions.agent as http.Agent) : undefined, // client-node: always an Agent
		secrets: [...known],
	};
}

/** A copy of `kubeConfig`: client-node's auth providers keep tokens inside it, and a copy starts without them. */
function freshCopy(kubeConfig: LoadedKubeconfig['kubeConfig']): LoadedKubeconfig['kubeConfig'] {
	return buildKubeConfig({
		clusters: kubeConfig.getClusters(),
		users: kubeConfig.getUsers(),
		contexts: kubeConfig.getContexts(),
		currentContext: kubeConfig.getCurrentContext(),
	});
}

function createCredentials(loaded: LoadedKubeconfig, options: CredentialOptions): Credentials {
	const user = loaded.kubeConfig.getUser(loaded.userName);
	const exec = execCommand(loaded);
	const known = new Set<string>(collectSecrets(loaded, {}, undefined));
	const plugin = exec ? execCredentials(exec, options, known) : null;
	let kubeConfig = exec ? withoutExec(loaded.kubeConfig, loaded.userName) : loaded.kubeConfig;
	let cached: {auth: RequestAuth; until: number} | null = null;
	let pending: Promise<RequestAuth> | null = null;

	async function resolve(): Promise<RequestAuth> {
		const requestOptions: https.RequestOptions = {headers: {}};
		await kubeConfig.applyToHTTPSOptions(requestOptions).catch((error: unknown) => {
			if (!isPlainHttpRefusal(error)) throw authFailure(loaded, error, [...known]);
		});
		let execUntil = Number.POSITIVE_INFINITY;
		if (plugin) {
			const credential = await plugin.get().catch((error: unknown) => {
				throw authFailure(loaded, error, [...known]);
			});
			applyExecCredential(requestOptions, credential.status, user?.token);
			execUntil = credential.until;
		}

		const auth = requestAuthOf(loaded, requestOptions, known);
		// Files (CA, token file) are read again after the TTL; the plugin runs again only when its credential lapses.
		cached = {auth, until: Math.min(options.now() + options.ttlMs, execUntil)};
		return auth;
	}

	function once(): Promise<RequestAuth> {
		// Concurrent callers (metrics + node) share one resolution, so an exec plugin runs once; a plugin that
		// hangs is killed after its bound, so this never waits longer than that.
		pending ??= resolve().finally(() => {
			pending = null;
		});
		return pending;
	}

	return {
		canRefresh: Boolean(user?.exec || user?.authProvider),
		async get() {
			if (cached && options.now() < cached.until) {
				return cached.auth;
			}

			return once();
		},
		async refresh() {
			kubeConfig = freshCopy(kubeConfig);
			cached = null;
			plugin?.clear();
			return once();
		},
		secrets: () => [...known],
	};
}

/** The kubeconfig user as a transport's AuthSource: a refresh after a 401 only when it can bring other credentials. */
export function kubeconfigAuth(loaded: LoadedKubeconfig, options: CredentialOptions): AuthSource & {credentials: Credentials} {
	const credentials = createCredentials(loaded, options);
	return {
		credentials,
		get: async () => credentials.get(),
		refresh: credentials.canRefresh ? async () => credentials.refresh() : undefined,
		secrets: () => credentials.secrets(),
	};
}
