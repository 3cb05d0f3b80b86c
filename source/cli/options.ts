// Command-line words -> one Mode: what to watch (one node, or every node), where its metrics come from, and how
// the run shows them (live screen, JSON lines, or --once). Pure: no I/O, so every usage error is testable and
// the CLI exits 2 with the message before touching the network. Each backend carries only the fields it uses,
// so no caller has to assume that a flag "must have been given".
import {parseArgs} from 'node:util';
import {
	failOnBands,
	formats,
	themes,
	type DirectAccess,
	type KubeAccess,
	type LabFiles,
	type Mode,
	type NodeBackend,
	type OverviewBackend,
	type RunSettings,
	type Theme,
} from '../run/mode.js';
import {codeOf, messageOf} from '../domain/text/thrown.js';
import {isOneOf} from './one-of.js';

// The Mode's vocabulary is the runners' contract (run/mode.ts); callers of parseOptions find it here too.
export * from '../run/mode.js';

/**
 * The palette a terminal's COLORFGBG asks for ("fg;bg" or "fg;default;bg", set by rxvt, Konsole, iTerm2 and
 * others): a background of white (7) or bright white (15) is light. Null when unset or unreadable.
 */
export function themeFromColorfgbg(value: string | undefined): Theme | null {
	const background = value?.split(';').at(-1);
	if (background === undefined || !/^\d+$/.test(background)) return null;
	return ['7', '15'].includes(background) ? 'light' : 'dark';
}

/** Unicode on a UTF-8 locale; ASCII on any other (main.ts writes through screen/layout/glyphs.ts's table then). */
export type Glyphs = 'unicode' | 'ascii';

/**
 * The glyphs the locale can show, decided as a C program's setlocale(LC_ALL, "") decides its character set: the
 * first of LC_ALL, LC_CTYPE and LANG that is set and not empty names the locale, and only a UTF-8 codeset
 * ("C.UTF-8", "en_US.utf8") shows Unicode; "C", "POSIX" or "en_US.ISO-8859-1" get ASCII. With none set, Unicode
 * as before: that is a container or a service manager far more often than a terminal that cannot show UTF-8.
 */
export function glyphsFromLocale(env: NodeJS.ProcessEnv): Glyphs {
	const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find((value) => value !== undefined && value !== '');
	if (locale === undefined) return 'unicode';
	return /\.utf-?8(?:@|$)/i.test(locale) ? 'unicode' : 'ascii';
}

/** What parseOptions needs besides the words: the environment, whether stdout is a terminal, how it was called. */
export type Invocation = {
	env?: NodeJS.ProcessEnv;
	/** stdout is a terminal: without --once, the live screen; otherwise JSON lines. */
	stdoutIsTty?: boolean;
	/** process.argv[1]: kubectl runs the plugin as …/kubectl-pleg_top. */
	argv1?: string;
};

export class UsageError extends Error {
	override name = 'UsageError';
}

/** "pleg-top", or "kubectl pleg-top" when kubectl ran pleg-top as its plugin (bin kubectl-pleg_top). */
export function programName(argv1: string | undefined): string {
	const base = (argv1 ?? '').split(/[\\/]/).pop() ?? '';
	return base.startsWith('kubectl-pleg_top') ? 'kubectl pleg-top' : 'pleg-top';
}

const units: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000};

/** "100ms", "2s", "1m", "1m30s" -> milliseconds. Go-style, as kubectl's --request-timeout. */
export function parseDuration(text: string): number {
	const trimmed = text.trim();
	const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
	let total = 0;
	let consumed = 0;
	let match: RegExpExecArray | null;
	while ((match = part.exec(trimmed)) !== null) {
		total += Number(match[1]) * units[match[2]!]!; // matched by the pattern
		consumed = part.lastIndex;
	}

	if (trimmed === '' || consumed !== trimmed.length) {
		throw new UsageError(`"${text}" is not a duration: write it as 100ms, 2s, 1m or 1m30s`);
	}

	return total;
}

