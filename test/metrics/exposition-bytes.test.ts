// The exposition reader given a body's bytes (as the HTTP sources hand it over) and given the same body's text (as
// the transport decoded it before: Buffer#toString('utf8')): the same sample, the same recorded lines, or the same
// error (class, message, line, quoted text, NoPlegSeriesError's families), for the whole corpus of the other tests,
// the real dumps and bodies beyond ASCII, valid and not.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import {bodyOf, payloadText} from '../../source/domain/exposition/body.js';
import {MetricsParseError, NoPlegSeriesError, parsePlegSample, plegLines} from '../../source/domain/exposition/parse.js';
import {SimulatedKubelet} from '../../source/demo/simulated-kubelet.js';
import {recordLines} from '../../source/lab/recording.js';
import {readDump, replaceLine, setSamples, v121OneMinuteLater, v121Restarted, type DumpVersion} from './dump.js';
import {cadvisorBody, roughen, twoInstanceBody} from './exposition-bodies.js';

type Outcome =
	{sample: unknown} | {error: {name: string; message: string; line: number | null; detail: unknown; found?: readonly string[]}};

function outcome(read: () => unknown): Outcome {
	try {
		return {sample: read()};
	} catch (error) {
		assert.ok(error instanceof MetricsParseError, `expected a MetricsParseError, got ${String(error)}`);
		return {
			error: {
				name: error.name,
				message: error.message,
				line: error.line,
				detail: error.detail,
				...(error instanceof NoPlegSeriesError ? {found: error.found} : {}),
			},
		};
	}
}

/** The bytes in a fresh Buffer, as a plain Uint8Array, and as a Buffer 1 and 3 bytes into a bigger one (unaligned). */
function byteForms(bytes: Uint8Array): Array<[string, Uint8Array]> {
	const shifted = (by: number) => {
		const big = Buffer.alloc(bytes.length + by + 5, 0x61);
		big.set(bytes, by);
		return big.subarray(by, by + bytes.length);
	};

	return [
		['Buffer', Buffer.from(bytes)],
		['Uint8Array', new Uint8Array(bytes)],
		['Buffer at offset 1', shifted(1)],
		['Buffer at offset 3', shifted(3)],
	];
}

