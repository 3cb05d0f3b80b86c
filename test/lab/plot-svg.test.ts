import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createLabSession} from '../../source/lab/lab-session.js';
import {plotSvg} from '../../source/lab/plot-svg.js';
import {labFromRecording} from '../../source/lab/recording.js';
import {labRecords, markAt, scrapeAt, t0} from './exposition.js';

type Element = {name: string; attributes: Record<string, string>; text: string};

/** A tiny XML reader for what plotSvg writes: elements with their attributes and direct text; checks nesting. */
function readSvg(svg: string): Element[] {
	const elements: Element[] = [];
	const open: string[] = [];
	const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>([^<]*)/g;
	const body = svg.replace(/^<\?xml[^>]*\?>\s*/, '');
	let consumed = 0;
	for (const match of body.matchAll(tag)) {
		assert.equal(match.index, consumed, `unparsed text at ${consumed}: ${body.slice(consumed, consumed + 40)}`);
		consumed = match.index + match[0].length;
		const [, closing, name, attributeText, selfClosing, text] = match;
		if (closing) {
			assert.equal(open.pop(), name, `</${name}> closes the element that is open`);
			continue;
		}

		const attributes = Object.fromEntries([...attributeText!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key!, value!]));
		elements.push({name: name!, attributes, text: text!.trim()});
		if (!selfClosing) open.push(name!);
	}

	assert.equal(consumed, body.length, 'the whole document was read');
	assert.deepEqual(open, [], 'every element is closed');
	return elements;
}

/** The vertices of a path's `d` (M/L commands only), each with whether it starts a new line. */
function vertices(d: string): Array<{x: number; y: number; move: boolean}> {
	return [...d.matchAll(/([ML])([\d.]+) ([\d.]+)/g)].map(([, command, x, y]) => ({x: Number(x), y: Number(y), move: command === 'M'}));
}

/** Maps SVG coordinates back to (time ms, seconds) with the scale the plot states on its root element. */
function inverse(root: Element) {
	const a = (key: string) => Number(root.attributes[`data-${key}`]);
	return {
		at: (x: number) => a('t0') + ((x - a('left')) / (a('right') - a('left'))) * (a('t1') - a('t0')),
		seconds: (y: number) => 10 ** (a('log-min') + ((a('bottom') - y) / (a('bottom') - a('top'))) * (a('log-max') - a('log-min'))),
	};
}

function near(actual: number, expected: number, relative: number, label: string): void {
	assert.ok(Math.abs(actual - expected) <= Math.abs(expected) * relative, `${label}: ${actual} ≉ ${expected}`);
}

