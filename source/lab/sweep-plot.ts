// The sweep's plot: relist mean and p99 against the pods Running on the node, one point per level held, with the
// fitted line whose slope is the relist cost per pod. A small standalone SVG, as --plot writes it.
import {formatSeconds} from '../domain/text/format.js';
import {costPerPod, type PhaseRow} from './lab-write-down.js';

const width = 640;
const height = 400;
const margin = {left: 70, right: 20, top: 40, bottom: 50};

function escapeXml(text: string): string {
	return text.replace(/[<>&"]/g, (character) => ({'<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;'})[character]!); // matched by the pattern
}

export function sweepPlotSvg(rows: readonly PhaseRow[], node: string): string {
	const levels = rows.filter((row) => (row.kind === 'hold' || row.kind === 'idle') && row.meanSeconds !== null);
	const maxPods = Math.max(1, ...levels.map((row) => row.runningPods));
	const maxSeconds = Math.max(1e-3, ...levels.map((row) => Math.max(row.meanSeconds!, row.p99?.seconds ?? 0))) * 1.1; // filtered above
	const x = (pods: number) => margin.left + (pods / maxPods) * (width - margin.left - margin.right);
	const y = (seconds: number) => height - margin.bottom - (seconds / maxSeconds) * (height - margin.top - margin.bottom);
	const dots = (value: (row: PhaseRow) => number | null, colour: string) =>
		levels
			.filter((row) => value(row) !== null)
			.map(
				(row) =>
					`<circle cx="${x(row.runningPods).toFixed(1)}" cy="${y(value(row)!).toFixed(1)}" r="4" fill="${colour}"><title>${row.runningPods} pods: ${formatSeconds(value(row))}</title></circle>`, // filtered above
			)
			.join('\n');
	const fit = costPerPod(rows);
	const line = fit
		? `<line x1="${x(0)}" y1="${y(fit.intercept).toFixed(1)}" x2="${x(maxPods)}" y2="${y(fit.intercept + fit.slope * maxPods).toFixed(1)}" stroke="#1f77b4" stroke-dasharray="4 3"/>`
		: '';
	const title = `PLEG relist against running pods on ${node}${fit ? `: ${formatSeconds(fit.slope)} per pod` : ''}`;
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${margin.left}" y="20" font-size="14">${escapeXml(title)}</text>
<line x1="${margin.left}" y1="${height - margin.bottom}" x2="${width - margin.right}" y2="${height - margin.bottom}" stroke="black"/>
<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${height - margin.bottom}" stroke="black"/>
<text x="${width / 2}" y="${height - 15}" text-anchor="middle">pods Running on the node (0 to ${maxPods})</text>
<text x="15" y="${height / 2}" transform="rotate(-90 15 ${height / 2})" text-anchor="middle">relist duration (0 to ${escapeXml(formatSeconds(maxSeconds))})</text>
<text x="${width - margin.right}" y="${margin.top}" text-anchor="end" fill="#1f77b4">● mean</text>
<text x="${width - margin.right}" y="${margin.top + 16}" text-anchor="end" fill="#d62728">● p99</text>
${line}
${dots((row) => row.meanSeconds, '#1f77b4')}
${dots((row) => row.p99?.seconds ?? null, '#d62728')}
</svg>
`;
}
