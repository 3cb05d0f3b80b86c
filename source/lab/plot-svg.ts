// --plot FILE.svg: the session's windowed mean and p99 relist duration and the last-seen age over time on one
// log axis (1 ms relists and a 180 s threshold on the same chart), with the baseline marks, kubelet restarts and
// the threshold line. Plain SVG 1.1: no script, no external font or stylesheet, a white background, so any
// browser shows it as is. The scale is written on the root element (data-*) so a reader can map points back.
import type {LabPoint, LabSummary} from './lab-session.js';
import type {SourceConstant} from '../domain/types.js';

const width = 960;
const height = 540;
const area = {left: 78, right: 936, top: 90, bottom: 470};
const colours = {mean: '#1f77b4', p99: '#ff7f0e', age: '#2ca02c', threshold: '#d62728', mark: '#9467bd', restart: '#7f7f7f'};

type Scale = {t0: number; t1: number; logMin: number; logMax: number};

export function plotSvg(lab: LabSummary): string {
	const points = lab.points;
	const threshold = lab.figures?.constants.threshold ?? null;
	const scale = scaleFor(points, threshold?.seconds ?? null);
	const x = (at: number) => area.left + ((at - scale.t0) / (scale.t1 - scale.t0)) * (area.right - area.left);
	const y = (seconds: number) => {
		const log = Math.min(scale.logMax, Math.max(scale.logMin, Math.log10(seconds)));
		return area.bottom - ((log - scale.logMin) / (scale.logMax - scale.logMin)) * (area.bottom - area.top);
	};

	const windowLabel = lab.figures ? `${lab.figures.windowTargetSeconds} s window` : 'window';
	const series = [
		{name: 'mean', label: `mean relist (${windowLabel})`, value: (point: LabPoint) => point.meanSeconds},
		{name: 'p99', label: `p99 relist (${windowLabel})`, value: (point: LabPoint) => point.p99?.seconds ?? null},
		{name: 'age', label: 'last-seen age', value: (point: LabPoint) => point.lastSeenAgeSeconds},
	] as const;
	const body = [
		`<rect width="${width}" height="${height}" fill="#ffffff"/>`,
		`<text x="${area.left}" y="26" font-size="16" font-weight="bold">${escape(title(lab))}</text>`,
		...yAxis(scale, y),
		...xAxis(scale, x, lab.points.length > 0),
		...(threshold ? thresholdLine(threshold, y) : []),
		...events(lab, x),
		...series.map(({name, value}) => seriesPath(name, points, value, x, y)),
		atLeastMarkers(points, x, y),
		...legend([...series.map(({name, label}) => ({colour: colours[name], label, dash: false})), ...legendExtras(lab)]),
	];
	const data = `data-t0="${scale.t0}" data-t1="${scale.t1}" data-log-min="${scale.logMin}" data-log-max="${scale.logMax}" data-left="${area.left}" data-right="${area.right}" data-top="${area.top}" data-bottom="${area.bottom}"`;
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12" ${data}>`,
		...body.filter(Boolean).map((line) => `  ${line}`),
		'</svg>',
		'',
	].join('\n');
}

/** Time from the first to the last point; whole decades from under the smallest value to over the threshold. */
function scaleFor(points: LabPoint[], thresholdSeconds: number | null): Scale {
	const t0 = points[0]?.at ?? 0;
	const last = points.at(-1)?.at ?? t0;
	const values = points
		.flatMap((point) => [point.meanSeconds, point.p99?.seconds ?? null, point.lastSeenAgeSeconds])
		.filter((value): value is number => value !== null && value > 0);
	const low = Math.min(1e-3, ...values);
	const high = Math.max(10, (thresholdSeconds ?? 0) * 1.2, ...values);
	return {
		t0,
		t1: last > t0 ? last : t0 + 1000,
		logMin: Math.max(-6, Math.floor(Math.log10(low))),
		logMax: Math.ceil(Math.log10(high)),
	};
}

