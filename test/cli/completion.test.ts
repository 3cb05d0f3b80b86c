// What completion offers for the word being typed, decided from the words before it (pure).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {completionNeed} from '../../source/cli/completion.js';
import {completionAnswer, offerableNodeName} from '../../source/run/complete-need.js';

describe('completionNeed', () => {
	test('a word starting with - is a flag: every long flag with that start', () => {
		assert.deepEqual(completionNeed(['--con']), {kind: 'words', candidates: ['--context']});
		assert.deepEqual(completionNeed(['worker-1', '--no-']), {kind: 'words', candidates: ['--no-color', '--no-bell']});
	});

	test("after a flag that takes a value: that flag's values, files for a file flag, nothing for a free value", () => {
		assert.deepEqual(completionNeed(['-o', '']), {kind: 'words', candidates: ['text', 'json']});
		assert.deepEqual(completionNeed(['--output', 'j']), {kind: 'words', candidates: ['json']});
		assert.deepEqual(completionNeed(['--fail-on', 'c']), {kind: 'words', candidates: ['critical']});
		assert.deepEqual(completionNeed(['--kubeconfig', '']), {kind: 'files'});
		assert.deepEqual(completionNeed(['--replay', 'rec']), {kind: 'files'});
		assert.deepEqual(completionNeed(['--interval', '']), {kind: 'words', candidates: []});
	});

	test('a boolean flag takes no value: the next word is a node again', () => {
		assert.equal(completionNeed(['--once', 'w']).kind, 'nodes');
	});

	test('a node name, with the --kubeconfig, --context and --timeout typed so far (either spelling, the last one given)', () => {
		assert.deepEqual(completionNeed(['--context', 'prod', '--kubeconfig=/k/a', '--context=stage', '--timeout', '2s', 'wor']), {
			kind: 'nodes',
			prefix: 'wor',
			kubeconfig: '/k/a',
			context: 'stage',
			timeoutMs: 2000,
		});
		assert.deepEqual(completionNeed(['']), {kind: 'nodes', prefix: '', kubeconfig: undefined, context: undefined, timeoutMs: undefined});
	});

	test('the completion subcommand and its shells', () => {
		assert.deepEqual(completionNeed(['comp']), {kind: 'words', candidates: ['completion']});
		assert.deepEqual(completionNeed(['completion', '']), {kind: 'words', candidates: ['bash', 'zsh', 'fish']});
	});

	test("the lab subcommand: its own flags beside the live screen's, nothing for their values, then a node", () => {
		assert.deepEqual(completionNeed(['la']), {kind: 'words', candidates: ['lab']});
		assert.deepEqual(completionNeed(['lab', '--tol']), {kind: 'words', candidates: ['--tolerate-taints']});
		assert.deepEqual(completionNeed(['lab', '--p']), {
			kind: 'words',
			candidates: ['--pods', '--pending-timeout', '--plot', '--prometheus'],
		});
		assert.deepEqual(completionNeed(['lab', '--pods', '']), {kind: 'words', candidates: []});
		assert.deepEqual(completionNeed(['lab', '--yes', 'w']).kind, 'nodes');
		// Outside the lab its flags are not offered.
		assert.deepEqual(completionNeed(['--tol']), {kind: 'words', candidates: []});
	});
});

test('only DNS-subdomain node names are offered: a name with controls or spaces from a hostile server is not', () => {
	assert.equal(offerableNodeName('ip-10-0-1-5.eu-west-1.compute.internal'), true);
	assert.equal(offerableNodeName('evil\u001b]0;pwned\u0007'), false);
	assert.equal(offerableNodeName('two words'), false);
	assert.equal(offerableNodeName('-leading-dash'), false);
});

test("the answer is cobra's: a candidate a line, then :directive", () => {
	assert.equal(completionAnswer(['worker-1', 'worker-2'], 4), 'worker-1\nworker-2\n:4\n');
	assert.equal(completionAnswer([], 0), ':0\n');
});
