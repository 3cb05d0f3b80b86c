import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, test} from 'node:test';
import {resolve} from '../../source/slim-client-node/hooks.js';
import {createConfiguration, ServerConfiguration} from '../../source/slim-client-node/gen.js';

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
		assert.ok(answer.url.endsWith('/slim-client-node/gen.js'), answer.url);
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