/**
 * The largest durations accepted, ms. Above them a timer would overflow (Node's timers hold at most ~24.8 days and
 * fire at once beyond it) long before the value made sense for watching a loop that runs every second.
 */
export const durationLimits = {interval: 3_600_000, timeout: 600_000, window: 86_400_000} as const;

const sizeUnits: Record<string, number> = {'': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3};

/** The largest --max-body-size: a body becomes one string, and V8's strings hold at most 2^29 - 24 characters. */
const maxBodySizeLimit = 256 * 1024 ** 2;

/** "64Mi", "512Ki", "1Gi", "1000000" (bytes) -> bytes, as Kubernetes writes binary quantities. */
export function parseByteSize(text: string): number {
	const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi)?$/.exec(text.trim());
	if (!match) {
		throw new UsageError(`--max-body-size must be a size such as 64Mi, 256Mi or 1Gi, not "${text}"`);
	}

	const bytes = Math.floor(Number(match[1]) * sizeUnits[match[2] ?? '']!); // matched by the pattern
	if (bytes < 1024 || bytes > maxBodySizeLimit) {
		throw new UsageError(`--max-body-size must be from 1Ki to 256Mi (a body becomes one string), not "${text}"`);
	}

	return bytes;
}

export const flagSpec = {
	node: {type: 'string'},
	kubeconfig: {type: 'string'},
	context: {type: 'string'},
	interval: {type: 'string', default: '1s'},
	timeout: {type: 'string', default: '10s'},
	'max-body-size': {type: 'string', default: '64Mi'},
	window: {type: 'string', default: '10s'},
	once: {type: 'boolean', default: false},
	output: {type: 'string', short: 'o', default: 'text'},
	'fail-on': {type: 'string', default: 'unhealthy'},
	demo: {type: 'boolean', default: false},
	'demo-speed': {type: 'string', default: '1'},
	'no-color': {type: 'boolean', default: false},
	'no-bell': {type: 'boolean', default: false},
	theme: {type: 'string'},
	quiet: {type: 'boolean', default: false},
	help: {type: 'boolean', short: 'h', default: false},
	version: {type: 'boolean', short: 'V', default: false},
	record: {type: 'string'},
	replay: {type: 'string'},
	speed: {type: 'string', default: '1'},
	summary: {type: 'string'},
	plot: {type: 'string'},
	'kubelet-url': {type: 'string'},
	prometheus: {type: 'string'},
	job: {type: 'string'},
	'history-from': {type: 'string'},
	'token-file': {type: 'string'},
	'kubelet-ca': {type: 'string'},
	'insecure-skip-tls-verify': {type: 'boolean', default: false},
	'max-inflight': {type: 'string', default: '8'},
	'max-rps': {type: 'string', default: '20'},
	selector: {type: 'string', short: 'l'},
	raw: {type: 'boolean', default: false},
} as const;

type Values = ReturnType<typeof parseArgs<{options: typeof flagSpec; allowPositionals: true; strict: true}>>['values'];

/**
 * `--interval -1s` would otherwise stop in the argument parser ("argument is ambiguous"): a value that looks like
 * a negative number is joined to its flag, so pleg-top's own check names what is wrong with it.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
	const takesValue = new Set<string>();
	for (const [name, spec] of Object.entries(flagSpec)) {
		if (spec.type !== 'string') continue;
		takesValue.add(`--${name}`);
		if ('short' in spec) takesValue.add(`-${spec.short}`);
	}

	const joined: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const word = argv[index]!; // in bounds
		const next = argv[index + 1];
		if (takesValue.has(word) && next !== undefined && /^-\d/.test(next)) {
			joined.push(`${word}=${next}`);
			index++;
		} else {
			joined.push(word);
		}
	}

	return joined;
}

function duration(flag: keyof typeof durationLimits, text: string): number {
	if (text.trim().startsWith('-')) throw new UsageError(`--${flag} cannot be negative, not "${text}": write it as 100ms, 2s, 1m or 1m30s`);
	let ms: number;
	try {
		ms = parseDuration(text);
	} catch (error) {
		throw new UsageError(`--${flag}: ${messageOf(error)}`);
	}

	const max = durationLimits[flag];
	if (ms > max) throw new UsageError(`--${flag} must be at most ${formatLimit(max)}, not "${text}"`);
	return ms;
}

function formatLimit(ms: number): string {
	return ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 60_000}m`;
}

function positiveNumber(flag: string, text: string, max: number): number {
	const value = Number(text);
	if (!Number.isFinite(value) || value <= 0 || value > max) {
		throw new UsageError(`--${flag} must be a number above 0 and at most ${max}, not "${text}"`);
	}

	return value;
}

function httpsUrl(flag: string, text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new UsageError(`--${flag} must be a URL such as https://10.0.0.5:10250, not "${text}"`);
	}

	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new UsageError(`--${flag} must start with https:// (or http://), not "${url.protocol}"`);
	}

	return text;
}

/** "unhealthy, critical or warn". */
const eitherOf = (allowed: readonly string[]) => `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)!}`; // non-empty

