// What a caught value says, whatever was thrown: a catch clause's value is `unknown`, and not every throw is an Error.

/** The thrown Error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The errno code of a system error (`ENOENT`, `ECONNRESET`) or of a Node.js error (`ERR_…`), when it has one. */
export function codeOf(error: unknown): string | undefined {
	const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
	return typeof code === 'string' ? code : undefined;
}
