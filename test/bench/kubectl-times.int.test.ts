import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';
import {chmodSync, rmSync} from 'node:fs';
import {childrenCpuMs, directKubectl, timedScript} from '../../bench/kubectl-grep.js';
import {formatRatio, type Round} from '../../bench/ratio.js';
import {makeTempDir} from '../helpers/kubeconfig-files.js';

test("the bench reads the children's CPU from bash's times to the millisecond", () => {
	// The shell's own line, then its children's: 1m2.081s + 0.027s.
	assert.equal(childrenCpuMs('0m0.003s 0m0.001s\n1m2.081s 0m0.027s\n'), 62_108);
	assert.throws(() => childrenCpuMs('0.08 0.02\n'), /not the output of bash's times/);
});

test("bash's times, run as the bench runs it, counts a busy child's CPU", () => {
	// The child spins until it has used 150 ms of CPU, so the reading cannot be below that.
	const run = spawnSync(
		'bash',
		['-c', timedScript, 'bash', 'node -e "const end = process.cpuUsage().user + 150000; while (process.cpuUsage().user < end);"'],
		{encoding: 'utf8'},
	);
	assert.equal(run.status, 0);
	const cpuMs = childrenCpuMs(run.stderr);
	assert.ok(cpuMs >= 150 && cpuMs < 10_000, `children's CPU ${cpuMs} ms`);
});

test("the bench's script exits with the pipeline's status, so a failed kubectl is not timed as a run", () => {
	const run = spawnSync('bash', ['-c', timedScript, 'bash', 'echo no pleg | grep ^kubelet_pleg'], {encoding: 'utf8'});
	assert.equal(run.status, 1);
	assert.ok(childrenCpuMs(run.stderr) >= 0);
});

test("the yardstick is the kubectl binary itself: a dispatcher's versioned binary is timed, a plain kubectl as it is", () => {
	const temp = makeTempDir('pleg-top-kubectl-');
	try {
		const dispatcher = temp.write(
			'sdk/kubectl',
			'#!/bin/sh\necho "Client Version: v1.32.4-dispatcher"\necho "Kustomize Version: v5.5.0"\n',
		);
		const binary = temp.write('sdk/kubectl.1.32', '#!/bin/sh\necho "Client Version: v1.32.4"\n');
		const plain = temp.write('debian/kubectl', '#!/bin/sh\necho "Client Version: v1.32.4"\n');
		for (const file of [dispatcher, binary, plain]) chmodSync(file, 0o755);
		assert.equal(directKubectl(dispatcher), binary);
		assert.equal(directKubectl(plain), plain);
		rmSync(binary);
		assert.throws(() => directKubectl(dispatcher), /is a dispatcher, and .*kubectl\.1\.32 is not there/);
	} finally {
		temp.remove();
	}
});

test('the ratio report divides per round and gives the median and range against the two goals', () => {
	const round = (live: number, kubectl: number, floor: number) =>
		({
			kubectl: {binary: '/sdk/kubectl.1.32', version: 'Client Version: v1.32.4', medianCpuMs: kubectl},
			floor: {cpuPerGetMs: floor},
			live: {cpuPerTickMs: live, mainThreadPerTickMs: live - 1},
			kubectlRatio: kubectl / live,
			floorRatio: live / floor,
		}) as unknown as Round;
	// 78/6 = 13.0, 80/5 = 16.0, 70/7 = 10.0; 6/2 = 3.00, 5/2 = 2.50, 7/2 = 3.50.
	const report = formatRatio([round(6, 78, 2), round(5, 80, 2), round(7, 70, 2)], null, null);
	assert.match(
		report,
		/^round 1: live 6\.00 ms a tick \(main 5\.00\), kubectl\+grep 78 ms, floor 2\.00 ms: ×13\.0 cheaper than kubectl, 3\.00× the floor$/m,
	);
	assert.match(report, /^×13\.0 \(10\.0-16\.0\) cheaper than kubectl\+grep \(goal ≥ ×12\): PASS$/m);
	assert.match(report, /^3\.00 \(2\.50-3\.50\)× the Node floor \(goal ≤ 2\.5×\): MISS$/m);
});