function oneOf<T extends string>(flag: string, allowed: readonly T[], text: string): T {
	if (!isOneOf(allowed, text)) {
		throw new UsageError(`--${flag} must be ${eitherOf(allowed)}, not "${text}"`);
	}

	return text;
}

/** The resource prefixes kubectl writes before a node's name (`kubectl get nodes -o name` prints node/NAME). */
const nodePrefixes = ['node/', 'nodes/', 'no/'];

/**
 * A node as the user wrote it -> its name: "node/worker-1" -> "worker-1". A name never holds a slash, so any other
 * TYPE/NAME names something that is not a node.
 */
export function bareNodeName(word: string): string {
	const prefix = nodePrefixes.find((candidate) => word.startsWith(candidate));
	if (prefix !== undefined) return word.slice(prefix.length);
	if (word.includes('/')) throw new UsageError(`"${word}" is not a node: give a node name (kubectl get nodes -o name lists them)`);
	return word;
}

/** The node words with their kubectl prefixes taken off: --node and every positional. */
function withoutNodePrefixes(values: Values, positionals: string[]): {values: Values; positionals: string[]} {
	return {
		values: values.node === undefined ? values : {...values, node: bareNodeName(values.node)},
		positionals: positionals.map(bareNodeName),
	};
}

/** The node to watch, from --node NODE or the one positional word (as `kubectl describe node NODE`). */
function nodeName(values: Values, positionals: string[]): string | undefined {
	// Several nodes are an overview of those (the Mode's `names`); one is the one-node screen.
	if (positionals.length > 1) return undefined;

	const [positional] = positionals;
	if (values.node !== undefined && positional !== undefined && values.node !== positional) {
		throw new UsageError(`the node is named twice ("${positional}" and --node "${values.node}"): give it once`);
	}

	const node = values.node ?? positional;
	if (node !== undefined && node.trim() === '') throw new UsageError('--node needs a node name (kubectl get nodes lists them)');
	return node;
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours): how far a typo is from a flag. */
function typoDistance(a: string, b: string): number {
	const d = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost); // in bounds
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1); // in bounds
		}
	}

	return d[a.length]![b.length]!; // in bounds
}

/** The flag nearest to `typed` (without dashes), when it is near enough to be what was meant. */
function suggestFlag(typed: string): string | undefined {
	let best: {flag: string; distance: number} | undefined;
	for (const flag of Object.keys(flagSpec)) {
		const distance = typoDistance(typed.toLowerCase(), flag);
		if (!best || distance < best.distance) best = {flag, distance};
	}

	// At most a third of the flag's letters wrong (2 in --interval), and a prefix counts: --kube for --kubeconfig.
	const prefix = typed.length >= 3 && Object.keys(flagSpec).filter((flag) => flag.startsWith(typed.toLowerCase()));
	if (prefix && prefix.length === 1) return prefix[0];
	return best && best.distance <= Math.max(1, Math.floor(best.flag.length / 3)) ? best.flag : undefined;
}

type BooleanFlag = {[K in keyof typeof flagSpec]: (typeof flagSpec)[K]['type'] extends 'boolean' ? K : never}[keyof typeof flagSpec];

