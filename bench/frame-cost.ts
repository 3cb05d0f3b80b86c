// Information for phase 1: the CPU of one frame of the live screen on its own. frame-probe.ts is bundled with the
// CLI's build options (scripts/build.mjs: the same substitutions inside ink, React's production build) and run in
// its own process, so the figure is what dist/cli.js spends on a frame, not what ink from node_modules would.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build, type BuildOptions} from 'esbuild';

export type FrameCostResult = {frames: number; cpuPerFrameMs: number; bytesPerFrame: number};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

export async function measureFrameCost(frames: number): Promise<FrameCostResult> {
	const {bundleOptions} = (await import(path.join(root, 'scripts', 'build.mjs'))) as {
		bundleOptions: (options: {entry: string; outfile: string}) => BuildOptions;
	};
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-frame-'));
	try {
		const outfile = path.join(dir, 'probe.js');
		await build({...bundleOptions({entry: path.join(here, 'frame-probe.ts'), outfile}), absWorkingDir: root});
		return JSON.parse(execFileSync(process.execPath, [outfile, String(frames)], {encoding: 'utf8'})) as FrameCostResult;
	} finally {
		fs.rmSync(dir, {recursive: true, force: true});
	}
}
