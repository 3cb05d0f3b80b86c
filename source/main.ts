#!/usr/bin/env node
// The only impure entry point: argv -> Mode (cli/options) -> Plan (run/plan: the sources and the engine) -> one
// runner (--once report, JSON lines when stdout is not a terminal, or the live screen) -> an exit code.
import './bootstrap/environment.js';
import {readFileSync} from 'node:fs';
import {completionNeed, completionScript, shells} from './cli/completion.js';
import {helpText} from './cli/help-text.js';
import {labHelp, parseLabOptions, type LabMode} from './cli/lab-options.js';
import {glyphsFromLocale, parseOptions, programName, UsageError, type Mode} from './cli/options.js';
import {isOneOf} from './cli/one-of.js';
import {exitCodeFor, SourceFailure} from './sources/failure.js';
import {formatFailure} from './run/start-rule.js';
import {visibleLine} from './domain/text/untrusted-text.js';
import {asciiText} from './screen/layout/glyphs.js';

function packageVersion(): string {
	const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string}; // our own package.json
	return manifest.version;
}

const stdout = (text: string) => void process.stdout.write(text);
const stderr = (text: string) => void process.stderr.write(text);

/**
 * stderr for a run: each line pleg-top starts with its name ("pleg-top: no kubeconfig found") names the program as
 * it was called, "kubectl pleg-top: " under kubectl, as the usage errors do.
 */
const namedAs = (write: (text: string) => void, program: string) =>
	program === 'pleg-top' ? write : (text: string) => write(text.replaceAll(/^pleg-top: /gm, `${program}: `));

/** A writer of text for people: through the glyph table when the locale is not UTF-8. */
const forPeople = (write: (text: string) => void, ascii: boolean) => (ascii ? (text: string) => write(asciiText(text)) : write);

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
		if (!isOneOf(shells, shell) || argv.length > 2) {
			stderr(
				`pleg-top: completion takes one shell: ${shells.join(', ')} (e.g. source <(pleg-top completion bash)); a node named "completion" is watched with --node completion\n`,
			);
			return 2;
		}

		return (stdout(completionScript(shell)), 0);
	}

	// The locale decides the glyphs of everything written for people from here on (screen/layout/glyphs.ts).
	const ascii = glyphsFromLocale(env) === 'ascii';
	if (argv[0] === 'lab') return runLab(argv.slice(1), env, ascii);

	let mode: Mode;
	try {
		mode = parseOptions(argv, {env, stdoutIsTty: process.stdout.isTTY === true, argv1: process.argv[1]});
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		const program = programName(process.argv[1]);
		forPeople(stderr, ascii)(`${program}: ${error.message}\nRun ${program} --help for the flags.\n`);
		return 2;
	}

	if (mode.kind === 'help') return (forPeople(stdout, ascii)(helpText(packageVersion(), mode.program)), 0);
	if (mode.kind === 'version') return (stdout(packageVersion() + '\n'), 0);
	return run(mode, env, ascii);
}

/** `pleg-top lab …`: its own flags, then the lab's run. */
async function runLab(argv: string[], env: NodeJS.ProcessEnv, ascii: boolean): Promise<number> {
	let lab: LabMode;
	try {
		lab = parseLabOptions(argv, {env, stdoutIsTty: process.stdout.isTTY === true, argv1: process.argv[1]});
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		forPeople(stderr, ascii)(`pleg-top lab: ${error.message}\nRun pleg-top lab --help for the flags.\n`);
		return 2;
	}

	if (lab.kind === 'lab-help') return (forPeople(stdout, ascii)(labHelp), 0);
	const {runLabCommand} = await import('./run/lab-run.js');
	const {asciiStream} = await import('./run/ascii-stream.js');
	const terminal = ascii ? asciiStream(process.stdout) : process.stdout;
	return runLabCommand(lab, env, {stdout: forPeople(stdout, ascii), stderr: forPeople(stderr, ascii), terminal});
}

/** The run of a Mode: its plan, then its runner; what is written for people is ASCII when the locale is not UTF-8. */
async function run(mode: Exclude<Mode, {kind: 'help' | 'version'}>, env: NodeJS.ProcessEnv, ascii: boolean): Promise<number> {
	// JSON is data for a program, which reads it as UTF-8 whatever the locale (RFC 8259): it stays as it is.
	const json = mode.output === 'json-lines' || mode.format === 'json';
	const out = forPeople(stdout, ascii && !json);
	const err = forPeople(namedAs(stderr, programName(process.argv[1])), ascii);

	// Loaded only now: the screen's modules import ink, whose colour detection must run after bootstrap set FORCE_COLOR.
	const {planFor} = await import('./run/plan.js');
	let plan;
	try {
		plan = planFor(mode, env);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		err(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	for (const note of plan.notes) err(`pleg-top: ${note}\n`);
	switch (mode.output) {
		case 'once': {
			const {runOnce} = await import('./run/once.js');
			return runOnce(plan, mode, {stdout: out, stderr: err});
		}

		case 'json-lines': {
			const {runJsonLines} = await import('./run/json-lines.js');
			return runJsonLines(plan, mode, {stdout: out, stderr: err});
		}

		case 'live': {
			const {runLive} = await import('./run/live.js');
			const {asciiStream} = await import('./run/ascii-stream.js');
			const terminal = ascii ? asciiStream(process.stdout) : process.stdout;
			return runLive(plan, mode, {stderr: err, terminal, columns: process.stderr.isTTY ? process.stderr.columns : undefined});
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
