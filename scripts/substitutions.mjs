// The one list of modules pleg-top replaces inside its dependencies, read by scripts/build.mjs (the shipped bundle)
// and by test/helpers/shipped-renderer-hooks.mjs (the unit tests' module resolution), so the renderer the tests
// draw with and the one that ships cannot drift apart. Each entry says why, the upstream report, and when to drop it.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const substitutesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'source', 'substitutes');

/** For a guard: which of `needles` the module `file` beside the importer no longer holds, as one message (null: all). */
function siblingLacks(importerPath, file, needles) {
	const sibling = readFileSync(path.join(path.dirname(importerPath), file), 'utf8');
	const missing = needles.filter((needle) => !sibling.includes(needle));
	return missing.length === 0 ? null : `${file} no longer has ${missing.join(', ')}`;
}

/**
 * The names a module's text takes from `specifier`: 'default', the named imports, and for a namespace import every
 * `ns.name` it reads. A form this does not read (a dynamic import, a re-export) gives no names.
 */
export function namesTaken(text, specifier) {
	const quoted = specifier.replaceAll('/', '\\/').replaceAll('.', '\\.');
	const names = [];
	for (const [, clause] of text.matchAll(new RegExp(`import\\s+([^;]*?)\\s+from\\s*['"]${quoted}['"]`, 'g'))) {
		for (const part of clause.split(/,(?![^{]*\})/).map((piece) => piece.trim())) {
			const namespace = /^\*\s+as\s+([\w$]+)$/.exec(part);
			if (namespace) {
				for (const [, name] of text.matchAll(new RegExp(`\\b${namespace[1]}\\.([\\w$]+)`, 'g'))) names.push(name);
			} else if (part.startsWith('{')) {
				names.push(
					...part
						.slice(1, -1)
						.split(',')
						.map((name) => name.trim().split(/\s+as\s+/)[0])
						.filter(Boolean),
				);
			} else if (part) {
				names.push('default');
			}
		}
	}

	return [...new Set(names)];
}

/** What client-node takes from each package it loads on demand: the names source/substitutes/client-node-on-demand.ts stands in for. */
export const onDemandNames = {
	'node-fetch': ['Headers', 'default'],
	'socks-proxy-agent': ['SocksProxyAgent'],
	hpagent: ['HttpProxyAgent', 'HttpsProxyAgent'],
	'jsonpath-plus': ['JSONPath'],
	'openid-client': ['discovery', 'refreshTokenGrant'],
};

/**
 * A substitution: when `importer` (a path inside node_modules, matched by its ending; or a list) imports `specifier`
 * (or one of a list), the bundle gets `replacement` (a file in source/substitutes) instead. `guard` reads the
 * importer's own text (and is told the specifier) and refuses the build when the reason for the substitution no
 * longer holds, so an upgrade cannot silently break it. `inTests` is how the unit tests' module resolution
 * (test/helpers/shipped-renderer-hooks.mjs) takes it: 'required' (swapped, and test/screen/shipped-renderer.test.tsx
 * fails unless it took once ink is loaded), 'if loaded' (swapped if ever imported) or 'never' (the comment says why).
 */
