// `pleg-top --help` lists every key of both screens, the demo's and the help's own, from the same definitions
// as the `?` screen and the README.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';
import {keyGroups} from '../../source/domain/definitions.js';
import {cliPath} from '../helpers/run-cli.js';

const escape = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');

test('--help lists every key under the screen it works on', () => {
	const help = spawnSync(process.execPath, [cliPath, '--help'], {
		encoding: 'utf8',
		timeout: 15_000,
		env: {PATH: process.env['PATH'] ?? '', HOME: '/nonexistent'},
	});
	assert.equal(help.status, 0);
	const lines = help.stdout.split('\n');
	for (const group of keyGroups()) {
		const start = lines.indexOf(`Keys · ${group.title}`);
		assert.ok(start >= 0, `no "Keys · ${group.title}" in:\n${help.stdout}`);
		// The group's lines follow its title, up to the blank line.
		const end = lines.indexOf('', start);
		const rows = lines.slice(start + 1, end);
		assert.equal(rows.length, group.bindings.length, rows.join('\n'));
		for (const [index, binding] of group.bindings.entries()) {
			assert.match(rows[index]!, new RegExp(`^ {2}${escape(binding.keys.join(' / '))} +${escape(binding.action)}$`));
		}
	}

	// Keys people look for by what they do.
	for (const key of ['a', 'k', 'b', 'p', 'Ctrl-L', 'S', '/', 'PgUp / PgDn']) {
		assert.ok(
			lines.some((line) => line.startsWith(`  ${key} `)),
			`no line for ${key}`,
		);
	}
});
