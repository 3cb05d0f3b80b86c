#!/usr/bin/env node
// The only impure entry point: flags in, one source built, then one of three runs
// (--once report, JSON lines when stdout is not a terminal, or the live screen), and an exit code.
import './bootstrap/environment.js';
import {readFileSync} from 'node:fs';
import {exitCodeFor, SourceFailure} from './sources/failure.js';
import type {MetricsSource} from './domain/types.js';
import type {createSource, SourceClock} from './run/create-source.js';
import {formatFailure, formatOnce, exitCodeForOnce, measureOnce, streamJsonLines} from './run/headless.js';
import {helpText} from './cli/help-text.js';
import {parseOptions, UsageError, type Options} from './cli/options.js';
import {toFailure} from './sources/to-failure.js';
import {labJsonReport, labTextReport} from './lab/lab-report.js';
import {labFromRecording} from './lab/recording.js';
import {recordedIntervalMs, type ReplaySource} from './sources/replay.js';
import {createLabRecorder, writeQuitFiles, type LabRecorder} from './lab/recorder.js';


function packageVersion(): string {
	const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string};
	return manifest.version;
}

/** Failures that retrying will not mend end the run before the screen is taken, where they stay readable. */
const fatalAtStart = new Set(['config', 'unauthorized', 'tls']);

/** What a live or replayed run was recording: the lab session, and the replay when there is one. */
type Lab = {recorder: LabRecorder; replay: ReplaySource | undefined};

/** On quit: the write-down (to the normal screen; under JSON lines only to --summary), then the --summary and --plot files. */
function finishLab({recorder}: Lab, options: Options, write: (text: string) => void): void {
	recorder.close();
	const summary = recorder.summary();
	const {text, notes} = writeQuitFiles(summary, {summary: options.summary, plot: options.plot});
	// Nothing was measured when no scrape succeeded: the failure already said why.
	if (summary.session) write('\n' + text);
	if (options.record !== undefined) notes.push(`recording appended to ${options.record}`);
	if (recorder.recordError) notes.push(`pleg-top: ${recorder.recordError}`);
	if (notes.length > 0) process.stderr.write(notes.join('\n') + '\n');
}

/** --replay FILE --once: the whole recording and each marked segment, without waiting. */
function replayOnce(replay: ReplaySource, options: Options): number {
	let lab;
	try {
		lab = labFromRecording(replay.records, options.windowSeconds).summary();
	} catch (error) {
		process.stderr.write(`pleg-top: ${options.replay}: ${(error as Error).message}\n`);
		return 2;
	}

	const body = options.output === 'json' ? JSON.stringify(labJsonReport(lab, replay.records.length), null, 2) + '\n' : labTextReport(lab);
	process.stdout.write(body);
	const {notes} = writeQuitFiles(lab, {summary: options.summary, plot: options.plot});
	if (notes.length > 0) process.stderr.write(notes.join('\n') + '\n');
	return 0;
}

async function runLive(source: MetricsSource, options: Options, demo: ReturnType<typeof createSource>['demo'], lab: Lab, clock: SourceClock | undefined): Promise<number> {
	// Ink and its colour detection load while the first request is in flight (FORCE_COLOR is set by now);
	// loading prints nothing, so the normal screen stays as it is until render().
	const screenModules = Promise.all([import('./run/full-screen.js'), import('./screen/app.js'), import('react')]);
	// The first authenticated request happens on the normal screen, so an exec plugin's login
	// prompt or its error stays visible.
	if (source.fetchNode) {
		try {
			await source.fetchNode(new AbortController().signal);
		} catch (error) {
			const failure = toFailure(error, source);
			if (fatalAtStart.has(failure.kind)) {
				process.stderr.write(formatFailure(failure) + '\n');
				return exitCodeFor(failure.kind);
			}
		}
	}

	const [{runFullScreen}, {default: App}, React] = await screenModules;
	const {recorder, replay} = lab;
	const replayProps = replay && {now: replay.now, pollIntervalMs: 0, marks: replay.onMark, intervalMs: recordedIntervalMs(replay.records)};
	try {
		await runFullScreen(
			React.createElement(App, {source, intervalMs: options.intervalMs, windowSeconds: options.windowSeconds, demo, onPayload: recorder.payload, onMark: recorder.mark, ...clockProps(clock), ...replayProps}),
		);
	} finally {
		source.close?.();
	}

	// After leaving the alternate screen, so the write-down stays in the terminal's scrollback.
	finishLab(lab, options, (text) => process.stdout.write(text));
	return 0;
}

