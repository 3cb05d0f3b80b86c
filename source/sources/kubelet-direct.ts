// --kubelet-url: GET /metrics on the kubelet itself (port 10250) instead of through the API server's node proxy.
// The kubelet authorizes that as `get` on `nodes/metrics`, a read-only subresource, where the proxy path needs
// `nodes/proxy` (which reaches every kubelet API, exec included). Credentials and trust: http/flag-auth.ts;
// --insecure-skip-tls-verify, or a token over plain http://, is stated in the label and once on stderr.
import type {MetricsAnswer, MetricsSource} from '../domain/types.js';
import {cutToPlegLines} from '../domain/exposition/parse.js';
import {classifyAnswer, htmlInsteadOfMetrics, type Peer} from './http/classify.js';
import {flagServerTransport} from './http/flag-auth.js';
import {dateHeaderSeconds} from './http/date-header.js';
import type {LoadedKubeconfig} from './kube/kubeconfig.js';
import {redactFailure, SourceFailure} from './failure.js';

export type KubeletDirectOptions = {
	/** --kubelet-url, e.g. https://10.0.0.5:10250 */
	url: string;
	/** --node: the name shown; default the URL's host. */
	node?: string;
	tokenFile?: string;
	caFile?: string;
	insecureSkipTlsVerify: boolean;
	timeoutMs: number;
	/** --max-body-size, bytes: the most read from one answer. @default 64 MiB */
	maxBodyBytes?: number;
	/** The kubeconfig whose user authenticates when there is no --token-file. */
	loaded?: LoadedKubeconfig;
	/** The engine's clock, ms: ages the credential cache. */
	now: () => number;
};

const metricsAccept = 'text/plain;version=0.0.4';

export function createKubeletDirectSource(options: KubeletDirectOptions): MetricsSource {
	const node = options.node ?? new URL(options.url).hostname;
	const base = options.url.replace(/\/$/, '');
	const peer: Peer = {
		kind: 'kubelet',
		url: base,
		flag: '--kubelet-url',
		caFile: options.caFile,
		tokenFile: options.tokenFile,
		loaded: options.loaded,
	};
	const {transport, warnings} = flagServerTransport(peer, options);
	const call = {
		path: '/metrics',
		rule: {verb: 'get', resource: 'nodes/metrics'},
		action: 'get nodes/metrics',
		forbiddenNotes: [
			'note: nodes/metrics only reads metrics; the API-server path (without --kubelet-url) needs the much wider nodes/proxy',
		],
		notFound: {summary: `${base} has no /metrics: is --kubelet-url the kubelet's port (10250)?`},
	};

	async function fetchMetricsDated(signal: AbortSignal): Promise<MetricsAnswer> {
		try {
			const answer = await transport.get('/metrics', {Accept: metricsAccept}, signal, cutToPlegLines);
			if (answer.status !== 200) {
				throw classifyAnswer(answer, peer, call, transport.secrets());
			}

			const html = htmlInsteadOfMetrics(answer, peer, transport.secrets());
			if (html !== null) {
				throw html;
			}

			return {text: answer.body, dateSeconds: dateHeaderSeconds(answer.headers)};
		} catch (error) {
			// Defence in depth: no known credential leaves this module.
			throw error instanceof SourceFailure ? new SourceFailure(redactFailure(error.failure, transport.secrets())) : error;
		}
	}

	return {
		label: `${node} via kubelet ${base}${warnings.labelSuffix}`,
		metricsUrl: `${base}/metrics`,
		node,
		notes: warnings.notes,
		async fetchMetrics(signal) {
			return (await fetchMetricsDated(signal)).text;
		},
		fetchMetricsDated,
		close() {
			transport.close();
		},
	};
}
