// A pane read as the text of the Line[] its builder returns, without ink or React: what the terminal shows of
// each row (ink draws a row's segments side by side and drops its trailing blanks). The whole-screen frames are
// drawn through the renderer that ships instead (ui-frame.ts, dashboard-frame.tsx).
import {lineText, lineWidth, type Line} from '../../source/screen/layout/line.js';

/** Each row's text; throws when a row is wider than `width`, which every builder promises (the renderer would cut it). */
export function paneRows(lines: Line[], width: number): string[] {
	return lines.map((line, index) => {
		const cells = lineWidth(line);
		if (cells > width) throw new Error(`row ${index + 1} is ${cells} cells, wider than the pane's ${width}: ${lineText(line)}`);
		return lineText(line).trimEnd();
	});
}

/** The rows joined as a frame reads: one string, a newline between rows. */
export function paneFrame(lines: Line[], width: number): string {
	return paneRows(lines, width).join('\n');
}

export function rowsOf(frame: string): string[] {
	return frame.split('\n');
}

/** Terminal cells of a row: code points (every glyph pleg-top prints is one cell wide). */
export function cells(row: string): number {
	return [...row].length;
}
