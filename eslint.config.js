// Lint for pleg-top: typescript-eslint's recommended rules, plus the boundaries that keep the data flowing one
// way (sources -> domain -> engine -> run/screen). README "Development" draws the same layers.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Reading the clock: only engine/ may, so everything else is a function of the `now` it is given. */
const clockReads = {
	'no-restricted-properties': [
		'error',
		{object: 'Date', property: 'now', message: 'Only engine/ reads the clock: take `now` as an argument.'},
		{object: 'performance', property: 'now', message: 'Only engine/ reads the clock: take `now` as an argument.'},
	],
	'no-restricted-syntax': [
		'error',
		{
			selector: "NewExpression[callee.name='Date'][arguments.length=0]",
			message: 'Only engine/ reads the clock: take `now` as an argument.',
		},
	],
};

const ioModules = [
	'node:http',
	'node:https',
	'node:fs',
	'node:fs/promises',
	'node:net',
	'node:tls',
	'node:child_process',
	'http',
	'https',
	'fs',
	'net',
	'tls',
];
const uiModules = ['ink', 'react', 'react/jsx-runtime'];

export default tseslint.config(
	{ignores: ['dist/', 'node_modules/', 'coverage/', '**/*.d.ts']},
	...tseslint.configs.recommended,
	{
		files: ['**/*.tsx', 'source/screen/**/*.ts'],
		plugins: {'react-hooks': reactHooks},
		rules: {'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error'},
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
			'@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'inline-type-imports'}],
		},
	},
	{
		files: ['source/**/*.{ts,tsx}'],
		// ink-throttle.ts stands in for a dependency inside ink, which paces its own renders by the clock.
		ignores: ['source/engine/**', 'source/substitutes/ink-throttle.ts'],
		rules: clockReads,
	},
	{
		// The pure core: no terminal, no React, no I/O, no transport.
		files: ['source/domain/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [...uiModules, ...ioModules].map((name) => ({name, message: 'domain/ is pure: no UI and no I/O.'})),
					patterns: [
						{
							group: ['**/sources/**', '**/sources/*'],
							message: 'domain/ never imports sources/: the transport feeds it, not the other way round.',
						},
						{group: ['**/screen/**', '**/engine/**', '**/run/**', 'ink-*'], message: 'domain/ is the innermost layer.'},
					],
				},
			],
		},
	},
	{
		// Components render props: they never reach for a source.
		files: ['source/screen/**/*.{ts,tsx}'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: ioModules.map((name) => ({name, message: 'screen/ renders props; I/O lives in sources/.'})),
					patterns: [{group: ['**/sources/**', '**/sources/*'], message: 'screen/ never imports sources/: the engine hands it figures.'}],
				},
			],
		},
	},
	{
		// Sources are I/O only: they know nothing of the screen.
		files: ['source/sources/**/*.ts', 'source/engine/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: uiModules.map((name) => ({name, message: 'sources/ and engine/ run without a screen (JSON lines, --once).'})),
					patterns: [{group: ['**/screen/**', '**/screen/*'], message: 'sources/ and engine/ run without a screen.'}],
				},
			],
		},
	},
	{
		files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
		rules: {
			'@typescript-eslint/no-non-null-assertion': 'off',
			// Tests read the CLI's JSON output; its shape is what they assert, key by key.
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
);
