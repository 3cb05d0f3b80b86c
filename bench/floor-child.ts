// Phase 2, run in its own process so the fake server's CPU is not counted: the bare floor of one tick, a
// keep-alive HTTPS GET of the /metrics body (gzip, as the API server sends it) and a line filter, paced at the
// CLI's interval. Prints one JSON line: CPU and wall time per GET.
import fs from 'node:fs';
import https from 'node:https';
import {setTimeout as sleep} from 'node:timers/promises';
import zlib from 'node:zlib';

export type FloorRequest = {url: string; token: string; caFile: string; warmup: number; iterations: number; intervalMs: number};
export type FloorAnswer = {cpuPerGetMs: number; wallPerGetMs: number; bodyBytes: number; plegLines: number; connectionsReused: boolean};

const request = JSON.parse(process.argv[2] ?? '{}') as FloorRequest;
const agent = new https.Agent({keepAlive: true, ca: fs.readFileSync(request.caFile, 'utf8')});

async function getOnce(): Promise<{lines: string[]; bytes: number; reused: boolean}> {
	return new Promise((resolve, reject) => {
		const outgoing = https.get(
			request.url,
			{agent, headers: {Authorization: `Bearer ${request.token}`, 'Accept-Encoding': 'gzip'}},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const raw = Buffer.concat(chunks);
					const text = (response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
					resolve({
						lines: text.split('\n').filter((line) => line.startsWith('kubelet_pleg')),
						bytes: text.length,
						reused: outgoing.reusedSocket,
					});
				});
				response.on('error', reject);
			},
		);
		outgoing.on('error', reject);
	});
}

let last = await getOnce();
for (let index = 0; index < request.warmup; index++) {
	last = await getOnce();
	await sleep(request.intervalMs);
}

let reused = true;
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
let idle = 0;
for (let index = 0; index < request.iterations; index++) {
	last = await getOnce();
	reused &&= last.reused;
	const idleStart = performance.now();
	await sleep(request.intervalMs);
	idle += performance.now() - idleStart;
}

const cpu = process.cpuUsage(cpuBefore);
const answer: FloorAnswer = {
	cpuPerGetMs: (cpu.user + cpu.system) / 1000 / request.iterations,
	wallPerGetMs: (performance.now() - wallBefore - idle) / request.iterations,
	bodyBytes: last.bytes,
	plegLines: last.lines.length,
	connectionsReused: reused,
};
process.stdout.write(JSON.stringify(answer) + '\n');
agent.destroy();
