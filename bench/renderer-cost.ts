// `node --import tsx bench/renderer-cost.ts [--rounds 5] [--frames 100]`: what each patch under patches/ buys a
// frame, and what the row writer that could replace ink would cost (bench/README.md "What each patch buys" has the decision). Each
// variant is the frame probe bundled as dist/cli.js is, less one patch (or every patch of ink and string-width),
// or row-writer-probe.ts; the variants run one after another in each round, so they share the machine's moments,
// and each prints its median (and range) over the rounds of the CPU per frame, of the drawing thread and of the
// whole process (user + system, not wall time), and the bytes per frame.
import {parseArgs} from 'node:util';
import {bundleProbe} from './frame-cost.js';
import {packageOf, patchFiles} from './patch-variant.js';
import {median} from './stats.js';

const {values} = parseArgs({options: {rounds: {type: 'string', default: '5'}, frames: {type: 'string', default: '100'}}});
const rounds = Number(values.rounds);
const frames = Number(values.frames);

const drawing = patchFiles().filter((file) => ['ink', 'string-width'].includes(packageOf(file)));
const variants = [
	{label: 'ink, every patch (dist/cli.js)', probe: 'frame-probe.ts', dropped: [] as string[]},
	...drawing.map((file) => ({label: `ink without ${file}`, probe: 'frame-probe.ts', dropped: [file]})),
	{label: 'ink and string-width as published (no patch)', probe: 'frame-probe.ts', dropped: drawing},
	{label: 'row writer, no React or ink (row-writer-probe.ts)', probe: 'row-writer-probe.ts', dropped: []},
];

const built = await Promise.all(
	variants.map(async (variant) =>
		bundleProbe(variant.probe, variant.dropped).catch((error: Error) => {
			process.stderr.write(`skipped "${variant.label}": ${error.message}\n`);
			return undefined;
		}),
	),
);
const measured = variants.filter((_, index) => built[index] !== undefined);
const bundles = built.filter((bundle) => bundle !== undefined);
try {
	const readings = measured.map(() => ({cpu: [] as number[], main: [] as number[], bytes: [] as number[]}));
	for (let round = 1; round <= rounds; round++) {
		for (const [index, bundle] of bundles.entries()) {
			const result = bundle.run(frames);
			readings[index]!.cpu.push(result.cpuPerFrameMs);
			readings[index]!.main.push(result.mainThreadPerFrameMs);
			readings[index]!.bytes.push(result.bytesPerFrame);
		}
		process.stderr.write(`round ${round} of ${rounds}\n`);
	}

	for (const [index, variant] of measured.entries()) {
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
