import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {withFigures} from '../scripts/readme-figures.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README figure table is the one in source/core/definitions.ts (run scripts/readme-figures.ts --write)', () => {
	assert.equal(withFigures(readme), readme);
});

test('the Quick start gives the two commands: the demo and the tests', () => {
	const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5));
	assert.match(quickStart, /npm install && npx pleg-top --demo/);
	assert.match(quickStart, /npm install && npm test/);
});

test('.ci/run runs the same test command as the README', () => {
	const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
	assert.match(ci, /^npm ci\b/m);
	assert.match(ci, /^npm test$/m);
});
