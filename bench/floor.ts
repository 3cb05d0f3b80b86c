// Phase 2: runs floor-child.ts against the bench server and reads its answer.
import {execFile} from 'node:child_process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {testTls} from '../test/helpers/fake-api-server.js';
import {benchNode, benchToken, type BenchServer} from './bench-server.js';
import type {FloorAnswer, FloorRequest} from './floor-child.js';

const childPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-child.ts');

export type FloorResult = FloorAnswer & {iterations: number; intervalMs: number};

export async function measureFloor(bench: BenchServer, options: {iterations: number; intervalMs: number}): Promise<FloorResult> {
	const request: FloorRequest = {
		url: `${bench.server.url}/api/v1/nodes/${benchNode}/proxy/metrics`,
		token: benchToken,
		caFile: path.join(testTls.dir, 'ca.crt'),
		warmup: 30,
		...options,
	};
	// The server answers in this process, so the child must not block it: execFile, not execFileSync.
	const {stdout} = await promisify(execFile)(process.execPath, ['--import', 'tsx', childPath, JSON.stringify(request)], {env: bench.env});
	return {...(JSON.parse(stdout) as FloorAnswer), iterations: options.iterations, intervalMs: options.intervalMs};
}
