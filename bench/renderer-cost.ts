// `node --import tsx bench/renderer-cost.ts [--rounds 5] [--frames 100]`: what each of ink's substitutions buys a
// frame, and what the row writer that could replace ink would cost (issue 27; README "Development" has the
// decision). Each variant is the frame probe bundled as dist/cli.js is, less one substitution (or all of ink's), or
// row-writer-probe.ts; the variants run one after another in each round, so they share the machine's moments, and
// each prints its median (and range) over the rounds of the CPU per frame, of the drawing thread and of the whole
// process (user + system, not wall time), and the bytes per frame.
import {parseArgs} from 'node:util';
import {bundleProbe, buildModule} from './frame-cost.js';
import {median} from './stats.js';

const {values} = parseArgs({options: {rounds: {type: 'string', default: '5'}, frames: {type: 'string', default: '100'}}});
const rounds = Number(values.rounds);
const frames = Number(values.frames);

const {substitutions} = await buildModule();
const isInk = (name: string) => /ink|string widths/.test(name) && !/DevTools/.test(name);
// ink imports devtools.js behind DEV=true; without its swap the bundle would need react-devtools-core.
const without = (drop: (name: string) => boolean) => substitutions.filter((entry) => !drop(entry.name));
const variants = [
	{label: 'ink, every substitution (dist/cli.js)', probe: 'frame-probe.ts', entries: substitutions},
	...substitutions
		.filter((entry) => isInk(entry.name))
		.map((entry) => ({label: `ink without "${entry.name}"`, probe: 'frame-probe.ts', entries: without((name) => name === entry.name)})),
	{label: 'ink as installed (no ink substitution)', probe: 'frame-probe.ts', entries: without(isInk)},
	{label: 'row writer, no React or ink (row-writer-probe.ts)', probe: 'row-writer-probe.ts', entries: substitutions},
];

const bundles = await Promise.all(variants.map(async (variant) => bundleProbe(variant.probe, variant.entries)));
try {
	const readings = variants.map(() => ({cpu: [] as number[], main: [] as number[], bytes: [] as number[]}));
	for (let round = 1; round <= rounds; round++) {
		for (const [index, bundle] of bundles.entries()) {
			const result = bundle.run(frames);
			readings[index]!.cpu.push(result.cpuPerFrameMs);
			readings[index]!.main.push(result.mainThreadPerFrameMs);
			readings[index]!.bytes.push(result.bytesPerFrame);
		}
		process.stderr.write(`round ${round} of ${rounds}\n`);
	}

	for (const [index, variant] of variants.entries()) {
		const {cpu, main, bytes} = readings[index]!;
		const range = (values: number[]) =>
			`${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)})`;
		process.stdout.write(
			`main thread ${range(main)}, process ${range(cpu)} ms a frame, ${Math.round(median(bytes))} B: ${variant.label}\n`,
		);
	}
} finally {
	for (const bundle of bundles) bundle.remove();
}
