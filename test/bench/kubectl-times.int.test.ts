import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';
import {childrenCpuMs, timedScript} from '../../bench/kubectl-grep.js';

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
