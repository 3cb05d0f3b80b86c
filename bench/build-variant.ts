// `node --import tsx bench/build-variant.ts --out DIR --without TEXT [--without TEXT …]`: DIR/cli.js built as
// `npm run build` builds dist/cli.js, less every patch under patches/ whose file name contains one of the TEXTs
// (bench/patch-variant.ts). For `npm run bench:ab -- --a DIR/cli.js`: what one patch buys the live screen, both
// builds drawing side by side.
import fs from 'node:fs';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {build} from 'esbuild';
import {buildModule, patchNamed, withoutPatches} from './patch-variant.js';

const {values} = parseArgs({options: {out: {type: 'string'}, without: {type: 'string', multiple: true, default: []}}});
if (!values.out || values.without.length === 0) throw new Error('usage: build-variant.ts --out DIR --without TEXT [--without TEXT …]');
const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(values.out);
const dropped = values.without.map((text) => patchNamed(text));
const {bundleOptions, asciiOnly} = await buildModule();
const variant = withoutPatches(bundleOptions({entry: path.join(root, 'source', 'main.ts'), outfile: path.join(out, 'cli.js')}), dropped);
try {
	fs.mkdirSync(out, {recursive: true});
	const {outputFiles} = await build({...variant.options, write: false, absWorkingDir: root});
	for (const file of outputFiles) fs.writeFileSync(file.path, asciiOnly(file.text), {mode: 0o755});
} finally {
	variant.remove();
}

process.stdout.write(`${path.join(out, 'cli.js')} without: ${dropped.join('; ')}\n`);
