// `node --import tsx --import ./test/helpers/shipped-renderer.mjs --test FILE` (scripts/run-tests.mjs passes it to
// every test process): ink is then loaded with the modules the bundle swaps into it (shipped-renderer-hooks.mjs).
// Hooks take effect only for modules resolved after they are registered, and a test file's static imports are all
// resolved before any of its code runs, hence a flag of the command line and not an import of the tests.
import {register} from 'node:module';
import {MessageChannel} from 'node:worker_threads';

const {port1, port2} = new MessageChannel();
port1.unref();
register('./shipped-renderer-hooks.mjs', import.meta.url, {data: {port: port2}, transferList: [port2]});

/** What test/helpers/render.ts reads: the hooks are in place, and which pairs they swapped so far. */
globalThis[Symbol.for('pleg-top.shipped-renderer')] = {
	/** entry name -> the "importer-ending specifier" pairs swapped so far in this process. */
	async swapsTaken() {
		port1.ref();
		try {
			const [pairs] = await new Promise((resolve) => {
				port1.once('message', (message) => resolve([message]));
				port1.postMessage('taken');
			});
			return new Map(pairs.map(([name, taken]) => [name, new Set(taken)]));
		} finally {
			port1.unref();
		}
	},
};
