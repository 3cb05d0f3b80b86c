// A fake cluster for runs of the real CLI: the fake API server with simulated kubelets behind each node's
// /metrics, each node's Ready condition following its kubelet's (NotReady once a stall passes the threshold, as a
// real node), and a kubeconfig file for it with a "prod" context (user jane) that works and a "stale" context
// whose token the server refuses. Used by the CLI tests and `npm run screenshots`.
import {SimulatedKubelet} from '../../source/demo/simulated-kubelet.js';
import {startFakeApiServer, testTls, type FakeApiServer} from '../helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import type {FakeLabCluster} from '../helpers/fake-lab-cluster.js';

export type FakeCluster = {
	api: FakeApiServer;
	/** Each node's simulated kubelet, by node name: scenes stall or churn them. */
	kubelets: Map<string, SimulatedKubelet>;
	/** Path of the kubeconfig file (current-context "prod"). */
	kubeconfig: string;
	temp: TempDir;
	close(): Promise<void>;
};

/** The bearer token of the "prod" context (user jane). */
export const fakeClusterToken = 'fake-cluster-token-0123456789';
const token = fakeClusterToken;

/** A node: its name, how fast its simulated kubelet runs (simulated seconds per real second, default 1), its labels. */
export type FakeClusterNode = string | {name: string; speed?: number; labels?: Record<string, string>};

/** `lab`: the cluster side of `pleg-top lab` (namespaces, deployments, pods, access reviews) served beside the nodes. */
export async function startFakeCluster(
	nodeSpecs: FakeClusterNode[] = ['worker-1'],
	options: {lab?: FakeLabCluster} = {},
): Promise<FakeCluster> {
	const temp = makeTempDir('pleg-top-cluster-');
	const kubelets = new Map<string, SimulatedKubelet>();
	const nodes = nodeSpecs.map((spec, index) => {
		const {name, speed = 1, labels} = typeof spec === 'string' ? {name: spec} : spec;
		// Up 20 minutes, as the demo node, so lifetime and window figures differ.
		const kubelet = new SimulatedKubelet({now: Date.now, speed, seed: index + 1, nodeName: name, startedAt: Date.now() - 20 * 60_000});
		kubelets.set(name, kubelet);
		return {name, labels, metrics: () => kubelet.metricsText()};
	});
	const api = await startFakeApiServer({nodes, tokens: {[token]: 'jane@example.com'}, extra: options.lab?.extra});
	const followReady = followKubelets(api, kubelets);
	const kubeconfig = temp.write(
		'kubeconfig',
		kubeconfigYaml({
			clusters: [{name: 'fake', server: api.url, caData: testTls.caCert}],
			users: [
				{name: 'jane', token},
				{name: 'expired', token: 'expired-token-0123456789'},
			],
			contexts: [
				{name: 'prod', cluster: 'fake', user: 'jane'},
				{name: 'stale', cluster: 'fake', user: 'expired'},
			],
			currentContext: 'prod',
		}),
	);
	return {
		api,
		kubelets,
		kubeconfig,
		temp,
		async close() {
			clearInterval(followReady);
			await api.close();
			temp.remove();
		},
	};
}

/** How often each node's Ready condition is brought up to its kubelet's, ms: a real kubelet posts it every 10 s. */
const readyEveryMs = 500;

/** Keeps each node's Ready condition the one its simulated kubelet reports (demo/simulated-kubelet.ts readyCondition). */
function followKubelets(api: FakeApiServer, kubelets: Map<string, SimulatedKubelet>): NodeJS.Timeout {
	const follow = () => {
		for (const [name, kubelet] of kubelets) {
			const {status, reason, message, since} = kubelet.readyCondition();
			const lastTransitionTime = since === null ? undefined : new Date(since).toISOString();
			api.setReady(name, {status, reason: reason ?? undefined, message: message ?? undefined, lastTransitionTime});
		}
	};

	follow();
	const timer = setInterval(follow, readyEveryMs);
	timer.unref();
	return timer;
}