function title(lab: LabSummary): string {
	const version = lab.figures?.kubeletVersion ? ` (kubelet ${lab.figures.kubeletVersion})` : '';
	return `PLEG relists on ${lab.node}${version}${lab.points.length === 0 ? ', no scrape' : ''}`;
}

function utc(at: number): string {
	return new Date(at)
		.toISOString()
		.replace('T', ' ')
		.replace(/\.\d+Z$/, ' UTC');
}

/** Decade gridlines labelled "1 ms", "10 s", … and the axis title. */
function yAxis(scale: Scale, y: (seconds: number) => number): string[] {
	const lines: string[] = [];
	for (let exponent = scale.logMin; exponent <= scale.logMax; exponent++) {
		const at = round(y(10 ** exponent));
		lines.push(
			`<line x1="${area.left}" y1="${at}" x2="${area.right}" y2="${at}" stroke="#dddddd"/>`,
			`<text x="${area.left - 6}" y="${at + 4}" text-anchor="end" data-decade="${exponent}">${decadeLabel(exponent)}</text>`,
		);
	}

	const middle = (area.top + area.bottom) / 2;
	lines.push(
		`<text x="18" y="${middle}" text-anchor="middle" transform="rotate(-90 18 ${middle})">seconds (log scale)</text>`,
		`<rect x="${area.left}" y="${area.top}" width="${area.right - area.left}" height="${area.bottom - area.top}" fill="none" stroke="#888888"/>`,
	);
	return lines;
}

function decadeLabel(exponent: number): string {
	if (exponent < -3) return `${Math.round(10 ** (exponent + 6))} µs`;
	if (exponent < 0) return `${Math.round(10 ** (exponent + 3))} ms`;
	return `${Math.round(10 ** exponent)} s`;
}

const tickSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];

/** Ticks at a round step (at most ~10), labelled as time since the first scrape. */
function xAxis(scale: Scale, x: (at: number) => number, hasPoints: boolean): string[] {
	const spanSeconds = (scale.t1 - scale.t0) / 1000;
	const step = tickSteps.find((candidate) => spanSeconds / candidate <= 10) ?? tickSteps.at(-1)!; // non-empty
	const lines: string[] = [];
	for (let seconds = 0; seconds <= spanSeconds; seconds += step) {
		const at = round(x(scale.t0 + seconds * 1000));
		lines.push(
			`<line x1="${at}" y1="${area.bottom}" x2="${at}" y2="${area.bottom + 5}" stroke="#888888"/>`,
			`<text x="${at}" y="${area.bottom + 18}" text-anchor="middle">${elapsed(seconds)}</text>`,
		);
	}

	const start = hasPoints ? `, ${utc(scale.t0)} – ${utc(scale.t1)}` : '';
	lines.push(
		`<text x="${(area.left + area.right) / 2}" y="${area.bottom + 40}" text-anchor="middle">time since the first scrape (h:mm:ss)${start}</text>`,
	);
	return lines;
}

function elapsed(seconds: number): string {
	const whole = Math.round(seconds);
	const two = (value: number) => String(value).padStart(2, '0');
	const hours = Math.floor(whole / 3600);
	return `${hours > 0 ? `${hours}:${two(Math.floor(whole / 60) % 60)}` : Math.floor(whole / 60)}:${two(whole % 60)}`;
}

function thresholdLine(threshold: SourceConstant, y: (seconds: number) => number): string[] {
	const at = round(y(threshold.seconds));
	const where = threshold.location ? ` (${threshold.location})` : '';
	return [
		`<line class="threshold" x1="${area.left}" y1="${at}" x2="${area.right}" y2="${at}" stroke="${colours.threshold}" stroke-width="1.5" stroke-dasharray="8 4" data-seconds="${threshold.seconds}"/>`,
		`<text x="${area.right - 4}" y="${at - 5}" text-anchor="end" fill="${colours.threshold}">threshold ${threshold.seconds} s, ${escape(threshold.name)}${escape(where)}</text>`,
	];
}

