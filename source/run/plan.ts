// Mode -> Plan: the sources a run reads, its first request, and the engine that polls them. The only place that
// picks a backend, one file of plan/ per kind of run; the runners (once, JSON lines, live) take any plan.
import type {Mode} from './mode.js';
import {fleetPlan} from './plan/fleet-plan.js';
import {nodePlan} from './plan/node-plan.js';
import {prometheusPlan} from './plan/prometheus-plan.js';
import type {Plan} from './plan/types.js';

export type {Plan} from './plan/types.js';

/** Builds the plan; throws SourceFailure for what is wrong before any request (kubeconfig, --record file, recording). */
export function planFor(mode: Exclude<Mode, {kind: 'help'} | {kind: 'version'}>, env: NodeJS.ProcessEnv): Plan {
	if (mode.kind === 'overview') {
		return mode.backend.kind === 'prometheus' ? prometheusPlan(mode, mode.backend, undefined) : fleetPlan(mode, mode.backend, env);
	}

	return mode.backend.kind === 'prometheus' ? prometheusPlan(mode, mode.backend, mode.backend.node) : nodePlan(mode, mode.backend, env);
}
