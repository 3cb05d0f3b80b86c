// The cluster side of `pleg-top lab` for the fake API server (its `extra` routes): namespaces (Terminating, then
// gone a moment after DELETE), Deployments with the scale subresource, pods that the fake "scheduler" binds to the
// node their nodeSelector names (or leaves Pending, Unschedulable, as a taint or a wrong selector would), Running a
// moment after a scale-up and gone a moment after a scale-down, watch streams of them, SelfSubjectAccessReviews with
// allow and deny, and a kubelet whose relist duration and CRI list calls grow with the containers on the node.
import type http from 'node:http';

export type FakeLabOptions = {
	/** The node the lab pins to, and its kubernetes.io/hostname label. */
	node: string;
	hostname?: string;
	/** Taints the fake scheduler honours (tolerations must match key and effect). */
	taints?: Array<{key: string; value?: string; effect: string}>;
	/** "verb resource" or "verb resource/subresource" that SelfSubjectAccessReviews deny. */
	deny?: string[];
	/** ms from scale-up to Running, and from scale-down to gone. @default 150 */
	podStepMs?: number;
	/** ms from DELETE of a namespace to its 404. @default 200 */
	namespaceGoneMs?: number;
	/** Pods pulled but never started: the waiting reason and message on their container (ErrImagePull …). */
	imagePull?: {reason: string; message: string};
	/** A ResourceQuota that refuses every pod: the Deployment makes none and says so in its ReplicaFailure condition. */
	quota?: string;
	/** Namespaces that exist at start (name → labels). */
	namespaces?: Record<string, Record<string, string>>;
	/** Relist duration of an idle node, and what each running container adds, s. @default 0.004 and 0.0005 */
	baseSeconds?: number;
	perContainerSeconds?: number;
};

type Pod = {
	name: string;
	namespace: string;
	labels: Record<string, string>;
	nodeName: string | null;
	phase: string;
	ready: boolean;
	deleting: boolean;
	waiting: {reason: string; message: string} | null;
	unschedulable: string | null;
};

type Watcher = {namespace: string; selector: Record<string, string>; response: http.ServerResponse};

export type FakeLabCluster = {
	/** For FakeApiServerOptions.extra. */
	extra: (request: http.IncomingMessage, response: http.ServerResponse, user: string | null) => boolean;
	/** For the node's FakeNode.metrics: one kubelet second per request. */
	metrics: () => string;
	/** Every write the lab made: "POST /api/v1/namespaces", "PATCH …/scale 12", "DELETE …". */
	readonly writes: string[];
	readonly namespaces: ReadonlyMap<string, {labels: Record<string, string>; phase: string}>;
	/** Pods Running on the node now. */
	running(): number;
	/** Highest number of pods Running at once. */
	readonly maxRunning: number;
	/** Make every lab request answer 503 (true) or normally again. */
	failAll(fail: boolean): void;
	close(): void;
};

const defBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A kubelet histogram of observations, as exposition lines. */
function histogram(name: string, labels: string, observations: readonly number[]): string {
	const lines = defBuckets.map(
		(bound) => `${name}_bucket{${labels}${labels ? ',' : ''}le="${bound}"} ${observations.filter((value) => value <= bound).length}`,
	);
	lines.push(`${name}_bucket{${labels}${labels ? ',' : ''}le="+Inf"} ${observations.length}`);
	const sum = observations.reduce((total, value) => total + value, 0);
	const suffix = labels ? `{${labels}}` : '';
	return [`# TYPE ${name} histogram`, ...lines, `${name}_sum${suffix} ${sum}`, `${name}_count${suffix} ${observations.length}`].join('\n');
}

const matches = (labels: Record<string, string>, selector: Record<string, string>) =>
	Object.entries(selector).every(([key, value]) => labels[key] === value);

function parseSelector(text: string | null): Record<string, string> {
	return Object.fromEntries(
		(text ?? '')
			.split(',')
			.filter(Boolean)
			.map((term) => term.split('=', 2) as [string, string]),
	);
}

function podJson(pod: Pod, resourceVersion: number): object {
	const conditions = [
		pod.unschedulable
			? {type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: pod.unschedulable}
			: {type: 'PodScheduled', status: 'True'},
		{type: 'Ready', status: pod.ready ? 'True' : 'False'},
	];
	return {
		metadata: {
			name: pod.name,
			namespace: pod.namespace,
			labels: pod.labels,
			resourceVersion: String(resourceVersion),
			...(pod.deleting ? {deletionTimestamp: '2026-01-01T00:00:00Z'} : {}),
		},
		spec: pod.nodeName ? {nodeName: pod.nodeName} : {},
		status: {phase: pod.phase, conditions, ...(pod.waiting ? {containerStatuses: [{name: 'pause', state: {waiting: pod.waiting}}]} : {})},
	};
}

