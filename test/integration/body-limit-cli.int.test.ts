// Bodies too large, end to end: the built CLI against the fake API server answering /metrics with a body that never
// ends, or with a 1 MB gzip bomb. pleg-top stops reading at --max-body-size and fails the read in words.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {runCli} from '../helpers/run-cli.js';
import {until} from '../helpers/until.js';
import {clusterPerFile} from './cluster-per-file.js';
import {fast} from './cluster.js';

const files = clusterPerFile();

const mebibyte = 1024 * 1024;
const once = (...extra: string[]) => ['--node', 'worker-1', '--once', ...fast, ...extra];

async function failingLines(args: string[]): Promise<string[]> {
	const result = await runCli(args, {env: files.cluster.env});
	assert.equal(result.stdout, '');
	assert.equal(result.code, 3, result.stderr);
	return result.stderr.trimEnd().split('\n');
}

describe('--max-body-size', () => {
	test('an endless body: the read stops near the cap (1Mi) and fails with the size, not after --timeout', async () => {
		const sent = {bytes: 0, closed: false};
		files.cluster.fake.setFault({type: 'endless', sent}, {route: 'metrics'});
		const lines = await failingLines(once('--max-body-size', '1Mi'));
		assert.deepEqual(lines, [
			`pleg-top: the body from ${files.cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics passed 1 MiB; raise --max-body-size`,
			"  pleg-top stopped reading it there: a kubelet's /metrics is a few MB; something in the way may send without end",
		]);
		// The server learns of the close a moment after the CLI exits.
		await until(() => sent.closed, 'the server to see the connection closed');
		// 1 MiB read, plus what the loopback socket buffers held (a few MiB at most): never the gigabytes of before.
		assert.ok(sent.bytes > mebibyte && sent.bytes < 16 * mebibyte, `${sent.bytes} bytes sent`);
	});

	test('a Content-Length past the cap fails at once, before --timeout, even when the body then stalls', async () => {
		files.cluster.fake.setFault({type: 'stated-length', mebibytes: 2}, {route: 'metrics'});
		// A --timeout far beyond the test's own: only the stated length can end the read in time.
		const lines = await failingLines(once('--max-body-size', '1Mi', '--timeout', '10m'));
		assert.deepEqual(lines, [
			`pleg-top: the body from ${files.cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics passed 1 MiB; raise --max-body-size`,
			"  pleg-top stopped reading it there: a kubelet's /metrics is a few MB; something in the way may send without end",
		]);
	});

	test('a 1 MB gzip bomb (1 GiB of zeros): fails at the default 64 MiB after decompression', async () => {
		files.cluster.fake.setFault({type: 'gzip-bomb', mebibytes: 1024}, {route: 'metrics'});
		const lines = await failingLines(once());
		assert.deepEqual(lines, [
			`pleg-top: the body from ${files.cluster.fake.url}/api/v1/nodes/worker-1/proxy/metrics passed 64 MiB after decompression; raise --max-body-size`,
			"  pleg-top stopped reading it there: a kubelet's /metrics is a few MB; something in the way may send without end",
		]);
	});

	test('raised to 128Mi, a 100 MiB gzipped body is read (and, being zeros, is no Prometheus text)', async () => {
		files.cluster.fake.setFault({type: 'gzip-bomb', mebibytes: 100}, {route: 'metrics'});
		const lines = await failingLines(once('--max-body-size', '128Mi'));
		// Read whole and handed to the parser, which names the first NUL byte.
		assert.equal(lines[0], 'pleg-top: metrics could not be parsed (line 1): binary response (NUL byte), not Prometheus text');
	});

	test('a size that is not one is a usage error', async () => {
		const result = await runCli(once('--max-body-size', '64MB'), {env: files.cluster.env});
		assert.equal(result.code, 2);
		assert.match(result.stderr, /--max-body-size must be a size such as 64Mi, 256Mi or 1Gi, not "64MB"/);
	});
});
