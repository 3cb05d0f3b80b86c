#!/usr/bin/env node
// The only impure entry point: flags in, one source built, then one of three runs
// (--once report, JSON lines when stdout is not a terminal, or the live screen), and an exit code.
import {readFileSync} from 'node:fs';
import {exitCodeFor, SourceFailure} from './core/sources/failure.js';
import type {MetricsSource} from './core/types.js';
import {createSource} from './create-source.js';
import {formatFailure, formatOnce, exitCodeForOnce, measureOnce, streamJsonLines} from './headless.js';
import {helpText} from './help-text.js';
import {parseOptions, UsageError, type Options} from './options.js';
import {toFailure} from './to-failure.js';

const enterAltScreen = '\u001B[?1049h';
const leaveAltScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

function packageVersion(): string {
	const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string};
	return manifest.version;
}

/** Failures that retrying will not mend end the run before the screen is taken, where they stay readable. */
const fatalAtStart = new Set(['config', 'unauthorized', 'tls']);

async function runLive(source: MetricsSource, options: Options, demo: ReturnType<typeof createSource>['demo']): Promise<number> {
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

	// Ink and its colour detection are loaded only now, after FORCE_COLOR may have been set.
	const [{render}, {default: App}, React] = await Promise.all([import('ink'), import('./app.js'), import('react')]);
	process.stdout.write(enterAltScreen);
	const restore = () => {
		process.stdout.write(showCursor + leaveAltScreen);
	};

	const instance = render(React.createElement(App, {source, intervalMs: options.intervalMs, windowSeconds: options.windowSeconds, demo}), {
		exitOnCtrlC: true,
	});
	const quit = () => {
		instance.unmount();
	};

	for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.once(signal, quit);
	try {
		await instance.waitUntilExit();
	} finally {
		restore();
		source.close?.();
	}

	return 0;
}

async function runJsonLines(source: MetricsSource, options: Options): Promise<number> {
	return new Promise((resolve) => {
		const stream = streamJsonLines({
			source,
			intervalMs: options.intervalMs,
			windowSeconds: options.windowSeconds,
			write(line) {
				process.stdout.write(line);
			},
		});
		const stop = () => {
			stream.stop();
			source.close?.();
			resolve(0);
		};

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

	if (!options.color) process.env['FORCE_COLOR'] = '0';

	if (!options.node && !options.demo && !options.replay) {
		process.stderr.write('pleg-top: the cluster overview (no --node) is not built yet: give --node NODE (kubectl get nodes lists them), or --demo\n');
		return 2;
	}

	let choice;
	try {
		choice = createSource(options, env);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		process.stderr.write(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	const {source, demo} = choice;
	if (options.once) {
		const result = await measureOnce(source, options.windowSeconds);
		source.close?.();
		const {stdout, stderr} = formatOnce(result, options.output);
		process.stdout.write(stdout);
		process.stderr.write(stderr);
		return exitCodeForOnce(result);
	}

	if (!process.stdout.isTTY) return runJsonLines(source, options);
	return runLive(source, options, demo);
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
