#!/usr/bin/env node
// The only impure entry point: argv -> Mode (cli/options) -> Plan (run/plan: the sources and the engine) -> one
// runner (--once report, JSON lines when stdout is not a terminal, or the live screen) -> an exit code.
import './bootstrap/environment.js';
import {readFileSync} from 'node:fs';
import {completionNeed, completionScript, shells, type Shell} from './cli/completion.js';
import {helpText} from './cli/help-text.js';
import {labHelp, parseLabOptions, type LabMode} from './cli/lab-options.js';
import {parseOptions, programName, UsageError, type Mode} from './cli/options.js';
import {exitCodeFor, SourceFailure} from './sources/failure.js';
import {formatFailure} from './run/start-rule.js';
import {visibleLine} from './domain/untrusted-text.js';

function packageVersion(): string {
	const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string};
	return manifest.version;
}

const stdout = (text: string) => void process.stdout.write(text);
const stderr = (text: string) => void process.stderr.write(text);

/** kubectl asks a plugin for completions by running its kubectl_complete-NAME executable (kubectl 1.26+). */
const kubectlCompletes = (argv1: string | undefined) =>
	(argv1 ?? '').split(/[\\/]/).pop()?.startsWith('kubectl_complete-pleg_top') === true;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
	if (argv[0] === '__complete' || kubectlCompletes(process.argv[1])) {
		const {runComplete} = await import('./run/complete.js');
		const words = argv[0] === '__complete' ? argv.slice(1) : argv;
		return runComplete(completionNeed(words.length === 0 ? [''] : words), env, stdout);
	}

	if (argv[0] === 'completion') {
		const shell = argv[1] ?? '';
		if (!(shells as readonly string[]).includes(shell) || argv.length > 2) {
			stderr(
				`pleg-top: completion takes one shell: ${shells.join(', ')} (e.g. source <(pleg-top completion bash)); a node named "completion" is watched with --node completion\n`,
			);
			return 2;
		}

		return (stdout(completionScript(shell as Shell)), 0);
	}

	if (argv[0] === 'lab') {
		let lab: LabMode;
		try {
			lab = parseLabOptions(argv.slice(1), {env, stdoutIsTty: process.stdout.isTTY === true, argv1: process.argv[1]});
		} catch (error) {
			if (!(error instanceof UsageError)) throw error;
			stderr(`pleg-top lab: ${error.message}\nRun pleg-top lab --help for the flags.\n`);
			return 2;
		}

		if (lab.kind === 'lab-help') return (stdout(labHelp), 0);
		const {runLabCommand} = await import('./run/lab-run.js');
		return runLabCommand(lab, env, {stdout, stderr});
	}

	let mode: Mode;
	try {
		mode = parseOptions(argv, {env, stdoutIsTty: process.stdout.isTTY === true, argv1: process.argv[1]});
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		stderr(`pleg-top: ${error.message}\nRun ${programName(process.argv[1])} --help for the flags.\n`);
		return 2;
	}

	if (mode.kind === 'help') return (stdout(helpText(packageVersion(), mode.program)), 0);
	if (mode.kind === 'version') return (stdout(packageVersion() + '\n'), 0);

	// Loaded only now: the screen's modules import ink, whose colour detection must run after bootstrap set FORCE_COLOR.
	const {planFor} = await import('./run/plan.js');
	let plan;
	try {
		plan = planFor(mode, env);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		stderr(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	for (const note of plan.notes) stderr(`pleg-top: ${note}\n`);
	switch (mode.output) {
		case 'once': {
			const {runOnce} = await import('./run/once.js');
			return runOnce(plan, mode, {stdout, stderr});
		}

		case 'json-lines': {
			const {runJsonLines} = await import('./run/json-lines.js');
			return runJsonLines(plan, mode, {stdout, stderr});
		}

		case 'live': {
			const {runLive} = await import('./run/live.js');
			return runLive(plan, mode, {stderr, columns: process.stderr.isTTY ? process.stderr.columns : undefined});
		}
	}
}

main(process.argv.slice(2), process.env).then(
	(code) => {
		process.exitCode = code;
		// Keep-alive sockets and stdin would hold the process open after the run is over.
		setImmediate(() => process.exit(code));
	},
	(error: unknown) => {
		// The message may quote anything (a JSON.parse error quotes the body it read): shown visible.
		process.stderr.write(`pleg-top: unexpected error: ${visibleLine(error instanceof Error ? error.message : String(error))}\n`);
		process.exit(3);
	},
);
