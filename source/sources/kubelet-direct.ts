// --kubelet-url: GET /metrics on the kubelet itself (port 10250) instead of through the API server's node proxy.
// The kubelet authorizes that as `get` on `nodes/metrics`, a read-only subresource, where the proxy path needs
// `nodes/proxy` (which reaches every kubelet API, exec included). Credentials: --token-file, else the kubeconfig
// user's token or client certificate; trust: --kubelet-ca, else the cluster CA of the kubeconfig (kubelets with
// serverTLSBootstrap have certificates it signed), or --insecure-skip-tls-verify, which the label states.
import type {MetricsSource} from '../domain/types.js';
import {createCredentials} from './kube/credentials.js';
import {answerLine, createEndpoint, readBearer, tlsNote, type Endpoint} from './http/direct-endpoint.js';
import {redactFailure, sourceFailure, SourceFailure} from './failure.js';
import type {HttpAnswer} from './http/https-request.js';
import type {LoadedKubeconfig} from './kube/kubeconfig.js';

export type KubeletDirectOptions = {
	/** --kubelet-url, e.g. https://10.0.0.5:10250 */
	url: string;
	/** --node: the name shown; default the URL's host. */
	node?: string;
	tokenFile?: string;
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	timeoutMs: number;
	/** The kubeconfig whose user authenticates when there is no --token-file. */
	loaded?: LoadedKubeconfig;
};

const metricsAccept = 'text/plain;version=0.0.4';

/** Who pleg-top is to the kubelet, for messages. */
function identity(options: KubeletDirectOptions): string {
	if (options.tokenFile) {
		return `the token in --token-file ${options.tokenFile}`;
	}

	return options.loaded ? `user "${options.loaded.userName}" of context "${options.loaded.contextName}"` : 'an anonymous client';
}

function forbidden(answer: HttpAnswer, options: KubeletDirectOptions, secrets: readonly string[]): SourceFailure {
	const check = options.loaded && !options.tokenFile ? `kubectl --context ${options.loaded.contextName} auth can-i get nodes/metrics` : 'kubectl auth can-i get nodes/metrics --as SUBJECT';
	return sourceFailure('forbidden', `the kubelet at ${options.url} does not allow ${identity(options)} to get nodes/metrics`, [
		`kubelet: ${answerLine(answer, secrets)}`,
		'needed: get on nodes/metrics (ClusterRole rule: apiGroups [""], resources ["nodes/metrics"], verbs ["get"])',
		`check: ${check}`,
		'note: nodes/metrics only reads metrics; the API-server path (without --kubelet-url) needs the much wider nodes/proxy',
	]);
}

function unauthorized(answer: HttpAnswer, options: KubeletDirectOptions, secrets: readonly string[]): SourceFailure {
	return sourceFailure('unauthorized', `the kubelet at ${options.url} rejected ${identity(options)}`, [
		`kubelet: ${answerLine(answer, secrets)}`,
		'the kubelet checks bearer tokens with the API server only when its webhook authentication is on (authentication.webhook.enabled); otherwise it takes client certificates signed by its client CA',
	]);
}

function classifyKubeletAnswer(answer: HttpAnswer, options: KubeletDirectOptions, secrets: readonly string[]): SourceFailure {
	if (answer.status === 401) {
		return unauthorized(answer, options, secrets);
	}

	if (answer.status === 403) {
		return forbidden(answer, options, secrets);
	}

	if (answer.status === 404) {
		return sourceFailure('not-found', `${options.url} has no /metrics: is --kubelet-url the kubelet's port (10250)?`, [`kubelet: ${answerLine(answer, secrets)}`]);
	}

	return sourceFailure('http', `the kubelet at ${options.url} answered ${answerLine(answer, secrets)}`, ['request: GET /metrics']);
}

export function createKubeletDirectSource(options: KubeletDirectOptions): MetricsSource {
	const node = options.node ?? new URL(options.url).hostname;
	const credentials = options.loaded && !options.tokenFile ? createCredentials(options.loaded, {ttlMs: 60_000, now: () => Date.now()}) : null;
	let endpoint: Endpoint | null = null;
	let endpointPending: Promise<Endpoint> | null = null;
	const tokenSecrets = new Set<string>();
	const label = `${node} via kubelet ${options.url.replace(/\/$/, '')}${tlsNote(options.url, options.insecureSkipTlsVerify)}`;

	// The agent needs the client certificate, which the kubeconfig may only give after an exec plugin ran.
	async function endpointFor(): Promise<Endpoint> {
		endpointPending ??= (async () => {
			const auth = credentials ? await credentials.get() : null;
			endpoint = createEndpoint({
				url: options.url,
				flag: '--kubelet-url',
				what: 'the kubelet',
				caFile: options.caFile,
				fallbackCa: auth?.tls.ca,
				insecureSkipTlsVerify: options.insecureSkipTlsVerify,
				cert: auth?.tls.cert,
				key: auth?.tls.key,
				timeoutMs: options.timeoutMs,
			});
			return endpoint;
		})();
		return endpointPending;
	}

	async function headers(): Promise<Record<string, string>> {
		if (options.tokenFile) {
			const token = await readBearer(options.tokenFile);
			tokenSecrets.add(token);
			return {Authorization: `Bearer ${token}`};
		}

		const auth = credentials ? await credentials.get() : null;
		// Only the Authorization header: other kubeconfig headers (impersonation) mean nothing to a kubelet.
		const authorization = auth?.headers['Authorization'];
		return authorization ? {Authorization: authorization} : {};
	}

	const secrets = () => [...tokenSecrets, ...(credentials?.secrets() ?? [])];

	return {
		label,
		node,
		async fetchMetrics(signal) {
			try {
				const target = await endpointFor();
				const answer = await target.get('/metrics', {...(await headers()), Accept: metricsAccept}, signal, secrets());
				if (answer.status !== 200) {
					throw classifyKubeletAnswer(answer, options, secrets());
				}

				if (/text\/html/i.test(String(answer.headers['content-type'] ?? ''))) {
					throw sourceFailure('http', `${options.url} answered with an HTML page instead of kubelet metrics`, ['is --kubelet-url the kubelet (port 10250)?']);
				}

				return answer.body;
			} catch (error) {
				// Defence in depth: no known credential leaves this module.
				throw error instanceof SourceFailure ? new SourceFailure(redactFailure(error.failure, secrets())) : error;
			}
		},
		close() {
			endpoint?.close();
		},
	};
}
