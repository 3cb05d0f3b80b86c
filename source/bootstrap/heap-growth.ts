/**
 * The V8 flag pleg-top starts with (environment.ts says why), or null when the user chose a heap growth of their
 * own, as a node flag or in NODE_OPTIONS.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
	const flags = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
	const chosen = flags.some((flag) => /^--heap[-_]growing[-_]percent(?:=|$)/.test(flag));
	return chosen ? null : '--heap-growing-percent=30';
}
