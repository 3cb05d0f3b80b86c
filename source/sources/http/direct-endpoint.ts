// What --kubelet-url and --prometheus share: a server named by a flag rather than by the kubeconfig, its TLS
// trust from --kubelet-ca or --insecure-skip-tls-verify, a bearer token from --token-file, one keep-alive agent,
// and request errors in the user's terms (the flag to change, not a kubeconfig field).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import {networkCause, serverMessage, untrustedReasons} from './classify.js';
import {redact, sourceFailure, type SourceFailure} from '../failure.js';
import {BodyCutError, getText, RequestTimeoutError, StaleSocketError, type HttpAnswer} from './https-request.js';

export type EndpointOptions = {
	/** The flag's URL, e.g. https://10.0.0.5:10250 or http://prometheus:9090. */
	url: string;
	/** The flag it came from, for messages: "--kubelet-url" or "--prometheus". */
	flag: string;
	/** Who answers, for messages: "the kubelet" or "Prometheus". */
	what: string;
	/** --kubelet-ca FILE (PEM). */
	caFile?: string;
	/** A CA to trust when no caFile is given (e.g. the cluster's CA from the kubeconfig). */
	fallbackCa?: string | Buffer;
	insecureSkipTlsVerify: boolean;
	/** Client certificate and key (the kubeconfig user's), PEM. */
	cert?: string | Buffer;
	key?: string | Buffer;
	timeoutMs: number;
};

export type Endpoint = {
	/** The URL without a trailing slash. */
	base: string;
	/** GET base + path; retries once on a kept-alive socket the server had closed. Throws classified SourceFailures. */
	get(path: string, headers: Record<string, string>, signal: AbortSignal, secrets: readonly string[]): Promise<HttpAnswer>;
	close(): void;
};

/** Reads --kubelet-ca; a missing or unreadable file is a usage problem (exit 2). */
function readCa(file: string): Buffer {
	try {
		return fs.readFileSync(file);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : String(code);
		throw sourceFailure('config', `cannot read --kubelet-ca ${file}: ${why}`, ['give the PEM file of the CA that signed the server certificate']);
	}
}

/** Reads --token-file on every request, trimmed, so a rotated (projected) token is picked up. */
export async function readBearer(file: string): Promise<string> {
	try {
		return (await fs.promises.readFile(file, 'utf8')).trim();
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code);
		throw sourceFailure('config', `cannot read --token-file ${file}: ${why}`, ['give a file holding a bearer token (e.g. a service account token)']);
	}
}

function field(error: unknown, name: string): string | undefined {
	const value = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
	return typeof value === 'string' ? value : undefined;
}

function trustHint(options: EndpointOptions): string {
	return options.caFile
		? `trust comes from --kubelet-ca ${options.caFile}: is it the CA that signed ${options.what}'s certificate?`
		: `give the CA that signed ${options.what}'s certificate with --kubelet-ca FILE, or accept any certificate with --insecure-skip-tls-verify (then stated on screen)`;
}

/** Socket, DNS, TLS, timeout and cut-body errors of a request to a flag-named server. */
export function classifyEndpointError(error: unknown, options: EndpointOptions, path: string, secrets: readonly string[]): SourceFailure {
	const {url, what, flag} = options;
	const request = `request: GET ${path}`;
	if (error instanceof RequestTimeoutError) {
		return sourceFailure('timeout', `no answer from ${what} at ${url} within ${error.timeoutMs / 1000}s`, [request, `the server comes from ${flag}`]);
	}

	if (error instanceof BodyCutError) {
		return sourceFailure('network', `the answer from ${what} at ${url} was cut off before its end`, [request]);
	}

	const code = field(error, 'code') ?? '';
	if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
		return sourceFailure('tls', `the certificate of ${url} is not valid for host ${new URL(url).hostname}`, [
			`TLS: ${field(error, 'reason') ?? code}`,
			`use a host name the certificate lists in ${flag}, or --insecure-skip-tls-verify`,
		]);
	}

	const reason = untrustedReasons[code];
	if (reason !== undefined) {
		return sourceFailure('tls', `the certificate of ${what} at ${url} is not trusted: ${reason}`, [trustHint(options), `TLS: ${code}`]);
	}

	if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_OSSL_')) {
		return sourceFailure('tls', `the TLS handshake with ${url} failed`, [`TLS: ${redact(field(error, 'message') ?? code, secrets)}`, `is ${flag} an https:// URL of a TLS server?`]);
	}

	const cause = networkCause(code, new URL(url).hostname) ?? redact(field(error, 'message') ?? String(error), secrets);
	return sourceFailure('network', `cannot reach ${what} at ${url}: ${cause}`, [request, `the server comes from ${flag}`]);
}

/** A non-2xx status line for messages: "403 Forbidden", plus what the server said. */
export function answerLine(answer: HttpAnswer, secrets: readonly string[]): string {
	return `${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}`.trim() + `: ${serverMessage(answer, [...secrets])}`;
}

/** " (TLS NOT VERIFIED)" for an https URL with --insecure-skip-tls-verify, else "": the source label says it. */
export function tlsNote(url: string, insecureSkipTlsVerify: boolean): string {
	return new URL(url).protocol === 'https:' && insecureSkipTlsVerify ? ' (TLS NOT VERIFIED)' : '';
}

export function createEndpoint(options: EndpointOptions): Endpoint {
	const base = options.url.replace(/\/$/, '');
	const target = new URL(base);
	const plain = target.protocol === 'http:';
	const ca = options.caFile ? readCa(options.caFile) : options.fallbackCa;
	const agent = plain
		? new http.Agent({keepAlive: true})
		: new https.Agent({keepAlive: true, ca, cert: options.cert, key: options.key, rejectUnauthorized: !options.insecureSkipTlsVerify});
	return {
		base,
		async get(path, headers, signal, secrets) {
			const request = () => getText({url: new URL(base + path), agent, headers: {'User-Agent': 'pleg-top', 'Accept-Encoding': 'gzip', ...headers}, timeoutMs: options.timeoutMs, signal});
			try {
				return await request().catch(async (error: unknown) => {
					if (error instanceof StaleSocketError) {
						return request();
					}

					throw error;
				});
			} catch (error) {
				if (signal.aborted) {
					throw error;
				}

				throw classifyEndpointError(error, options, path, secrets);
			}
		},
		close() {
			agent.destroy();
		},
	};
}
