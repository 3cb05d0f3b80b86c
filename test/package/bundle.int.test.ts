// The shipped bundle (scripts/build.mjs): the patched dependencies (patches/) are what esbuild bundles, since they
// are what is installed, and nothing patches modules at run time.
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {build} from 'esbuild';
import {makeTempDir, type TempDir} from '../helpers/kubeconfig-files.js';
import {cliPath} from '../helpers/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const buildScript = path.join(root, 'scripts', 'build.mjs');
type BuildModule = {
	bundleOptions(options: {entry?: string; outfile?: string}): Parameters<typeof build>[0];
	asciiOnly(code: string): string;
};
const inkFile = (name: string) => pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.resolve('ink'))), name)).href;

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

	test('dist/cli.js holds no client-node generated API, the patched ink and string-width, and registers no module hooks', () => {
		const bundle = readFileSync(cliPath, 'utf8');
		// CoreV1Api is the generated client for /api/v1; with the patch only the two names config.js uses remain.
		assert.ok(/\bServerConfiguration = class\b/.test(bundle), 'the two names config.js uses are bundled');
		assert.ok(!bundle.includes('CoreV1Api'), 'the generated API is bundled');
		// What the patches add to ink and string-width, as installed: the bundle takes them by the packages' names.
		for (const mark of [
			'GridOutput = class',
			'createAbsolute = (',
			'sanitizeTokens = (',
			'function exactStringWidth(',
			'// node_modules/ink/build/throttle.js',
		]) {
			assert.ok(bundle.includes(mark), `the bundle lacks ${mark}`);
		}
		assert.ok(!bundle.includes('// node_modules/es-toolkit/'), "es-toolkit's throttle is bundled");
		assert.ok(!/\bregister\([^)]*hooks/.test(bundle), 'module hooks registered');
		const named = 'module\\.register|from .node:module.|node_modules|client-node/';
		const sources = spawnSync('grep', ['-rlE', named, path.join(root, 'source')], {encoding: 'utf8'}).stdout.trim();
		// Only the bundle banner's createRequire import may name node:module; no source file does, nor node_modules, nor
		// a module inside client-node (its name alone: the build's alias picks the module).
		assert.equal(sources, '');
	});

	test('dist/cli.js carries parse-prometheus-text-format, which names the families of a body without PLEG series', () => {
		// Shipped, not only a test oracle: NoPlegSeriesError's "it holds other series, e.g. …" is read through it (readFamilies).
		assert.ok(readFileSync(cliPath, 'utf8').includes('// node_modules/parse-prometheus-text-format/'));
	});

	test("ink's text cache stays bounded in a bundle built with the same options after 5,000 distinct texts", async () => {
		const answer = await runProbe<{size: number; limit: number}>('measure-probe', [
			"import React from 'react';",
			"import {renderToString, Text} from 'ink';",
			`import {cacheSize, cacheLimit} from ${JSON.stringify(fileURLToPath(inkFile('measure-text.js')))};`,
			'for (let index = 0; index < 5000; index++) renderToString(<Text>{`last seen ${index} s ago`}</Text>, {columns: 80});',
			'console.log(JSON.stringify({size: cacheSize(), limit: cacheLimit}));',
		]);
		// Non-zero: ink measured through the patched module (the one the probe reads); bounded: the cache was cut.
		assert.ok(answer.size > 0, 'ink did not measure through the patched cache');
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
});
