// One Prometheus text-exposition line read by hand: a sample `name{label="value",…} value [timestamp]` or a
// `# HELP`/`# TYPE` line. Blanks are spaces or tabs anywhere the format allows them, and an OpenMetrics exemplar
// after the value (` # {trace_id="…"} 0.1 1.6e9`) is ignored. parse.ts reads every line it keeps with these, so
// an error can name its line. Sticky regexes step through the line: in V8, faster than a character loop.
import {parseValue} from './parse-value.js';

export type SampleLine = {
	name: string;
	/** Label values unescaped (\\ \" \n). */
	labels: Record<string, string>;
	/** As Go's ParseFloat reads it: exponent form, +Inf, NaN. */
	value: number;
};

const namePattern = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
/** One `label="value"` pair with the blanks around it, up to and including a following comma. */
const labelPattern = /[ \t]*([a-zA-Z_][a-zA-Z0-9_]*)[ \t]*=[ \t]*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*,?/y;
const closePattern = /[ \t]*\}/y;
/** Blanks, the value, an optional timestamp, an optional exemplar (`# {labels} value [timestamp]`), trailing blanks. */
const valuePattern = /([ \t]*)(\S*)(?:[ \t]+([^\s#]\S*))?(?:[ \t]+#[ \t]*\{.*)?[ \t]*$/y;

/**
 * The kubelet's own shape of a CRI line, read with one regex (half the time of the general path): a name, then
 * operation_type and maybe le/quantile with plain values, one blank, the value. Anything else takes the general path.
 */
const kubeletShape =
	/^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(operation_type|container_state)="([^"\\\n]*)"(?:,(le|quantile)="([^"\\\n]*)")?\} (\S+)$/;

/** The line, or the reason it is not a sample line (for the parse error). */
export function readSampleLine(line: string): SampleLine | string {
	const shape = kubeletShape.exec(line);
	if (shape) {
		const [, name = '', label = '', labelValue = '', bound, boundValue = '', valueText = ''] = shape;
		const value = parseValue(valueText);
		return value === undefined ? 'value is not a number' : {name, labels: shapeLabels(label, labelValue, bound, boundValue), value};
	}

	namePattern.lastIndex = 0;
	if (!namePattern.test(line)) {
		return 'malformed sample';
	}

	let at = namePattern.lastIndex;
	const name = line.slice(0, at);
	const labels: Record<string, string> = {};
	// Blanks may stand between the name and its labels.
	let brace = at;
	while (line.charCodeAt(brace) === 0x20 || line.charCodeAt(brace) === 0x09) {
		brace++;
	}

	if (line.charCodeAt(brace) === 0x7b) {
		const end = readLabels(line, brace + 1, labels);
		if (typeof end === 'string') {
			return end;
		}

		at = end;
	}

	valuePattern.lastIndex = at;
	const match = valuePattern.exec(line);
	if (!match) {
		return 'malformed sample';
	}

	const [, blanks = '', valueText = '', timestamp] = match;
	if (valueText === '') {
		return 'sample has no value';
	}

	if (blanks === '' || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) {
		return 'malformed sample';
	}

	const value = parseValue(valueText);
	return value === undefined ? 'value is not a number' : {name, labels, value};
}

/** Literal keys, so every such object shares one hidden class (computed keys measured ~2x slower here). */
function shapeLabels(label: string, value: string, bound: string | undefined, boundValue: string): Record<string, string> {
	if (label === 'container_state') {
		return bound === undefined ? {container_state: value} : {container_state: value, [bound]: boundValue};
	}

	if (bound === 'le') {
		return {operation_type: value, le: boundValue};
	}

	return bound === undefined ? {operation_type: value} : {operation_type: value, quantile: boundValue};
}

/** Reads label pairs from `at` (after the brace) into `labels`; the offset after the closing brace, or a reason. */
function readLabels(line: string, at: number, labels: Record<string, string>): number | string {
	for (;;) {
		closePattern.lastIndex = at;
		if (closePattern.test(line)) {
			return closePattern.lastIndex;
		}

		labelPattern.lastIndex = at;
		const match = labelPattern.exec(line);
		if (!match) {
			return 'malformed label';
		}

		const [whole, label = '', raw = ''] = match;
		if (Object.hasOwn(labels, label)) {
			return `label ${label} given twice`;
		}

		labels[label] = raw.includes('\\') ? unescape(raw) : raw;
		// Without a comma the next thing must be the closing brace.
		if (!whole.endsWith(',')) {
			closePattern.lastIndex = labelPattern.lastIndex;
			return closePattern.test(line) ? closePattern.lastIndex : 'malformed label';
		}

		at = labelPattern.lastIndex;
	}
}

/** The exposition format escapes \\, \" and \n; any other pair is kept as written. */
function unescape(raw: string): string {
	return raw.replace(/\\(.)/g, (pair, next: string) => (next === 'n' ? '\n' : next === '\\' || next === '"' ? next : pair));
}

export type MetaLine = {keyword: 'HELP' | 'TYPE'; name: string; /** The HELP text or the type, as written (trimmed). */ text: string};

const metaPattern = /^#[ \t]+(HELP|TYPE)[ \t]+([^ \t]+)(?:[ \t]+(.*?))?[ \t]*$/;
const metaNamePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** A `# HELP` or `# TYPE` line; null for any other comment; a reason when the metric name is not one. */
export function readMetaLine(line: string): MetaLine | null | string {
	const match = metaPattern.exec(line);
	if (!match) {
		return null;
	}

	const [, keyword, name = '', text = ''] = match;
	return metaNamePattern.test(name) ? {keyword: keyword as MetaLine['keyword'], name, text} : `malformed metric name in ${keyword}`; // matched by the pattern
}