/** What a flag's value is written as, for a flag given without one. */
const valueHints: Record<Exclude<keyof typeof flagSpec, BooleanFlag>, string> = {
	node: 'a node name (kubectl get nodes lists them)',
	kubeconfig: 'a kubeconfig file',
	context: 'a context name (kubectl config get-contexts lists them)',
	interval: 'write it as 100ms, 2s, 1m or 1m30s',
	timeout: 'write it as 100ms, 2s, 1m or 1m30s',
	window: 'write it as 100ms, 2s, 1m or 1m30s',
	'max-body-size': 'a size such as 64Mi, 256Mi or 1Gi',
	output: eitherOf(formats),
	'fail-on': eitherOf(failOnBands),
	theme: eitherOf(themes),
	selector: 'labels, e.g. -l pool=gpu',
	'demo-speed': 'simulated seconds per real second, e.g. 60',
	speed: 'recorded seconds per real second, e.g. 10',
	'max-inflight': 'a number of requests, e.g. 8',
	'max-rps': 'requests per second, e.g. 20',
	record: 'the file to append one JSON line per scrape to',
	replay: 'a file made with --record',
	summary: 'the Markdown file to write on quit',
	plot: 'the .svg file to write on quit',
	'kubelet-url': 'a URL such as https://10.0.0.5:10250',
	prometheus: 'a URL such as http://prometheus:9090',
	'history-from': 'a Prometheus URL such as http://prometheus:9090',
	'token-file': 'a file holding a bearer token',
	'kubelet-ca': 'a CA bundle file',
	job: 'a Prometheus scrape job name, e.g. kubelet',
};

/**
 * pleg-top's words for node:util's "Option '--window <value>' argument missing", "Option '--window' argument is
 * ambiguous" (the next word is a flag) and "Option '--once' does not take an argument".
 */
function valueMessage(error: unknown): string | undefined {
	if (codeOf(error) !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return undefined;
	const message = messageOf(error);
	const noValue = /^Option '--([\w-]+)' does not take an argument/.exec(message);
	if (noValue) return `--${noValue[1]} takes no value: give it alone`;
	const missing = /^Option '(?:-\w, )?--([\w-]+) <value>' argument missing/.exec(message);
	const ambiguous = /^Option '(-\w|--[\w-]+)' argument is ambiguous/.exec(message);
	const typed = missing ? `--${missing[1]}` : ambiguous?.[1];
	if (typed === undefined) return undefined;
	const flag = Object.entries(flagSpec).find(([name, spec]) => `--${name}` === typed || ('short' in spec && `-${spec.short}` === typed));
	if (!flag) return undefined;
	const [name, spec] = flag;
	const shown = 'short' in spec ? `-${spec.short}/--${name}` : `--${name}`;
	return `${shown} needs a value: ${valueHints[name as keyof typeof valueHints]}`; // a flag with a value
}

/** pleg-top's words for node:util's "Unknown option '--intreval'. To specify a positional argument …". */
function unknownFlagMessage(error: unknown): string | undefined {
	if (codeOf(error) !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
	const typed = /Unknown option '([^']+)'/.exec(messageOf(error))?.[1];
	if (!typed) return undefined;
	const suggestion = typed.startsWith('--') ? suggestFlag(typed.slice(2)) : undefined;
	// The usage line after it already points at --help.
	return suggestion ? `unknown flag ${typed}: did you mean --${suggestion}?` : `unknown flag ${typed}`;
}

