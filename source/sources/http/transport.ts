// The one HTTP transport: every request pleg-top makes (API server, kubelet, Prometheus) goes through it. A
// keep-alive agent, made anew only when the TLS material changes (an exec plugin can hand out a new client
// certificate); a timeout for the whole request; abort by signal; gzip; a GET sent once more when a kept-alive
// socket had been closed under it; new credentials and one more try after a 401 when they can differ (as kubectl
// does). Every request error leaves as a SourceFailure from the one classifier. Not client-node's request helper:
// it costs about three times as much CPU per scrape.
import http from 'node:http';
import https from 'node:https';
import {classifyRequestError, type Peer} from './classify.js';
import type {BodyReader} from './body-text.js';
import {defaultMaxBodyBytes, getText, type HttpAnswer} from './https-request.js';
import {streamLines, type StreamEnd} from './line-stream.js';
import {StaleSocketError} from './request-errors.js';
import {SourceFailure} from '../failure.js';

type Material = string | Buffer;

/** What one request needs to authenticate: headers and TLS material. */
export type RequestAuth = {
	headers: Record<string, string>;
	tls: {ca?: Material; cert?: Material; key?: Material; rejectUnauthorized?: boolean; servername?: string};
	/** A proxy agent (the kubeconfig's proxy-url), used instead of the transport's own. */
	proxyAgent?: http.Agent;
};

/** Where a transport's credentials come from: the kubeconfig user, --token-file, or nobody. */
export type AuthSource = {
	get(): Promise<RequestAuth>;
	/** Resolves anew after a 401; absent when a second try could not bring other credentials. */
	refresh?: () => Promise<RequestAuth>;
	/** Every credential value seen so far: no message may contain one. */
	secrets(): string[];
};

export type TransportOptions = {
	peer: Peer;
	auth: AuthSource;
	/** Limit for each request (connect to last body byte), ms. */
	timeoutMs: number;
	/** The most body bytes read from one answer, as received and once gunzipped (--max-body-size). @default 64 MiB */
	maxBodyBytes?: number;
};

export type Transport = {
	readonly peer: Peer;
	/**
	 * GET peer.url + path (a path prefix of the URL is kept: Rancher, Thanos and Mimir serve under one). Resolves with
	 * any answer; rejects with a classified SourceFailure, or with the signal's reason when aborted.
	 */
	get(path: string, headers: Record<string, string>, signal: AbortSignal, readBody?: BodyReader): Promise<HttpAnswer>;
	/**
	 * A streaming GET (a watch): each line of a 2xx answer to `onLine` as it comes, until the server ends it (quiet
	 * for at most `idleMs`). Resolves with how it ended (any other answer whole); rejects as `get` does.
	 */
	stream(
		path: string,
		headers: Record<string, string>,
		signal: AbortSignal,
		idleMs: number,
		onLine: (line: string) => void,
	): Promise<StreamEnd>;
	secrets(): string[];
	close(): void;
};

const userAgent = 'pleg-top';

/** Parsed request URLs kept per transport; a path that varies (never seen yet) cannot grow the map past this. */
const maxUrlsKept = 16;

/**
 * The keep-alive agent for the server, made anew only when the TLS material changes (an exec plugin can hand out a
 * new client certificate): the old one's connections are closed then. With a proxy-url, client-node's agent.
 */
function createAgentKeeper(url: URL) {
	let current: {agent: http.Agent; key: string; tls: RequestAuth['tls']} | null = null;
	// eslint-disable-next-line @typescript-eslint/no-base-to-string -- TLS material is a string or a Buffer, as the kubeconfig gives it
	const text = (value: unknown) => (value === undefined ? '' : String(value));
	return {
		agentFor(auth: RequestAuth): http.Agent {
			if (auth.proxyAgent) {
				return auth.proxyAgent;
			}

			const {tls} = auth;
			// Cached credentials hand out the same object scrape after scrape: the material is compared only when it is new.
			if (current?.tls === tls) {
				return current.agent;
			}

			const key = [tls.ca, tls.cert, tls.key, tls.rejectUnauthorized, tls.servername].map(text).join('\u0000');
			if (current?.key === key) {
				current.tls = tls;
			} else {
				current?.agent.destroy();
				// Idle sockets are unreferenced by the agent, so a kept connection does not hold the process open.
				const agent = url.protocol === 'http:' ? new http.Agent({keepAlive: true}) : new https.Agent({keepAlive: true, ...tls});
				current = {agent, key, tls};
			}

			return current.agent;
		},
		destroy() {
			current?.agent.destroy();
			current = null;
		},
	};
}

