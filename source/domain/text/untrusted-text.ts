// Text from the cluster (Events, the Node object, Status bodies, metric labels, plugin stderr) as it may be shown.
// Anyone who can create an Event, and any server on the way, chooses these bytes: raw, an OSC sequence would set
// the terminal title or write the clipboard (OSC 52), a CSI clear the screen, a C1 CSI (U+009B) do the same on
// terminals that read 8-bit controls, CR or BS overwrite what was printed. kubectl fixed the same class
// (CVE-2021-25743) by showing ESC as ^[; here every control is shown in a visible form, once, where the text
// enters, so no sink (screen, title, stderr, files, JSON) can forget to.

/** DEL, the C1 controls, the bidi embeddings/overrides/isolates (they reorder what follows) and the line/paragraph separators. */
const beyondAscii = '\u007F-\u009F\u202A-\u202E\u2066-\u2069\u2028\u2029';
/** Every character visibleLine rewrites, \n and \t included. */
const unsafe = new RegExp(`[\u0000-\u001F${beyondAscii}]`, 'g');
const unsafeInJson = new RegExp(`[${beyondAscii}]`, 'g');

/** "\u009b": ASCII, and never a control of its own. */
function escaped(char: string): string {
	return `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`; // one character
}

/**
 * One character as it is shown: C0 and DEL in caret notation as `cat -v` and kubectl write them (ESC ^[, CR ^M,
 * BS ^H, BEL ^G, DEL ^?); C1 controls and the bidi/separator characters as a \u escape (\u009b).
 */
function visibleChar(char: string): string {
	const code = char.codePointAt(0)!; // one character
	if (code < 0x20) return `^${String.fromCodePoint(code + 0x40)}`;
	return code === 0x7f ? '^?' : escaped(char);
}

/**
 * Cluster text as one line (every place pleg-top shows it is one: a cell, a header, a status line, the title, a
 * detail line): \n and \t as spaces (a CRLF as one), every other control in its visible form.
 */
export function visibleLine(text: string): string {
	// A CR that ends a line (Windows line ends) is part of the line end, not a control to show.
	return text.replaceAll('\r\n', '\n').replace(unsafe, (char) => (char === '\n' || char === '\t' ? ' ' : visibleChar(char)));
}

/** A string field of cluster JSON as one visible line; null when it is not a string or is empty. */
export function clusterText(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? visibleLine(value) : null;
}

/**
 * JSON as JSON.stringify writes it, with DEL, the C1 controls and the bidi/separator characters escaped too
 * (\u009b): JSON.stringify escapes only U+0000–U+001F, so a raw U+009B would reach a terminal that `cat`s the file.
 * The parsed value is the same.
 */
export function safeJson(value: unknown, space?: number): string {
	return JSON.stringify(value, null, space).replace(unsafeInJson, escaped);
}
