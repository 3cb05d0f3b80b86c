import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, test} from 'node:test';
import {resolve} from '../../source/module-hooks/hooks.js';
import {createConfiguration, ServerConfiguration} from '../../source/module-hooks/client-node-gen.js';
import measureText, {cacheLimit, cacheSize} from '../../source/module-hooks/ink-measure-text.js';

type Next = Parameters<typeof resolve>[2];
const passThrough: Next = async specifier => ({url: `next:${specifier}`});
const context = (parentURL: string): Parameters<typeof resolve>[1] => ({parentURL, conditions: [], importAttributes: {}, importAssertions: {}});

/** A fake client-node dist/config.js with this import line, in a temp tree shaped like node_modules. */
function fakeConfig(importLine: string): string {
	const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-slim-')), 'node_modules', '@kubernetes', 'client-node', 'dist');
	fs.mkdirSync(dir, {recursive: true});
	const file = path.join(dir, 'config.js');
	fs.writeFileSync(file, `${importLine}\nexport class KubeConfig {}\n`);
	return pathToFileURL(file).href;
}

describe('slim client-node resolve hook', () => {
	test('the installed config.js gets gen.js for ./gen/index.js', async () => {
		const config = import.meta.resolve('@kubernetes/client-node/dist/config.js');
		const answer = await resolve('./gen/index.js', context(config), passThrough);
		assert.ok(answer.url.endsWith('/module-hooks/client-node-gen.js'), answer.url);
		assert.equal(answer.shortCircuit, true);
	});

	test('a config.js that takes any other name from gen/index.js loads the whole index', async () => {
		const config = fakeConfig("import { createConfiguration, ServerConfiguration, V1Status } from './gen/index.js';");
		const answer = await resolve('./gen/index.js', context(config), passThrough);
		assert.equal(answer.url, 'next:./gen/index.js');
	});

	test('a namespace import of gen/index.js loads the whole index', async () => {
		const config = fakeConfig("import * as gen from './gen/index.js';");
		const answer = await resolve('./gen/index.js', context(config), passThrough);
		assert.equal(answer.url, 'next:./gen/index.js');
	});

	test('other importers and specifiers are untouched', async () => {
		const config = import.meta.resolve('@kubernetes/client-node/dist/config.js');
		assert.equal((await resolve('./gen/index.js', context(config.replace('config.js', 'api.js')), passThrough)).url, 'next:./gen/index.js');
		assert.equal((await resolve('./config_types.js', context(config), passThrough)).url, 'next:./config_types.js');
	});

	test('gen.js exports the two names config.js uses', () => {
		assert.equal(typeof createConfiguration, 'function');
		const server = new ServerConfiguration('https://10.0.0.1:6443', {});
		assert.equal(server.makeRequestContext('/api/v1/nodes', 'GET' as never).getUrl(), 'https://10.0.0.1:6443/api/v1/nodes');
	});
});

describe("ink's measure-text, bounded", () => {
	const inkDom = new URL('dom.js', import.meta.resolve('ink')).href;

	test("ink's installed dom.js gets ink-measure-text.js; other importers of a measure-text.js do not", async () => {
		const answer = await resolve('./measure-text.js', context(inkDom), passThrough);
		assert.ok(answer.url.endsWith('/module-hooks/ink-measure-text.js'), answer.url);
		const other = await resolve('./measure-text.js', context('file:///somewhere/else/dom.js'), passThrough);
		assert.equal(other.url, 'next:./measure-text.js');
	});

	test("measures as ink's own does, and never holds more than cacheLimit texts", async () => {
		const {default: inkMeasure} = (await import(new URL('measure-text.js', inkDom).href)) as {default: (text: string) => {width: number; height: number}};
		const samples = ['', 'relist duration · window 10 s', '✓ PLEG is healthy\nsecond line', '\u001B[32m✓ ok\u001B[39m', '██████░░░ ╵1s', '日本語'];
		for (const text of samples) assert.deepEqual(measureText(text), inkMeasure(text), JSON.stringify(text));
		for (let index = 0; index < 3 * cacheLimit; index++) measureText(`last seen ${index} s ago`);
		assert.ok(cacheSize() <= cacheLimit, `${cacheSize()} cached texts`);
		assert.ok(cacheSize() > 0);
	});
});
