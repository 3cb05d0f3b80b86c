// One fake cluster for a whole test file (not a test file itself): started before its tests, its faults cleared
// before each, and closed after them together with every CLI the file started.
import {after, before, beforeEach} from 'node:test';
import {spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {startCluster, type Cluster} from './cluster.js';

export type FileCluster = {
	/** The cluster (set once the file's `before` ran). */
	readonly cluster: Cluster;
	/** Starts the CLI with `env` (default the cluster's); it is killed after the file if still running. */
	spawn(args: string[], env?: Record<string, string>): CliProcess;
};

export function clusterPerFile(): FileCluster {
	let cluster: Cluster | undefined;
	const running: CliProcess[] = [];
	before(async () => {
		cluster = await startCluster();
	});
	beforeEach(() => {
		cluster?.fake.clearFaults();
	});
	after(async () => {
		for (const cli of running) cli.child.kill('SIGKILL');
		await cluster?.close();
	});
	return {
		get cluster() {
			if (!cluster) throw new Error('the cluster starts in the before hook');
			return cluster;
		},
		spawn(args, env) {
			const cli = spawnCli(args, {env: env ?? this.cluster.env, timeoutMs: 30_000});
			running.push(cli);
			return cli;
		},
	};
}

/** The complete JSON lines the CLI wrote so far, parsed. */
export function jsonLinesOf(cli: CliProcess): Array<Record<string, any>> {
	return cli.stdout
		.split('\n')
		.slice(0, -1)
		.map((text) => JSON.parse(text) as Record<string, any>);
}
