// readRecording: a --replay file read one line at a time (64 KiB chunks), never whole, with the same records and
// the same errors as the whole text would give; and the order rule: a line that goes back in time is rejected.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {maxRecordBytes, readRecording} from '../../source/lab/recorder.js';
import {parseRecording, type RecordLine} from '../../source/lab/recording.js';
import {SourceFailure} from '../../source/sources/failure.js';
import {labRecords, recordingText} from './exposition.js';

const home = mkdtempSync(join(tmpdir(), 'pleg-top-recording-file-'));
after(() => rmSync(home, {recursive: true, force: true}));

function fileWith(name: string, text: string | Buffer): string {
	const file = join(home, name);
	writeFileSync(file, text);
	return file;
}

/** The failure's words, or the error's. */
function failureOf(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		return error instanceof SourceFailure ? `config: ${error.failure.summary}` : (error as Error).message;
	}

	return 'no error';
}

describe('readRecording', () => {
	test('records longer than a chunk, and a character split across chunks, read as the whole text reads them', () => {
		// Each record padded past 64 KiB with a 3-byte character ("€"), so lines and characters straddle chunk ends.
		const records: RecordLine[] = labRecords().map((record, index) => ({...record, node: `worker-${'€'.repeat(30_000 + index)}`}));
		const text = recordingText(records);
		assert.ok(Buffer.byteLength(text) > 5 * 64 * 1024);
		const file = fileWith('long-lines.jsonl', text);
		assert.deepEqual([...readRecording(file)], parseRecording(text));
		assert.equal([...readRecording(file)].length, 5);
		// Each iteration reads the file afresh.
		assert.deepEqual(
			[...readRecording(file)].map((record) => record.at),
			records.map((record) => record.at),
		);
	});

	test('a last line cut short (a copy taken while recording) is dropped; blank lines are skipped', () => {
		const text = recordingText(labRecords());
		const file = fileWith('cut.jsonl', `${text}\n\n${text.slice(0, 200)}`);
		assert.equal([...readRecording(file)].length, 5);
	});

	test('a line that goes back in time is rejected with both lines named, when it is reached', () => {
		const [a, b, c, d, e] = labRecords();
		const file = fileWith('shuffled.jsonl', recordingText([a!, b!, d!, c!, e!]));
		// The start is fine: the plan is made; reading on stops at line 4.
		const records = readRecording(file);
		assert.equal(
			failureOf(() => [...records]),
			'line 4: recorded at 2024-01-15T14:00:20.000Z, before line 3 (2024-01-15T14:00:30.000Z): the lines are not in ' +
				"time order, and pleg-top rejects the recording rather than show impossible figures; sort it first: jq -c -s 'sort_by(.at)[]'",
		);
		// Two scrapes at the same time are in order (neither goes back).
		assert.equal([...readRecording(fileWith('same-time.jsonl', recordingText([a!, {...b!, at: a!.at}])))].length, 2);
	});

	test('what cannot be replayed: usage failures (exit 2) that name the file and the line', () => {
		assert.match(
			failureOf(() => readRecording(join(home, 'missing.jsonl'))),
			/^config: cannot read the recording .*missing\.jsonl: ENOENT$/,
		);
		assert.match(
			failureOf(() => readRecording(home)),
			/^config: cannot read the recording .*: EISDIR$/,
		);
		assert.match(
			failureOf(() => readRecording(fileWith('empty.jsonl', '\n\n'))),
			/^config: .*empty\.jsonl holds no recorded scrape$/,
		);
		assert.match(
			failureOf(() => readRecording(fileWith('not-json.jsonl', 'not json\n'))),
			/^config: .*not-json\.jsonl: line 1: not JSON/,
		);
		// A line without end is not read into memory whole: it stops at the bound.
		const endless = fileWith('endless.jsonl', Buffer.alloc(maxRecordBytes + 64 * 1024, 'a'));
		assert.match(
			failureOf(() => readRecording(endless)),
			/^config: .*endless\.jsonl: line 1: longer than 16 MiB: not a record$/,
		);
		assert.match(
			failureOf(() => readRecording(fileWith('no-time.jsonl', '{"at":1e300,"node":"n","lines":[]}\n'))),
			/line 1: no "at" time/,
		);
	});
});
