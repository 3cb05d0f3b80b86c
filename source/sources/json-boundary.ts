// JSON from the cluster read against a valibot schema where it enters: a body that is not what was asked for
// becomes one error naming the first wrong field (`items[3].reason: expected string, got number`), never an
// `undefined` deep in a pane. The value itself is never quoted: it is the cluster's, and may be anything.
import * as v from 'valibot';

/** A body that is not JSON, or JSON of another shape; `field` is where (empty: the whole body). */
export class MalformedJsonError extends Error {
	constructor(
		readonly field: string,
		readonly problem: string,
	) {
		super(field === '' ? problem : `${field}: ${problem}`);
		this.name = 'MalformedJsonError';
	}
}

/** What a value is, in words: "a string", "null", "an array". */
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** valibot's name for what it expected (a type, or a union of them), in the same words. */
function expectedOf(expected: string | null): string {
	const words: Record<string, string> = {
		Array: 'an array',
		Object: 'an object',
		string: 'a string',
		number: 'a number',
		boolean: 'a boolean',
	};
	return expected === null ? 'another value' : (words[expected] ?? expected);
}

/** "items[3].reason" from valibot's path of keys. */
function fieldOf(issue: v.BaseIssue<unknown>): string {
	let field = '';
	for (const item of issue.path ?? []) {
		const key: unknown = item.key;
		field += typeof key === 'number' ? `[${key}]` : field === '' ? String(key) : `.${String(key)}`;
	}

	return field;
}

/** `value` as `schema` says, or MalformedJsonError naming the first field that is not. */
export function checked<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
	const result = v.safeParse(schema, value, {abortEarly: true});
	if (result.success) return result.output;
	const [issue] = result.issues;
	// A required field left out: valibot names the key as what it expected.
	const problem = issue.input === undefined ? 'missing' : `expected ${expectedOf(issue.expected)}, got ${kindOf(issue.input)}`;
	throw new MalformedJsonError(fieldOf(issue), problem);
}

/** `body` parsed as JSON and checked against `schema`. */
export function readJson<S extends v.GenericSchema>(schema: S, body: string): v.InferOutput<S> {
	let value: unknown;
	try {
		value = JSON.parse(body);
	} catch {
		// JSON.parse quotes the body in its message, and the body is the cluster's: none of it is said.
		throw new MalformedJsonError('', 'not JSON');
	}

	return checked(schema, value);
}

/** What a parse failure's summary ends with: ": " and what was wrong, and where (empty for another error). */
export function malformedWhy(error: unknown): string {
	return error instanceof MalformedJsonError ? `: ${error.message}` : '';
}

/** A field the API server may leave out or send as null (Go's omitempty, or a nil pointer). */
export const maybe = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

/** A list's metadata: only the continue token is read. */
export const listMeta = maybe(v.object({continue: maybe(v.string())}));

/** The next page's token as the server sent it, null on the last page. */
export function continueOf(metadata: v.InferOutput<typeof listMeta>): string | null {
	const token = metadata?.continue;
	return typeof token === 'string' && token !== '' ? token : null;
}
