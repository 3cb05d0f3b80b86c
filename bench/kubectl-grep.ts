// The yardstick: what `watch -n1 'kubectl get --raw …/proxy/metrics | grep ^kubelet_pleg'` costs per run, each run
// a new kubectl process (the binary itself, not a dispatcher). CPU of the shell, kubectl and grep together.
// The CPU comes from bash's `times` (getrusage of the waited-for children, printed to the millisecond), not from
// GNU time: its %U and %S are each cut down to 10 ms, which read the same runs ~9 ms low (100 against 109 ms).
import {execFile, execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {benchNode, type BenchServer} from './bench-server.js';
import {median} from './stats.js';

export type KubectlResult = {
	binary: string;
	version: string;
	runs: number;
	medianCpuMs: number;
	/** The runs' CPU, ms, in the order they ran: the spread says how far the limit moves. */
	cpuMs: number[];
	medianWallMs: number;
	/** Peak resident memory of the largest process in a run (kubectl), bytes, median over runs. */
	medianMaxRssBytes: number;
	/** Lines grep printed in the last run (sanity: the PLEG series were there). */
	plegLines: number;
};

function onPath(command: string): string | null {
	const found = spawnSync('sh', ['-c', `command -v ${command}`], {encoding: 'utf8'});
	return found.status === 0 ? found.stdout.trim() : null;
}

/** The kubectl binary from PATH (directKubectl); when missing, Debian's kubernetes-client package (needs root). */
export function ensureKubectl(): string {
	const existing = onPath('kubectl');
	if (existing) {
		return directKubectl(existing);
	}

	if (process.getuid?.() !== 0) {
		throw new Error("kubectl is not on PATH and the bench is not root: install Debian's kubernetes-client package");
	}

	process.stderr.write("bench: installing Debian's kubernetes-client (kubectl) with apt-get …\n");
	execFileSync('apt-get', ['update', '-qq'], {stdio: 'inherit'});
	execFileSync('apt-get', ['install', '-y', '-qq', 'kubernetes-client'], {
		stdio: 'inherit',
		env: {...process.env, DEBIAN_FRONTEND: 'noninteractive'},
	});
	const installed = onPath('kubectl');
	if (!installed) {
		throw new Error('kubernetes-client installed but kubectl is still not on PATH');
	}

	return directKubectl(installed);
}

/**
 * The kubectl binary itself. Google Cloud SDK's `kubectl` is a dispatcher that starts the versioned binary beside it
 * (kubectl.1.32 …): timing it would time two Go programs' start-up, about twice kubectl's cost. A dispatcher
 * (its `version --client` says so) is replaced by the binary of the client version it reports.
 */
export function directKubectl(kubectl: string): string {
	const version = spawnSync(kubectl, ['version', '--client'], {encoding: 'utf8'}).stdout;
	const dispatched = /Client Version: v(\d+)\.(\d+)\.\d+-dispatcher/.exec(version);
	if (!dispatched) return kubectl;
	const binary = path.join(path.dirname(fs.realpathSync(kubectl)), `kubectl.${dispatched[1]}.${dispatched[2]}`);
	if (!fs.existsSync(binary)) throw new Error(`${kubectl} is a dispatcher, and ${binary} is not there`);
	return binary;
}

/**
 * CPU, ms, of the children a bash script waited for, from the output of its last `times`: the second line is the
 * children's user and system time (`0m0.081s 0m0.027s`).
 */
export function childrenCpuMs(timesOutput: string): number {
	const lines = timesOutput.trim().split('\n');
	const children = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines.at(-1)?.trim() ?? '');
	if (lines.length < 2 || !children) {
		throw new Error(`not the output of bash's times: ${JSON.stringify(timesOutput)}`);
	}

	const [, userMinutes, userSeconds, systemMinutes, systemSeconds] = children.map(Number);
	const seconds = userMinutes! * 60 + userSeconds! + systemMinutes! * 60 + systemSeconds!;
	// bash prints milliseconds: round away the binary fraction's noise.
	return Math.round(seconds * 1000);
}

/**
 * The bash script a run is: its first argument under `sh -c`, then `times` to stderr. It exits with the pipeline's
 * status, so a kubectl that failed (grep found nothing) fails the bench.
 */
export const timedScript = 'sh -c "$1"; status=$?; times >&2; exit $status';

// The server answers in this process: runs are awaited, never spawned synchronously.
export async function measureKubectl(bench: BenchServer, kubectl: string, runs: number): Promise<KubectlResult> {
	const timing = path.join(bench.temp.dir, 'time.txt');
	const command = `${kubectl} --kubeconfig ${bench.kubeconfigPath} get --raw /api/v1/nodes/${benchNode}/proxy/metrics | grep ^kubelet_pleg`;
	const cpu: number[] = [];
	const wall: number[] = [];
	const rss: number[] = [];
	let plegLines = 0;
	for (let run = 0; run < runs; run++) {
		const result = await promisify(execFile)('/usr/bin/time', ['-o', timing, '-f', '%e %M', 'bash', '-c', timedScript, 'bash', command], {
			encoding: 'utf8',
			env: bench.env,
		});

		const [elapsed, maxKib] = fs.readFileSync(timing, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
		cpu.push(childrenCpuMs(result.stderr));
		wall.push(elapsed! * 1000);
		rss.push(maxKib! * 1024);
		plegLines = result.stdout.split('\n').filter((line) => line.startsWith('kubelet_pleg')).length;
	}

	const version = spawnSync(kubectl, ['version', '--client'], {encoding: 'utf8', env: bench.env}).stdout.split('\n')[0] ?? '';
	return {
		binary: fs.realpathSync(kubectl),
		version: version.trim(),
		runs,
		medianCpuMs: median(cpu),
		cpuMs: cpu,
		medianWallMs: median(wall),
		medianMaxRssBytes: median(rss),
		plegLines,
	};
}
