// The Prometheus source's answers and refusals without a Prometheus: the response envelope, the --node filter's
// PromQL, and failures in the user's terms (a loopback HTTP stand-in answers each case).
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import type net from 'node:net';
import {after, before, describe, test} from 'node:test';
import {SourceFailure} from '../../../source/sources/failure.js';
import {createPrometheusSource} from '../../../source/sources/prometheus/source.js';
import {absentQuery, jobsQuery, plegQueries, promDuration} from '../../../source/sources/prometheus/queries.js';
import {readVector} from '../../../source/sources/prometheus/envelope.js';
import {failureOf} from '../../helpers/fake-kubelet.js';
import {allPayloads, allPayloadsVisible} from '../../helpers/escape-payloads.js';
import {makeTempDir, type TempDir} from '../../helpers/kubeconfig-files.js';

describe('Prometheus answers', () => {
	test('a vector answer: labels and values, "NaN" read as NaN', () => {
		const body = JSON.stringify({
			status: 'success',
			data: {
				resultType: 'vector',
				result: [
					{metric: {node: 'a'}, value: [1, '0.25']},
					{metric: {instance: '10.0.0.5:10250'}, value: [1, 'NaN']},
				],
			},
		});
		const samples = readVector(body, 'http://p');
		assert.deepEqual(samples[0], {metric: {node: 'a'}, value: 0.25});
		assert.ok(Number.isNaN(samples[1]!.value));
	});

	test('an error envelope says what Prometheus said', () => {
		const body = JSON.stringify({status: 'error', errorType: 'bad_data', error: '1:10: parse error: unexpected end of input'});
		assert.throws(
			() => readVector(body, 'http://p'),
			(error: unknown) =>
				error instanceof SourceFailure &&
				error.failure.summary === 'Prometheus at http://p could not run the query: 1:10: parse error: unexpected end of input',
		);
	});

	test('a range selector is written in whole units, as PromQL reads durations', () => {
		assert.equal(promDuration(30), '[30s]');
		assert.equal(promDuration(1.5), '[1500ms]');
		assert.equal(promDuration(0.25), '[250ms]');
		assert.match(plegQueries(1.5).ratePerSecond, /\[1500ms\]\)\)$/);
	});

	test('--node narrows each selector to the node label or an instance of that host', () => {
		const query = plegQueries(30, 'ip-10-0-0-5.ec2.internal').ratePerSecond;
		assert.equal(
			query,
			'sum by (node, instance) ((rate(kubelet_pleg_relist_duration_seconds_count{node="ip-10-0-0-5.ec2.internal"}[30s]) or rate(kubelet_pleg_relist_duration_seconds_count{instance=~"ip-10-0-0-5\\\\.ec2\\\\.internal(:[0-9]+)?"}[30s])))',
		);
		assert.equal(
			plegQueries(30).p99,
			'histogram_quantile(0.99, sum by (node, instance, le) (rate(kubelet_pleg_relist_duration_seconds_bucket[30s])))',
		);
	});
});

