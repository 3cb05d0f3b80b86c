// The entry of the frame-cost probe (frame-cost.ts bundles it with the CLI's own build options, so ink runs as
// patched, as in dist/cli.js): the Dashboard rendered by ink to a 120×40 fake terminal from
// successive scrapes of a simulated kubelet. Prints one JSON line. argv[2]: the number of frames.
import {FakeTerminal, measureFrames} from './frame-rig.js';

const [{render}, React, {Dashboard}] = await Promise.all([import('ink'), import('react'), import('../source/screen/dashboard.js')]);
const terminal = new FakeTerminal();
let instance: ReturnType<typeof render> | undefined;
const result = await measureFrames(Number(process.argv[2] ?? 60), terminal, (props) => {
	const element = React.createElement(Dashboard, props);
	if (instance) instance.rerender(element);
	else
		instance = render(element, {
			stdout: terminal as unknown as NodeJS.WriteStream,
			stdin: process.stdin,
			patchConsole: false,
			exitOnCtrlC: false,
		});
});
instance?.unmount();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
