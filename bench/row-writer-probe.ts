// The renderer ink could be replaced with, for the decision in bench/README.md: the same Dashboard
// rows (dashboardBlocks, the panes' Line[]) painted with the same colours, side-by-side columns joined by hand, and
// written by ink's terminal writer as patched (patches/ink+6.8.0+004+absolute-row-writer.patch), without React or
// the rest of ink. Measured by frame-cost.ts as frame-probe.ts is. A prototype of one screen: no key reader.
import {blockHeight, dashboardBlocks} from '../source/screen/dashboard.js';
import {lineWidth} from '../source/screen/layout/line.js';
import {rowText} from '../source/screen/layout/line-view.js';
import type {DashboardProps} from '../source/screen/dashboard.js';
// ink exports only its index; the bench bundles this file from the checkout, where ink is installed flat.
import logUpdate from '../node_modules/ink/build/log-update.js';
import {FakeTerminal, measureFrames} from './frame-rig.js';

const columnGap = 2;

/** The frame as ink's renderer hands it to the writer: rows joined, a newline after the last (it is shorter than the terminal). */
function screenText(props: DashboardProps): string {
	const rows: string[] = [];
	for (const block of dashboardBlocks(props)) {
		if (block.kind === 'lines') {
			for (const line of block.lines) rows.push(rowText(line).trimEnd());
			continue;
		}

		for (let index = 0; index < blockHeight(block); index++) {
			const left = block.left[index] ?? [];
			const right = block.right[index];
			const pad = ' '.repeat(block.leftWidth - lineWidth(left) + columnGap);
			rows.push(right ? `${left.length > 0 ? rowText(left) : ''}${pad}${rowText(right)}` : rowText(left).trimEnd());
		}
	}

	return `${rows.join('\n')}\n`;
}

const terminal = new FakeTerminal();
const write = logUpdate.create(terminal);
const result = await measureFrames(Number(process.argv[2] ?? 60), terminal, (props) => {
	write(screenText(props));
});
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
