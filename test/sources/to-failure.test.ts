// toFailure for a request about no one node (the node list, a fleet's Prometheus queries): it names no node.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {toFailure} from '../../source/sources/to-failure.js';

describe('toFailure', () => {
	test('an unclassified error of a one-node source names the node', () => {
		const failure = toFailure(new Error('boom'), {label: 'worker-1 via https://api', node: 'worker-1'});
		assert.deepEqual(failure, {kind: 'http', summary: 'request for worker-1 failed: boom', details: ['from worker-1 via https://api']});
	});

	test('one of a request for every node names none (no sentinel node name), only where it went', () => {
		const fleet = {label: 'all nodes via https://api'};
		assert.deepEqual(toFailure(new Error('boom'), fleet), {
			kind: 'http',
			summary: 'request failed: boom',
			details: ['from all nodes via https://api'],
		});
		assert.equal(toFailure(new Error('boom'), {...fleet, node: null}).summary, 'request failed: boom');
	});
});