/** The demo's clock: scrapes stamped in the simulated kubelet's time, at its cadence. */
function clockProps(clock: SourceClock | undefined) {
	return clock && {now: clock.now, intervalMs: clock.shownMs, pollIntervalMs: clock.pollMs, nodeRefreshMs: clock.nodeRefreshMs};
}

async function runJsonLines(source: MetricsSource, options: Options, lab: Lab, clock: SourceClock | undefined): Promise<number> {
	const {recorder, replay} = lab;
	return new Promise((resolve) => {
		const unsubscribe = replay?.onMark(recorder.mark);
		const stream = streamJsonLines({
			source,
			intervalMs: replay ? 0 : (clock?.pollMs ?? options.intervalMs),
			windowSeconds: options.windowSeconds,
			write(line) {
				process.stdout.write(line);
			},
			now: replay?.now ?? clock?.now,
			onPayload: recorder.payload,
		});
		let stopped = false;
		const stop = () => {
			if (stopped) return;
			stopped = true;
			stream.stop();
			unsubscribe?.();
			source.close?.();
			// stdout carries the JSON lines and stderr only problems: the write-down goes to --summary alone.
			finishLab(lab, options, () => undefined);
			resolve(0);
		};

		// A replay piped into a script ends with the recording.
		void replay?.ended.then(stop);

		// `pleg-top ... | head` closes the pipe: stop quietly, as any Unix filter does.
		process.stdout.on('error', stop);
		for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.once(signal, stop);
	});
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
	let options: Options;
	try {
		options = parseOptions(argv, env);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`pleg-top: ${error.message}\nRun pleg-top --help for the flags.\n`);
		return 2;
	}

	if (options.help) {
		process.stdout.write(helpText(packageVersion()));
		return 0;
	}

	if (options.version) {
		process.stdout.write(packageVersion() + '\n');
		return 0;
	}


	const {createSource} = await import('./run/create-source.js');

	// No --node: the cluster overview; --prometheus: figures from Prometheus (overview, or one node with --node).
	// Loaded only now: its table imports ink, whose colour detection must run after FORCE_COLOR is set (NO_COLOR).
	const {runOverview, wantsOverview} = await import('./run/overview.js');
	if (wantsOverview(options)) return runOverview(options, env);

	let choice;
	try {
		choice = createSource(options, env);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		process.stderr.write(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	const {source, demo, replay, clock} = choice;
	if (options.once && replay) return replayOnce(replay, options);
	if (options.once) {
		const result = await measureOnce(source, options.windowSeconds, clock);
		source.close?.();
		const {stdout, stderr} = formatOnce(result, options.output);
		process.stdout.write(stdout);
		process.stderr.write(stderr);
		return exitCodeForOnce(result);
	}

	let recorder;
	try {
		recorder = createLabRecorder({source, windowSeconds: options.windowSeconds, file: options.record});
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		process.stderr.write(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	const lab = {recorder, replay};
	if (!process.stdout.isTTY) return runJsonLines(recorder.source, options, lab, clock);
	return runLive(recorder.source, options, demo, lab, clock);
}

main(process.argv.slice(2), process.env).then(
	(code) => {
		process.exitCode = code;
		// Keep-alive sockets and stdin would hold the process open after the run is over.
		setImmediate(() => process.exit(code));
	},
	(error: unknown) => {
		process.stderr.write(`pleg-top: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(3);
	},
);
