// npm run from a test with the caller's npm cache but none of the `npm test` run's own npm_* settings.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';

export function npm(args: string[], cwd: string): string {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(?!config_cache$)/i.test(key)));
	const result = spawnSync('npm', args, {cwd, env, encoding: 'utf8', timeout: 120_000});
	assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}