export function createTransport(options: TransportOptions): Transport {
	const {peer, auth, timeoutMs} = options;
	const base = peer.url.replace(/\/$/, '');
	const agents = createAgentKeeper(new URL(base));
	// The same few paths every interval (metrics, the Node object, its Events): each parsed once. getText only reads it.
	const urls = new Map<string, URL>();
	const urlOf = (path: string): URL => {
		let url = urls.get(path);
		if (!url) {
			if (urls.size >= maxUrlsKept) urls.clear();
			url = new URL(base + path);
			urls.set(path, url);
		}

		return url;
	};

	async function send(
		credentials: RequestAuth,
		path: string,
		headers: Record<string, string>,
		signal: AbortSignal,
		readBody: BodyReader | undefined,
	): Promise<HttpAnswer> {
		const all = {'User-Agent': userAgent, 'Accept-Encoding': 'gzip', ...credentials.headers, ...headers};
		const url = urlOf(path);
		const request = () =>
			getText({url, agent: agents.agentFor(credentials), headers: all, timeoutMs, signal, readBody, maxBodyBytes: options.maxBodyBytes});
		// A GET that never reached the server is sent once more on a fresh connection.
		return request().catch(async (error: unknown) => {
			if (error instanceof StaleSocketError) {
				return request();
			}

			throw error;
		});
	}

	return {
		peer,
		async get(path, headers, signal, readBody) {
			try {
				let answer = await send(await auth.get(), path, headers, signal, readBody);
				if (answer.status === 401 && auth.refresh) {
					answer = await send(await auth.refresh(), path, headers, signal, readBody);
				}

				return answer;
			} catch (error) {
				if (signal.aborted || error instanceof SourceFailure) {
					throw error;
				}

				throw classifyRequestError(error, peer, path, auth.secrets());
			}
		},
		stream: async (path, headers, signal, idleMs, onLine) =>
			streamWith({...options, base, agents, userAgent}, {path, headers, signal, idleMs, onLine}),
		secrets: () => auth.secrets(),
		close() {
			agents.destroy();
		},
	};
}

type StreamContext = TransportOptions & {base: string; agents: ReturnType<typeof createAgentKeeper>; userAgent: string};
type StreamCall = {path: string; headers: Record<string, string>; signal: AbortSignal; idleMs: number; onLine: (line: string) => void};

/** A streaming GET with the transport's credentials and agent: new credentials and one more try after a 401. */
async function streamWith(context: StreamContext, call: StreamCall): Promise<StreamEnd> {
	const {auth, peer} = context;
	const open = async (credentials: RequestAuth) =>
		streamLines({
			url: new URL(context.base + call.path),
			agent: context.agents.agentFor(credentials),
			headers: {'User-Agent': context.userAgent, ...credentials.headers, ...call.headers},
			timeoutMs: context.timeoutMs,
			idleMs: call.idleMs,
			signal: call.signal,
			maxLineBytes: context.maxBodyBytes ?? defaultMaxBodyBytes,
			onLine: call.onLine,
		});
	try {
		const end = await open(await auth.get());
		return end.status === 401 && auth.refresh ? await open(await auth.refresh()) : end;
	} catch (error) {
		if (call.signal.aborted || error instanceof SourceFailure) throw error;
		throw classifyRequestError(error, peer, call.path, auth.secrets());
	}
}

/** What the label says after the source, and what is said once on stderr at start, about how requests travel. */
export type TransportWarnings = {labelSuffix: string; notes: string[]};

/**
 * " (TLS NOT VERIFIED)" with --insecure-skip-tls-verify on https, " (token sent without TLS)" when credentials
 * go to a plain http:// URL, where anyone on the path can read them.
 */
export function transportWarnings(
	url: string,
	options: {
		insecureSkipTlsVerify: boolean;
		sendsToken: boolean;
		/** What switched verification off. @default "--insecure-skip-tls-verify" */
		insecureBy?: string;
	},
): TransportWarnings {
	const {protocol} = new URL(url);
	const base = url.replace(/\/$/, '');
	const labelSuffix: string[] = [];
	const notes: string[] = [];
	if (protocol === 'https:' && options.insecureSkipTlsVerify) {
		labelSuffix.push(' (TLS NOT VERIFIED)');
		notes.push(`TLS not verified: ${options.insecureBy ?? '--insecure-skip-tls-verify'} accepts any certificate from ${base}`);
	}

	if (protocol === 'http:' && options.sendsToken) {
		labelSuffix.push(' (token sent without TLS)');
		notes.push(`token sent without TLS: ${base} is plain http://, so the bearer token travels in clear text; use an https:// URL`);
	}

	return {labelSuffix: labelSuffix.join(''), notes};
}