/** Parses the body from its bytes (in each form) and from its text, and expects the same outcome. */
function assertSame(bytes: Uint8Array): Outcome {
	const text = Buffer.from(bytes).toString('utf8');
	const expected = outcome(() => parsePlegSample(text));
	const expectedLines = plegLines(text);
	for (const [form, payload] of byteForms(bytes)) {
		assert.deepEqual(
			outcome(() => parsePlegSample(payload)),
			expected,
			form,
		);
		assert.deepEqual(plegLines(payload), expectedLines, form);
		assert.deepEqual(recordLines(payload), expectedLines, form);
		assert.equal(payloadText(payload), text, form);
	}

	return expected;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const versions: DumpVersion[] = ['1.10.0', '1.14.10', '1.21.2'];

/** What an error outcome says, for the tests that also pin it. */
function errorOf(result: Outcome) {
	assert.ok('error' in result, 'expected an error');
	return result.error;
}

describe('parsePlegSample: the same from bytes as from text', () => {
	test('the real dumps (test/fixtures/*.prom), as read from disk', () => {
		const dir = new URL('../fixtures/', import.meta.url);
		const files = readdirSync(dir).filter((name) => name.endsWith('.prom'));
		assert.equal(files.length, 3);
		for (const name of files) {
			assert.ok('sample' in assertSame(readFileSync(new URL(name, dir))), name);
		}
	});

	test('the dumps edited (dump.ts): later, restarted, with CRLF line ends, roughened', () => {
		for (const text of [
			v121OneMinuteLater(),
			v121Restarted([0.15, 0.2, 0.254], [1.2]),
			setSamples(readDump('1.10.0'), {kubelet_pleg_relist_latency_microseconds_count: '3'}),
			readDump('1.21.2').replaceAll('\n', '\r\n'),
			...versions.map((version) => roughen(readDump(version))),
		]) {
			assert.ok('sample' in assertSame(utf8(text)));
		}
	});

	test('the scripted bodies (exposition-bodies.ts) and the demo kubelet, plain and padded to 250 KB', () => {
		const kubelet = new SimulatedKubelet({now: () => 1_700_000_000_000});
		for (const text of [
			twoInstanceBody(1, 1_700_000_000),
			twoInstanceBody(2, 1_700_000_060),
			kubelet.metricsText(),
			kubelet.paddedMetricsText(250_000),
		]) {
			assert.ok('sample' in assertSame(utf8(text)));
		}
	});

	test('the error cases of the other tests: every message, line and quoted line', () => {
		const v121 = readDump('1.21.2');
		const bodies = [
			'',
			' \n\t\n',
			'<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n',
			'\n\n  <html>\n',
			'{"kind":"Status","apiVersion":"v1","status":"Failure","code":503}',
			replaceLine(v121, 5, 'apiserver_audit_requests_rejected_total 0\0'),
			replaceLine(v121, 680, 'kubelet_pleg_relist_duration_seconds_count'),
			v121.slice(0, v121.trimEnd().lastIndexOf(' ')),
			replaceLine(readDump('1.14.10'), 611, 'kubelet_pleg_relist_duration_seconds_bucket{le="+In'),
			replaceLine(v121, 664, 'kubelet_pleg_last_seen_seconds 16481192x7'),
			replaceLine(v121, 663, '# TYPE kubelet_pleg_last_seen_seconds gauge extra'),
			replaceLine(v121, 890, 'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox"} 3,098,533'),
			replaceLine(v121, 890, 'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox",le=5} 3'),
			['kubelet_pleg_discard_events 1', '# TYPE\tkubelet_pleg_last_seen_seconds\tgauges'].join('\n'),
			cadvisorBody,
			`${cadvisorBody}9 bad\n`,
			[
				'# TYPE kubelet_pleg_relist_duration_seconds histogram',
				'kubernetes_build_info{git_version="v1.28.4"} 1',
				'kubelet_runtime_operations_total{operation_type="list_podsandbox"} 12',
			].join('\n'),
			'{le="0.005" 12',
			`{le="0.005" 12\n${v121}`,
			replaceLine(replaceLine(v121, 680, 'kubelet_pleg_relist_duration_seconds_count'), 3, '"quoted" 5'),
			`{x="${'a'.repeat(200)}"} 1`,
			'{\u001b[2J} 1',
		];
		for (const text of bodies) {
			assert.ok('error' in assertSame(utf8(text)), JSON.stringify(text.slice(0, 60)));
		}

		assert.deepEqual(errorOf(assertSame(utf8(cadvisorBody))).found, [
			'cadvisor_version_info',
			'container_cpu_usage_seconds_total',
			'container_memory_working_set_bytes',
		]);
	});

	test('bytes that are not UTF-8 (gzip, a stray or cut sequence, overlong, a surrogate, U+FFFD itself): the same line', () => {
		const cases: Array<[number[], number]> = [
			[[0x8b, 0x08, 0xff], 2],
			[[0x1f, 0x8b, 0x08, 0x00], 2], // a NUL: the NUL error comes first
			[[0xc3], 2], // cut before its continuation byte, at the end of a line
			[[0xe2, 0x82], 2],
			[[0xc0, 0xaf], 2], // overlong '/'
			[[0xe0, 0x80, 0xaf], 2],
			[[0xed, 0xa0, 0x80], 2], // U+D800
			[[0xf4, 0x90, 0x80, 0x80], 2], // beyond U+10FFFF
			[[0xf5, 0x80], 2],
			[[0xef, 0xbf, 0xbd], 2], // U+FFFD as written
			[[0xc3, 0xa9, 0x20, 0xe2, 0x82, 0xac, 0x20, 0xf0, 0x9f, 0x98, 0x80, 0x20, 0x80], 2], // é € 😀, then a stray byte
		];
		for (const [bad, line] of cases) {
			const bytes = Buffer.concat([utf8('go_goroutines 42\n# HELP x '), Buffer.from(bad), utf8('\nkubelet_pleg_discard_events 1\n')]);
			const error = errorOf(assertSame(bytes));
			assert.equal(error.line, line, Buffer.from(bad).toString('hex'));
			assert.match(error.message, /^binary response \((invalid UTF-8|NUL byte)\), not Prometheus text$/);
		}

		// Far into the body, past many words of ASCII and a valid sequence.
		const dump = readDump('1.21.2');
		const far = Buffer.concat([utf8(replaceLine(dump, 7, '# HELP x caf\u00e9')), Buffer.from([0x23, 0x20, 0xff, 0x0a])]);
		assert.equal(errorOf(assertSame(far)).line, dump.split('\n').length);
	});

	test('text beyond ASCII in kept lines, skipped lines, the last line and an error quote', () => {
		const dump = readDump('1.21.2');
		const lines = dump.split('\n');
		const buildInfo = lines.findIndex((line) => line.startsWith('kubernetes_build_info')) + 1;
		const unicode = [
			// A kept line: the version label as written.
			replaceLine(dump, buildInfo, 'kubernetes_build_info{git_version="v1.21.2-\u00fcber\u20ac\u{1f600}",major="1",minor="21"} 1'),
			// HELP text and a skipped sample beyond ASCII before the PLEG lines: offsets in bytes run ahead of text.
			replaceLine(replaceLine(dump, 3, '# HELP go_x \u00b5s \u4e2d\u6587 \u{1f600}'), 4, 'go_x{l="\u00e9\u00e9"} 1'),
			// An error quote beyond ASCII, after lines beyond ASCII.
			replaceLine(replaceLine(dump, 3, '# HELP go_x \u00b5s'), 680, 'kubelet_pleg_relist_duration_seconds_count{x="\u00e9\u{1f600}"}'),
			replaceLine(dump, 50, '\u00e9t\u00e9 1'),
			replaceLine(dump, 50, '\u2028 1'),
			// A kept CRI line with a label beyond ASCII, and its name followed by a blank beyond ASCII.
			replaceLine(dump, 890, 'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox",x="\u00e9"} 3'),
			replaceLine(dump, 890, 'kubelet_runtime_operations_duration_seconds_count\u00a0{operation_type="list_podsandbox"} 3'),
			// The last line: cut, or followed by white space beyond ASCII (which trimEnd drops).
			`${dump}kubelet_pleg_discard_events{x="\u00e9"}`,
			`${dump}\u00a0\n\u3000\n`,
			`${dump}x{y="\u00e9"} 1\u00a0\n\u2029`,
			// Names ending in white space beyond ASCII, in a TYPE line and a PLEG sample.
			`# TYPE kubelet_pleg_discard_events\u00a0counter\n${dump}`,
			`kubelet_pleg_discard_events\u00a0 1\n${dump}`,
			`kubelet_pleg_discard_events\r{} 1\n${dump}`,
		];
		for (const text of unicode) {
			assertSame(utf8(text));
		}

		const kept = assertSame(utf8(unicode[0]!));
		assert.ok('sample' in kept);
		assert.equal((kept.sample as {kubeletVersion: string}).kubeletVersion, 'v1.21.2-\u00fcber\u20ac\u{1f600}');
		const quoted = errorOf(assertSame(utf8(unicode[2]!)));
		assert.equal(quoted.line, 680);
		assert.equal(quoted.message, 'line 680: sample has no value: kubelet_pleg_relist_duration_seconds_count{x="\u00e9\u{1f600}"}');
	});

	test('white space and a byte-order mark before the first line, and bodies of white space only', () => {
		const dump = readDump('1.21.2');
		for (const text of [
			`\ufeff${dump}`,
			`\ufeff<html>\n`,
			`\u00a0\n \u3000<html>\n`,
			`\u00a0\u2028\n\t\ufeff\n`,
			'\ufeff',
			`\u00a0${dump}`,
			`\ufeff\ufeffkubelet_pleg_discard_events 1\n`,
			`\n\n\ufeffkubelet_pleg_discard_events 1\n`,
			`\u00e9<html>\n`,
		]) {
			assertSame(utf8(text));
		}

		assert.equal(errorOf(assertSame(utf8('\u00a0\n \u3000<html>\n'))).line, 2);
		assert.equal(errorOf(assertSame(utf8('\u00a0\u2028\n\t\ufeff\n'))).message, 'empty response');
	});

	test('a body without PLEG series past 64 KB: the families named are read from the same first 64 KB', () => {
		const filler = Array.from({length: 1500}, (_, index) => `# TYPE filler_${index} gauge\nfiller_${index}{l="v"} ${index}`).join('\n');
		const ascii = `${cadvisorBody}${filler}\n`;
		assert.ok(ascii.length > 64 * 1024);
		assert.deepEqual(errorOf(assertSame(utf8(ascii))).found, [
			'cadvisor_version_info',
			'container_cpu_usage_seconds_total',
			'container_memory_working_set_bytes',
		]);
		// Beyond ASCII the 64 KB are code units, not bytes: the cut falls on another line in the bytes.
		const wide = `# HELP wide ${'\u4e2d'.repeat(30_000)}\n# TYPE wide gauge\nwide 1\n${ascii}`;
		assertSame(utf8(wide));
		const under = `# TYPE a gauge\na{l="${'\u00e9'.repeat(40_000)}"} 1\n# TYPE b gauge\nb 1\n# TYPE c gauge\nc 1\n`;
		assert.ok(under.length <= 64 * 1024 && utf8(under).length > 64 * 1024);
		assert.deepEqual(errorOf(assertSame(utf8(under))).found, ['a', 'b', 'c']);
	});

	test('feature gates: only the EventedPLEG one is kept, from bytes as from text', () => {
		const gates = Array.from({length: 200}, (_, index) => `kubernetes_feature_enabled{name="Gate${index}",stage="BETA"} 1`);
		const text = [
			'# TYPE kubernetes_feature_enabled gauge',
			...gates.slice(0, 100),
			'kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 1',
			'kubernetes_feature_enabled_other{name="EventedPLEG"} 1',
			...gates.slice(100),
			'kubelet_pleg_discard_events 0',
			'',
		].join('\n');
		const result = assertSame(utf8(text));
		assert.ok('sample' in result);
		assert.equal((result.sample as {eventedPlegGate: boolean}).eventedPlegGate, true);
		assert.deepEqual(plegLines(utf8(text)), [
			'# TYPE kubernetes_feature_enabled gauge',
			'kubernetes_feature_enabled{name="EventedPLEG",stage="ALPHA"} 1',
			'kubelet_pleg_discard_events 0',
		]);
	});
});

describe('the body reader', () => {
	test('lines are found at the same places in bytes and text of an ASCII body; offsets differ beyond ASCII', () => {
		const text = 'a 1\n\n# TYPE b gauge\nb 2';
		const fromText = bodyOf(text);
		const fromBytes = bodyOf(utf8(text));
		for (let at = 0; at <= text.length; at++) {
			assert.equal(fromBytes.newline(at), fromText.newline(at));
			assert.equal(fromBytes.lastNewline(at), fromText.lastNewline(at));
		}

		assert.equal(fromBytes.find('gauge', 0, text.length), fromText.find('gauge', 0, text.length));
		assert.equal(fromBytes.find('gauge', 0, 18), -1);
		assert.equal(fromText.find('gauge', 0, 18), -1);
		assert.equal(bodyOf(utf8('\u00e9\nx')).newline(0), 2);
		assert.equal(bodyOf('\u00e9\nx').newline(0), 1);
	});
});
