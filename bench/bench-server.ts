// The bench's cluster: the test fake API server serving one node whose /metrics is a simulated kubelet's
// payload padded to a real size, and a kubeconfig file (bearer token) that points at it.
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';
import {startFakeApiServer, type FakeApiServer} from '../test/helpers/fake-api-server.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../test/helpers/kubeconfig-files.js';

export const benchNode = 'bench-node';
export const benchToken = 'bench-token';

export type BenchServer = {
	server: FakeApiServer;
	kubeconfigPath: string;
	temp: TempDir;
	/** /metrics requests answered so far: one per pleg-top tick. */
	metricsRequests(): number;
	/** Environment for a child that reads this kubeconfig and nothing of the user's. */
	env: Record<string, string>;
	close(): Promise<void>;
};

export type BenchServerOptions = {
	/** Payload size, bytes (250_000 for a current kubelet, 5_000_000 for a big node). */
	bytes: number;
	/**
	 * Simulated seconds per real second. At --interval 100ms a speed of 10 gives about one new relist per scrape,
	 * as a real kubelet gives a 1 s scrape, so the figures move on every tick as they would in real use.
	 */
	speed: number;
	/** Compress /metrics when pleg-top accepts gzip, as kube-apiserver does. @default true */
	gzip?: boolean;
};

export async function startBenchServer({bytes, speed, gzip = true}: BenchServerOptions): Promise<BenchServer> {
	const kubelet = new SimulatedKubelet({now: Date.now, speed, nodeName: benchNode, startedAt: Date.now() - 20 * 60_000});
	const server = await startFakeApiServer({
		nodes: [{name: benchNode, kubeletVersion: kubelet.kubeletVersion, metrics: () => kubelet.paddedMetricsText(bytes)}],
		tokens: {[benchToken]: 'bench-user'},
		gzip,
	});
	const temp = makeTempDir('pleg-top-bench-');
	const kubeconfigPath = temp.write('kubeconfig', kubeconfigYaml(singleContext(server.url, {name: 'bench', token: benchToken})));
	return {
		server,
		kubeconfigPath,
		temp,
		metricsRequests: () => server.requests.filter((request) => request.path.endsWith('/proxy/metrics')).length,
		env: {HOME: temp.dir, KUBECONFIG: kubeconfigPath, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
		async close() {
			await server.close();
			temp.remove();
		},
	};
}
