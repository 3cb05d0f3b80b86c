// cutToPlegLines: whenever it gives a text, parsePlegSample reads that text exactly as it reads the whole body
// (the same sample, or the same error with the same line number), and the recorder keeps the same lines.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {cutToPlegLines, parsePlegSample, plegLines} from '../../../source/domain/exposition/parse.js';
import {cadvisorBody, roughen, twoInstanceBody} from '../exposition-bodies.js';
import {readDump} from '../dump.js';

type Outcome = {sample: unknown; lines: string[]} | {error: string; message: string; line: unknown; detail: unknown; found: unknown};

function outcome(text: string): Outcome {
	try {
		return {sample: parsePlegSample(text), lines: plegLines(text)};
	} catch (error) {
		const {name, message, line, detail, found} = error as Error & {line?: unknown; detail?: unknown; found?: unknown};
		return {error: name, message, line, detail, found};
	}
}

/** The cut of `body` (from a copy: the cut overwrites its bytes), checked against the whole; null when declined. */
function checkCut(body: Buffer, name: string): string | null {
	const cut = cutToPlegLines(Buffer.from(body));
	if (cut !== null) {
		assert.deepEqual(outcome(cut), outcome(body.toString('utf8')), name);
	}

	return cut;
}

const dumps = [readDump('1.10.0'), readDump('1.14.10'), readDump('1.21.2')];

test('cutToPlegLines: a real dump is cut to a fraction of its text and reads the same', () => {
	for (const dump of dumps) {
		const cut = checkCut(Buffer.from(dump), 'dump');
		assert.ok(cut !== null);
		assert.equal(cut.split('\n').length, dump.split('\n').length);
		assert.ok(cut.length < dump.length / 2, `${cut.length} of ${dump.length}`);
	}
});

test('cutToPlegLines: bodies at the edges of the text format read the same, or are left whole', () => {
	const v121 = dumps[2]!;
	const bodies: Array<[string, string | Buffer, 'cut' | 'whole']> = [
		['two series of one histogram', twoInstanceBody(1, 1700000000), 'cut'],
		['tabs, exemplars, a family without TYPE, a duplicate', roughen(v121), 'cut'],
		['CRLF line endings', v121.replaceAll('\n', '\r\n'), 'cut'],
		[
			'blank lines and blanks before lines',
			`\n\n  ${v121.replaceAll('\n# TYPE', '\n\t# TYPE').replaceAll('\nkubelet_', '\n  kubelet_')}`,
			'cut',
		],
		['no newline at the end', v121.trimEnd(), 'cut'],
		['whitespace after the last line', `${v121}\n \t\n\n`, 'cut'],
		['the last line cut short', v121.slice(0, v121.lastIndexOf(' ')), 'cut'],
		['a line that cannot begin one, far from any PLEG line', v121.replace('\ngo_goroutines', '\n{go_goroutines'), 'cut'],
		['a vertical tab alone on a line', v121.replace('\ngo_goroutines', '\n\u000b\ngo_goroutines'), 'cut'],
		[
			'an unknown metric type on a PLEG family',
			v121.replace('kubelet_pleg_relist_duration_seconds histogram', 'kubelet_pleg_relist_duration_seconds histo'),
			'cut',
		],
		['a bad PLEG sample value', v121.replace(/^(kubelet_pleg_relist_duration_seconds_count) \S+$/m, '$1 many'), 'cut'],
		['HTML first, then exposition', `<html>\n${v121}`, 'cut'],
		['a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(v121)]), 'whole'],
		['a NUL byte', `${v121}\u0000\n`, 'whole'],
		['non-ASCII help text', v121.replace('# HELP go_goroutines', '# HELP go_goroutines caf\u00e9'), 'whole'],
		['no PLEG series (cAdvisor)', cadvisorBody, 'whole'],
		['an HTML page', '<!doctype html>\n<html><title>Bad Gateway</title></html>\n', 'whole'],
		['empty', '', 'whole'],
		['only whitespace', ' \n\t\n', 'whole'],
	];
	for (const [name, body, expected] of bodies) {
		const cut = checkCut(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), name);
		assert.equal(cut === null ? 'whole' : 'cut', expected, name);
	}
});

test('cutToPlegLines: 1,500 damaged dumps read the same cut as whole', () => {
	// A seeded generator, so a failure names a case that can be run again.
	let seed = 0x9e3779b9;
	const random = () => {
		seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
		return seed / 2 ** 32;
	};

	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
	const damage = ['<', '{', '}', '1', ' ', '\t', '\r', '\n', '#', '"', '=', 'k', 'x', '\u000b', '\u0001', '# TYPE ', 'kubelet_pleg_'];
	let cutCount = 0;
	for (let index = 0; index < 1500; index++) {
		let text = pick(dumps);
		// Damage near the PLEG lines half the time: most of a body is lines the cut leaves out.
		const near = text.indexOf('kubelet_pleg_');
		for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
			const at = random() < 0.5 ? near + Math.floor((random() - 0.5) * 4000) : Math.floor(random() * text.length);
			const where = Math.max(0, Math.min(text.length, at));
			const kind = random();
			text =
				kind < 0.4
					? text.slice(0, where) + pick(damage) + text.slice(where)
					: kind < 0.8
						? text.slice(0, where) + text.slice(where + 1 + Math.floor(random() * 40))
						: text.slice(0, where);
		}

		if (checkCut(Buffer.from(text, 'utf8'), `case ${index}`) !== null) {
			cutCount++;
		}
	}

	// Most damaged bodies still hold a PLEG sample line: the comparison above ran on them, not only the declines.
	assert.ok(cutCount > 1000, `${cutCount} of 1,500 were cut`);
});
