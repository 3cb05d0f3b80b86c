// Through the built CLI: on --prometheus the overview's "read" is when Prometheus scraped each kubelet's last-seen
// gauge (timestamp()), not the query's time. A stand-in query API answers for two nodes: `fresh`, scraped 2 s
// before each query, and `dropped`, whose target Prometheus stopped scraping 200 s before (its last sample still
// answers within Prometheus' 5-minute lookback). Each relisted 1 s before its scrape.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import {after, before, test} from 'node:test';
import {plegQueries} from '../../source/sources/prometheus/queries.js';
import {runCli} from '../helpers/run-cli.js';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';

const windowSeconds = 60;
const scrapedBefore: Record<string, number> = {fresh: 2, dropped: 200};
let server: http.Server;
let url: string;
let temp: TempDir;

before(async () => {
	temp = makeTempDir();
	const queries = plegQueries(windowSeconds);
	server = http.createServer((request, response) => {
		const parameters = new URL(request.url ?? '/', 'http://x').searchParams;
		const time = Number(parameters.get('time'));
		const promql = parameters.get('query');
		const value = (node: string): number => {
			const scrapedAt = time - scrapedBefore[node]!;
			if (promql === queries.lastSeenScrapedAt) return scrapedAt;
			if (promql === queries.lastSeenAgeSeconds) return time - (scrapedAt - 1);
			return 0.01;
		};
		const result = Object.keys(scrapedBefore).map((node) => ({
			metric: promql === queries.kubeletVersion ? {node, git_version: 'v1.28.4'} : {node},
			value: [time, String(value(node))],
		}));
		response
			.writeHead(200, {'Content-Type': 'application/json'})
			.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result}}));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

after(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	temp.remove();
});

test("--once -o json: read is the scrape's age; the target no longer scraped is stale at its true age, last seen 1 s at its scrape", async () => {
	const result = await runCli(['--prometheus', url, '--window', `${windowSeconds}s`, '--once', '-o', 'json'], {env: {HOME: temp.dir}});
	assert.equal(result.code, 0, result.stderr);
	const {nodes} = JSON.parse(result.stdout) as {
		nodes: Array<{node: string; status: string; band: string; lastSeenAtReadSeconds: number; readAgeSeconds: number}>;
	};
	const byName = new Map(nodes.map((node) => [node.node, node]));
	const fresh = byName.get('fresh')!;
	const dropped = byName.get('dropped')!;
	assert.deepEqual([fresh.status, fresh.band, fresh.lastSeenAtReadSeconds], ['ok', 'ok', 1]);
	assert.deepEqual([dropped.status, dropped.band, dropped.lastSeenAtReadSeconds], ['stale', 'unknown', 1]);
	// The query's time was this run's clock: the reads are those ages plus the time the run took since its query.
	assert.ok(fresh.readAgeSeconds >= 2 && fresh.readAgeSeconds < 30, String(fresh.readAgeSeconds));
	assert.ok(dropped.readAgeSeconds >= 200 && dropped.readAgeSeconds < 230, String(dropped.readAgeSeconds));
});
