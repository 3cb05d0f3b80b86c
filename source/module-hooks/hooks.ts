// Module resolve hooks (node:module register), installed before client-node and ink load.
// 1. When client-node's dist/config.js imports './gen/index.js', it
// gets client-node-gen.js instead, which exports the only two names config.js uses. pleg-top needs KubeConfig for auth and
// TLS, never the generated API clients, whose ~2,500 modules cost ~0.3 s of CPU at start-up and ~45 MiB of RSS
// (bench/README.md). The redirect is made only after reading config.js's import of gen/index.js and finding
// nothing but those names, so a client-node release that needs more loads the whole index as before.
// 2. ink's dom.js gets ink-measure-text.js, the same measurement with a bounded cache.
import fs from 'node:fs';
import type {ResolveHook} from 'node:module';

const slimGen = new URL('client-node-gen.js', import.meta.url).href;
const boundedMeasureText = new URL('ink-measure-text.js', import.meta.url).href;
const slimNames = new Set(['createConfiguration', 'ServerConfiguration']);
const checked = new Map<string, boolean>();

/** Whether `configUrl`'s imports from ./gen/index.js are all in slimNames. */
function importsOnlySlimNames(configUrl: string): boolean {
	let slim = checked.get(configUrl);
	if (slim === undefined) {
		try {
			const source = fs.readFileSync(new URL(configUrl), 'utf8');
			const imports = [...source.matchAll(/import\s*(\{[^}]*\}|[^;]*?)\s*from\s*['"]\.\/gen\/index\.js['"]/g)];
			slim = imports.length > 0 && imports.every(([, clause]) => /^\{[^}]*\}$/.test(clause!) && clause!.slice(1, -1).split(',').map(name => name.trim()).filter(Boolean).every(name => slimNames.has(name)));
		} catch {
			slim = false;
		}

		checked.set(configUrl, slim);
	}

	return slim;
}

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
	const parent = context.parentURL;
	if (specifier === './gen/index.js' && parent?.endsWith('/@kubernetes/client-node/dist/config.js') && importsOnlySlimNames(parent)) {
		return {url: slimGen, shortCircuit: true};
	}

	// ink's own text-size cache grows without bound (ink-measure-text.ts says why and by how much).
	if (specifier === './measure-text.js' && parent?.endsWith('/ink/build/dom.js')) {
		return {url: boundedMeasureText, shortCircuit: true};
	}

	return nextResolve(specifier, context);
};