describe('plotSvg', () => {
	const records = labRecords();
	const svg = plotSvg(labFromRecording(records, 10).summary());
	const elements = readSvg(svg);
	const root = elements[0]!;
	const scale = inverse(root);
	const path = (series: string) => elements.find((element) => element.attributes['data-series'] === series)!;

	test('plain SVG a browser shows as is: no script, no external resource, a white background', () => {
		assert.equal(root.name, 'svg');
		assert.equal(root.attributes['xmlns'], 'http://www.w3.org/2000/svg');
		assert.equal(root.attributes['font-family'], 'sans-serif');
		assert.doesNotMatch(svg, /<script|href=|url\(|@import|@font-face|\son\w+=/i);
		assert.equal(elements[1]!.name, 'rect');
		assert.equal(elements[1]!.attributes['fill'], '#ffffff');
	});

	test('each plotted point maps back to the figures recorded at its scrape (within pixel rounding)', () => {
		// The recorded jsonReport figures of each line: window mean, window p99 and last-seen age, seconds.
		const recorded = {
			mean: records.map((record) => (record.figures['relist'] as {windowMeanSeconds: number | null}).windowMeanSeconds),
			p99: records.map((record) => (record.figures['relist'] as {windowP99Seconds: number | null}).windowP99Seconds),
			age: records.map((record) => record.figures['lastSeenAgeSeconds'] as number | null),
		};
		for (const [series, values] of Object.entries(recorded)) {
			const expected = records.flatMap((record, index) => (values[index] === null ? [] : [{at: record.at, seconds: values[index]!}]));
			const plotted = vertices(path(series).attributes['d']!);
			assert.equal(plotted.length, expected.length, `${series}: one vertex per recorded value`);
			for (const [index, vertex] of plotted.entries()) {
				// Coordinates are rounded to 0.01 px: 0.01 px of 858 px over 40 s is 0.5 ms; of 380 px over 6 decades, 0.04 %.
				assert.ok(Math.abs(scale.at(vertex.x) - expected[index]!.at) < 1, `${series} ${index}: time`);
				near(scale.seconds(vertex.y), expected[index]!.seconds, 5e-4, `${series} ${index}`);
			}
		}

		// The first scrape has no window yet: the mean starts at the second (t0 + 10 s) with 5 ms.
		assert.equal(recorded.mean[0], null);
		near(recorded.mean[1]!, 0.005, 1e-9, 'recorded mean at t0+10 s');
	});

	test('a log axis of whole decades labelled in seconds, from 1 ms to 1000 s (over the 180 s threshold)', () => {
		assert.equal(root.attributes['data-log-min'], '-3');
		assert.equal(root.attributes['data-log-max'], '3');
		const decades = elements.filter((element) => element.attributes['data-decade'] !== undefined);
		assert.deepEqual(
			decades.map((element) => element.text),
			['1 ms', '10 ms', '100 ms', '1 s', '10 s', '100 s', '1000 s'],
		);
		assert.ok(elements.some((element) => element.text === 'seconds (log scale)'));
		assert.ok(elements.some((element) => element.text.startsWith('time since the first scrape (h:mm:ss), 2024-01-15 14:00:00 UTC')));
	});

	test('the threshold as a horizontal line at 180 s, with its file:line', () => {
		const line = elements.find((element) => element.attributes['class'] === 'threshold')!;
		assert.equal(line.attributes['y1'], line.attributes['y2']);
		near(scale.seconds(Number(line.attributes['y1'])), 180, 5e-4, 'threshold');
		assert.ok(elements.some((element) => element.text === 'threshold 180 s, genericPlegRelistThreshold (pkg/kubelet/kubelet.go:179)'));
	});

	test('the baseline mark as a vertical line at the time b was pressed, and a legend', () => {
		const marks = elements.filter((element) => element.attributes['class'] === 'mark');
		assert.equal(marks.length, 1);
		assert.equal(marks[0]!.attributes['x1'], marks[0]!.attributes['x2']);
		assert.ok(Math.abs(scale.at(Number(marks[0]!.attributes['x1'])) - markAt) < 1);
		const texts = elements.map((element) => element.text);
		for (const label of ['mean relist (10 s window)', 'p99 relist (10 s window)', 'last-seen age', 'threshold', 'baseline mark (b)']) {
			assert.ok(texts.includes(label), label);
		}
	});

	test('a scrape with no relist in its window breaks the line instead of drawing 0', () => {
		const lab = createLabSession({node: 'worker-1', windowSeconds: 10});
		const totals = (count: number, sum: number) => ({count, sum, buckets: [count, count, count, count, count], lastSeen: t0 / 1000});
		// Means: none (first), 5 ms, none (count unchanged over the 10 s window), 5 ms.
		lab.scrape(scrapeAt(t0, totals(100, 0.5)));
		lab.scrape(scrapeAt(t0 + 10_000, totals(110, 0.55)));
		lab.scrape(scrapeAt(t0 + 20_000, totals(110, 0.55)));
		lab.scrape(scrapeAt(t0 + 30_000, totals(120, 0.6)));
		const mean = readSvg(plotSvg(lab.summary())).find((element) => element.attributes['data-series'] === 'mean')!;
		assert.deepEqual(
			vertices(mean.attributes['d']!).map((vertex) => vertex.move),
			[true, true],
		);
	});

	test('with no scrape at all it still draws an empty, valid chart', () => {
		const elements = readSvg(plotSvg(createLabSession({node: 'worker-1', windowSeconds: 10}).summary()));
		assert.equal(elements[0]!.name, 'svg');
		assert.ok(elements.some((element) => element.text === 'PLEG relists on worker-1, no scrape'));
	});
});