type Deployment = {
	labels: Record<string, string>;
	nodeSelector: Record<string, string>;
	tolerations: Array<{key?: string; effect?: string}>;
	replicas: number;
};

/** The objects of the fake cluster and what changes them: the fake scheduler, the kubelet starting and stopping pods. */
type World = ReturnType<typeof createWorld>;

function createWorld(options: FakeLabOptions) {
	const step = options.podStepMs ?? 150;
	const namespaces = new Map(Object.entries(options.namespaces ?? {}).map(([name, labels]) => [name, {labels, phase: 'Active'}]));
	const deployments = new Map<string, Deployment>();
	const pods = new Map<string, Pod>();
	const watchers = new Set<Watcher>();
	const timers = new Set<NodeJS.Timeout>();
	const counters = {version: 1, serial: 0, maxRunning: 0};
	const later = (ms: number, run: () => void) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			run();
		}, ms);
		timers.add(timer);
	};

	const running = () =>
		[...pods.values()].filter((pod) => pod.phase === 'Running' && pod.ready && !pod.deleting && pod.nodeName === options.node).length;
	const notify = (type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod) => {
		counters.version++;
		counters.maxRunning = Math.max(counters.maxRunning, running());
		for (const watcher of watchers) {
			if (watcher.namespace === pod.namespace && matches(pod.labels, watcher.selector)) {
				watcher.response.write(JSON.stringify({type, object: podJson(pod, counters.version)}) + '\n');
			}
		}
	};

	const remove = (pod: Pod, ms: number) => {
		pod.deleting = true;
		notify('MODIFIED', pod);
		later(ms, () => {
			if (pods.delete(pod.name)) notify('DELETED', pod);
		});
	};

	const start = (pod: Pod, ms: number) =>
		later(ms, () => {
			if (!pods.has(pod.name) || pod.deleting) return;
			if (options.imagePull) pod.waiting = options.imagePull;
			else Object.assign(pod, {phase: 'Running', ready: true});
			notify('MODIFIED', pod);
		});

	function scale(namespace: string, name: string, replicas: number): void {
		const deployment = deployments.get(`${namespace}/${name}`)!;
		deployment.replicas = replicas;
		const live = [...pods.values()].filter((pod) => pod.namespace === namespace && !pod.deleting);
		if (options.quota !== undefined) return;
		for (let index = live.length; index < replicas; index++) {
			const pod: Pod = {
				...{name: `churn-${(++counters.serial).toString(36)}`, namespace, labels: deployment.labels, nodeName: null},
				...{phase: 'Pending', ready: false, deleting: false, waiting: null, unschedulable: null},
			};
			schedule(options, pod, deployment);
			pods.set(pod.name, pod);
			notify('ADDED', pod);
			// One after another, as a kubelet starts them.
			if (pod.nodeName !== null) start(pod, step * (index - live.length + 1));
		}

		for (const [index, pod] of live.slice(replicas).entries()) remove(pod, step * (index + 1));
	}

	const close = () => {
		for (const timer of timers) clearTimeout(timer);
		for (const watcher of watchers) watcher.response.end();
	};

	return {options, namespaces, deployments, pods, watchers, writes: [] as string[], counters, later, running, scale, remove, close};
}

/** The fake "scheduler": bound to the node its nodeSelector names when every taint is tolerated, else Unschedulable. */
function schedule(options: FakeLabOptions, pod: Pod, deployment: Deployment): void {
	const hostname = options.hostname ?? options.node;
	const untolerated = (options.taints ?? []).filter(
		(taint) => !deployment.tolerations.some((each) => each.key === taint.key && each.effect === taint.effect),
	);
	if (deployment.nodeSelector['kubernetes.io/hostname'] !== hostname) {
		pod.unschedulable = "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.";
	} else if (untolerated.length > 0) {
		pod.unschedulable = `0/1 nodes are available: 1 node(s) had untolerated taint {${untolerated[0]!.key}: ${untolerated[0]!.value ?? ''}}.`;
	} else {
		pod.nodeName = options.node;
	}
}

