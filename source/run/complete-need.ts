// What a completing shell asks for, as cli/completion.ts decides it from the words typed and run/complete.ts
// answers it: the contract between the two, kept with the runner so run/ needs nothing from cli/.

/** cobra's ShellCompDirective values that pleg-top answers with. */
export const directives = {filesAllowed: 0, noFiles: 4} as const;

/** What the word being completed is, decided from the words before it. */
export type CompletionNeed =
	| {kind: 'words'; candidates: string[]}
	/** A file name: the shell offers files. */
	| {kind: 'files'}
	/** A node name: the caller lists the nodes of the cluster the typed --kubeconfig/--context pick, within the typed --timeout (ms). */
	| {kind: 'nodes'; prefix: string; kubeconfig: string | undefined; context: string | undefined; timeoutMs: number | undefined};

/** A node name as the API server allows it (a DNS subdomain): anything else a hostile server sent is not offered. */
export const offerableNodeName = (name: string) => /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(name);

/** The answer a completing shell (or kubectl) reads: candidates, then `:directive`. */
export function completionAnswer(candidates: readonly string[], directive: number): string {
	return [...candidates, `:${directive}`].join('\n') + '\n';
}
