// The environment decisions pleg-top makes before any dependency reads the environment. main.ts imports this
// module first: in the bundle, modules run in import order, and chalk (through ink) reads FORCE_COLOR and CI
// once, when it is first evaluated.
//
// - --no-color or NO_COLOR (no-color.org): FORCE_COLOR=0, so chalk and ink emit no colour at all.
// - A terminal on stdout means someone is watching it. With CI set (a CI job, or a shell that exports it), ink
//   draws only the last frame, on exit, and its colour check turns colour off: a live screen would stay blank
//   and grey. So CI is deleted (not set to "false": the colour check looks only at whether it exists).
// - V8 grows the old generation to up to four times what survived the last full collection before it collects
//   again. The overview keeps one refresh of every node alive, so on a large fleet its resident size swung widely
//   from run to run; a growth of 30 % holds it steady for a little more CPU (bench/README.md). A
//   --heap-growing-percent the user gave wins.
// React's production build is chosen at build time (scripts/build.mjs), not here.
import v8 from 'node:v8';
import {heapGrowthFlag} from './heap-growth.js';

function prepareEnvironment(argv: readonly string[], env: NodeJS.ProcessEnv, stdoutIsTty: boolean): void {
	if (argv.includes('--no-color') || (env['NO_COLOR'] ?? '') !== '') env['FORCE_COLOR'] = '0';
	if (stdoutIsTty) {
		delete env['CI'];
		delete env['CONTINUOUS_INTEGRATION'];
	}
}

prepareEnvironment(process.argv.slice(2), process.env, process.stdout.isTTY === true);
const growth = heapGrowthFlag(process.execArgv, process.env['NODE_OPTIONS']);
if (growth !== null) v8.setFlagsFromString(growth);
