// What one patch under patches/ buys: the bundle built with some patches taken back out. Each package a dropped
// patch belongs to is copied as installed (every patch applied) into a temporary node_modules, the dropped patches
// are reversed there, and esbuild's `alias` points the package's name at the copy; anything the copy imports still
// resolves from the checkout's node_modules. With no patch dropped the options are the shipped bundle's.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type {BuildOptions} from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const patchesDir = path.join(root, 'patches');

type BuildModule = {
	bundleOptions: (options: {entry?: string; outfile?: string}) => BuildOptions;
	asciiOnly: (code: string) => string;
};
export const buildModule = async (): Promise<BuildModule> => (await import(path.join(root, 'scripts', 'build.mjs'))) as BuildModule;

/** Every patch file, in the order patch-package applies them. */
export function patchFiles(): string[] {
	return fs
		.readdirSync(patchesDir)
		.filter((name) => name.endsWith('.patch'))
		.sort();
}

/** The package a patch-package file name belongs to: "@scope+name+1.0.0.patch" is @scope/name, "ink+6.8.0+003+x.patch" ink. */
export function packageOf(patchFile: string): string {
	const parts = patchFile.split('+');
	return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The one patch file whose name contains `text`; throws when none or several do. */
export function patchNamed(text: string): string {
	const found = patchFiles().filter((name) => name.includes(text));
	if (found.length !== 1) throw new Error(`"${text}" should name one patch under patches/; it names: ${found.join(', ') || 'none'}`);
	return found[0]!;
}

/** Runs `patch` on the copies under `dir`; forward or reverse. */
function applyPatch(dir: string, file: string, reverse: boolean): void {
	execFileSync('patch', [...(reverse ? ['-R'] : ['-N']), '-p1', '-s', '-d', dir, '-i', path.join(patchesDir, file)], {stdio: 'pipe'});
}

/**
 * A package's patches are a sequence, each on top of the last: to take some out, every later one comes off first
 * (newest first), then those kept go back on. A kept patch written on top of a dropped one does not go back on, and
 * this throws naming both.
 */
function unpatchPackage(dir: string, patches: string[], dropped: Set<string>): void {
	const first = patches.findIndex((file) => dropped.has(file));
	const later = patches.slice(first);
	for (const file of [...later].reverse()) applyPatch(dir, file, true);
	for (const file of later.filter((name) => !dropped.has(name))) {
		try {
			applyPatch(dir, file, false);
		} catch {
			throw new Error(`${file} is written on top of ${[...dropped].join(', ')}: take both out, or neither`);
		}
	}
}

/** esbuild options adding to `options` the aliases that take `dropped` (patch file names) out; `remove` cleans up. */
export function withoutPatches(options: BuildOptions, dropped: string[]): {options: BuildOptions; remove(): void} {
	if (dropped.length === 0) return {options, remove() {}};
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-unpatched-'));
	const alias: Record<string, string> = {};
	try {
		for (const name of new Set(dropped.map((file) => packageOf(file)))) {
			const copy = path.join(dir, 'node_modules', name);
			fs.cpSync(path.join(root, 'node_modules', name), copy, {recursive: true});
			unpatchPackage(
				dir,
				patchFiles().filter((file) => packageOf(file) === name),
				new Set(dropped),
			);
			// The package's entry file in the copy (or the module the shipped options alias it to): esbuild takes an alias
			// to a directory as a plain folder, without its exports.
			const entry = fileURLToPath(import.meta.resolve(options.alias?.[name] ?? name));
			alias[name] = path.join(copy, path.relative(path.join(root, 'node_modules', name), entry));
		}
	} catch (error) {
		fs.rmSync(dir, {recursive: true, force: true});
		throw error;
	}

	return {
		options: {...options, alias: {...options.alias, ...alias}, nodePaths: [path.join(root, 'node_modules')]},
		remove: () => fs.rmSync(dir, {recursive: true, force: true}),
	};
}
