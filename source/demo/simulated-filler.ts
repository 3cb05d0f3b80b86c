// Filler families that bring the demo payload up to the size of a real kubelet scrape (larger on big nodes), shaped like the families in a real v1.21 kubelet dump: labelled histograms with URL labels, [ALPHA] HELP.
// Generated, never read from disk. Names sort before "go_" (prefix) or after "process_" (suffix), so the whole
// payload stays in the kubelet's alphabetical family order.
import {familyHeader, histogramLines} from './simulated-exposition.js';
import {exponentialBuckets, type HistogramView} from './simulated-histogram.js';

/** rest_client_request_duration_seconds buckets: ExponentialBuckets(0.001, 2, 10). */
const restClientBuckets = exponentialBuckets(0.001, 2, 10);
const certificateBuckets = [
	0, 1800, 3600, 7200, 21_600, 43_200, 86_400, 172_800, 345_600, 604_800, 2_592_000, 7_776_000, 15_552_000, 31_104_000,
];

const resources = [
	'configmaps',
	'secrets',
	'pods',
	'events',
	'nodes',
	'leases',
	'serviceaccounts',
	'endpointslices',
	'persistentvolumeclaims',
	'csinodes',
];
const verbs = ['GET', 'PATCH', 'POST', 'PUT'];

/** Fixed per-bucket counts shaped like a fast API call: most requests land in 4-32 ms. */
function restClientHistogram(seriesIndex: number): HistogramView {
	const scale = 1 + (seriesIndex % 7);
	const counts = [0, 0, 3 * scale, 120 * scale, 80 * scale, 30 * scale, 4 * scale, 2 * scale, 1, 0, 1];
	const count = counts.reduce((total, value) => total + value, 0);
	return {bounds: restClientBuckets, counts, count, sum: count * 0.014_25};
}

function prefixFiller(): string {
	const certificates: HistogramView = {
		bounds: certificateBuckets,
		counts: [...Array.from({length: 13}, () => 0), 3, 0],
		count: 3,
		sum: 92_084_501.521_795_63,
	};
	return (
		familyHeader('apiserver_audit_event_total', 'counter', '[ALPHA] Counter of audit events generated and sent to the audit backend.') +
		'apiserver_audit_event_total 0\n' +
		familyHeader(
			'apiserver_client_certificate_expiration_seconds',
			'histogram',
			'[ALPHA] Distribution of the remaining lifetime on the certificate used to authenticate a request.',
		) +
		histogramLines('apiserver_client_certificate_expiration_seconds', [], certificates)
	);
}

function restClientSeries(index: number): string {
	const resource = resources[index % resources.length]!; // in bounds
	const verb = verbs[Math.floor(index / resources.length) % verbs.length]!; // in bounds
	// The group index keeps every url distinct however many series the target size needs.
	const group = Math.floor(index / (resources.length * verbs.length));
	const url = `https://10.96.0.1:443/apis/filler${group}.example.io/v1/namespaces/%7Bnamespace%7D/${resource}?timeout=10s`;
	return histogramLines(
		'rest_client_request_duration_seconds',
		[
			['url', url],
			['verb', verb],
		],
		restClientHistogram(index),
	);
}

/**
 * Filler text to put before and after the demo payload so that the total reaches at least `bytes`
 * (overshoot below one series, ~2.5 KB). ASCII only, so string length = bytes.
 */
export function fillerFor(bytes: number): {prefix: string; suffix: string} {
	const prefix = prefixFiller();
	if (bytes <= prefix.length) {
		return {prefix, suffix: ''};
	}

	const parts = [
		familyHeader('rest_client_request_duration_seconds', 'histogram', '[ALPHA] Request latency in seconds. Broken down by verb and URL.'),
	];
	let size = prefix.length + parts[0]!.length; // non-empty
	for (let index = 0; size < bytes; index++) {
		const series = restClientSeries(index);
		parts.push(series);
		size += series.length;
	}

	return {prefix, suffix: parts.join('')};
}
