// Options -> the one MetricsSource the run reads from. The only place that picks a backend.
import {homedir} from 'node:os';
import {createApiServerSource} from './core/sources/api-server.js';
import {createDemoSource, type DemoControls} from './core/sources/demo.js';
import {loadKubeconfig} from './core/sources/kubeconfig.js';
import type {MetricsSource} from './core/types.js';
import type {Options} from './options.js';

export type SourceChoice = {source: MetricsSource; demo?: DemoControls};

export function createSource(options: Options, env: NodeJS.ProcessEnv): SourceChoice {
	if (options.demo) {
		const demo = createDemoSource({speed: options.demoSpeed});
		return {source: demo, demo: demo.controls};
	}

	const loaded = loadKubeconfig({kubeconfig: options.kubeconfig, context: options.context, env, homeDir: env['HOME'] ?? homedir()});
	return {source: createApiServerSource({loaded, node: options.node!, timeoutMs: options.timeoutMs})};
}
