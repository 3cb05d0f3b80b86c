import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	accessChecks,
	canILine,
	deploymentManifest,
	kubectlLines,
	labPhases,
	roomProblem,
	toYaml,
	type LabNode,
	type LabSettings,
} from '../../../source/domain/lab/lab-plan.js';
import {fitLine, labPodOf, pendingText, runningOn} from '../../../source/domain/lab/lab-pods.js';

const settings: LabSettings = {
	node: 'pair-control-plane',
	levels: [12],
	cycles: 1,
	namespace: 'pleg-lab',
	image: 'registry.k8s.io/pause:3.10',
	dryRun: false,
	yes: true,
	tolerateTaints: false,
	pendingTimeoutMs: 120_000,
	holdSeconds: 10,
};
const node: LabNode = {
	name: 'pair-control-plane',
	hostname: 'pair-control-plane.local',
	taints: [
		{key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'},
		{key: 'soft', value: 'x', effect: 'PreferNoSchedule'},
	],
	allocatablePods: 110,
	kubeletVersion: 'v1.28.4',
};

describe('lab phases', () => {
	test('the churn exercise: idle, up, hold, down, hold, up, hold; --cycles 2 repeats the middle', () => {
		assert.deepEqual(
			labPhases(settings).map((phase) => phase.name),
			['idle', 'up 0→12', 'hold 12', 'down 12→0', 'hold 0', 'up 0→12 #2', 'hold 12 #2'],
		);
		assert.equal(labPhases({...settings, cycles: 2}).length, 11);
	});

	test('a sweep reaches each level in rising order and holds it', () => {
		assert.deepEqual(
			labPhases({...settings, levels: [50, 0, 12]}).map((phase) => `${phase.kind} ${phase.from}-${phase.to}`),
			['idle 0-0', 'up 0-12', 'hold 12-12', 'up 12-50', 'hold 50-50'],
		);
	});
});

describe('lab manifests', () => {
	test('pinned by the hostname label, restricted securityContext, tolerations only for the blocking taints when asked', () => {
		const plain = deploymentManifest(settings, node, 'r1', 0) as any;
		const spec = plain.spec.template.spec;
		assert.deepEqual(spec.nodeSelector, {'kubernetes.io/hostname': 'pair-control-plane.local'});
		assert.equal(spec.tolerations, undefined);
		assert.deepEqual(plain.spec.selector.matchLabels, plain.spec.template.metadata.labels);
		assert.deepEqual(spec.containers[0].securityContext, {
			runAsNonRoot: true,
			runAsUser: 65535,
			allowPrivilegeEscalation: false,
			capabilities: {drop: ['ALL']},
			seccompProfile: {type: 'RuntimeDefault'},
		});
		const tolerant = deploymentManifest({...settings, tolerateTaints: true}, node, 'r1', 0) as any;
		assert.deepEqual(tolerant.spec.template.spec.tolerations, [
			{key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule'},
		]);
	});

	test('YAML: nested maps, lists of maps, quoted strings that would read as something else', () => {
		assert.equal(toYaml({a: {b: ['x', {c: 1, d: 'true'}]}, e: '1m', f: []}), 'a:\n  b:\n  - x\n  - c: 1\n    d: "true"\ne: "1m"\nf: []\n');
		// A typed node name with controls (the Node could not be read, so its own name stands for the hostname label):
		// ESC and the C1 CSI escaped inside the double quotes, the same string when YAML reads it back.
		assert.equal(toYaml({hostname: 'n\u001b]0;x\u0007\u009b31m'}), 'hostname: "n\\u001b]0;x\\u0007\\u009b31m"\n');
	});

	test('kubectl lines and can-i lines carry --kubeconfig and --context', () => {
		const target = {kubeconfig: '/tmp/k config', context: 'kind-pair'};
		assert.deepEqual(kubectlLines(settings, target).at(-1), "kubectl --kubeconfig '/tmp/k config' --context kind-pair delete ns pleg-lab");
		const scale = accessChecks('pleg-lab').find((check) => check.subresource === 'scale')!;
		assert.equal(
			canILine(scale, target),
			"kubectl --kubeconfig '/tmp/k config' --context kind-pair auth can-i patch deployments.apps --subresource=scale -n pleg-lab",
		);
	});

	test('room: allocatable less the pods bound; only the levels beyond it are named', () => {
		assert.equal(roomProblem(node, 100, {levels: [0, 5, 10]}), null);
		assert.equal(
			roomProblem(node, 100, {levels: [0, 5, 12, 50]}),
			'pair-control-plane has room for 10 more pods (allocatable 110, 100 bound): the levels 12, 50 cannot be reached; ask for at most 10 with --pods',
		);
		assert.equal(roomProblem({...node, allocatablePods: null}, 500, {levels: [100]}), null);
	});
});

describe('lab pods', () => {
	const pod = (name: string, extra: object) => labPodOf({metadata: {name}, ...extra})!;
	test("Running is phase Running, Ready, on the node and not being deleted; reasons in the pod's own words", () => {
		const ready = {spec: {nodeName: 'n1'}, status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}]}};
		const pods = new Map([
			['a', pod('a', ready)],
			['b', pod('b', {...ready, metadata: {name: 'b', deletionTimestamp: 'x'}})],
			['c', pod('c', {...ready, spec: {nodeName: 'n2'}})],
			[
				'd',
				pod('d', {
					status: {phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'taint'}]},
				}),
			],
		]);
		assert.equal(runningOn(pods, 'n1'), 1);
		assert.equal(pods.get('d')!.reason, 'Unschedulable: taint');
		const pulling = pod('e', {status: {phase: 'Pending', containerStatuses: [{state: {waiting: {reason: 'ImagePullBackOff'}}}]}});
		assert.equal(
			pendingText([pods.get('d')!, pulling, {...pulling, name: 'f'}], 3, '2m0s'),
			'3 of 3 pods not Running after 2m0s: d: Unschedulable: taint; e and 1 more: ImagePullBackOff',
		);
	});

	test('least squares: y = 6.5 ms + 0.5 ms · x through three exact points', () => {
		const fit = fitLine([
			{x: 0, y: 0.0065},
			{x: 2, y: 0.0075},
			{x: 4, y: 0.0085},
		])!;
		assert.ok(Math.abs(fit.slope - 0.0005) < 1e-12);
		assert.ok(Math.abs(fit.intercept - 0.0065) < 1e-12);
		assert.equal(fitLine([{x: 1, y: 1}]), null);
	});
});
