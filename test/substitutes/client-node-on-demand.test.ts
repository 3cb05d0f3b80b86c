// The stand-ins of source/substitutes/client-node-on-demand.ts: nothing is loaded until first use, then they behave
// as the real function or class (the bundle's proxy-url run is in test/integration/proxy-url.test.ts).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {onDemand} from '../../source/substitutes/client-node-on-demand.js';

class Agent {
	static kind = 'agent';
	readonly proxy: string;

	constructor(options: {proxy: string}) {
		this.proxy = options.proxy;
	}

	describe(): string {
		return `through ${this.proxy}`;
	}
}

describe('onDemand', () => {
	test('loads on first use only, once: a class stand-in makes instances of the real class', () => {
		let loads = 0;
		const StandIn = onDemand(() => {
			loads++;
			return Agent;
		});
		assert.equal(loads, 0);
		const agent = new StandIn({proxy: 'http://127.0.0.1:3128'});
		assert.equal(loads, 1);
		assert.ok(agent instanceof Agent);
		assert.ok(agent instanceof StandIn);
		assert.equal(agent.describe(), 'through http://127.0.0.1:3128');
		assert.equal(StandIn.kind, 'agent');
		assert.equal(new StandIn({proxy: 'socks5://127.0.0.1:1080'}).proxy, 'socks5://127.0.0.1:1080');
		assert.equal(loads, 1);
	});

	test('a function stand-in passes its arguments and `this`, and returns what the real one returns', () => {
		let loads = 0;
		const pick = onDemand(() => {
			loads++;
			return function (this: {scale: number} | void, options: {path: string; json: Record<string, number>}) {
				return [options.json[options.path.slice(2)]! * (this?.scale ?? 1)];
			};
		});
		assert.equal(loads, 0);
		assert.deepEqual(pick({path: '$.token', json: {token: 7}}), [7]);
		assert.deepEqual(pick.call({scale: 3}, {path: '$.token', json: {token: 7}}), [21]);
		assert.equal(loads, 1);
	});

	test('a loader that fails fails the use, not the start, and is tried again on the next use', () => {
		let loads = 0;
		const missing = onDemand((): (() => string) => {
			loads++;
			throw new Error("Cannot find module './client-node-extras.cjs'");
		});
		assert.equal(loads, 0);
		assert.throws(() => missing(), /client-node-extras/);
		assert.throws(() => missing(), /client-node-extras/);
		assert.equal(loads, 2);
	});
});
