// The CLI's runs that read many nodes, or read from Prometheus: no --node (the cluster overview, through the API
// server or from --prometheus) and --prometheus --node NODE (the one-node screen on Prometheus' figures).
// Each as the other runs are: --once report, JSON lines when stdout is not a terminal, or the live screen.
import {homedir} from 'node:os';
import {createApiServerSource} from '../sources/api-server.js';
import {exitCodeFor, SourceFailure} from '../sources/failure.js';
import {loadKubeconfig} from '../sources/kube/kubeconfig.js';
import {createPrometheusSource, type FiguresSource} from '../sources/prometheus.js';
import type {Failure} from '../domain/types.js';
import {exitCodeForOnce, formatFailure, formatOnce, type OnceResult} from './headless.js';
import type {Options} from '../cli/options.js';
import {toFailure} from '../sources/to-failure.js';
import {startPrometheusOverview, startProxyOverview, type OverviewEngine} from '../engine/overview-engine.js';
import {exitCodeForOverview, formatOverviewOnce, measureOverviewOnce, streamOverviewJsonLines} from './overview-headless.js';


/** Failures that retrying will not mend end the run before the screen is taken. */
const fatalAtStart = new Set(['config', 'unauthorized', 'tls', 'forbidden']);

type Plan =
	| {kind: 'proxy'; fleet: ReturnType<typeof createApiServerSource>}
	| {kind: 'prometheus'; source: FiguresSource};

/** True when these options are this module's to run. */
export function wantsOverview(options: Options): boolean {
	return options.prometheus !== undefined || (!options.node && !options.demo && !options.replay && !options.kubeletUrl);
}

function plan(options: Options, env: NodeJS.ProcessEnv): Plan {
	if (options.prometheus !== undefined) {
		return {
			kind: 'prometheus',
			source: createPrometheusSource({
				url: options.prometheus,
				node: options.node,
				windowSeconds: options.windowSeconds,
				tokenFile: options.tokenFile,
				caFile: options.kubeletCa,
				insecureSkipTlsVerify: options.insecureSkipTlsVerify,
				timeoutMs: options.timeoutMs,
			}),
		};
	}

	const loaded = loadKubeconfig({kubeconfig: options.kubeconfig, context: options.context, env, homeDir: env['HOME'] ?? homedir()});
	const fleet = createApiServerSource({loaded, node: '(all nodes)', timeoutMs: options.timeoutMs});
	return {kind: 'proxy', fleet};
}

/** The engine for a plan; `intervalMs` is the poll interval (the window for --once through the API server). */
export function engineFor(chosen: Plan, options: Options, intervalMs: number): OverviewEngine<unknown> {
	if (chosen.kind === 'prometheus') {
		return startPrometheusOverview({source: chosen.source, intervalMs}) as OverviewEngine<unknown>;
	}

	const fleet = {label: `all nodes via ${chosen.fleet.label.replace(/^\(all nodes\) via /, '')}`, listNodes: chosen.fleet.listNodes, forNode: chosen.fleet.forNode};
	return startProxyOverview({fleet, intervalMs, windowSeconds: options.windowSeconds, maxInflight: options.maxInflight, maxRps: options.maxRps}) as OverviewEngine<unknown>;
}

/** The first request on the normal screen: an exec plugin's prompt, or a fatal error, stays readable. */
async function firstContact(chosen: Plan): Promise<Failure | null> {
	const signal = new AbortController().signal;
	try {
		if (chosen.kind === 'prometheus') await chosen.source.fetchFigures(signal);
		else await chosen.fleet.listNodes(signal);
		return null;
	} catch (error) {
		const failure = toFailure(error, {label: chosen.kind === 'prometheus' ? chosen.source.label : chosen.fleet.label, node: '(all nodes)'});
		if (chosen.kind === 'proxy' && failure.kind === 'forbidden') {
			failure.details.push('the overview lists nodes first; without that right, watch one node: pleg-top --node NODE (kubectl get nodes lists them)');
		}

		return fatalAtStart.has(failure.kind) ? failure : null;
	}
}

function close(chosen: Plan): void {
	if (chosen.kind === 'prometheus') chosen.source.close?.();
	else chosen.fleet.close();
}

async function runLive(chosen: Plan, options: Options): Promise<number> {
	const [{runFullScreen}, {OverviewApp}, React] = await Promise.all([import('./full-screen.js'), import('../screen/overview-app.js'), import('react')]);
	const engine = engineFor(chosen, options, options.intervalMs);
	const only = chosen.kind === 'prometheus' ? (chosen.source.node ?? undefined) : undefined;
	try {
		await runFullScreen(React.createElement(OverviewApp<unknown>, {engine, only}));
	} finally {
		engine.stop();
		close(chosen);
	}

	return 0;
}

async function runJsonLines(chosen: Plan, options: Options): Promise<number> {
	const engine = engineFor(chosen, options, options.intervalMs);
	return new Promise(resolve => {
		const stream = streamOverviewJsonLines({engine, write: line => process.stdout.write(line)});
		const stop = () => {
			stream.stop();
			close(chosen);
			resolve(0);
		};

		process.stdout.on('error', stop);
		for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.once(signal, stop);
	});
}

async function runOnce(chosen: Plan, options: Options): Promise<number> {
	// Through the API server a window needs two scrapes one window apart; Prometheus has windowed already.
	const proxy = chosen.kind === 'proxy';
	const engine = engineFor(chosen, options, proxy ? options.windowSeconds * 1000 : options.intervalMs);
	const result = await measureOverviewOnce(engine, proxy ? 2 : 1);
	close(chosen);
	const single = chosen.kind === 'prometheus' && chosen.source.node !== null ? result.views[0] : undefined;
	if (single) {
		// --prometheus --node N --once: the one-node report, as with --node N alone.
		const once: OnceResult = single.figures ? {figures: single.figures, failure: null} : {figures: null, failure: single.status.failure ?? {kind: 'not-found', summary: `no figures for ${single.name}`, details: []}};
		const {stdout, stderr} = formatOnce(once, options.output);
		process.stdout.write(stdout);
		process.stderr.write(stderr);
		return exitCodeForOnce(once);
	}

	process.stdout.write(formatOverviewOnce(result, options.output));
	return exitCodeForOverview(result);
}

/** Runs the overview (or the Prometheus one-node screen) to its exit code. */
export async function runOverview(options: Options, env: NodeJS.ProcessEnv): Promise<number> {
	let chosen: Plan;
	try {
		chosen = plan(options, env);
	} catch (error) {
		if (!(error instanceof SourceFailure)) throw error;
		process.stderr.write(formatFailure(error.failure) + '\n');
		return exitCodeFor(error.failure.kind);
	}

	const fatal = await firstContact(chosen);
	if (fatal !== null) {
		close(chosen);
		process.stderr.write(formatFailure(fatal) + '\n');
		return exitCodeFor(fatal.kind);
	}

	if (options.once) return runOnce(chosen, options);
	if (!process.stdout.isTTY) return runJsonLines(chosen, options);
	return runLive(chosen, options);
}
