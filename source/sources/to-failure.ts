// Every error that can come out of one poll, turned into a Failure in the user's terms.
import {MetricsParseError} from '../domain/exposition/parse.js';
import {SourceFailure} from './failure.js';
import type {Failure, MetricsSource} from '../domain/types.js';

export function toFailure(error: unknown, source: Pick<MetricsSource, 'label' | 'node'>): Failure {
	if (error instanceof SourceFailure) return error.failure;
	if (error instanceof MetricsParseError) {
		const where = error.line === null ? '' : ` (line ${error.line})`;
		return {
			kind: 'parse',
			// The parser's message starts with the same "line N: " when it names one: say it once.
			summary: `metrics could not be parsed${where}: ${error.message.replace(/^line \d+: /, '')}`,
			details: [`from ${source.label}`, 'the last good figures stay on screen; pleg-top keeps retrying'],
		};
	}

	// An error no layer classified is a bug in pleg-top, but the screen must stay up: show it plainly.
	const message = error instanceof Error ? error.message : String(error);
	return {kind: 'http', summary: `request for ${source.node} failed: ${message}`, details: [`from ${source.label}`]};
}
