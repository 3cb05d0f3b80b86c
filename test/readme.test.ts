import assert from 'node:assert/strict';
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {generatedBlocks, withBlock} from '../scripts/readme-figures.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)];

for (const block of generatedBlocks) {
	test(`the ${block.marker} table in ${block.file} is the one in source/domain/definitions.ts (run scripts/readme-figures.ts --write)`, () => {
		const text = read(block.file);
		assert.equal(withBlock(text, block), text);
	});
}

test('the Quick start gives the two commands: the demo and the tests', () => {
	const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5));
	assert.match(quickStart, /npm install && npx pleg-top --demo/);
	assert.match(quickStart, /npm install && npm test/);
});

test('the README stays a five-minute read: under 300 lines, the rest in docs/', () => {
	assert.ok(readme.split('\n').length < 300, `README.md has ${readme.split('\n').length} lines`);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');

test('every relative link in the README and docs/ reaches a file, and a heading where it names one', () => {
	const broken: string[] = [];
	for (const document of documents) {
		for (const [, target = ''] of read(document).matchAll(/\]\(((?!https?:|mailto:)[^)\s]+)\)/g)) {
			const [file = '', fragment] = target.split('#');
			const resolved = file === '' ? document : path.join(path.dirname(document), file);
			if (!existsSync(path.join(root, resolved))) {
				broken.push(`${document}: ${target} (no file)`);
				continue;
			}
			if (fragment === undefined || !resolved.endsWith('.md')) continue;
			const anchors = [...read(resolved).matchAll(/^#+ (.+)$/gm)].map(([, heading = '']) => anchor(heading));
			if (!anchors.includes(fragment)) broken.push(`${document}: ${target} (no heading)`);
		}
	}
	assert.deepEqual(broken, []);
});

test('.ci/run runs the same test command as the README', () => {
	const ci = read('.ci/run');
	assert.match(ci, /^npm ci\b/m);
	assert.match(ci, /^npm test$/m);
});
