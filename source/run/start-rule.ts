// The one rule for faults at the start of any run, node or overview, live or JSON lines or --once: a fault that
// retrying will not mend (a broken kubeconfig, rejected credentials, TLS, RBAC, an unknown node) ends the run with
// its message and exit code, as long as nothing good was read yet. After a good read every fault is retried, since
// the figures already shown stay worth watching.
import type {Failure, FailureKind} from '../domain/types.js';
import type {Engine} from '../engine/engine.js';

const permanentKinds: ReadonlySet<FailureKind> = new Set<FailureKind>(['config', 'unauthorized', 'tls', 'forbidden', 'not-found']);

export function isPermanent(failure: Failure): boolean {
	return permanentKinds.has(failure.kind);
}

/**
 * The fault that ends `engine`'s run: its own failure (the one node's read, or the node list) while it has read
 * nothing good yet, when retrying will not mend it. A fault of one node among many never ends the overview.
 */
export function fatalBeforeFirstRead<F>(engine: Engine<F>): Failure | null {
	const {state} = engine;
	if (engine.scope === 'fleet') {
		return state.listedAt === null && state.listFailure !== null && isPermanent(state.listFailure) ? state.listFailure : null;
	}

	const entry = state.nodes.get(engine.single);
	if (!entry) return null;
	const status = engine.kind.status(entry.feed);
	return status.lastGoodAt === null && status.failure !== null && isPermanent(status.failure) ? status.failure : null;
}

/** A failure as the user reads it on stderr: the summary, then each detail indented. */
export function formatFailure(failure: Failure): string {
	return [`pleg-top: ${failure.summary}`, ...failure.details.map((line) => `  ${line}`)].join('\n');
}
