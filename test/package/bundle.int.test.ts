// The shipped bundle (scripts/build.mjs): each substitution is in effect in what esbuild builds, and nothing
// patches modules at run time.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import measureText, {cacheLimit, cacheSize} from '../../source/substitutes/ink-measure-text.js';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {cliPath} from '../helpers/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const buildScript = path.join(root, 'scripts', 'build.mjs');
type BuildModule = {
	bundleOptions(options: {entry?: string; outfile?: string}): Parameters<typeof build>[0];
	asciiOnly(code: string): string;
	substitutions: Array<{name: string}>;
	namesTaken(text: string, specifier: string): string[];
	onDemandNames: Record<string, string[]>;
};

describe('the bundle', () => {
	let temp: TempDir;
	let buildModule: BuildModule;

	before(async () => {
		temp = makeTempDir('pleg-top-bundle-');
		buildModule = (await import(buildScript)) as BuildModule;
	});

	after(() => {
		temp.remove();
	});

	/** Bundles `lines` (a .tsx entry) with the CLI's build options, runs it, and reads the JSON line it prints. */
	async function runProbe<T>(name: string, lines: string[], env?: NodeJS.ProcessEnv): Promise<T> {
		const entry = temp.write(`${name}.tsx`, lines.join('\n'));
		const outfile = path.join(temp.dir, `${name}.js`);
		await build({...buildModule.bundleOptions({entry, outfile}), absWorkingDir: root, nodePaths: [path.join(root, 'node_modules')]});
		return JSON.parse(execFileSync(process.execPath, [outfile], {encoding: 'utf8', env})) as T;
	}

	test('dist/cli.js holds no client-node generated API and registers no module hooks', () => {
		const bundle = readFileSync(cliPath, 'utf8');
		// CoreV1Api is the generated client for /api/v1; with the substitution only the two names config.js uses remain.
		assert.ok(/\bServerConfiguration = class\b/.test(bundle), 'the two names config.js uses are bundled');
		assert.ok(!bundle.includes('CoreV1Api'), 'the generated API is bundled');
		// ink's renderer and ink itself take the frame assembly and the terminal writer from source/substitutes.
		assert.ok(bundle.includes('// source/substitutes/ink-output.ts'), 'the frame assembly substitute is not bundled');
		assert.ok(bundle.includes('// source/substitutes/ink-log-update.ts'), 'the terminal writer substitute is not bundled');
		assert.ok(bundle.includes('// source/substitutes/ink-sanitize-ansi.ts'), 'the text sanitizer substitute is not bundled');
		assert.ok(bundle.includes('// source/substitutes/ink-widest-line.ts'), 'the per-frame width substitute is not bundled');
		assert.ok(bundle.includes('// source/substitutes/ink-throttle.ts'), 'the render pacing substitute is not bundled');
		assert.ok(!/\bregister\([^)]*hooks/.test(bundle), 'module hooks registered');
		const sources = spawnSync('grep', ['-rlE', 'module\\.register|from .node:module.', path.join(root, 'source')], {
			encoding: 'utf8',
		}).stdout.trim();
		// Only the bundle banner's createRequire import may name node:module; no source file does.
		assert.equal(sources, '');
	});

	test("client-node's proxy agents, fetch, JSONPath and OIDC client are in dist/client-node-extras.cjs, not in dist/cli.js", () => {
		const bundle = readFileSync(cliPath, 'utf8');
		const extras = readFileSync(path.join(path.dirname(cliPath), 'client-node-extras.cjs'), 'utf8');
		for (const module of [
			'tr46',
			'whatwg-url',
			'node-fetch',
			'socks',
			'socks-proxy-agent',
			'ip-address',
			'hpagent',
			'jsonpath-plus',
			'openid-client',
		]) {
			assert.ok(!bundle.includes(`// node_modules/${module}/`), `${module} is in dist/cli.js`);
			assert.ok(extras.includes(`// node_modules/${module}/`), `${module} is not in dist/client-node-extras.cjs`);
		}

		assert.ok(bundle.includes('// source/substitutes/client-node-on-demand.ts'), 'the stand-ins are not bundled');
		// The one require of the extras file, left for run time.
		assert.equal(bundle.match(/require\("\.\/client-node-extras\.cjs"\)/g)?.length, 1);
	});

	test('every name the build lets client-node take on demand has a stand-in, and the extras file has the real one', async () => {
		const standIns = (await import('../../source/substitutes/client-node-on-demand.js')) as Record<string, unknown>;
		const require = createRequire(import.meta.url);
		const extras = require(path.join(path.dirname(cliPath), 'client-node-extras.cjs')) as Record<string, unknown>;
		for (const [specifier, names] of Object.entries(buildModule.onDemandNames)) {
			for (const name of names) {
				assert.equal(typeof standIns[name], 'function', `no stand-in for ${name} of ${specifier}`);
				// The default export of node-fetch is fetch.
				assert.equal(typeof extras[name === 'default' ? 'fetch' : name], 'function', `the extras file lacks ${name} of ${specifier}`);
			}
		}
	});

	test("the build guard reads the names an importer takes: default, named, renamed and a namespace's reads", () => {
		const text = [
			"import fetch, {Headers, Request as R} from 'node-fetch';",
			"import * as oidc from 'openid-client';",
			"import {x} from 'node-fetch-other';",
			'await oidc.discovery(url); oidc.refreshTokenGrant(c, t);',
		].join('\n');
		assert.deepEqual(buildModule.namesTaken(text, 'node-fetch'), ['default', 'Headers', 'Request']);
		assert.deepEqual(buildModule.namesTaken(text, 'openid-client'), ['discovery', 'refreshTokenGrant']);
		assert.deepEqual(buildModule.namesTaken(text, 'hpagent'), []);
		// What the installed client-node takes, as the build checks it.
		const dist = path.join(root, 'node_modules', '@kubernetes', 'client-node', 'dist');
		const config = readFileSync(path.join(dist, 'config.js'), 'utf8');
		assert.deepEqual(buildModule.namesTaken(config, 'node-fetch'), ['Headers']);
		assert.deepEqual(buildModule.namesTaken(config, 'hpagent'), ['HttpProxyAgent', 'HttpsProxyAgent']);
		assert.deepEqual(buildModule.namesTaken(readFileSync(path.join(dist, 'oidc_auth.js'), 'utf8'), 'openid-client').sort(), [
			'discovery',
			'refreshTokenGrant',
		]);
	});

	test("ink's text cache stays bounded in a bundle built with the same options after 5,000 distinct texts", async () => {
		const answer = await runProbe<{size: number; limit: number}>('measure-probe', [
			"import React from 'react';",
			"import {renderToString, Text} from 'ink';",
			`import {cacheSize, cacheLimit} from ${JSON.stringify(path.join(root, 'source', 'substitutes', 'ink-measure-text.ts'))};`,
			'for (let index = 0; index < 5000; index++) renderToString(<Text>{`last seen ${index} s ago`}</Text>, {columns: 80});',
			'console.log(JSON.stringify({size: cacheSize(), limit: cacheLimit}));',
		]);
		// Non-zero: ink measured through the substitute (the same module the probe reads); bounded: the cache was cut.
		assert.ok(answer.size > 0, 'ink did not measure through the substitute');
		assert.ok(answer.size <= answer.limit, `${answer.size} texts cached, limit ${answer.limit}`);
	});

	test('in the bundle, a row too wide for its box is cut on its own: the rows after it stay whole', async () => {
		const frame = await runProbe<string>('wrap-probe', [
			"import React from 'react';",
			"import {Box, renderToString, Text} from 'ink';",
			"const text = ['first row', 'a row far too wide for a box of twenty columns', 'last row'].join('\\n');",
			'console.log(JSON.stringify(renderToString(<Box width={20}><Text wrap="truncate-end">{text}</Text></Box>, {columns: 80})));',
		]);
		assert.deepEqual(frame.split('\n'), ['first row', 'a row far too wide …', 'last row']);
	});

	test('in the bundle, ink leaves no timer behind a frame it drew at once, and a burst of renders still ends on the last', async () => {
		// ink draws only the last frame when it believes it runs in CI: the probe runs without CI's variables.
		const env = Object.fromEntries(
			Object.entries(process.env).filter(([key]) => key !== 'CI' && key !== 'CONTINUOUS_INTEGRATION' && !key.startsWith('CI_')),
		);
		const answer = await runProbe<{left: number[]; drewFrame3: boolean; endsOnBurstC: boolean}>(
			'pacing-probe',
			[
				"import React from 'react';",
				"import {EventEmitter} from 'node:events';",
				"import {setTimeout as sleep} from 'node:timers/promises';",
				"import {render, Text} from 'ink';",
				'const writes: string[] = [];',
				'const stdout = Object.assign(new EventEmitter(), {columns: 40, rows: 10, isTTY: true, write: (chunk: string) => writes.push(chunk) > 0});',
				"const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;",
				'const app = render(<Text>frame 0</Text>, {stdout: stdout as never, patchConsole: false, exitOnCtrlC: false});',
				'const left: number[] = [];',
				'for (let frame = 1; frame <= 3; frame++) {',
				'\tawait sleep(60);',
				'\tapp.rerender(<Text>frame {frame}</Text>);',
				'\tawait new Promise((resolve) => setImmediate(resolve));',
				'\tleft.push(timers());',
				'}',
				'await sleep(60);',
				"for (const frame of ['a', 'b', 'c']) app.rerender(<Text>burst {frame}</Text>);",
				'await sleep(100);',
				"const drawn = writes.join('');",
				'app.unmount();',
				"console.log(JSON.stringify({left, drewFrame3: drawn.includes('frame 3'), endsOnBurstC: drawn.lastIndexOf('burst c') > drawn.lastIndexOf('frame 3')}));",
			],
			env,
		);
		assert.deepEqual(answer, {left: [0, 0, 0], drewFrame3: true, endsOnBurstC: true});
	});

	test('the substitute measures as ink does', async () => {
		const inkMeasurePath = new URL('measure-text.js', import.meta.resolve('ink')).href;
		const {default: inkMeasure} = (await import(inkMeasurePath)) as {default: (text: string) => {width: number; height: number}};
		const samples = [
			'',
			'relist duration · window 10 s',
			'✓ PLEG is healthy\nsecond line',
			'\u001B[32m✓ ok\u001B[39m',
			'██████░░░ ╵1s',
			'日本語',
		];
		for (const text of samples) assert.deepEqual(measureText(text), inkMeasure(text), JSON.stringify(text));
		for (let index = 0; index < 3 * cacheLimit; index++) measureText(`last seen ${index} s ago`);
		assert.ok(cacheSize() <= cacheLimit, `${cacheSize()} cached texts`);
	});

	test('dist/cli.js is ASCII only, so V8 holds its source in one byte per character; the escapes mean the same', () => {
		const bundle = readFileSync(cliPath);
		assert.equal(
			bundle.findIndex((byte) => byte > 0x7f),
			-1,
		);
		// A regular expression keeps matching the character it named; a string keeps its value; a comment stays one.
		const escaped = buildModule.asciiOnly('const unit = /^(?:µs|ms)$/; const dot = "·"; // “quoted” §2.7\n');
		assert.equal(escaped, 'const unit = /^(?:\\u00b5s|ms)$/; const dot = "\\u00b7"; // \\u201cquoted\\u201d \\u00a72.7\n');
		const module = {unit: /x/, dot: ''};
		// eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the escaped text is what shows it still means the same
		new Function('module', `${escaped.replaceAll('const ', 'module.')}`)(module);
		assert.ok(module.unit.test('µs'));
		assert.equal(module.dot, '·');
	});

	test('each substitution is named', () => {
		assert.deepEqual(
			buildModule.substitutions.map((entry) => entry.name),
			[
				'client-node without its generated API',
				"client-node's rarely used dependencies, loaded on first use",
				"ink's text measurement with a bounded cache",
				'fast string widths for ink',
				"ink's frame assembly without a cell grid for plain rows",
				"ink's terminal writer, rewriting only changed rows at their place",
				"ink's text sanitizer passing colour-only rows through",
				"ink's per-frame text width from the measure cache",
				"ink's text wrapping row by row, with a bounded cache",
				"ink's render and write pacing without a timer after every frame",
				'ink without React DevTools',
			],
		);
	});
});
