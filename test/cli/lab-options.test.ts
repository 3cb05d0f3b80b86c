import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {parseLabOptions, parseLevels} from '../../source/cli/lab-options.js';
import {UsageError} from '../../source/cli/options.js';

describe('pleg-top lab options', () => {
	test('defaults, and the rest of the words go to the one-node run', () => {
		const mode = parseLabOptions(['worker-1', '--window', '20s', '--context', 'kind-pair']);
		assert.equal(mode.kind, 'lab');
		if (mode.kind !== 'lab') return;
		assert.deepEqual(mode.settings.levels, [12]);
		assert.equal(mode.settings.namespace, 'pleg-lab');
		assert.equal(mode.settings.holdSeconds, 20);
		assert.equal(mode.watch.backend.kind, 'api-server');
	});

	test('--demo asks no question: nothing is created in a real cluster, so it runs off a terminal too', () => {
		const mode = parseLabOptions(['--demo']);
		assert.equal(mode.kind, 'lab');
		if (mode.kind !== 'lab') return;
		assert.equal(mode.settings.yes, true);
		assert.equal(mode.settings.simulated, true);
		const real = parseLabOptions(['worker-1']);
		assert.equal(real.kind === 'lab' && real.settings.yes, false);
	});

	test('a sweep, the switches, and --demo', () => {
		const mode = parseLabOptions(['--demo', '--pods=0,12,50', '--yes', '--dry-run', '--tolerate-taints']);
		assert.ok(mode.kind === 'lab');
		assert.deepEqual(mode.settings.levels, [0, 12, 50]);
		assert.ok(mode.settings.yes && mode.settings.dryRun && mode.settings.tolerateTaints);
		assert.equal(mode.settings.node, 'demo-node');
	});

	test('bad input is said', () => {
		assert.throws(() => parseLevels('12,x'), UsageError);
		assert.throws(() => parseLevels('0'), /churns nothing/);
		assert.throws(() => parseLabOptions(['n', '--namespace', 'Bad_NS']), /DNS label/);
		assert.throws(() => parseLabOptions(['n', '--hold', '1s', '--window', '10s']), /at least one --window/);
		assert.throws(() => parseLabOptions(['--prometheus', 'https://p', 'n']), /one node, watched through the API server/);
		assert.throws(() => parseLabOptions(['n', '--pods', '0,5', '--cycles', '2']), /--cycles repeats/);
	});
});
