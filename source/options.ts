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

const flagSpec = {
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
} as const;

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

	const demoSpeed = Number(values['demo-speed']);
	if (!Number.isFinite(demoSpeed) || demoSpeed <= 0 || demoSpeed > 3600) {
		throw new UsageError(`--demo-speed must be a number between 0 and 3600, not "${values['demo-speed']}"`);
	}

	if (values.demo && (values.kubeconfig !== undefined || values.context !== undefined)) {
		throw new UsageError('--demo reads no kubeconfig: drop --kubeconfig/--context, or drop --demo');
	}

	const wantsRun = !values.help && !values.version;
	if (wantsRun && !values.demo && !values.node) {
		throw new UsageError('say which node to watch: --node NODE (kubectl get nodes lists them), or --demo');
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
	};
}
