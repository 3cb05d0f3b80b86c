// Types for parse-prometheus-text-format 1.1.1, which ships none. Every value is the string written in the payload.
declare module 'parse-prometheus-text-format' {
	export type PromSample = {
		value?: string;
		labels?: Record<string, string>;
		/** Histograms: upper bound ("0.005", "+Inf") -> cumulative count. Key order is JavaScript's, not numeric. */
		buckets?: Record<string, string>;
		/** Summaries: quantile ("0.5") -> value. */
		quantiles?: Record<string, string>;
		count?: string;
		sum?: string;
		timestamp_ms?: string;
	};

	export type PromFamily = {
		name: string;
		help: string;
		/** Upper-cased TYPE: COUNTER, GAUGE, HISTOGRAM, SUMMARY or UNTYPED. */
		type: string;
		metrics: PromSample[];
	};

	export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
