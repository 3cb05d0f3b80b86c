// Fills krew/pleg-top.yaml for one release: the version from package.json, and for each platform the URI its
// archive is served from and the archive's sha256, which krew checks before it installs.
//   npm run krew-manifest -- --base-url URL [--release-dir DIR]
// reads from DIR (default dist/release) pleg-top-linux-amd64.tar.gz and pleg-top-linux-arm64.tar.gz (`npm run sea`)
// and pleg-top-VERSION.tgz (`npm pack --pack-destination DIR`), and serves each as URL/NAME; prints the manifest.
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The release's archive of each platform of the template, by the token prefix it fills. */
export function releaseArchives(version) {
	return {LINUX_AMD64_: 'pleg-top-linux-amd64.tar.gz', LINUX_ARM64_: 'pleg-top-linux-arm64.tar.gz', '': `pleg-top-${version}.tgz`};
}

/** The manifest for `version`, each archive served from `baseUrl`, its digest read from `releaseDir`. */
export function krewManifest({version, baseUrl, releaseDir}) {
	const template = readFileSync(path.join(root, 'krew', 'pleg-top.yaml'), 'utf8');
	const values = {VERSION: version};
	for (const [prefix, name] of Object.entries(releaseArchives(version))) {
		const file = path.join(releaseDir, name);
		if (!existsSync(file)) throw new Error(`${file} is missing: npm run sea, and npm pack --pack-destination ${releaseDir}`);
		values[`${prefix}URI`] = JSON.stringify(`${baseUrl.replace(/\/+$/, '')}/${name}`);
		values[`${prefix}SHA256`] = createHash('sha256').update(readFileSync(file)).digest('hex');
	}
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
	const {values} = parseArgs({options: {'base-url': {type: 'string'}, 'release-dir': {type: 'string'}}});
	const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	if (!values['base-url']) {
		console.error('usage: npm run krew-manifest -- --base-url URL [--release-dir DIR]');
		process.exit(2);
	}
	try {
		const releaseDir = path.resolve(values['release-dir'] ?? path.join(root, 'dist', 'release'));
		process.stdout.write(krewManifest({version, baseUrl: values['base-url'], releaseDir}));
	} catch (error) {
		console.error(`krew-manifest: ${error.message}`);
		process.exit(1);
	}
}
