// Module resolution hooks for the test run (registered by shipped-renderer.mjs): when ink, or a package it draws
// with, imports a module that the bundle replaces, the test process gets the replacement too, from the one list
// scripts/build.mjs builds with (scripts/substitutions.mjs), guards included. So a frame a unit test reads was
// drawn by the renderer that ships, not by ink as installed.
import {fileURLToPath, pathToFileURL} from 'node:url';
import {substitutions, swapFor} from '../../scripts/substitutions.mjs';

const entries = substitutions.filter((entry) => entry.inTests !== 'never');
/** entry name -> the "importer-ending specifier" pairs swapped in this process, as the build counts them. */
const applied = new Map();

/** `port` answers any message with the pairs swapped so far (the hooks run on their own thread). */
export function initialize({port}) {
	port.on('message', () => {
		port.postMessage([...applied].map(([name, pairs]) => [name, [...pairs]]));
	});
	port.unref();
}

export async function resolve(specifier, context, nextResolve) {
	if (context.parentURL?.startsWith('file:')) {
		const swap = swapFor(entries, fileURLToPath(context.parentURL), specifier);
		if (swap) {
			if (!applied.has(swap.entry.name)) applied.set(swap.entry.name, new Set());
			applied.get(swap.entry.name).add(swap.pair);
			// On through the next resolver (tsx's), which marks the replacement as TypeScript for its loader.
			return nextResolve(pathToFileURL(swap.path).href, context);
		}
	}

	return nextResolve(specifier, context);
}
