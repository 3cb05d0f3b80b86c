// Every error that can come out of one poll, turned into a Failure in the user's terms.
import {excerpt, MetricsParseError, NoPlegSeriesError, plegFamilyNames} from '../domain/exposition/parse.js';
import {redact, SourceFailure, visibleFailure} from './failure.js';
import type {Failure, MetricsSource} from '../domain/types.js';

/** Where a request went: a source of one node, or one about every node (the node list, a fleet's queries), which has none. */
export type Asked = Pick<MetricsSource, 'label' | 'metricsUrl'> & {readonly node?: string | null};

/** Every failure a poll can end in, its lines visible text (a parse error quotes the kubelet's line, an unclassified error anything). */
export function toFailure(error: unknown, source: Asked): Failure {
	return error instanceof SourceFailure ? error.failure : visibleFailure(classified(error, source));
}

function classified(error: unknown, source: Asked): Failure {
	if (error instanceof NoPlegSeriesError) return noPlegFailure(error, source);
	if (error instanceof MetricsParseError) {
		const where = error.line === null ? '' : ` (line ${error.line})`;
		// The bad line came from the server: credential shapes are masked before it is cut short, so no part of one shows.
		const what = error.detail ? `${error.detail.reason}: ${excerpt(redact(error.detail.text, []))}` : error.message;
		return {
			kind: 'parse',
			summary: `metrics could not be parsed${where}: ${what}`,
			details: [`from ${source.label}`],
		};
	}

	// An error no layer classified is a bug in pleg-top, but the screen must stay up: show it plainly.
	const message = error instanceof Error ? error.message : String(error);
	const request = typeof source.node === 'string' ? `request for ${source.node}` : 'request';
	return {kind: 'http', summary: `${request} failed: ${message}`, details: [`from ${source.label}`]};
}

/** Valid text without PLEG series: the wrong endpoint. Says what was looked for, where, and what the body holds instead. */
function noPlegFailure(error: NoPlegSeriesError, source: Pick<MetricsSource, 'label' | 'metricsUrl'>): Failure {
	const cadvisor = error.found.some((name) => name.startsWith('container_') || name.startsWith('machine_'));
	const found =
		error.found.length === 0
			? []
			: [`it holds other series, e.g. ${error.found.join(', ')}${cadvisor ? " (cAdvisor's, as /metrics/cadvisor serves)" : ''}`];
	return {
		kind: 'parse',
		summary: `no PLEG series in the metrics from ${source.metricsUrl ?? source.label}: is it the kubelet's /metrics?`,
		details: [`looked for ${plegFamilyNames.join(', ')}: none is there`, ...found, `from ${source.label}`],
	};
}
