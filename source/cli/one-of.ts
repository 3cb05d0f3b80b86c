// A word of the command line checked against a fixed list of words, narrowed to the list's type when it is one.

/** Whether `word` is one of `allowed`; TypeScript then knows it as `allowed`'s element type. */
export function isOneOf<T extends string>(allowed: readonly T[], word: string): word is T {
	return (allowed as readonly string[]).includes(word); // widening
}