export function parseOptions(argv: readonly string[], invocation: Invocation = {}): Mode {
	const env = invocation.env ?? {};
	const words = readWords(argv);
	if (words.values.help) return {kind: 'help', program: programName(invocation.argv1)};
	if (words.values.version) return {kind: 'version'};
	const {values, positionals} = withoutNodePrefixes(words.values, words.positionals);

	const program = programName(invocation.argv1);
	const format = oneOf('output', formats, values.output);
	const failOn = oneOf('fail-on', failOnBands, values['fail-on']);
	const {intervalMs, timeoutMs, windowSeconds} = timing(values);
	if (values['fail-on'] !== 'unhealthy' && !values.once) {
		throw new UsageError('--fail-on sets the exit code of --once: add --once');
	}

	const limits = numbers(values);
	const picks: Picks = {
		kubeletUrl: httpsUrl('kubelet-url', values['kubelet-url']),
		prometheus: httpsUrl('prometheus', values.prometheus),
		node: nodeName(values, positionals),
		names: positionals.length > 1 ? positionals : undefined,
		selector: values.selector,
	};
	checkFleetPicks(values, picks);
	checkSources(values, picks);

	const settings: RunSettings = {
		output: outputOf(values.once, invocation.stdoutIsTty === true, env, program),
		format,
		intervalMs,
		timeoutMs,
		maxBodyBytes: parseByteSize(values['max-body-size']),
		windowSeconds,
		// no-color.org: NO_COLOR set to any non-empty value turns colour off.
		color: !values['no-color'] && !env['NO_COLOR'],
		bell: !values['no-bell'],
		quiet: values.quiet,
		theme: values.theme === undefined ? (themeFromColorfgbg(env['COLORFGBG']) ?? 'dark') : oneOf('theme', themes, values.theme),
		failOn,
	};
	const lab: LabFiles = {record: values.record, summary: values.summary, plot: values.plot};
	// The flags that follow one node's /metrics text: the lab files and the raw view.
	const labFlags = [
		lab.record !== undefined && '--record',
		lab.summary !== undefined && '--summary',
		lab.plot !== undefined && '--plot',
		values.raw && '--raw',
	].filter(Boolean);
	const nodeBackend = withTypedTiming(nodeBackendOf(values, picks, limits), argv);
	if (nodeBackend === null) {
		if (values['history-from'] !== undefined)
			throw new UsageError(`--history-from fills one node's chart: give the node (${program} NODE)`);
		if (labFlags.length > 0)
			throw new UsageError(`${labFlags.join(', ')} follow${labFlags.length === 1 ? 's' : ''} one node: give the node (${program} NODE)`);
		return {...settings, kind: 'overview', backend: overviewBackendOf(values, picks, limits)};
	}

	if (nodeBackend.kind === 'prometheus' && labFlags.length > 0) {
		throw new UsageError(
			`${labFlags.join(', ')} work${labFlags.length === 1 ? 's' : ''} on the kubelet's /metrics text; --prometheus answers with figures: drop ${labFlags.length === 1 ? 'it' : 'them'}`,
		);
	}

	if (values.raw && values.once && nodeBackend.kind === 'replay') {
		throw new UsageError(
			'--replay --once reports the whole recording; --raw shows one scrape: drop --once to step through it with the raw view',
		);
	}

	return {
		...settings,
		kind: 'node',
		backend: withHistoryFrom(nodeBackend, values, picks.prometheus, directOf(values)),
		lab,
		raw: values.raw,
	};
}

/** --once, else the live screen on a terminal, else JSON lines; a terminal that cannot draw the screen is refused. */
function outputOf(once: boolean, stdoutIsTty: boolean, env: NodeJS.ProcessEnv, program: string): RunSettings['output'] {
	const output = once ? 'once' : stdoutIsTty ? 'live' : 'json-lines';
	// A terminal that cannot move its cursor (Emacs' shell, a CI log viewer) would get escapes for a screen it cannot draw.
	if (output === 'live' && env['TERM'] === 'dumb') {
		throw new UsageError(
			`TERM=dumb cannot draw the live screen: add --once for one report (-o json for JSON), or send stdout to a pipe or a file for one JSON line per scrape (${program} NODE | cat)`,
		);
	}

	return output;
}

/** The words as flags and positionals; an unknown flag in pleg-top's words, with the flag nearest to it. */
function readWords(argv: readonly string[]): {values: Values; positionals: string[]} {
	try {
		return parseArgs({args: joinNegativeValues(argv), options: flagSpec, strict: true, allowPositionals: true});
	} catch (error) {
		throw new UsageError(unknownFlagMessage(error) ?? valueMessage(error) ?? messageOf(error));
	}
}