describe('Prometheus source failures', () => {
	const queries = plegQueries(10);
	const versionIndex = Object.keys(queries).indexOf('kubeletVersion');
	let server: http.Server;
	let url: string;
	let temp: TempDir;
	const empty = JSON.stringify({status: 'success', data: {resultType: 'vector', result: []}});
	const job = (name: string, count: number) => ({metric: {job: name}, value: [1, String(count)]});
	/**
	 * Scrape-job stand-ins, by route: the answer to each jobs query (anything else is answered empty) and the PromQL
	 * asked, in order. /one-job: one job holds PLEG series now. /stopped-job: first "kubelet" has 10 kubelets' series
	 * and "kubelet-copy" 3; then every kubelet stopped, the copy's series outlive "kubelet"'s by a scrape, and
	 * "kubelet"'s targets are still there (up=0).
	 */
	const jobRoutes = {
		'one-job': {answers: new Map([[jobsQuery(), [job('kubelet', 3)]]]), asked: [] as string[]},
		'stopped-job': {
			answers: new Map([
				[jobsQuery(), [job('kubelet', 10), job('kubelet-copy', 3)]],
				[jobsQuery(null, 'kubelet'), [job('kubelet-copy', 3), job('kubelet', 0)]],
			]),
			asked: [] as string[],
		},
	};

	/** The source of the stand-in's route `path`, read 10 s windows at a time. */
	const sourceAt = (path: string) =>
		createPrometheusSource({url: `${url}/${path}`, windowSeconds: 10, insecureSkipTlsVerify: false, timeoutMs: 2000, now: Date.now});

	before(async () => {
		temp = makeTempDir();
		server = http.createServer((request, response) => {
			if (request.url?.startsWith('/big/api/v1/query')) {
				// 2 KiB of padding in a valid envelope: a body past a 1 KiB --max-body-size.
				response
					.writeHead(200, {'Content-Type': 'application/json'})
					.end(JSON.stringify({...JSON.parse(empty), padding: 'x'.repeat(2048)}));
				return;
			}

			const jobRoute = /^\/(one-job|stopped-job)\/api\/v1\/query\?/.exec(request.url ?? '');
			if (jobRoute) {
				const route = jobRoutes[jobRoute[1] as keyof typeof jobRoutes];
				const promql = new URL(request.url!, 'http://x').searchParams.get('query')!;
				route.asked.push(promql);
				const result = route.answers.get(promql) ?? [];
				response
					.writeHead(200, {'Content-Type': 'application/json'})
					.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result}}));
				return;
			}

			if (request.url?.startsWith('/hostile/api/v1/query')) {
				// A plain node first, as Prometheus writes it, then one whose labels carry every escape payload: the
				// one-pass reading starts, finds the second sample is not plain, and the answer is read again whole. The
				// same answer to the jobs query names two jobs, the second one hostile.
				const result = [
					{metric: {node: 'plain', git_version: 'v1.30.1', job: 'kubelet'}, value: [1, '0.5']},
					{metric: {node: `worker${allPayloads}`, git_version: `v1.30.1${allPayloads}`, job: `copy${allPayloads}`}, value: [1, '0.25']},
				];
				response
					.writeHead(200, {'Content-Type': 'application/json'})
					.end(JSON.stringify({status: 'success', data: {resultType: 'vector', result}}));
				return;
			}

			const mixed = /^\/(mixed|gzip)\/api\/v1\/query\?/.exec(request.url ?? '');
			if (mixed) {
				// Each figure's query answered for three nodes with its own values (the query's place, plus the node's):
				// /mixed writes every other answer spaced out, which the one-pass reading leaves to JSON.parse; /gzip
				// writes them all compact and gzipped.
				const promql = new URL(request.url!, 'http://x').searchParams.get('query');
				const index = Object.values(queries).indexOf(promql!);
				const result = ['a', 'b', 'c'].map((node, n) => ({
					metric: index === versionIndex ? {node, git_version: `v1.29.${n}`} : {node},
					value: [1, String(index + n / 10)],
				}));
				const body = JSON.stringify(
					{status: 'success', data: {resultType: 'vector', result}},
					null,
					mixed[1] === 'mixed' && index % 2 === 1 ? 1 : 0,
				);
				if (mixed[1] === 'gzip') {
					response.writeHead(200, {'Content-Type': 'application/json', 'Content-Encoding': 'gzip'}).end(zlib.gzipSync(body));
				} else {
					response.writeHead(200, {'Content-Type': 'application/json'}).end(body);
				}

				return;
			}

			if (request.url?.startsWith('/prefix/api/v1/query')) {
				if (request.headers.authorization !== 'Bearer right-token-0123456789') {
					response.writeHead(401, {'Content-Type': 'text/plain'}).end('Unauthorized');
					return;
				}

				response.writeHead(200, {'Content-Type': 'application/json'}).end(empty);
				return;
			}

			response.writeHead(404, {'Content-Type': 'text/plain'}).end('404 page not found');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
	});

	after(() => {
		server.close();
		temp.remove();
	});

	test('a path prefix is kept and the bearer token from --token-file is sent; no series = no nodes', async () => {
		const tokenFile = temp.write('token', 'right-token-0123456789\n');
		const source = createPrometheusSource({
			url: `${url}/prefix/`,
			windowSeconds: 10,
			tokenFile,
			insecureSkipTlsVerify: false,
			timeoutMs: 2000,
			now: Date.now,
		});
		// A token to a plain http:// URL: the label says so, and the note for stderr says why.
		assert.equal(source.label, `all nodes via Prometheus ${url}/prefix (token sent without TLS)`);
		assert.deepEqual(source.notes, [
			`token sent without TLS: ${url}/prefix is plain http://, so the bearer token travels in clear text; use an https:// URL`,
		]);
		assert.equal((await source.fetchFigures(new AbortController().signal)).figures.size, 0);
		source.close?.();
	});

	for (const route of ['mixed', 'gzip']) {
		test(`${route}: every figure of every node from its own query, read in place or decoded, the same`, async () => {
			const source = sourceAt(route);
			const {figures} = await source.fetchFigures(new AbortController().signal);
			assert.deepEqual([...figures.keys()], ['a', 'b', 'c']);
			for (const [n, node] of ['a', 'b', 'c'].entries()) {
				const entry = figures.get(node)! as unknown as Record<string, unknown>;
				for (const [index, key] of Object.keys(queries).entries()) {
					assert.equal(entry[key], key === 'kubeletVersion' ? `v1.29.${n}` : index + n / 10, `${node} ${key}`);
				}
			}

			// The next refresh reads the same (the names kept from the last answer are reused); only its time differs.
			const timeless = (read: Map<string, object>) => [...read.values()].map((entry) => ({...entry, at: 0}));
			assert.deepEqual(timeless((await source.fetchFigures(new AbortController().signal)).figures), timeless(figures));
			source.close?.();
		});
	}

	test("one job with series now: its figures are still read with the job's matcher, never summed over a job gone stale", async () => {
		const source = sourceAt('one-job');
		await source.fetchFigures(new AbortController().signal);
		source.close?.();
		const {asked} = jobRoutes['one-job'];
		// A rate reads the last 10 s: a second job's series that went stale within them would still be summed in.
		for (const promql of Object.values(plegQueries(10, null, 'kubelet'))) assert.ok(asked.includes(promql), promql);
		assert.ok(
			asked.every((promql) => promql === jobsQuery() || promql.includes('job="kubelet"')),
			asked.join('\n'),
		);
	});

	test('every kubelet of the job read stops: it stays the job read while its targets are there, so no node is dropped', async () => {
		const source = sourceAt('stopped-job');
		await source.fetchFigures(new AbortController().signal);
		const second = jobRoutes['stopped-job'].asked.length;
		await source.fetchFigures(new AbortController().signal);
		source.close?.();
		const asked = jobRoutes['stopped-job'].asked.slice(second);
		// Switching to kubelet-copy would list its 3 nodes and drop the other 7.
		assert.equal(asked[0], jobsQuery(null, 'kubelet'));
		for (const promql of [...Object.values(plegQueries(10, null, 'kubelet')), absentQuery('kubelet')])
			assert.ok(asked.includes(promql), promql);
		assert.ok(
			asked.every((promql) => !promql.includes('job="kubelet-copy"')),
			asked.join('\n'),
		);
	});

	test('node names, kubelet versions and job names from the labels come out visible: ESC ] 0 ;, U+009B and the rest', async () => {
		const source = sourceAt('hostile');
		const {figures} = await source.fetchFigures(new AbortController().signal);
		assert.deepEqual([...figures.keys()], ['plain', `worker${allPayloadsVisible}`]);
		const hostile = figures.get(`worker${allPayloadsVisible}`)!;
		assert.equal(hostile.kubeletVersion, `v1.30.1${allPayloadsVisible}`);
		assert.equal(hostile.meanSeconds, 0.25);
		assert.equal(figures.get('plain')!.meanSeconds, 0.5);
		// The header's source label names the other job seen, as JSON's otherJobs does.
		assert.equal(source.label, `all nodes via Prometheus ${url}/hostile · job kubelet (also seen: copy${allPayloadsVisible})`);
		// No control byte of any payload is left in the strings the screen, the title and JSON are built from.
		assert.doesNotMatch([...figures.keys(), hostile.kubeletVersion, source.label].join(''), /[\u0000-\u001f\u007f-\u009f\u202e]/);
		source.close?.();
	});

	test('401: names the token file, never the token', async () => {
		const tokenFile = temp.write('token-wrong', 'wrong-token-0123456789');
		const source = createPrometheusSource({
			url: `${url}/prefix`,
			windowSeconds: 10,
			tokenFile,
			insecureSkipTlsVerify: false,
			timeoutMs: 2000,
			now: Date.now,
		});
		const failure = await failureOf(source.fetchFigures(new AbortController().signal));
		assert.equal(failure.kind, 'unauthorized');
		assert.equal(failure.summary, `Prometheus at ${url}/prefix rejected the token in --token-file ${tokenFile}`);
		assert.ok(!JSON.stringify(failure).includes('wrong-token-0123456789'));
		source.close?.();
	});

	test('404: the URL is not a query API base', async () => {
		const source = createPrometheusSource({url, windowSeconds: 10, insecureSkipTlsVerify: false, timeoutMs: 2000, now: Date.now});
		const failure = await failureOf(source.fetchFigures(new AbortController().signal));
		assert.equal(failure.kind, 'not-found');
		assert.equal(failure.summary, `${url} has no query API at /api/v1/query`);
		source.close?.();
	});

	test('an answer past --max-body-size fails the read with the size, whatever it holds', async () => {
		const options = {url: `${url}/big`, windowSeconds: 10, insecureSkipTlsVerify: false, timeoutMs: 2000, now: Date.now};
		const source = createPrometheusSource({...options, maxBodyBytes: 1024});
		const failure = await failureOf(source.fetchFigures(new AbortController().signal));
		assert.equal(failure.kind, 'http');
		assert.equal(failure.summary, `the body from ${url}/big/api/v1/query?… passed 1 KiB; raise --max-body-size`);
		source.close?.();
		// The default (64 MiB) reads it.
		const roomy = createPrometheusSource(options);
		assert.equal((await roomy.fetchFigures(new AbortController().signal)).figures.size, 0);
		roomy.close?.();
	});

	test('nothing listening: cannot reach Prometheus, connection refused', async () => {
		const source = createPrometheusSource({
			url: 'http://127.0.0.1:1',
			windowSeconds: 10,
			insecureSkipTlsVerify: false,
			timeoutMs: 2000,
			now: Date.now,
		});
		const failure = await failureOf(source.fetchFigures(new AbortController().signal));
		assert.equal(failure.kind, 'network');
		assert.equal(failure.summary, 'cannot reach Prometheus at http://127.0.0.1:1: connection refused');
		source.close?.();
	});
});
