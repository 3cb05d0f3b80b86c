// One Prometheus query API: GETs of its query endpoints over the transport --prometheus or --history-from
// configured (token, CA), each failure classified in the user's terms and redacted.
import {classifyAnswer, type Call, type Peer} from '../http/classify.js';
import {flagServerTransport} from '../http/flag-auth.js';
import type {BodyReader} from '../http/body-text.js';
import type {PrometheusFlag} from './envelope.js';

/** How to reach a Prometheus query API: --prometheus or --history-from, with --token-file, --kubelet-ca. */
export type PrometheusAccess = {
	/** e.g. http://prometheus:9090 (a path prefix is kept: Thanos and Mimir serve under one). */
	url: string;
	tokenFile?: string;
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** The local clock, ms (the credential cache). */
	now: () => number;
};

/** One Prometheus query API: GETs of its query endpoints, failures classified and redacted. */
export type PrometheusApi = {
	readonly base: string;
	/** What the label adds for a token sent without TLS or certificates not verified; notes: the same, said once. */
	readonly labelSuffix: string;
	readonly notes: readonly string[];
	/**
	 * The body of a 200 answer (or of an error envelope, which says more than its status); else a SourceFailure.
	 * `readBody` is handed the body's bytes first (http/body-text.ts BodyReader).
	 */
	get(endpoint: '/api/v1/query' | '/api/v1/query_range', parameters: string, signal: AbortSignal, readBody?: BodyReader): Promise<string>;
	secrets(): string[];
	close(): void;
};

export function createPrometheusApi(access: PrometheusAccess, flag: PrometheusFlag): PrometheusApi {
	const base = access.url.replace(/\/$/, '');
	const peer: Peer = {kind: 'prometheus', url: base, flag, caFile: access.caFile, tokenFile: access.tokenFile};
	const {transport, warnings} = flagServerTransport(peer, access);
	return {
		base,
		labelSuffix: warnings.labelSuffix,
		notes: warnings.notes,
		async get(endpoint, parameters, signal, readBody) {
			const answer = await transport.get(`${endpoint}?${parameters}`, {Accept: 'application/json'}, signal, readBody);
			// 400/422/503 carry the JSON error envelope, which says more than the status; 401/403/404 and the rest do not.
			const envelope =
				/application\/json/.test(String(answer.headers['content-type'] ?? '')) && ![401, 403, 404, 429].includes(answer.status);
			if (answer.status !== 200 && !envelope) {
				throw classifyAnswer(answer, peer, queryCall(base, endpoint), transport.secrets());
			}

			return answer.body;
		},
		secrets: () => transport.secrets(),
		close: () => transport.close(),
	};
}

/** What a query is, for the classifier: a 403 from a proxy in front of Prometheus, a 404 for a URL that is not a query API. */
function queryCall(url: string, endpoint: string): Call {
	return {
		path: endpoint,
		action: 'query',
		forbiddenNotes: ['behind kube-rbac-proxy or an OAuth proxy the token needs the right that proxy checks'],
		notFound: {
			summary: `${url} has no query API at ${endpoint}`,
			hint: 'give the base URL that serves /api/v1/query, e.g. http://prometheus:9090 (Thanos/Mimir: with their path prefix)',
		},
	};
}