/** --interval and --timeout in ms, --window in seconds, each within its bounds. */
function timing(values: Values): {intervalMs: number; timeoutMs: number; windowSeconds: number} {
	const intervalMs = duration('interval', values.interval);
	const timeoutMs = duration('timeout', values.timeout);
	// Seconds from here on, as the flag's help and every windowed figure say it; only a timer takes it in ms (onceGapMs).
	const windowSeconds = duration('window', values.window) / 1000;
	if (intervalMs < 100) {
		throw new UsageError('--interval must be at least 100ms: the kubelet relists once a second');
	}

	if (timeoutMs <= 0) {
		throw new UsageError('--timeout must be more than 0');
	}

	// --once takes exactly two scrapes one window apart, so --interval plays no part in it.
	if (values.once && windowSeconds < 0.1) {
		throw new UsageError(`--window (${values.window}) must be at least 100ms: --once scrapes twice, one window apart`);
	}

	if (!values.once && windowSeconds < (2 * intervalMs) / 1000) {
		throw new UsageError(`--window (${values.window}) must span at least two scrapes (2 × --interval ${values.interval})`);
	}

	return {intervalMs, timeoutMs, windowSeconds};
}

/** The numeric flags, each checked whether or not the run uses it. */
function numbers(values: Values) {
	return {
		demoSpeed: positiveNumber('demo-speed', values['demo-speed'], 3600),
		replaySpeed: positiveNumber('speed', values.speed, 3600),
		maxInflight: positiveNumber('max-inflight', values['max-inflight'], 1000),
		maxRps: positiveNumber('max-rps', values['max-rps'], 10_000),
	};
}

type Numbers = ReturnType<typeof numbers>;

/** What the words pick to watch: a node (the first word or --node), several names, -l, and the URLs read directly. */
type Picks = {
	node: string | undefined;
	names: string[] | undefined;
	selector: string | undefined;
	kubeletUrl: string | undefined;
	prometheus: string | undefined;
};

/** Several names and -l pick nodes of the overview through the API server: nothing else may choose the source. */
function checkFleetPicks(values: Values, {node, names, selector, kubeletUrl, prometheus}: Picks): void {
	if (selector !== undefined && selector.trim() === '') throw new UsageError('-l/--selector needs labels, e.g. -l pool=gpu');
	const fleetFlag =
		names !== undefined ? `several nodes (${names.map((word) => `"${word}"`).join(' ')})` : selector !== undefined ? '-l/--selector' : null;
	if (fleetFlag === null) return;
	const other = values.demo
		? '--demo'
		: values.replay !== undefined
			? '--replay'
			: kubeletUrl !== undefined
				? '--kubelet-url'
				: prometheus !== undefined
					? '--prometheus'
					: values.node !== undefined || (selector !== undefined && node !== undefined)
						? 'a node name'
						: null;
	if (other !== null) throw new UsageError(`${fleetFlag} pick nodes of the overview through the API server: drop ${other}`);
	if (names !== undefined && names.some((name) => name.trim() === '')) throw new UsageError('a node name is empty');
}

/** One source of metrics at most; the simulated ones read no kubeconfig and name no node; the lab files' own rules. */
function checkSources(values: Values, {node, kubeletUrl, prometheus}: Picks): void {
	const backends = [
		values.demo && '--demo',
		values.replay !== undefined && '--replay',
		kubeletUrl && '--kubelet-url',
		prometheus && '--prometheus',
	].filter(Boolean);
	if (backends.length > 1) {
		throw new UsageError(`${backends.join(' and ')} each choose where the metrics come from: give one`);
	}

	if (values.job !== undefined && prometheus === undefined)
		throw new UsageError('--job picks the scrape job of --prometheus: add --prometheus');
	if (values.job?.trim() === '') throw new UsageError('--job is empty: give the scrape job to read, e.g. --job kubelet');

	const simulated = values.demo ? '--demo' : values.replay !== undefined ? '--replay' : null;
	if (simulated && (values.kubeconfig !== undefined || values.context !== undefined)) {
		throw new UsageError(`${simulated} reads no kubeconfig: drop --kubeconfig/--context`);
	}

	if (simulated && node !== undefined) {
		throw new UsageError(
			`${simulated} shows ${values.demo ? 'its own simulated node' : 'the node it recorded'}: drop the node name "${node}"`,
		);
	}

	if (values.replay !== undefined && values.record !== undefined) {
		throw new UsageError('--replay shows a recording; --record makes one: give one of them');
	}

	if (values.plot !== undefined && !values.plot.endsWith('.svg')) {
		throw new UsageError(`--plot writes SVG: name the file *.svg, not "${values.plot}"`);
	}
}