/** The node's kubelet: one relist a /metrics request, its duration and list calls growing with the running containers. */
function createKubelet(options: FakeLabOptions, running: () => number): () => string {
	const relists: number[] = [];
	const lists: number[] = [];
	return () => {
		const containers = 5 + running();
		const seconds = (options.baseSeconds ?? 0.004) + (options.perContainerSeconds ?? 0.0005) * containers;
		relists.push(seconds);
		lists.push(seconds * 0.8);
		return [
			'# TYPE kubernetes_build_info gauge',
			'kubernetes_build_info{git_version="v1.28.4"} 1',
			histogram('kubelet_pleg_relist_duration_seconds', '', relists),
			histogram(
				'kubelet_pleg_relist_interval_seconds',
				'',
				relists.map((each) => 1 + each),
			),
			'# TYPE kubelet_pleg_last_seen_seconds gauge',
			`kubelet_pleg_last_seen_seconds ${Math.floor(Date.now() / 1000)}`,
			histogram(
				'kubelet_runtime_operations_duration_seconds',
				'operation_type="list_podsandbox"',
				lists.map((each) => each / 2),
			),
			histogram(
				'kubelet_runtime_operations_duration_seconds',
				'operation_type="list_containers"',
				lists.map((each) => each / 2),
			),
			'# TYPE kubelet_running_pods gauge',
			`kubelet_running_pods ${3 + running()}`,
			'# TYPE kubelet_running_containers gauge',
			`kubelet_running_containers{container_state="running"} ${containers}`,
			`kubelet_running_containers{container_state="exited"} 0`,
			'',
		].join('\n');
	};
}

export function createFakeLabCluster(options: FakeLabOptions): FakeLabCluster {
	const world = createWorld(options);
	const routes = createRoutes(world);
	let failing = false;
	return {
		extra(request, response, user) {
			if (!routes.owns(request)) return false;
			if (failing) {
				const message = 'the server is currently unable to handle the request';
				send(response, 503, {kind: 'Status', status: 'Failure', message, code: 503});
				return true;
			}

			void routes.handle(request, response, user);
			return true;
		},
		metrics: createKubelet(options, world.running),
		writes: world.writes,
		namespaces: world.namespaces,
		running: world.running,
		get maxRunning() {
			return world.counters.maxRunning;
		},
		failAll(fail) {
			failing = fail;
		},
		close: world.close,
	};
}

async function bodyOf(request: http.IncomingMessage): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

function send(response: http.ServerResponse, status: number, body: object): void {
	response.writeHead(status, {'Content-Type': 'application/json'});
	response.end(JSON.stringify(body));
}

const statusOf = (code: number, reason: string, message: string) => ({
	kind: 'Status',
	apiVersion: 'v1',
	status: 'Failure',
	reason,
	message,
	code,
});

const paths = {
	review: /^\/apis\/authorization\.k8s\.io\/v1\/selfsubjectaccessreviews$/,
	namespaces: /^\/api\/v1\/namespaces$/,
	namespace: /^\/api\/v1\/namespaces\/([^/]+)$/,
	deployments: /^\/apis\/apps\/v1\/namespaces\/([^/]+)\/deployments$/,
	scale: /^\/apis\/apps\/v1\/namespaces\/([^/]+)\/deployments\/([^/]+)\/scale$/,
	deployment: /^\/apis\/apps\/v1\/namespaces\/([^/]+)\/deployments\/([^/]+)$/,
	pods: /^\/api\/v1\/namespaces\/([^/]+)\/pods$/,
};

function createRoutes(world: World) {
	const owns = (request: http.IncomingMessage) =>
		Object.values(paths).some((pattern) => pattern.test(new URL(request.url ?? '/', 'https://fake').pathname));
	async function handle(request: http.IncomingMessage, response: http.ServerResponse, user: string | null): Promise<void> {
		const url = new URL(request.url ?? '/', 'https://fake');
		const method = request.method ?? 'GET';
		const body = await bodyOf(request);
		if (user === null) return send(response, 401, statusOf(401, 'Unauthorized', 'Unauthorized'));
		if (method !== 'GET') world.writes.push(`${method} ${url.pathname}`);
		if (paths.review.test(url.pathname)) return review(world, response, body);
		let match = paths.namespace.exec(url.pathname);
		if (match) return namespace(world, response, method, decodeURIComponent(match[1]!));
		if (paths.namespaces.test(url.pathname) && method === 'POST') return createNamespace(world, response, body);
		if ((match = paths.deployments.exec(url.pathname))) return createDeployment(world, response, decodeURIComponent(match[1]!), body);
		if ((match = paths.scale.exec(url.pathname))) {
			const replicas = (body['spec'] as {replicas: number}).replicas;
			world.writes[world.writes.length - 1] += ` ${replicas}`;
			world.scale(match[1]!, match[2]!, replicas);
			return send(response, 200, {kind: 'Scale', spec: {replicas}});
		}

		if ((match = paths.deployment.exec(url.pathname))) return deploymentRoute(world, response, `${match[1]!}/${match[2]!}`);
		if ((match = paths.pods.exec(url.pathname))) return podsRoute(world, response, url, decodeURIComponent(match[1]!));
		send(response, 404, statusOf(404, 'NotFound', 'not found'));
	}

	return {owns, handle};
}

