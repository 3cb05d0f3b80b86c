// The one door to ink's renderer for the tests: ink loaded with the modules the bundle swaps into it
// (scripts/substitutions.mjs, applied by shipped-renderer.mjs), so a frame a test reads is drawn as dist/cli.js
// draws it. Loaded without those hooks, it refuses: a frame from ink as installed would pass or fail for reasons
// the shipped screen does not have (lint sends every render of the tests through here).

type ShippedRenderer = {swapsTaken(): Promise<Map<string, Set<string>>>};

const shipped = (globalThis as Record<symbol, ShippedRenderer | undefined>)[Symbol.for('pleg-top.shipped-renderer')];
if (shipped === undefined) {
	throw new Error(
		'the UI tests draw with the renderer that ships: run them as node --import tsx --import ./test/helpers/shipped-renderer.mjs --test FILE (npm run test:unit does)',
	);
}

/** entry name -> the "importer-ending specifier" pairs the test process swapped so far (untakenSwaps reads it). */
export const swapsTaken = async (): Promise<Map<string, Set<string>>> => shipped.swapsTaken();

export {render} from 'ink-testing-library';
export {render as renderInk} from 'ink';
