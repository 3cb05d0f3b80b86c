// Lint for pleg-top: ESLint's and typescript-eslint's recommended rules (typed, from tsconfig.test.json), plus the boundaries that keep the data flowing one
// way (sources -> domain -> engine -> run/screen). docs/architecture.md draws the same layers.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
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
const paneTestsRead = "a pane test reads its builder's Line[] through test/helpers/pane-rows.ts; whole screens go in a .tsx test";

/**
 * What each folder of source/ may import from the others: the data flows one way (docs/architecture.md draws it).
 * A folder not named in `may` is refused with the reason; `paths` are packages the folder must not load.
 */
const layers = {
	domain: {may: [], paths: [...uiModules, ...ioModules], why: 'domain/ is the pure core: no UI, no I/O, no other layer'},
	sources: {may: ['domain'], paths: uiModules, why: 'sources/ is I/O only: it feeds the domain and knows nothing above it'},
	engine: {may: ['domain', 'sources'], paths: uiModules, why: 'engine/ runs without a screen (JSON lines, --once)'},
	demo: {may: ['domain'], paths: uiModules, why: 'demo/ is a simulated kubelet: it knows the domain only'},
	report: {may: ['domain'], paths: [...uiModules, ...ioModules], why: 'report/ turns figures into text and JSON, nothing more'},
	lab: {may: ['domain', 'sources', 'report'], paths: uiModules, why: 'lab/ records and summarises; it draws no screen'},
	screen: {may: ['domain', 'engine'], paths: ioModules, why: 'screen/ renders what the engine hands it; I/O lives in sources/'},
	cli: {
		may: ['domain'],
		// The contracts cli/ fills in for the runners: the Mode, and what a completing shell asks for.
		alsoFiles: ['run/mode.js', 'run/complete-need.js'],
		paths: [...uiModules, ...ioModules],
		why: 'cli/ is pure: argv to a Mode',
	},
	run: {
		may: ['domain', 'sources', 'engine', 'screen', 'report', 'lab', 'demo'],
		paths: [],
		why: 'run/ wires the layers; main.ts hands it the Mode',
	},
	bootstrap: {may: [], paths: [], why: 'bootstrap/ runs before any other module'},
};

const ups = ['../', '../../', '../../../'];

const layerBoundaries = Object.entries(layers).map(([folder, {may, paths, why, alsoFiles = []}]) => {
	const refused = Object.keys(layers).filter((other) => other !== folder && !may.includes(other));
	return {
		files: [`source/${folder}/**/*.{ts,tsx}`],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: paths.map((name) => ({name, message: why})),
					patterns:
						refused.length === 0
							? []
							: [
									{
										// relative paths from a module one, two or three folders deep, then the files allowed (the
										// matcher re-includes a file only when its pattern has the same form as the one that refused it)
										group: [
											...refused.flatMap((other) => ups.flatMap((up) => [`${up}${other}/*`, `${up}${other}/*/**`])),
											...alsoFiles.flatMap((file) => ups.map((up) => `!${up}${file}`)),
										],
										message: `${why} (it may import ${may.join(', ') || 'no other layer'})`,
									},
								],
				},
			],
		},
	};
});

export default tseslint.config(
	{ignores: ['dist/', 'node_modules/', 'coverage/', '.tmp/', '**/*.d.ts']},
	js.configs.recommended,
	...tseslint.configs.recommendedTypeChecked,
	{
		languageOptions: {
			globals: globals.node,
			// One program for every .ts file: tsconfig.test.json includes source/, test/, bench/ and scripts/.
			parserOptions: {project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname},
		},
	},
	{
		// Plain JS (scripts/*.mjs, the executables' launcher, this file) has no types to check: the typed rules would only flag its `any`s.
		files: ['**/*.{js,mjs,cjs}'],
		...tseslint.configs.disableTypeChecked,
	},
	{
		// A single executable's main script is CommonJS: require() is how it reaches node's modules.
		files: ['**/*.cjs'],
		languageOptions: {sourceType: 'commonjs'},
		rules: {'@typescript-eslint/no-require-imports': 'off'},
	},
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
		files: ['**/*.{ts,tsx}'],
		rules: {
			// An async function that awaits nothing still turns its throws (signal.throwIfAborted()) into rejections, as the
			// Promise-returning interfaces it implements promise; dropping `async` would throw synchronously instead.
			'@typescript-eslint/require-await': 'off',
			// Terminal escapes (ESC, CSI) are what pleg-top strips from untrusted text and reads in its frames.
			'no-control-regex': 'off',
			// A rejection passes on what it was given (a caught error, an abort reason) as it is, as a rethrow may.
			'@typescript-eslint/prefer-promise-reject-errors': ['error', {allowThrowingAny: true, allowThrowingUnknown: true}],
			// A switch on a union names every member, so a member added later is a lint error where it is not handled.
			'@typescript-eslint/switch-exhaustiveness-check': 'error',
			// node:test's test() and describe() return promises the runner itself awaits.
			'@typescript-eslint/no-floating-promises': [
				'error',
				{allowForKnownSafeCalls: [{from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite']}]},
			],
		},
	},
	{
		files: ['source/**/*.{ts,tsx}'],
		ignores: ['source/engine/**'],
		rules: clockReads,
	},
	{
		// A function a maintainer reads in one screen: a longer one is split into named steps. Every line counts,
		// comments and blank lines too (the stricter reading), as the reader sees them.
		files: ['source/**/*.{ts,tsx}'],
		rules: {'max-lines-per-function': ['error', {max: 80, skipBlankLines: false, skipComments: false}]},
	},
	...layerBoundaries,
	{
		// tsx compiles test files (outside tsconfig.json's include) with the classic JSX runtime: React must be in scope.
		files: ['test/**/*.tsx'],
		languageOptions: {parserOptions: {jsxPragma: 'React'}},
	},
	{
		files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
		rules: {
			'@typescript-eslint/no-non-null-assertion': 'off',
			// Tests read the CLI's JSON output (JSON.parse gives `any`); its shape is what they assert, key by key.
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
		},
	},
	{
		// Pane tests read the text of the Line[] a builder returns (test/helpers/pane-rows.ts), without ink or React;
		// whole screens, in .tsx tests, go through the renderer.
		files: ['test/screen/**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: ['ink', 'ink-testing-library', 'react'].map((name) => ({name, message: paneTestsRead})),
					patterns: [{group: ['**/ui-frame.js', '**/dashboard-frame.js', '**/line-view.js'], message: paneTestsRead}],
				},
			],
		},
	},
);
