// The JSON envelope of Prometheus' query API (`{status, data: {resultType, result}, errorType, error}`), checked
// with valibot where it enters: an answer of another shape is a SourceFailure naming the field, never an
// `undefined` further in. The compact answers of every refresh are read by body-scanner.ts without JSON.parse; this
// is the path for every other answer.
import * as v from 'valibot';
import {sourceFailure} from '../failure.js';
import {parseValue} from '../../domain/exposition/parse-value.js';
import {visibleLine} from '../../domain/text/untrusted-text.js';
import {compactVector, type VectorSample} from './body-scanner.js';

/** The flag that named a Prometheus: failures say which. */
export type PrometheusFlag = '--prometheus' | '--history-from';

/** One series of a range answer: its points as [Unix seconds, value]. */
export type MatrixSeries = {metric: Record<string, string>; values: Array<[number, number]>};

/** A sample's value as Prometheus writes it: [Unix seconds, "decimal text"]. */
const point = v.tuple([v.number(), v.string()]);
const labels = v.record(v.string(), v.string());
const vectorResult = v.array(v.object({metric: labels, value: point}));
const matrixResult = v.array(v.object({metric: labels, values: v.array(point)}));

const errorEnvelope = v.object({
	status: v.literal('error'),
	errorType: v.optional(v.string()),
	error: v.optional(v.string()),
});

function successEnvelope<T extends v.GenericSchema>(resultType: 'vector' | 'matrix', result: T) {
	return v.object({status: v.literal('success'), data: v.object({resultType: v.literal(resultType), result})});
}

const vectorEnvelope = successEnvelope('vector', vectorResult);
const matrixEnvelope = successEnvelope('matrix', matrixResult);

/** The parsed JSON of an answer; a SourceFailure when it is not JSON. */
function parsedJson(body: string, url: string, flag: PrometheusFlag): unknown {
	try {
		return JSON.parse(body);
	} catch {
		throw sourceFailure('parse', `the answer of ${url} is not JSON`, [
			`is ${flag} the base URL of a Prometheus query API (e.g. http://prometheus:9090)?`,
		]);
	}
}

/** The first issue of a failed check as "data.result.3.value: Invalid type: Expected Array but received undefined". */
function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
	const issue = issues[0];
	if (issue === undefined) return 'no detail';
	return `${v.getDotPath(issue) ?? '(the answer)'}: ${issue.message}`;
}

/** `value`'s `data.result` checked against `envelope`; a SourceFailure for an error envelope or another shape. */
function checkedResult<T extends typeof vectorEnvelope | typeof matrixEnvelope>(
	value: unknown,
	url: string,
	envelope: T,
	resultType: 'vector' | 'matrix',
): v.InferOutput<T>['data']['result'] {
	const refusal = v.safeParse(errorEnvelope, value);
	if (refusal.success) {
		const {error, errorType} = refusal.output;
		throw sourceFailure('http', `Prometheus at ${url} could not run the query: ${error ?? errorType ?? 'error'}`, [
			`errorType: ${errorType ?? '(none)'}`,
		]);
	}

	const checked = v.safeParse(envelope, value);
	if (!checked.success) {
		const shape = resultType === 'vector' ? 'an instant vector' : 'a range matrix';
		throw sourceFailure('parse', `the answer of ${url} is not ${shape}: ${firstIssue(checked.issues)}`, [
			`expected {status: "success", data: {resultType: "${resultType}", result: [...]}}`,
		]);
	}

	return checked.output.data.result;
}

/** Label values (node names, versions) are the scraped targets' to choose: shown visible. */
function visibleLabels(metric: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(metric).map(([name, text]) => [name, visibleLine(text)]));
}

/** The `data.result` of a vector answer; throws a SourceFailure for an error envelope or another shape. */
export function readVector(body: string, url: string, flag: PrometheusFlag = '--prometheus'): VectorSample[] {
	return compactVector(body) ?? parsedVector(body, url, flag);
}

/** Any answer, through JSON.parse and the envelope's check: the general path of readVector. */
function parsedVector(body: string, url: string, flag: PrometheusFlag): VectorSample[] {
	return checkedResult(parsedJson(body, url, flag), url, vectorEnvelope, 'vector').map((sample) => ({
		metric: visibleLabels(sample.metric),
		value: parseValue(sample.value[1]) ?? Number.NaN,
	}));
}

/** The `data.result` of a range answer (/api/v1/query_range); points whose time or value is not a number are left out. */
export function readMatrix(body: string, url: string, flag: PrometheusFlag = '--prometheus'): MatrixSeries[] {
	return checkedResult(parsedJson(body, url, flag), url, matrixEnvelope, 'matrix').map((series) => ({
		metric: visibleLabels(series.metric),
		values: series.values
			.map(([time, text]): [number, number] => [time, parseValue(text) ?? Number.NaN])
			.filter(([time, value]) => Number.isFinite(time) && !Number.isNaN(value)),
	}));
}
