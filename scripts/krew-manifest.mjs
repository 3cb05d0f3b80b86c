// Fills krew/pleg-top.yaml for one release: the version from package.json, the tarball's URI as given, and the
// tarball's sha256, which krew checks before it installs. `npm run krew-manifest -- --uri URL [--tarball FILE]`
// (default tarball: the `npm pack` file of this version in the working folder); prints the manifest.
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The manifest for `version`, fetched from `uri`, whose archive has the digest `sha256`. */
export function krewManifest({version, uri, sha256}) {
	const template = readFileSync(path.join(root, 'krew', 'pleg-top.yaml'), 'utf8');
	const values = {VERSION: version, URI: JSON.stringify(uri), SHA256: sha256};
	return template
		.split('\n')
		.filter((line) => !line.startsWith('#'))
		.join('\n')
		.replace(/\{\{(\w+)\}\}/g, (token, name) => {
			if (!(name in values)) throw new Error(`krew/pleg-top.yaml: unknown token ${token}`);
			return values[name];
		});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const {values} = parseArgs({options: {uri: {type: 'string'}, tarball: {type: 'string'}}});
	const {version, name} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	if (!values.uri) {
		console.error('usage: npm run krew-manifest -- --uri URL [--tarball FILE]');
		process.exit(2);
	}
	const tarball = values.tarball ?? `${name}-${version}.tgz`;
	const sha256 = createHash('sha256').update(readFileSync(tarball)).digest('hex');
	process.stdout.write(krewManifest({version, uri: values.uri, sha256}));
}
