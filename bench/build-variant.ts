// `node --import tsx bench/build-variant.ts --out DIR --without TEXT [--without TEXT …]`: DIR/cli.js built as
// `npm run build` builds dist/cli.js, less every substitution whose name contains one of the TEXTs, with
// dist/client-node-extras.cjs beside it (run `npm run build` first). For `npm run bench:ab -- --a DIR/cli.js`:
// what one substitution buys the live screen, both builds drawing side by side.
import fs from 'node:fs';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {build, type BuildOptions} from 'esbuild';
import {buildModule} from './frame-cost.js';

const {values} = parseArgs({options: {out: {type: 'string'}, without: {type: 'string', multiple: true, default: []}}});
if (!values.out || values.without.length === 0) throw new Error('usage: build-variant.ts --out DIR --without TEXT [--without TEXT …]');
const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(values.out);
const {substitutions, bundleOptions, asciiOnly} = (await buildModule()) as Awaited<ReturnType<typeof buildModule>> & {
	asciiOnly: (code: string) => string;
};
const dropped = substitutions.filter((entry) => values.without.some((text) => entry.name.includes(text)));
if (dropped.length !== values.without.length)
	throw new Error(`--without should name one substitution each; it named: ${dropped.map((entry) => entry.name).join('; ')}`);
const options: BuildOptions = bundleOptions({
	entry: path.join(root, 'source', 'main.ts'),
	outfile: path.join(out, 'cli.js'),
	entries: substitutions.filter((entry) => !dropped.includes(entry)),
});
fs.mkdirSync(out, {recursive: true});
const {outputFiles} = await build({...options, write: false, absWorkingDir: root});
for (const file of outputFiles) fs.writeFileSync(file.path, asciiOnly(file.text), {mode: 0o755});
fs.copyFileSync(path.join(root, 'dist', 'client-node-extras.cjs'), path.join(out, 'client-node-extras.cjs'));
process.stdout.write(`${path.join(out, 'cli.js')} without: ${dropped.map((entry) => entry.name).join('; ')}\n`);
