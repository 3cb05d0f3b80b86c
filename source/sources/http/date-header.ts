// The Date header of an answer, for the node's clock offset (domain/health/clock-offset.ts). Through the API server's node
// proxy it is the kubelet's: the proxy is Go's httputil.ReverseProxy, which copies every header but the hop-by-hop
// ones, and Go's server adds a Date only when the handler set none. A hop that rewrites it (a load balancer in front)
// gives its own clock: the relist evidence takes over as soon as a relist is seen.
import type http from 'node:http';

// IMF-fixdate (RFC 9110 §5.6.7), the one form Go's servers write: "Fri, 04 Dec 2026 15:42:25 GMT".
const imfFixdate =
	/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** The Date header as Unix seconds; null when absent or not an IMF-fixdate (it comes from the network: any text may). */
export function dateHeaderSeconds(headers: http.IncomingHttpHeaders): number | null {
	const value = headers.date;
	if (typeof value !== 'string' || !imfFixdate.test(value)) {
		return null;
	}

	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms / 1000 : null;
}