/** Vertical lines at each baseline mark and each kubelet restart. */
function events(lab: LabSummary, x: (at: number) => number): string[] {
	const marks = lab.segments.flatMap((segment) => (segment.markedAt === null ? [] : [{at: segment.markedAt, label: segment.label}]));
	const restarts = lab.points.filter((point) => point.event === 'restart');
	const line = (kind: 'mark' | 'restart', at: number, label: string) => {
		const position = round(x(at));
		return [
			`<line class="${kind}" x1="${position}" y1="${area.top}" x2="${position}" y2="${area.bottom}" stroke="${colours[kind]}" stroke-width="1.5" stroke-dasharray="${kind === 'mark' ? '6 3' : '2 3'}" data-at="${at}"/>`,
			`<text x="${position + 3}" y="${area.top + 12}" fill="${colours[kind]}">${escape(label)}</text>`,
		];
	};

	return [
		...marks.flatMap((mark) => line('mark', mark.at, mark.label)),
		...restarts.flatMap((point) => line('restart', point.at, 'restart')),
	];
}

/** One path per series; a point without a value (no relist in the window) breaks the line. */
function seriesPath(
	name: 'mean' | 'p99' | 'age',
	points: LabPoint[],
	value: (point: LabPoint) => number | null,
	x: (at: number) => number,
	y: (seconds: number) => number,
): string {
	let d = '';
	let drawing = false;
	for (const point of points) {
		const seconds = value(point);
		if (seconds === null || seconds <= 0) {
			drawing = false;
			continue;
		}

		d += `${drawing ? 'L' : 'M'}${round(x(point.at))} ${round(y(seconds))} `;
		drawing = true;
	}

	return `<path class="series" data-series="${name}" d="${d.trimEnd()}" fill="none" stroke="${colours[name]}" stroke-width="1.5"/>`;
}

/** A p99 in the +Inf bucket is a lower bound ("≥ 10 s"): drawn as an open triangle at the bound. */
function atLeastMarkers(points: LabPoint[], x: (at: number) => number, y: (seconds: number) => number): string {
	const marks = points
		.filter((point) => point.p99?.atLeast)
		.map((point) => {
			const cx = round(x(point.at));
			const cy = round(y(point.p99!.seconds)); // filtered above
			return `<path d="M${cx} ${round(cy - 5)} L${round(cx - 4)} ${round(cy + 3)} L${round(cx + 4)} ${round(cy + 3)} Z" fill="none" stroke="${colours.p99}"/>`;
		});
	return marks.length === 0 ? '' : `<g class="p99-at-least">${marks.join('')}</g>`;
}

/** `dash`: a dashed line sample; null: no line (the label draws its own symbol). */
type LegendItem = {colour: string; label: string; dash: boolean | null};

function legendExtras(lab: LabSummary): LegendItem[] {
	const items: LegendItem[] = [];
	if (lab.figures) items.push({colour: colours.threshold, label: 'threshold', dash: true});
	if (lab.segments.some((segment) => segment.markedAt !== null)) items.push({colour: colours.mark, label: 'baseline mark (b)', dash: true});
	const bound = lab.points.find((point) => point.p99?.atLeast)?.p99?.seconds;
	if (bound !== undefined) items.push({colour: colours.p99, label: `△ p99 in the +Inf bucket (≥ ${bound} s)`, dash: null});
	return items;
}

/** Rows under the title: a line sample and its label per item, wrapping at the plot's right edge. */
function legend(items: LegendItem[]): string[] {
	let left = area.left;
	let row = 52;
	return items.flatMap(({colour, label, dash}) => {
		const itemWidth = 34 + label.length * 6.5;
		if (left > area.left && left + itemWidth > area.right) {
			left = area.left;
			row += 16;
		}

		const start = left;
		left += itemWidth + 18;
		const sample = `<line x1="${start}" y1="${row - 4}" x2="${start + 26}" y2="${row - 4}" stroke="${colour}" stroke-width="2"${dash ? ' stroke-dasharray="6 3"' : ''}/>`;
		return dash === null
			? [`<text x="${start}" y="${row}" fill="${colour}">${escape(label)}</text>`]
			: [sample, `<text x="${start + 32}" y="${row}">${escape(label)}</text>`];
	});
}

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
