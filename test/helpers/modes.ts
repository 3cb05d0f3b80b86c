// Modes for tests, built field by field: every required field has a plain default (the CLI's own defaults), and a
// test names only what it is about, e.g. nodeMode({output: 'once'}) or overviewMode({backend: apiServerOverview}).
import type {NodeBackend, NodeMode, OverviewBackend, OverviewMode, RunSettings} from '../../source/cli/options.js';

/** The run settings of `pleg-top NODE` with no other flag, stdout a terminal. */
function runSettings(overrides: Partial<RunSettings> = {}): RunSettings {
	return {
		output: 'live',
		format: 'text',
		intervalMs: 1000,
		timeoutMs: 10_000,
		maxBodyBytes: 64 * 1024 * 1024,
		windowSeconds: 10,
		color: true,
		bell: true,
		quiet: false,
		theme: 'dark',
		failOn: 'unhealthy',
		...overrides,
	};
}

export const apiServerNode = (node = 'worker-1'): NodeBackend => ({
	kind: 'api-server',
	node,
	access: {kubeconfig: undefined, context: undefined},
});

export function nodeMode(
	overrides: Partial<RunSettings> & {backend?: NodeBackend; lab?: Partial<NodeMode['lab']>; raw?: boolean} = {},
): NodeMode {
	const {backend, lab, raw, ...settings} = overrides;
	return {
		...runSettings(settings),
		kind: 'node',
		backend: backend ?? apiServerNode(),
		lab: {record: undefined, summary: undefined, plot: undefined, ...lab},
		raw: raw ?? false,
	};
}

export const apiServerOverview: OverviewBackend = {
	kind: 'api-server',
	access: {kubeconfig: undefined, context: undefined},
	maxInflight: 8,
	maxRps: 20,
};

export function overviewMode(overrides: Partial<RunSettings> & {backend?: OverviewBackend} = {}): OverviewMode {
	const {backend, ...settings} = overrides;
	return {...runSettings(settings), kind: 'overview', backend: backend ?? apiServerOverview};
}
