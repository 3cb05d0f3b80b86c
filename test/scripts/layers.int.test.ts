// The layer rules of eslint.config.js, as lint applies them: each folder of source/ may import only the folders
// docs/architecture.md names. Probes are linted as text at a path inside the folder (no file is written).
import assert from 'node:assert/strict';
import path from 'node:path';
import {test} from 'node:test';
import {ESLint} from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve('.');
// A probe is in no tsconfig (it is not on disk), so it is linted without the typed rules; the layer rules need no types.
const eslint = new ESLint({cwd: root, overrideConfig: tseslint.configs.disableTypeChecked});

async function refusal(file: string, specifier: string, name = 'thing'): Promise<string | null> {
	const text = `import {${name}} from '${specifier}';\nexport const probe = ${name};\n`;
	const [result] = await eslint.lintText(text, {filePath: path.join(root, file)});
	return result!.messages.find((message) => message.ruleId === 'no-restricted-imports')?.message ?? null;
}

test('each layer is refused what it may not import, with the reason and what it may', async () => {
	assert.match(
		(await refusal('source/domain/probe.ts', '../sources/failure.js'))!,
		/domain\/ is the pure core.*\(it may import no other layer\)$/,
	);
	assert.match((await refusal('source/screen/panes/probe.ts', '../../sources/api-server.js'))!, /\(it may import domain, engine\)$/);
	assert.match((await refusal('source/run/probe.ts', '../cli/options.js'))!, /run\/ wires the layers/);
	assert.match((await refusal('source/cli/probe.ts', '../run/live.js'))!, /cli\/ is pure/);
	assert.match((await refusal('source/sources/probe.ts', '../lab/recording.js'))!, /sources\/ is I\/O only/);
});

test('what a layer may import passes, and cli/ may reach the two contracts it fills in for run/', async () => {
	assert.equal(await refusal('source/screen/panes/probe.ts', '../../domain/format.js'), null);
	assert.equal(await refusal('source/lab/probe.ts', '../sources/failure.js'), null);
	assert.equal(await refusal('source/cli/probe.ts', '../run/mode.js'), null);
	assert.equal(await refusal('source/cli/probe.ts', '../run/complete-need.js'), null);
});

test('a pane test (test/screen/*.test.ts) reads its Line[] without ink or React; a .tsx test may draw a screen', async () => {
	assert.match((await refusal('test/screen/probe.test.ts', 'react', 'React'))!, /test\/helpers\/pane-rows\.ts/);
	assert.match((await refusal('test/screen/probe.test.ts', '../helpers/ui-frame.js', 'frameOf'))!, /test\/helpers\/pane-rows\.ts/);
	assert.match((await refusal('test/screen/probe.test.ts', 'ink-testing-library', 'render'))!, /test\/helpers\/pane-rows\.ts/);
	assert.equal(await refusal('test/screen/probe.test.tsx', '../helpers/ui-frame.js', 'frameOf'), null);
});
