// JSON lines (stdout is not a terminal, no --once): one line per read of a node, one node or every node, until a
// signal, a closed pipe (`| head`) or the end of a replay. A failed read writes the node's last good figures marked
// `stale` with the `error`, so a script sees both what is known and why it is old.
import type {NodeMode, OverviewMode} from './mode.js';
import {nodeView} from '../domain/fleet/overview-state.js';
import type {Failure, Figures} from '../domain/types.js';
import {safeJson} from '../domain/text/untrusted-text.js';
import type {Engine} from '../engine/engine.js';
import {jsonReport, rawJson} from '../report/report.js';
import {exitCodeFor} from '../sources/failure.js';
import {finishLab, quitFilesExitCode} from './lab.js';
import type {Plan} from './plan.js';
import {hangupExitCode, onStop, quitExitCode, terminalGone} from './signals.js';
import {fatalBeforeFirstRead, formatFailure, isPermanent} from './start-rule.js';

type Io = {stdout(text: string): void; stderr: (text: string) => void};

/**
 * One node's line: its figures (or only its name before any), then `stale`: false after a good read (the key is on
 * every line, so a script can test it), true with the `error` after a failed one.
 */
export function jsonLineOf(figures: Figures | null, name: string, failure: Failure | null, extra: object = {}): object {
	const report = figures ? {...jsonReport(figures), ...extra} : {node: name};
	return failure
		? {...report, stale: true, error: {kind: failure.kind, summary: failure.summary, details: failure.details}}
		: {...report, stale: false};
}

/** The line for `node` of `engine` after a read at `at`; with --raw (`raw`) the scrape's kubelet_pleg_* lines too. */
function engineLine<F>(engine: Engine<F>, node: string, at: number, raw = false): object | null {
	const entry = engine.state.nodes.get(node);
	if (!entry) return null;
	const view = nodeView(engine.kind, entry, at);
	// kubeletRestarts: counter resets seen since pleg-top started (the screen marks them R in the history), where the feed counts them.
	const extra = {
		...(engine.kind.restarts ? {kubeletRestarts: engine.kind.restarts(entry.feed)} : {}),
		...(raw && view.figures ? rawJson(view.figures) : {}),
	};
	return {...jsonLineOf(view.figures, node, view.status.failure, extra), time: new Date(at).toISOString()};
}

export async function runJsonLines(plan: Plan, mode: NodeMode | OverviewMode, io: Io): Promise<number> {
	const contactFailure = await plan.contact();
	if (contactFailure && isPermanent(contactFailure)) {
		plan.close();
		io.stderr(formatFailure(contactFailure) + '\n');
		return exitCodeFor(contactFailure.kind);
	}

	const engine = plan.start('watch');
	const code = await new Promise<number>((resolve) => {
		let stopped = false;
		const stop = (exitCode: number) => {
			if (stopped) return;
			stopped = true;
			unsubscribe();
			unregister();
			resolve(exitCode);
		};

		const unsubscribe = engine.subscribe((node, read, at) => {
			const fatal = fatalBeforeFirstRead(engine);
			if (fatal) {
				io.stderr(formatFailure(fatal) + '\n');
				stop(exitCodeFor(fatal.kind));
				return;
			}

			const line = node === null || !read ? null : engineLine(engine, node, at, mode.kind === 'node' && mode.raw);
			if (line) io.stdout(safeJson(line) + '\n');
		});
		// `pleg-top … | head` closes the pipe: stop quietly, as any Unix filter does.
		const unregister = onStop((reason) => stop(terminalGone() ? hangupExitCode : reason === 'SIGQUIT' ? quitExitCode : 0), {
			stdoutClosed: true,
		});
		// A replay piped into a script ends with the recording; a line it could not read (its failure is the last JSON
		// line's error) ends it with that failure's exit code.
		void engine.ended.then(() => {
			const entry = engine.scope === 'node' ? engine.state.nodes.get(engine.single) : undefined;
			const failure = entry ? engine.kind.status(entry.feed).failure : null;
			stop(failure ? exitCodeFor(failure.kind) : 0);
		});
	});
	engine.stop();
	plan.close();
	// stdout carries the JSON lines and stderr only problems: the write-down goes to --summary alone.
	const written = mode.kind !== 'node' || finishLab(plan, mode, {stderr: io.stderr, quiet: true});
	return code === 0 && !written ? quitFilesExitCode : code;
}
