// Credentials and trust for a server named by a flag (--kubelet-url, --prometheus) rather than by the kubeconfig:
// a bearer token from --token-file (read on every request, so a rotated projected token is picked up), else the
// kubeconfig user's token and client certificate; trust from --kubelet-ca, else the kubeconfig cluster's CA
// (kubelets with serverTLSBootstrap have certificates it signed), or none with --insecure-skip-tls-verify.
import fs from 'node:fs';
import {
	createTransport,
	transportWarnings,
	type AuthSource,
	type RequestAuth,
	type Transport,
	type TransportWarnings,
} from './transport.js';
import type {Peer} from './classify.js';
import {kubeconfigAuth} from '../kube/credentials.js';
import type {LoadedKubeconfig} from '../kube/kubeconfig.js';
import {sourceFailure} from '../failure.js';
import {codeOf} from '../../domain/text/thrown.js';

export type FlagAuthOptions = {
	/** --token-file. */
	tokenFile?: string;
	/** --kubelet-ca FILE (PEM). */
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	/** The kubeconfig whose user authenticates when there is no --token-file. */
	loaded?: LoadedKubeconfig;
	/** Local clock for the credential cache, ms. */
	now: () => number;
	/** The request timeout, ms: it also bounds the kubeconfig user's exec plugin. */
	timeoutMs: number;
};

/** Reads --kubelet-ca; a missing or unreadable file is a usage problem (exit 2). */
function readCa(file: string): Buffer {
	try {
		return fs.readFileSync(file);
	} catch (error) {
		const code = codeOf(error);
		const why =
			code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : String(code);
		throw sourceFailure('config', `cannot read --kubelet-ca ${file}: ${why}`, [
			'give the PEM file of the CA that signed the server certificate',
		]);
	}
}

/** Reads --token-file, trimmed (a trailing newline would make an invalid header). */
async function readBearer(file: string): Promise<string> {
	try {
		return (await fs.promises.readFile(file, 'utf8')).trim();
	} catch (error) {
		const code = codeOf(error);
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code);
		throw sourceFailure('config', `cannot read --token-file ${file}: ${why}`, [
			'give a file holding a bearer token (e.g. a service account token)',
		]);
	}
}

/** True when requests carry a token (--token-file, or a kubeconfig user with a token, token file, exec plugin or auth provider). */
export function sendsToken(options: Pick<FlagAuthOptions, 'tokenFile' | 'loaded'>): boolean {
	if (options.tokenFile !== undefined) {
		return true;
	}

	const user = options.loaded?.kubeConfig.getUser(options.loaded.userName);
	return Boolean(user?.token || user?.exec || user?.authProvider || user?.password);
}

/** Throws a 'config' SourceFailure at once when --kubelet-ca cannot be read. */
function flagServerAuth(options: FlagAuthOptions): AuthSource {
	const ca = options.caFile === undefined ? undefined : readCa(options.caFile);
	const rejectUnauthorized = !options.insecureSkipTlsVerify;
	if (options.tokenFile !== undefined) {
		const file = options.tokenFile;
		const tokens = new Set<string>();
		return {
			async get() {
				const token = await readBearer(file);
				tokens.add(token);
				return {headers: {Authorization: `Bearer ${token}`}, tls: {ca, rejectUnauthorized}};
			},
			secrets: () => [...tokens],
		};
	}

	if (options.loaded === undefined) {
		return {get: async () => ({headers: {}, tls: {ca, rejectUnauthorized}}), secrets: () => []};
	}

	const user = kubeconfigAuth(options.loaded, {ttlMs: 60_000, now: options.now, requestTimeoutMs: options.timeoutMs});
	// Only the Authorization header: other kubeconfig headers (impersonation) mean nothing to a kubelet.
	const forServer = ({headers, tls}: RequestAuth): RequestAuth => ({
		headers: headers['Authorization'] ? {Authorization: headers['Authorization']} : {},
		tls: {ca: ca ?? tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized},
	});
	const refresh = user.refresh;
	return {
		get: async () => forServer(await user.get()),
		refresh: refresh && (async () => forServer(await refresh())),
		secrets: () => user.secrets(),
	};
}

/**
 * The transport to a server named by a flag (--kubelet-url, --prometheus, --history-from), with what to warn of once:
 * a token sent without TLS, certificates not verified.
 */
export function flagServerTransport(
	peer: Peer,
	options: FlagAuthOptions & {maxBodyBytes?: number},
): {transport: Transport; warnings: TransportWarnings} {
	const transport = createTransport({
		peer,
		auth: flagServerAuth(options),
		timeoutMs: options.timeoutMs,
		maxBodyBytes: options.maxBodyBytes,
	});
	const warnings = transportWarnings(peer.url, {insecureSkipTlsVerify: options.insecureSkipTlsVerify, sendsToken: sendsToken(options)});
	return {transport, warnings};
}
