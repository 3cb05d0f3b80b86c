// Every node through the API server (or those picked: -l, several names): list them, then poll each one's
// /proxy/metrics within the in-flight and rate bounds.
import type {Failure} from '../../domain/types.js';
import {systemNow} from '../../engine/engine.js';
import {startProxyOverview, type NodeFleet} from '../../engine/overview-engine.js';
import {createApiServer, type ApiServer} from '../../sources/api-server.js';
import {toFailure} from '../../sources/to-failure.js';
import {onceGapMs, type OverviewBackend, type OverviewMode} from '../mode.js';
import {kubeconfig, kubeHeader} from './kube.js';
import type {Plan} from './types.js';

type ApiServerFleet = Extract<OverviewBackend, {kind: 'api-server'}>;

export function fleetPlan(mode: OverviewMode, backend: ApiServerFleet, env: NodeJS.ProcessEnv): Plan {
	const loaded = kubeconfig(backend.access, env);
	const api = createApiServer({loaded, timeoutMs: mode.timeoutMs, maxBodyBytes: mode.maxBodyBytes, now: systemNow});
	const fleet = pickedFleet(api, backend);
	return {
		// The one-node screens the table opens name the context, and their pasted commands carry it.
		header: {kube: kubeHeader(loaded)},
		contact: () => listFirst(fleet, api, backend.names),
		// Through the API server a window needs two scrapes one window apart.
		start: (purpose) =>
			startProxyOverview({
				fleet,
				intervalMs: purpose === 'once' ? onceGapMs(mode) : mode.intervalMs,
				windowSeconds: mode.windowSeconds,
				maxInflight: backend.maxInflight,
				maxRps: backend.maxRps,
			}),
		onceReads: 2,
		notes: api.notes,
		close() {
			api.close();
		},
	};
}

/** The nodes picked: named nodes are the listed ones of those names (the list says which exist); -l is the API server's labelSelector. */
function pickedFleet(api: ApiServer, {selector, names}: ApiServerFleet): NodeFleet {
	const which = names !== undefined ? names.join(', ') : selector !== undefined ? `nodes with -l ${selector}` : 'all nodes';
	const picked = (name: string) => names === undefined || names.includes(name);
	return {
		label: `${which} via ${api.where}`,
		async listNodes(signal) {
			return (await api.listNodes(signal, selector)).filter((node) => picked(node.name));
		},
		async listNodesAt(signal) {
			const listing = await api.listNodesAt(signal, selector);
			return {...listing, nodes: listing.nodes.filter((node) => picked(node.name))};
		},
		watchNodes: async (signal, resourceVersion, onEvent) =>
			api.watchNodes(signal, {resourceVersion, selector}, (event) => {
				if (event.type === 'bookmark' || event.type === 'error' || picked(event.node.name)) onEvent(event);
			}),
		forNode: api.forNode,
	};
}

/** The first request: the node list, in which every named node must be. */
async function listFirst(fleet: NodeFleet, api: ApiServer, names: string[] | undefined): Promise<Failure | null> {
	try {
		const listed = await fleet.listNodes(new AbortController().signal);
		const missing = names?.filter((name) => !listed.some((node) => node.name === name)) ?? [];
		if (missing.length > 0) {
			return {
				kind: 'not-found',
				summary: `no node named ${missing.map((name) => `"${name}"`).join(', ')} in the node list of ${api.where}`,
				details: ['kubectl get nodes lists them'],
			};
		}

		return null;
	} catch (error) {
		const failure = toFailure(error, fleet);
		if (failure.kind === 'forbidden') {
			failure.details.push(
				'the overview lists nodes first; without that right, watch one node: pleg-top NODE (kubectl get nodes lists them)',
			);
		}

		return failure;
	}
}