function review(world: World, response: http.ServerResponse, body: Record<string, unknown>): void {
	const attributes = (body['spec'] as {resourceAttributes: {verb: string; resource: string; subresource?: string}}).resourceAttributes;
	const key = `${attributes.verb} ${attributes.resource}${attributes.subresource ? `/${attributes.subresource}` : ''}`;
	const denied = (world.options.deny ?? []).includes(key);
	send(response, 201, {kind: 'SelfSubjectAccessReview', status: {allowed: !denied, ...(denied ? {} : {reason: 'RBAC: allowed'})}});
}

function namespace(world: World, response: http.ServerResponse, method: string, name: string): void {
	const existing = world.namespaces.get(name);
	if (!existing) return send(response, 404, statusOf(404, 'NotFound', `namespaces "${name}" not found`));
	if (method === 'DELETE') {
		existing.phase = 'Terminating';
		for (const pod of world.pods.values()) if (pod.namespace === name && !pod.deleting) world.remove(pod, 50);
		world.later(world.options.namespaceGoneMs ?? 200, () => {
			world.namespaces.delete(name);
			for (const key of world.deployments.keys()) if (key.startsWith(`${name}/`)) world.deployments.delete(key);
		});
	}

	send(response, 200, {kind: 'Namespace', metadata: {name, labels: existing.labels}, status: {phase: existing.phase}});
}

function createNamespace(world: World, response: http.ServerResponse, body: Record<string, unknown>): void {
	const metadata = body['metadata'] as {name: string; labels?: Record<string, string>};
	if (world.namespaces.has(metadata.name)) {
		return send(response, 409, statusOf(409, 'AlreadyExists', `namespaces "${metadata.name}" already exists`));
	}

	world.namespaces.set(metadata.name, {labels: metadata.labels ?? {}, phase: 'Active'});
	send(response, 201, body);
}

type DeploymentJson = {
	replicas: number;
	template: {
		metadata: {labels: Record<string, string>};
		spec: {nodeSelector?: Record<string, string>; tolerations?: Deployment['tolerations']};
	};
};

function createDeployment(world: World, response: http.ServerResponse, namespace: string, body: Record<string, unknown>): void {
	if (!world.namespaces.has(namespace)) return send(response, 404, statusOf(404, 'NotFound', `namespaces "${namespace}" not found`));
	const spec = body['spec'] as DeploymentJson;
	const name = (body['metadata'] as {name: string}).name;
	const {labels} = spec.template.metadata;
	const {nodeSelector = {}, tolerations = []} = spec.template.spec;
	world.deployments.set(`${namespace}/${name}`, {labels, nodeSelector, tolerations, replicas: 0});
	world.scale(namespace, name, spec.replicas);
	send(response, 201, body);
}

function podsRoute(world: World, response: http.ServerResponse, url: URL, namespace: string): void {
	const selector = parseSelector(url.searchParams.get('labelSelector'));
	const version = world.counters.version;
	if (url.searchParams.get('watch') !== 'true') {
		const items = [...world.pods.values()]
			.filter((pod) => pod.namespace === namespace && matches(pod.labels, selector))
			.map((pod) => podJson(pod, version));
		return send(response, 200, {kind: 'PodList', metadata: {resourceVersion: String(version)}, items});
	}

	response.writeHead(200, {'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked'});
	response.write('');
	const watcher: Watcher = {namespace, selector, response};
	world.watchers.add(watcher);
	const seconds = Number(url.searchParams.get('timeoutSeconds') ?? 30);
	world.later(seconds * 1000, () => response.end());
	response.on('close', () => world.watchers.delete(watcher));
}

function deploymentRoute(world: World, response: http.ServerResponse, key: string): void {
	const deployment = world.deployments.get(key);
	if (!deployment) return send(response, 404, statusOf(404, 'NotFound', `deployments.apps "${key}" not found`));
	const quota = world.options.quota;
	const conditions = quota === undefined ? [] : [{type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: quota}];
	send(response, 200, {kind: 'Deployment', spec: {replicas: deployment.replicas}, status: {conditions}});
}
