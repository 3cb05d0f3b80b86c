import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parseDuration, parseOptions, UsageError} from '../source/cli/options.js';

describe('parseDuration', () => {
	test('reads the units people write', () => {
		assert.equal(parseDuration('100ms'), 100);
		assert.equal(parseDuration('2s'), 2000);
		assert.equal(parseDuration('1m'), 60_000);
		assert.equal(parseDuration('1m30s'), 90_000);
		assert.equal(parseDuration('1.5s'), 1500);
	});

	test('rejects what is not a duration, naming the accepted forms', () => {
		for (const bad of ['', '10', 's', '1x', '1s junk', '-1s']) {
			assert.throws(() => parseDuration(bad), (error: unknown) => error instanceof UsageError && /100ms, 2s, 1m/.test(error.message), bad);
		}
	});
});

describe('parseOptions', () => {
	test('defaults: 1 s interval, 10 s timeout, 10 s window, text output, colour on', () => {
		const options = parseOptions(['--node', 'worker-1']);
		assert.equal(options.node, 'worker-1');
		assert.equal(options.intervalMs, 1000);
		assert.equal(options.timeoutMs, 10_000);
		assert.equal(options.windowSeconds, 10);
		assert.equal(options.output, 'text');
		assert.equal(options.once, false);
		assert.equal(options.color, true);
	});

	test('no --node means the cluster overview; --demo and --help need none', () => {
		assert.equal(parseOptions([]).node, undefined);
		assert.equal(parseOptions(['--demo']).demo, true);
		assert.equal(parseOptions(['--help']).help, true);
	});

	test('one backend at a time, and no kubeconfig for demo or replay', () => {
		assert.throws(() => parseOptions(['--demo', '--replay', 'x.ndjson']), /--demo and --replay each choose where the metrics come from/);
		assert.throws(() => parseOptions(['--replay', 'x.ndjson', '--context', 'prod']), /--replay reads no kubeconfig/);
		assert.throws(() => parseOptions(['--node', 'n', '--kubelet-url', 'ftp://h']), /must start with https:\/\//);
		assert.throws(() => parseOptions(['--node', 'n', '--plot', 'out.png']), /--plot writes SVG/);
		assert.throws(() => parseOptions(['--max-inflight', '0']), /--max-inflight must be a number above 0/);
		const direct = parseOptions(['--node', 'n', '--kubelet-url', 'https://10.0.0.5:10250', '--token-file', 't', '--kubelet-ca', 'ca.crt']);
		assert.deepEqual([direct.kubeletUrl, direct.tokenFile, direct.kubeletCa, direct.maxInflight, direct.maxRps], ['https://10.0.0.5:10250', 't', 'ca.crt', 8, 20]);
	});

	test('-o json, --once, --window and --interval', () => {
		const options = parseOptions(['--node', 'n', '--once', '-o', 'json', '--window', '30s', '--interval', '500ms']);
		assert.deepEqual([options.once, options.output, options.windowSeconds, options.intervalMs], [true, 'json', 30, 500]);
	});

	test('usage errors say what to write instead', () => {
		assert.throws(() => parseOptions(['--node', 'n', '-o', 'yaml']), /--output must be text or json, not "yaml"/);
		assert.throws(() => parseOptions(['--node', 'n', '--interval', '10ms']), /at least 100ms/);
		assert.throws(() => parseOptions(['--node', 'n', '--window', '1s']), /at least two scrapes/);
		assert.throws(() => parseOptions(['--node', 'n', '--bogus']), UsageError);
		assert.throws(() => parseOptions(['--demo', '--demo-speed', 'fast']), /--demo-speed/);
		assert.throws(() => parseOptions(['--demo', '--context', 'prod']), /--demo reads no kubeconfig/);
	});

	test('NO_COLOR (non-empty) and --no-color turn colour off', () => {
		assert.equal(parseOptions(['--demo'], {NO_COLOR: '1'}).color, false);
		assert.equal(parseOptions(['--demo'], {NO_COLOR: ''}).color, true);
		assert.equal(parseOptions(['--demo', '--no-color']).color, false);
	});
});