export const substitutions = [
	{
		name: 'client-node without its generated API',
		// pleg-top uses KubeConfig for auth and TLS, never the ~2,500 generated API and model modules, which
		// cost ~0.3 s of start-up and ~45 MiB of RSS. config.js takes only two names from gen/index.js.
		// Drop when client-node stops importing gen/index.js from config.js
		// (kubernetes-client/javascript: config.ts imports createConfiguration/ServerConfiguration).
		importer: '/@kubernetes/client-node/dist/config.js',
		specifier: './gen/index.js',
		replacement: 'client-node-gen.ts',
		// Tests of sources/ take client-node as installed; every CLI test runs the bundle, where this swap is required.
		inTests: 'never',
		guard(text) {
			const names = namesTaken(text, './gen/index.js');
			const unexpected = names.filter((name) => !['createConfiguration', 'ServerConfiguration'].includes(name));
			return names.length > 0 && unexpected.length === 0
				? null
				: `config.js now takes ${unexpected.join(', ') || 'nothing'} from ./gen/index.js`;
		},
	},
	{
		name: "client-node's rarely used dependencies, loaded on first use",
		// config.js and its auth modules import node-fetch (whatwg-url, tr46), socks-proxy-agent (socks, ip-address),
		// hpagent, jsonpath-plus and openid-client, which pleg-top needs only for a proxy-url or an OIDC, Azure or GCP
		// auth provider; imported as written they are evaluated at start and hold 3.7 MB of live heap for good. The
		// substitute loads each on its first call (source/substitutes/client-node-on-demand.ts). Drop if client-node
		// loads them lazily itself.
		importer: ['config.js', 'gen/http/isomorphic-fetch.js', 'oidc_auth.js', 'azure_auth.js', 'gcp_auth.js'].map(
			(file) => `/@kubernetes/client-node/dist/${file}`,
		),
		specifier: Object.keys(onDemandNames),
		replacement: 'client-node-on-demand.ts',
		// The substitute reads dist/client-node-extras.cjs beside the bundle, which a test run from source/ has not.
		inTests: 'never',
		guard(text, _importerPath, specifier) {
			const taken = namesTaken(text, specifier);
			const unknown = taken.filter((name) => !onDemandNames[specifier].includes(name));
			if (taken.length === 0) return `no longer imports anything from ${specifier} as this guard reads it`;
			return unknown.length === 0 ? null : `now takes ${unknown.join(', ')} from ${specifier}`;
		},
	},
	{
		name: "ink's text measurement with a bounded cache",
		// ink keeps the size of every text it ever measured in a module-level Map that is never emptied: a screen
		// whose figures change every second grows by ~3 MiB an hour. The substitute measures the same way and
		// drops the cache whole past 2,000 texts. Drop when ink bounds its cache (vadimdemedes/ink measure-text.ts).
		importer: '/ink/build/dom.js',
		specifier: './measure-text.js',
		replacement: 'ink-measure-text.ts',
		inTests: 'required',
		guard(text) {
			return /import measureText from '\.\/measure-text\.js'/.test(text) ? null : 'dom.js no longer imports measure-text.js as before';
		},
	},
	{
		name: 'fast string widths for ink',
		// string-width segments graphemes and runs an emoji regex on every row ink lays out, wraps or truncates;
		// fast-string-width gives the same widths for every glyph pleg-top draws at about a twentieth of the cost
		// (source/substitutes/string-width.ts). Drop if string-width becomes as fast.
		importer: ['/ink/build/output.js', '/widest-line/index.js', '/cli-truncate/index.js', '/wrap-ansi/index.js'],
		specifier: 'string-width',
		replacement: 'string-width.ts',
		inTests: 'required',
		guard(text) {
			return /import stringWidth from 'string-width'/.test(text) ? null : "no longer imports string-width's default export";
		},
	},
	{
		name: "ink's frame assembly without a cell grid for plain rows",
		// ink tokenises every row of every frame into styled cells and re-encodes them: ~40 % of pleg-top's CPU per
		// tick (npm run bench:profile). The substitute joins rows of narrow glyphs and colour codes as they are and
		// hands any other frame to ink's own Output (source/substitutes/ink-output.ts). Drop if ink stops building
		// a cell grid for rows it can place whole.
		importer: '/ink/build/renderer.js',
		specifier: './output.js',
		replacement: 'ink-output.ts',
		inTests: 'required',
		guard(text, importerPath) {
			if (!/import Output from '\.\/output\.js'/.test(text)) return 'renderer.js no longer imports Output from output.js';
			return siblingLacks(importerPath, 'output.js', ['write(x, y, text, options)', 'clip(clip)', 'unclip()', 'get()']);
		},
	},
	{
		name: "ink's terminal writer, rewriting only changed rows at their place",
		// ink rewrites every row of every frame (~3.3 KB a tick at 120×40); its incrementalRendering option drifts a
		// row down per frame in ink 6.8 (the cursor goes up one row too few after a frame ending in a newline). pleg-top
		// draws with ink only in the alternate screen from the top-left corner, so the substitute writes each changed
		// row at its absolute position (source/substitutes/ink-log-update.ts). Drop when ink's incremental writer keeps
		// its place across frames.
		importer: '/ink/build/ink.js',
		specifier: './log-update.js',
		replacement: 'ink-log-update.ts',
		inTests: 'required',
		guard(text) {
			const used = [
				'this.log.clear()',
				'this.log.done()',
				'this.log.sync(',
				'this.log.isCursorDirty()',
				'this.log.willRender(',
				'this.log.setCursorPosition(',
			];
			if (!/import logUpdate from '\.\/log-update\.js'/.test(text)) return 'ink.js no longer imports logUpdate from log-update.js';
			if (!/logUpdate\.create\(options\.stdout, \{/.test(text))
				return 'ink.js no longer creates its writer with logUpdate.create(stdout, {…})';
			const extra = [...new Set(text.match(/this\.log\.\w+/g))].filter((call) => !used.some((known) => known.startsWith(`${call}`)));
			return extra.length === 0 ? null : `ink.js now calls ${extra.join(', ')} on its writer`;
		},
	},
	{
		name: "ink's text sanitizer passing colour-only rows through",
		// ink tokenises every text holding an escape sequence on every frame to strip cursor movement, then returns
		// pleg-top's colour-only rows unchanged (0.16 ms a frame). The substitute returns a text whose only escape
		// sequences are the SGR ones ink keeps as it is, and hands any other text to ink's sanitizer
		// (source/substitutes/ink-sanitize-ansi.ts). Drop if ink skips the tokenizer for SGR-only text.
		importer: '/ink/build/squash-text-nodes.js',
		specifier: './sanitize-ansi.js',
		replacement: 'ink-sanitize-ansi.ts',
		inTests: 'required',
		guard(text, importerPath) {
			if (!/import sanitizeAnsi from '\.\/sanitize-ansi\.js'/.test(text)) return 'squash-text-nodes.js no longer imports sanitize-ansi.js';
			// What the fast path assumes ink keeps: text, OSC, and CSI sequences ending in m with [\d:;]* parameters.
			return siblingLacks(importerPath, 'sanitize-ansi.js', [
				"token.type === 'text' || token.type === 'osc'",
				"token.finalCharacter === 'm'",
				'const sgrParametersRegex = /^[\\d:;]*$/;',
			]);
		},
	},
	{
		name: "ink's per-frame text width from the measure cache",
		// ink computes widest-line of every text on every frame to decide whether to wrap it, though yoga measured
		// the same string (through the bounded cache above) when it laid it out: 0.11 ms a frame. Drop with the
		// measure-text substitution, or when ink reuses the measured width.
		importer: '/ink/build/render-node-to-output.js',
		specifier: 'widest-line',
		replacement: 'ink-widest-line.ts',
		inTests: 'required',
		guard(text) {
			return /import widestLine from 'widest-line'/.test(text) && /const currentWidth = widestLine\(text\)/.test(text)
				? null
				: 'render-node-to-output.js no longer measures texts with widestLine(text)';
		},
	},
	{
		name: "ink's text wrapping row by row, with a bounded cache",
		// ink truncates a <Text> of several rows as one string (a row too wide would cut the rows after it), and
		// keeps every text it ever wrapped in an object never emptied. pleg-top draws each pane as one <Text> of
		// several rows; the substitute truncates each row that is too wide on its own and bounds its cache
		// (source/substitutes/ink-wrap-text.ts). Drop when ink truncates row by row and bounds its cache.
		importer: ['/ink/build/dom.js', '/ink/build/render-node-to-output.js'],
		specifier: './wrap-text.js',
		replacement: 'ink-wrap-text.ts',
		inTests: 'required',
		guard(text, importerPath) {
			if (!/import wrapText from '\.\/wrap-text\.js'/.test(text)) return 'no longer imports wrapText from wrap-text.js';
			return siblingLacks(importerPath, 'wrap-text.js', [
				"if (wrapType === 'wrap') {",
				'wrappedText = cliTruncate(text, maxWidth, { position });',
				"if (wrapType === 'truncate-middle') {",
				"if (wrapType === 'truncate-start') {",
			]);
		},
	},
	{
		name: "ink's render and write pacing without a timer after every frame",
		// es-toolkit's throttle arms a timer on every call, even one it runs at once: two wake-ups of the idle
		// process after every frame (ink's render window and its writer's 0 ms one), ~0.3 ms of CPU a tick on the
		// 2-core VM. The substitute paces the same way and arms a timer only when a call waits
		// (source/substitutes/ink-throttle.ts). Drop if es-toolkit's throttle stops arming a timer for a call it runs.
		importer: '/ink/build/ink.js',
		specifier: 'es-toolkit/compat',
		replacement: 'ink-throttle.ts',
		inTests: 'required',
		guard(text, _importerPath, specifier) {
			const taken = namesTaken(text, specifier);
			if (taken.length !== 1 || taken[0] !== 'throttle') return `ink.js now takes ${taken.join(', ') || 'nothing'} from ${specifier}`;
			const calls = text.match(/\bthrottle\(/g)?.length ?? 0;
			const bothEdges = text.match(/\{\s*leading: true,\s*trailing: true,?\s*\}\)/g)?.length ?? 0;
			return calls === bothEdges ? null : 'ink.js now throttles without asking for both leading and trailing calls';
		},
	},
	{
		name: 'ink without React DevTools',
		// ink imports ./devtools.js (which imports react-devtools-core, not a dependency) only when DEV=true;
		// bundled, that import would run at start and fail. Drop when ink stops importing devtools.js.
		importer: '/ink/build/reconciler.js',
		specifier: './devtools.js',
		replacement: 'ink-devtools.ts',
		// Swapped as in the bundle, but ink asks for devtools.js only under DEV=true, so a test run may never import it.
		inTests: 'if loaded',
		guard(text) {
			return /isDev\(\)[\s\S]{0,80}import\('\.\/devtools\.js'\)/.test(text)
				? null
				: 'reconciler.js no longer loads devtools.js only under DEV=true';
		},
	},
];

/**
 * Every (importer, specifier) pair a substitution names that the build did not swap, as one message (null: all took).
 * A pair that never resolves is as much a broken substitution as a failed guard: an importer that now reaches the
 * module through a re-export, or a specifier renamed, would otherwise ship the original module without a word.
 * `expected` lists the pairs each entry must swap; an entry without it must swap each importer and each specifier once.
 */
export function untakenSwaps(entries, applied) {
	const missing = [];
	for (const entry of entries) {
		const taken = applied.get(entry.name) ?? new Set();
		const importers = [entry.importer].flat();
		const specifiers = [entry.specifier].flat();
		const lacking = [
			...importers.filter((importer) => ![...taken].some((pair) => pair.startsWith(`${importer} `))),
			...specifiers.filter((specifier) => ![...taken].some((pair) => pair.endsWith(` ${specifier}`))),
		];
		if (lacking.length > 0) missing.push(`"${entry.name}" never swapped ${lacking.join(', ')}`);
	}
	return missing.length === 0 ? null : `substitutions that did not apply: ${missing.join('; ')}; revisit scripts/substitutions.mjs`;
}

/**
 * The substitution `entries` make of `specifier` imported by the module at `importerPath`: the entry, the importer
 * ending it matched (for untakenSwaps) and the replacement's path; undefined when none names the pair. Runs the
 * entry's guard first and throws its refusal, so the build and the tests refuse the same upgrades.
 */
export function swapFor(entries, importerPath, specifier) {
	const importer = importerPath.replaceAll('\\', '/');
	for (const entry of entries) {
		if (![entry.specifier].flat().includes(specifier)) continue;
		const ending = [entry.importer].flat().find((candidate) => importer.endsWith(candidate));
		if (ending === undefined) continue;
		const problem = entry.guard(readFileSync(importerPath, 'utf8'), importerPath, specifier);
		if (problem) throw new Error(`substitution "${entry.name}": ${problem}; revisit scripts/substitutions.mjs`);
		return {entry, pair: `${ending} ${specifier}`, path: path.join(substitutesDir, entry.replacement)};
	}

	return undefined;
}