const accessOf = (values: Values): KubeAccess => ({kubeconfig: values.kubeconfig, context: values.context});

const directOf = (values: Values): DirectAccess => ({
	tokenFile: values['token-file'],
	caFile: values['kubelet-ca'],
	insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
});

/** --job: the scrape job whose kubelet series --prometheus reads. */
function jobOf(values: Values): {job?: string} {
	return values.job === undefined ? {} : {job: values.job};
}

/** A replay keeps the recording's --window and --interval unless they were typed (the defaults are no choice). */
function withTypedTiming(backend: NodeBackend | null, argv: readonly string[]): NodeBackend | null {
	if (backend?.kind !== 'replay') return backend;
	const typed = (flag: string) => argv.some((word) => word === `--${flag}` || word.startsWith(`--${flag}=`));
	return {...backend, typed: {window: typed('window'), interval: typed('interval')}};
}

/** Where one node's figures come from; null when no node is picked (the overview). */
function nodeBackendOf(values: Values, {node, kubeletUrl, prometheus}: Picks, {replaySpeed, demoSpeed}: Numbers): NodeBackend | null {
	if (values.replay !== undefined) return {kind: 'replay', file: values.replay, speed: replaySpeed};
	if (values.demo) return {kind: 'demo', speed: demoSpeed};
	if (kubeletUrl !== undefined) return {kind: 'kubelet-direct', url: kubeletUrl, node, access: accessOf(values), direct: directOf(values)};
	if (node === undefined) return null;
	if (prometheus !== undefined) return {kind: 'prometheus', url: prometheus, node, direct: directOf(values), ...jobOf(values)};
	return {kind: 'api-server', node, access: accessOf(values)};
}

/** Where every node's figures come from: Prometheus, or the API server within --max-inflight and --max-rps. */
function overviewBackendOf(values: Values, {names, selector, prometheus}: Picks, {maxInflight, maxRps}: Numbers): OverviewBackend {
	if (prometheus !== undefined) return {kind: 'prometheus', url: prometheus, direct: directOf(values), ...jobOf(values)};
	return {
		kind: 'api-server',
		access: accessOf(values),
		maxInflight: Math.floor(maxInflight),
		maxRps,
		...(selector === undefined ? {} : {selector}),
		...(names === undefined ? {} : {names}),
	};
}

/**
 * --history-from URL: the node's last 15 minutes from that Prometheus at start, for a node read from its /metrics
 * text. With --prometheus it is that URL already (a second, other one is refused).
 */
function withHistoryFrom(backend: NodeBackend, values: Values, prometheus: string | undefined, direct: DirectAccess): NodeBackend {
	const url = httpsUrl('history-from', values['history-from']);
	if (url === undefined) return backend;
	if (prometheus !== undefined) {
		if (url !== prometheus) throw new UsageError('--history-from is the --prometheus URL already: give one of them');
		return backend;
	}

	if (values.once) throw new UsageError('--history-from fills the chart of a watch; --once reads its own two scrapes: drop it');
	if (backend.kind !== 'api-server' && (backend.kind !== 'kubelet-direct' || backend.node === undefined)) {
		const which = backend.kind === 'kubelet-direct' ? '--kubelet-url without --node' : `--${backend.kind}`;
		throw new UsageError(`--history-from reads a named node's past from Prometheus; ${which} has none there: drop it`);
	}

	return {...backend, history: {url, direct}};
}
