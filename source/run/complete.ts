// `pleg-top __complete WORD…` (and kubectl's `kubectl_complete-pleg_top WORD…`): answers a completing shell.
// Node names come from the cluster the typed --kubeconfig/--context pick, within a bound (the typed --timeout, else
// 5 s): a shell waits for the answer, so a slow cluster or a credential plugin that prompts gives no names, not a hang.
import {homedir} from 'node:os';
import {completionAnswer, directives, offerableNodeName, type CompletionNeed} from './complete-need.js';
import {systemNow} from '../engine/engine.js';
import {createApiServer} from '../sources/api-server.js';
import {loadKubeconfig} from '../sources/kube/kubeconfig.js';

/** How long a completion may take to list the nodes before it answers with none, unless --timeout was typed. */
const nodeListBoundMs = 5000;

type NodesNeed = Extract<CompletionNeed, {kind: 'nodes'}>;

async function nodeNames({kubeconfig, context, timeoutMs}: NodesNeed, env: NodeJS.ProcessEnv): Promise<string[]> {
	const boundMs = timeoutMs ?? nodeListBoundMs;
	const loaded = loadKubeconfig({kubeconfig, context, env, homeDir: env['HOME'] ?? homedir()});
	const api = createApiServer({loaded, timeoutMs: boundMs, now: systemNow});
	const abort = new AbortController();
	const timer = setTimeout(() => abort.abort(), boundMs);
	try {
		return (await api.listNodes(abort.signal)).map((node) => node.name);
	} finally {
		clearTimeout(timer);
		api.close();
	}
}

/** Answers `need` (cli/completion.ts decided it from the words typed) on stdout, cobra's way. */
export async function runComplete(need: CompletionNeed, env: NodeJS.ProcessEnv, stdout: (text: string) => void): Promise<number> {
	if (need.kind === 'files') return (stdout(completionAnswer([], directives.filesAllowed)), 0);
	if (need.kind === 'words') return (stdout(completionAnswer(need.candidates, directives.noFiles)), 0);
	let names: string[] = [];
	try {
		names = await nodeNames(need, env);
	} catch {
		// No kubeconfig, no access, a timeout: nothing to offer, and nothing to say in the middle of a command line.
	}

	const offered = names.filter((name) => offerableNodeName(name) && name.startsWith(need.prefix)).sort();
	stdout(completionAnswer(offered, directives.noFiles));
	return 0;
}
