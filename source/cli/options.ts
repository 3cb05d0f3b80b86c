// Command-line flags -> validated Options. Pure: no I/O, so every usage error is testable
// and the CLI can exit 2 with the message before touching the network.
import {parseArgs} from 'node:util';

export type OutputFormat = 'text' | 'json';

export type Options = {
	node: string | undefined;
	kubeconfig: string | undefined;
	context: string | undefined;
	/** Time between the end of one request and the start of the next, ms. */
	intervalMs: number;
	/** Per-request timeout, ms. */
	timeoutMs: number;
	/** Window for the windowed figures, seconds. */
	windowSeconds: number;
	once: boolean;
	output: OutputFormat;
	demo: boolean;
	/** Simulated seconds per real second in the demo. */
	demoSpeed: number;
	color: boolean;
	help: boolean;
	version: boolean;
	/** --record FILE: append one JSON line per scrape. */
	record: string | undefined;
	/** --replay FILE: show a recording instead of a live node. */
	replay: string | undefined;
	/** --speed N: replay speed (recorded seconds per real second). */
	replaySpeed: number;
	/** --summary FILE: the write-down as Markdown, on quit. */
	summary: string | undefined;
	/** --plot FILE.svg: the history as an SVG plot, on quit (or from --replay). */
	plot: string | undefined;
	/** --kubelet-url https://HOST:10250: scrape a kubelet directly (needs get nodes/metrics). */
	kubeletUrl: string | undefined;
	/** --prometheus URL: read the figures from a Prometheus-compatible query API. */
	prometheus: string | undefined;
	/** Bearer token file for --kubelet-url / --prometheus. */
	tokenFile: string | undefined;
	/** CA bundle for --kubelet-url / --prometheus. */
	kubeletCa: string | undefined;
	insecureSkipTlsVerify: boolean;
	/** Overview: at most this many node requests at once. */
	maxInflight: number;
	/** Overview: at most this many requests per second in total. */
	maxRps: number;
};

export class UsageError extends Error {
	override name = 'UsageError';
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
		total += Number(match[1]) * units[match[2]!]!;
		consumed = part.lastIndex;
	}

	if (trimmed === '' || consumed !== trimmed.length) {
		throw new UsageError(`"${text}" is not a duration: write it as 100ms, 2s, 1m or 1m30s`);
	}

	return total;
}

export const flagSpec = {
	node: {type: 'string'},
	kubeconfig: {type: 'string'},
	context: {type: 'string'},
	interval: {type: 'string', default: '1s'},
	timeout: {type: 'string', default: '10s'},
	window: {type: 'string', default: '10s'},
	once: {type: 'boolean', default: false},
	output: {type: 'string', short: 'o', default: 'text'},
	demo: {type: 'boolean', default: false},
	'demo-speed': {type: 'string', default: '1'},
	'no-color': {type: 'boolean', default: false},
	help: {type: 'boolean', short: 'h', default: false},
	version: {type: 'boolean', short: 'V', default: false},
	record: {type: 'string'},
	replay: {type: 'string'},
	speed: {type: 'string', default: '1'},
	summary: {type: 'string'},
	plot: {type: 'string'},
	'kubelet-url': {type: 'string'},
	prometheus: {type: 'string'},
	'token-file': {type: 'string'},
	'kubelet-ca': {type: 'string'},
	'insecure-skip-tls-verify': {type: 'boolean', default: false},
	'max-inflight': {type: 'string', default: '8'},
	'max-rps': {type: 'string', default: '20'},
} as const;

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

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = {}): Options {
	let values;
	try {
		({values} = parseArgs({args: argv, options: flagSpec, strict: true, allowPositionals: false}));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}

	const output = values.output;
	if (output !== 'text' && output !== 'json') {
		throw new UsageError(`--output must be text or json, not "${output}"`);
	}

	const intervalMs = parseDuration(values.interval);
	const timeoutMs = parseDuration(values.timeout);
	const windowMs = parseDuration(values.window);
	if (intervalMs < 100) {
		throw new UsageError('--interval must be at least 100ms: the kubelet relists once a second');
	}

	if (timeoutMs <= 0) {
		throw new UsageError('--timeout must be more than 0');
	}

	if (windowMs < 2 * intervalMs) {
		throw new UsageError(`--window (${values.window}) must span at least two scrapes (2 × --interval ${values.interval})`);
	}

	const demoSpeed = positiveNumber('demo-speed', values['demo-speed'], 3600);
	const replaySpeed = positiveNumber('speed', values.speed, 3600);
	const maxInflight = positiveNumber('max-inflight', values['max-inflight'], 1000);
	const maxRps = positiveNumber('max-rps', values['max-rps'], 10_000);
	const kubeletUrl = httpsUrl('kubelet-url', values['kubelet-url']);
	const prometheus = httpsUrl('prometheus', values.prometheus);

	const backends = [values.demo && '--demo', values.replay !== undefined && '--replay', kubeletUrl && '--kubelet-url', prometheus && '--prometheus'].filter(Boolean);
	if (backends.length > 1) {
		throw new UsageError(`${backends.join(' and ')} each choose where the metrics come from: give one`);
	}

	if ((values.demo || values.replay !== undefined) && (values.kubeconfig !== undefined || values.context !== undefined)) {
		throw new UsageError(`${values.demo ? '--demo' : '--replay'} reads no kubeconfig: drop --kubeconfig/--context`);
	}

	if (values.replay !== undefined && values.record !== undefined) {
		throw new UsageError('--replay shows a recording; --record makes one: give one of them');
	}

	if (values.plot !== undefined && !values.plot.endsWith('.svg')) {
		throw new UsageError(`--plot writes SVG: name the file *.svg, not "${values.plot}"`);
	}

	return {
		node: values.node,
		kubeconfig: values.kubeconfig,
		context: values.context,
		intervalMs,
		timeoutMs,
		windowSeconds: windowMs / 1000,
		once: values.once,
		output,
		demo: values.demo,
		demoSpeed,
		// no-color.org: NO_COLOR set to any non-empty value turns colour off.
		color: !values['no-color'] && !env['NO_COLOR'],
		help: values.help,
		version: values.version,
		record: values.record,
		replay: values.replay,
		replaySpeed,
		summary: values.summary,
		plot: values.plot,
		kubeletUrl,
		prometheus,
		tokenFile: values['token-file'],
		kubeletCa: values['kubelet-ca'],
		insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
		maxInflight: Math.floor(maxInflight),
		maxRps,
	};
}
