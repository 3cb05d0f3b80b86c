// Turns the kubeconfig user/cluster into what one request needs (headers + TLS material) through
// client-node's applyToHTTPSOptions, so token, tokenFile, client certs, exec plugins and auth providers
// all work as the library implements them; the request itself goes elsewhere (a keep-alive agent).
import type http from 'node:http';
import type https from 'node:https';
import {buildKubeConfig, type LoadedKubeconfig} from './kubeconfig.js';
import {redact, sourceFailure, type SourceFailure} from '../failure.js';
import type {AuthSource, RequestAuth as TransportAuth} from '../http/transport.js';

type Material = string | Buffer;

/** The transport's auth (proxyAgent set when the cluster has a proxy-url: client-node's agent), plus the secrets seen. */
export type RequestAuth = TransportAuth & {
	/** Credential values to strip from any message (token, password, key). */
	secrets: string[];
};

export type Credentials = {
	/** Cached auth, re-resolved after `ttlMs` (exec plugins cache their own tokens until expiry). */
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
};

function errorField(error: unknown, field: string): string | undefined {
	const value = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[field] : undefined;
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

	if (user?.authProvider?.config?.path === file) {
		return `tokenFile ${inUser}`;
	}

	return `a file named by context "${loaded.contextName}"`;
}

function execCommand(loaded: LoadedKubeconfig): {command: string; args: string[]; installHint?: string} | null {
	const exec = loaded.kubeConfig.getUser(loaded.userName)?.exec as {command?: string; args?: string[]; installHint?: string} | undefined;
	if (!exec || typeof exec.command !== 'string') {
		return null;
	}

	return {command: exec.command, args: Array.isArray(exec.args) ? exec.args : [], installHint: exec.installHint};
}

function execFailure(loaded: LoadedKubeconfig, error: unknown, secrets: string[]): SourceFailure {
	const exec = execCommand(loaded)!;
	const who = `the credential plugin of user "${loaded.userName}" (context "${loaded.contextName}")`;
	const command = `command: ${[exec.command, ...exec.args].join(' ')}`;
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

export function createCredentials(loaded: LoadedKubeconfig, options: CredentialOptions): Credentials {
	const user = loaded.kubeConfig.getUser(loaded.userName);
	const cluster = loaded.kubeConfig.getCluster(loaded.clusterName);
	const known = new Set<string>(collectSecrets(loaded, {}, undefined));
	let kubeConfig = loaded.kubeConfig;
	let cached: {auth: RequestAuth; at: number} | null = null;
	let pending: Promise<RequestAuth> | null = null;

	async function resolve(): Promise<RequestAuth> {
		const requestOptions: https.RequestOptions = {headers: {}};
		try {
			await kubeConfig.applyToHTTPSOptions(requestOptions);
		} catch (error) {
			if (!isPlainHttpRefusal(error)) {
				throw authFailure(loaded, error, [...known]);
			}
		}

		const headers = toHeaders(requestOptions);
		const key = requestOptions.key as Material | undefined;
		for (const secret of collectSecrets(loaded, headers, key)) {
			known.add(secret);
		}

		const auth: RequestAuth = {
			headers,
			tls: {
				ca: requestOptions.ca as Material | undefined,
				cert: requestOptions.cert as Material | undefined,
				key,
				rejectUnauthorized: requestOptions.rejectUnauthorized,
				servername: requestOptions.servername ?? undefined,
			},
			proxyAgent: cluster?.proxyUrl ? (requestOptions.agent as http.Agent) : undefined,
			secrets: [...known],
		};
		cached = {auth, at: options.now()};
		return auth;
	}

	function once(): Promise<RequestAuth> {
		// Concurrent callers (metrics + node) share one resolution, so an exec plugin runs once.
		pending ??= resolve().finally(() => {
			pending = null;
		});
		return pending;
	}

	return {
		canRefresh: Boolean(user?.exec || user?.authProvider),
		async get() {
			if (cached && options.now() - cached.at < options.ttlMs) {
				return cached.auth;
			}

			return once();
		},
		async refresh() {
			kubeConfig = buildKubeConfig({
				clusters: kubeConfig.getClusters(),
				users: kubeConfig.getUsers(),
				contexts: kubeConfig.getContexts(),
				currentContext: kubeConfig.getCurrentContext(),
			});
			cached = null;
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
