// The next steps: every kubectl line carries the kubeconfig and context pleg-top read, quoted so that a shell hands
// kubectl exactly those words (proved by running the line in bash against a stub kubectl), and the node-side lines
// name the runtime the Node reports.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {describe, test} from 'node:test';
import {kubectlCommand, nextSteps, runtimeOf, shellQuote} from '../../../source/domain/incident/next-steps.js';
import {breakCommand, shellWords} from '../../../source/screen/panes/next-steps-pane.js';
import {podListPath, podPageFromJson} from '../../../source/sources/pod-count.js';

/** The words bash passes to `kubectl` when it runs `command` (a stub function prints one argument a line, NUL-ended). */
function argumentsBashPasses(command: string): string[] {
	const script = `kubectl() { printf '%s\\0' "$@"; }\n${command}`;
	return execFileSync('bash', ['-c', script], {encoding: 'utf8'}).split('\0').slice(0, -1);
}

const awkward = {kubeconfig: "/tmp/on-call's dir/kube config.yaml", context: 'prod "eu" $(rm -rf ~) `x`'};

describe('shell quoting', () => {
	test("plain words stay as they are; anything else is single-quoted, a quote inside as '\\''", () => {
		assert.equal(shellQuote('worker-03'), 'worker-03');
		assert.equal(shellQuote('ip-10-0-1-2.eu-west-1.compute.internal'), 'ip-10-0-1-2.eu-west-1.compute.internal');
		assert.equal(shellQuote('a b'), "'a b'");
		assert.equal(shellQuote("it's"), "'it'\\''s'");
		assert.equal(shellQuote(''), "''");
		assert.equal(shellQuote('$HOME'), "'$HOME'");
	});

	test('--kubeconfig then --context, each one word to kubectl, whatever they hold', () => {
		const command = kubectlCommand(awkward, ['describe', 'node', 'worker-03']);
		assert.equal(
			command,
			`kubectl --kubeconfig '/tmp/on-call'\\''s dir/kube config.yaml' --context 'prod "eu" $(rm -rf ~) \`x\`' describe node worker-03`,
		);
		assert.deepEqual(argumentsBashPasses(command), [
			'--kubeconfig',
			"/tmp/on-call's dir/kube config.yaml",
			'--context',
			'prod "eu" $(rm -rf ~) `x`',
			'describe',
			'node',
			'worker-03',
		]);
	});

	test('no kubeconfig read: plain kubectl; only a context: --context alone', () => {
		assert.equal(kubectlCommand(null, ['cordon', 'n1']), 'kubectl cordon n1');
		assert.equal(kubectlCommand({context: 'prod'}, ['cordon', 'n1']), 'kubectl --context prod cordon n1');
	});

	test('a long command breaks between shell words only, and bash still reads it as the same words', () => {
		const command = kubectlCommand(awkward, ['describe', 'node', 'worker-03']);
		const rows = breakCommand(command, 40);
		// The quoted path alone is 43 cells: it takes a row of its own, whole, rather than break inside its quotes.
		assert.deepEqual(rows, [
			'kubectl --kubeconfig \\',
			"  '/tmp/on-call'\\''s dir/kube config.yaml' \\",
			'  --context \\',
			`  'prod "eu" $(rm -rf ~) \`x\`' describe \\`,
			'  node worker-03',
		]);
		assert.deepEqual(argumentsBashPasses(rows.join('\n')), argumentsBashPasses(command));
		assert.deepEqual(shellWords("a 'b c'\\''d' e"), ['a', "'b c'\\''d'", 'e']);
	});
});

describe('the runtime the Node reports', () => {
	test('containerd, cri-o (unit crio), docker; anything else is containerd, said to be assumed', () => {
		assert.deepEqual(runtimeOf('containerd://1.7.2'), {unit: 'containerd', name: 'containerd', known: true});
		assert.deepEqual(runtimeOf('cri-o://1.30.1'), {unit: 'crio', name: 'cri-o', known: true});
		assert.deepEqual(runtimeOf('docker://24.0.7'), {unit: 'docker', name: 'docker', known: true});
		assert.deepEqual(runtimeOf(null), {unit: 'containerd', name: 'containerd', known: false});
		assert.deepEqual(runtimeOf('remote'), {unit: 'containerd', name: 'containerd', known: false});
	});

	test('the steps: describe (cordon once unhealthy) with the target, then the runtime side on the node', () => {
		const steps = nextSteps({node: 'worker-03', target: {context: 'prod'}, runtimeVersion: 'cri-o://1.30.1', unhealthy: true});
		assert.deepEqual(
			steps.map((step) => [step.where, step.command]),
			[
				['kubectl', 'kubectl --context prod describe node worker-03'],
				['kubectl', 'kubectl --context prod cordon worker-03'],
				['on the node', 'systemctl status crio'],
				['on the node', 'journalctl -u crio --since -15m'],
				['on the node', 'crictl --timeout 5s info'],
				['on the node', 'crictl pods --state notready'],
				['on the node', 'journalctl -u kubelet --since -30m | grep -i pleg'],
			],
		);
		const critical = nextSteps({node: 'worker-03', runtimeVersion: null});
		assert.ok(!critical.some((step) => step.command.includes('cordon')), 'no cordon before the rule fails');
		assert.equal(critical[1]!.why, "is containerd running (assumed: the Node's runtime was not read)");
		// A node name that is not a plain word (from the command line) is quoted too.
		assert.equal(nextSteps({node: "n'1"})[0]!.command, "kubectl describe node 'n'\\''1'");
	});
});

describe('the pod list, counted', () => {
	test('the selector and limit in the path; a page is its items and the continue token', () => {
		assert.equal(podListPath('worker 1', null), '/api/v1/pods?fieldSelector=spec.nodeName%3Dworker%201&limit=500');
		assert.equal(podListPath('n', 'abc=='), '/api/v1/pods?fieldSelector=spec.nodeName%3Dn&limit=500&continue=abc%3D%3D');
		assert.deepEqual(podPageFromJson('{"items":[{},{},{}],"metadata":{"continue":"t"}}'), {items: 3, continueToken: 't'});
		assert.deepEqual(podPageFromJson('{"items":[],"metadata":{"continue":""}}'), {items: 0, continueToken: null});
		assert.throws(() => podPageFromJson('{"kind":"Status"}'));
	});
});
