// The CPU of one frame of the live screen on its own. frame-probe.ts is bundled with the CLI's build options
// (scripts/build.mjs: React's production build, ink as patched) and run in its own process, so the figure is what
// dist/cli.js spends on a frame.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {buildModule, withoutPatches} from './patch-variant.js';

/** cpuPerFrameMs: the whole process (user + system); mainThreadPerFrameMs: the thread that draws, without V8's compiler and GC threads. */
export type FrameCostResult = {frames: number; cpuPerFrameMs: number; mainThreadPerFrameMs: number; bytesPerFrame: number};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** A probe (bench/*-probe.ts) bundled as dist/cli.js is, or less the patches `dropped` (file names); run with `run`. */
export async function bundleProbe(probe: string, dropped: string[] = []): Promise<{run(frames: number): FrameCostResult; remove(): void}> {
	const {bundleOptions} = await buildModule();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-frame-'));
	const outfile = path.join(dir, 'probe.js');
	const variant = withoutPatches(bundleOptions({entry: path.join(here, probe), outfile}), dropped);
	try {
		await build({...variant.options, absWorkingDir: root});
	} finally {
		variant.remove();
	}

	return {
		run: (frames) => JSON.parse(execFileSync(process.execPath, [outfile, String(frames)], {encoding: 'utf8'})) as FrameCostResult,
		remove: () => fs.rmSync(dir, {recursive: true, force: true}),
	};
}

export async function measureFrameCost(frames: number): Promise<FrameCostResult> {
	const probe = await bundleProbe('frame-probe.ts');
	try {
		return probe.run(frames);
	} finally {
		probe.remove();
	}
}
