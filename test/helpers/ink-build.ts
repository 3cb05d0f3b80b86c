// ink's own modules, which its package does not export: the patched files (patches/ink+*.patch) a test checks,
// loaded by path from wherever ink is installed. The same URL ink imports them by, so a test reads the same
// module instance (and caches) that ink draws with.
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const inkBuild = path.dirname(fileURLToPath(import.meta.resolve('ink')));

/** `file` of ink's build directory (e.g. 'output.js'), typed as the caller declares it. */
export async function inkModule<T>(file: string): Promise<T> {
	return (await import(pathToFileURL(path.join(inkBuild, file)).href)) as T;
}
