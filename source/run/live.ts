// The live screen (stdout is a terminal, no --once): the one-node dashboard for an engine of one node, the
// overview table for an engine of every node, in the alternate screen until q, Ctrl-C or a signal. A fault that
// retrying will not mend, met before the first good read, ends the screen and is said on the normal screen
// (exit 3, or 2 for a configuration fault), where it stays readable.
import type {NodeMode, OverviewMode} from './mode.js';
import type {Failure} from '../domain/types.js';
import {exitCodeFor} from '../sources/failure.js';
import {finishLab, quitFilesExitCode} from './lab.js';
import type {Plan} from './plan.js';
import {fatalBeforeFirstRead, formatFailure, isPermanent} from './start-rule.js';
import {hangupExitCode, quitExitCode, terminalGone} from './signals.js';
import {createScreenSignals} from './screen-signals.js';
import {rowViews} from '../domain/fleet/overview-state.js';
import {overviewRows} from '../screen/overview-rows.js';

/** `terminal`: the stdout the screen, the title and the bell are written to (ASCII on a locale that is not UTF-8). */
type Io = {stderr: (text: string) => void; terminal: NodeJS.WriteStream; columns: number | undefined};

export async function runLive(plan: Plan, mode: NodeMode | OverviewMode, io: Io): Promise<number> {
	// Ink and its colour detection load while the first request is in flight (FORCE_COLOR is set by now); loading
	// prints nothing, so the normal screen stays as it is until the screen is taken.
	const screen = Promise.all([
		import('./full-screen.js'),
		import('../screen/app.js'),
		import('../screen/overview-app.js'),
		import('react'),
		import('../screen/layout/line-view.js'),
	]);
	const contactFailure = await plan.contact();
	if (contactFailure && isPermanent(contactFailure)) {
		plan.close();
		io.stderr(formatFailure(contactFailure) + '\n');
		return exitCodeFor(contactFailure.kind);
	}

	const [{runFullScreen}, {default: App}, {OverviewApp}, React, {ThemeContext}] = await screen;
	const engine = plan.start('watch');
	const ending = new AbortController();
	const end: {fatal: Failure | null} = {fatal: null};
	// The terminal title and the bell follow each read of the node whose screen shows (the one node, or the node opened
	// from the table), else the fleet's trouble at most once a second (a refresh of many nodes is as many reads).
	// Subscribed before the screen mounts, so this listener runs first: it derives the figures of (feed, at), and the
	// frame drawn for the same change at the same `at` (frames.ts, throttle 0) gets them from the feed kind's memo.
	const signals = createScreenSignals({
		single: engine.scope === 'node' ? engine.single : null,
		bell: mode.bell,
		write: (text) => io.terminal.write(text),
	});
	const readOf = (node: string, at: number) => {
		const entry = engine.state.nodes.get(node);
		if (entry) signals.read(engine.kind.figures(entry.feed, at), engine.kind.status(entry.feed).failure !== null);
	};

	let lookedAt = -Infinity;
	const look = (at: number) => {
		lookedAt = at;
		signals.look(overviewRows(rowViews(engine.kind, engine.state), {now: at, cycleMs: engine.effectiveIntervalMs()}));
	};

	const unsubscribe = engine.subscribe((node, read, at) => {
		end.fatal ??= fatalBeforeFirstRead(engine);
		if (end.fatal) ending.abort();
		if (!read) return;
		if (node !== null && node === signals.node) readOf(node, at);
		else if (signals.node === null && at - lookedAt >= 1000) look(at);
	});
	// Opened from the table: the node's title at once (its next read may be a back-off away); back: the fleet's.
	const onOpen = (node: string | null) => {
		if (node === signals.node) return;
		signals.open(node);
		if (node === null) look(engine.now());
		else readOf(node, engine.now());
	};

	const app =
		engine.scope === 'fleet'
			? React.createElement(OverviewApp, {engine, header: plan.header, onOpen})
			: React.createElement(App, {engine, demo: plan.demo, header: plan.header, raw: mode.kind === 'node' && mode.raw});
	const element = React.createElement(ThemeContext.Provider, {value: mode.theme}, app);
	let by: 'SIGINT' | 'SIGQUIT' | null = null;
	try {
		({by} = await runFullScreen(element, io.terminal, ending.signal));
	} finally {
		unsubscribe();
		signals.close();
		engine.stop();
		plan.close();
	}

	// After leaving the alternate screen, so what is said stays in the terminal's scrollback.
	return exitAfterScreen(plan, mode, io, end.fatal, by);
}

/** The exit code once the screen has ended: a fatal fault's, a signal's, or whether the lab's files were written. */
function exitAfterScreen(
	plan: Plan,
	mode: NodeMode | OverviewMode,
	io: Io,
	fatal: Failure | null,
	by: 'SIGINT' | 'SIGQUIT' | null,
): number {
	if (fatal) {
		io.stderr(formatFailure(fatal) + '\n');
		return exitCodeFor(fatal.kind);
	}

	// After a hangup (SIGHUP) the files (--summary, --plot, --record) are still written; the write-down is tried on
	// the terminal too, which a kill -HUP leaves in place, and fails without harm on one that is gone (signals.ts).
	const written = mode.kind !== 'node' || finishLab(plan, mode, {stderr: io.stderr, quiet: mode.quiet, columns: io.columns});
	// A hangup: 129; Ctrl-C: 130, Ctrl-\: 131, as a shell reports an interrupted or quit command.
	if (terminalGone()) return hangupExitCode;
	if (by !== null) return by === 'SIGQUIT' ? quitExitCode : 130;
	return written ? 0 : quitFilesExitCode;
}
