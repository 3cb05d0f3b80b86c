// The real kubelet dumps of test/fixtures and exact edits of them, for building "the same kubelet a bit later".
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {MetricsParseError, parsePlegSample} from '../../source/domain/exposition/parse.js';
import type {Scrape} from '../../source/domain/types.js';

export type DumpVersion = '1.10.0' | '1.14.10' | '1.21.2';

export function readDump(version: DumpVersion): string {
	return readFileSync(new URL(`../fixtures/kubelet-v${version}-datadog-1.prom`, import.meta.url), 'utf8');
}

/**
 * Replaces the values of whole sample lines: `values` maps the text before the value (name and labels, as
 * written in the dump) to the new value text. Throws when a line is not found, so an edit cannot silently miss.
 */
export function setSamples(text: string, values: Record<string, string>): string {
	let edited = text;
	for (const [series, value] of Object.entries(values)) {
		const start = edited.startsWith(`${series} `) ? 0 : edited.indexOf(`\n${series} `) + 1;
		if (start === 0 && !edited.startsWith(`${series} `)) {
			throw new Error(`no sample line ${series}`);
		}

		const end = edited.indexOf('\n', start);
		edited = edited.slice(0, start) + `${series} ${value}` + (end === -1 ? '' : edited.slice(end));
	}

	return edited;
}

/** Replaces the 1-based line `line` of `text`. */
export function replaceLine(text: string, line: number, replacement: string): string {
	const lines = text.split('\n');
	if (line < 1 || line > lines.length) {
		throw new Error(`no line ${line}`);
	}

	lines[line - 1] = replacement;
	return lines.join('\n');
}

/** A scrape whose answer carried a Date header on this machine's clock (a node with no clock offset), as the fake API server's. */
export function scrapeOf(text: string, at: number, latencyMs = 5): Scrape {
	return {at, sample: parsePlegSample(text), latencyMs, dateSeconds: Math.floor(at / 1000)};
}

const duration = 'kubelet_pleg_relist_duration_seconds';
const interval = 'kubelet_pleg_relist_interval_seconds';

/**
 * The v1.21.2 dump one minute later: 60 more relists, of which 10 took ≤ 5 ms, 30 in (5, 10] ms,
 * 15 in (10, 25] ms and 5 in (25, 50] ms, Δsum 0.6 s; 60 more intervals, all in (1, 2.5] s, Δsum 61.2 s;
 * 2 discarded events; last seen 60 s later.
 * Bucket deltas (cumulative): 0.005 +10, 0.01 +40, 0.025 +55, then +60 from 0.05 up to +Inf.
 */
export function v121OneMinuteLater(): string {
	return setSamples(readDump('1.21.2'), {
		[`${duration}_bucket{le="0.005"}`]: '88788', // 88778 + 10
		[`${duration}_bucket{le="0.01"}`]: '112228', // 112188 + 40
		[`${duration}_bucket{le="0.025"}`]: '1.325498e+06', // 1325443 + 55
		[`${duration}_bucket{le="0.05"}`]: '1.600006e+06', // 1599946 + 60
		[`${duration}_bucket{le="0.1"}`]: '1.670323e+06', // 1670263 + 60
		[`${duration}_bucket{le="0.25"}`]: '1.672005e+06', // 1671945 + 60
		[`${duration}_bucket{le="0.5"}`]: '1.672006e+06', // 1671946 + 60
		[`${duration}_bucket{le="1"}`]: '1.672007e+06', // 1671947 + 60
		[`${duration}_bucket{le="2.5"}`]: '1.672008e+06', // 1671948 + 60
		[`${duration}_bucket{le="5"}`]: '1.672009e+06', // 1671949 + 60
		[`${duration}_bucket{le="10"}`]: '1.672009e+06', // 1671949 + 60
		[`${duration}_bucket{le="+Inf"}`]: '1.67201e+06', // 1671950 + 60
		[`${duration}_sum`]: '35471.57548711002', // 35470.97548711002 + 0.6
		[`${duration}_count`]: '1.67201e+06', // 1671950 + 60
		[`${interval}_bucket{le="2.5"}`]: '1.672007e+06', // 1671947 + 60
		[`${interval}_bucket{le="5"}`]: '1.672008e+06', // 1671948 + 60
		[`${interval}_bucket{le="10"}`]: '1.672008e+06', // 1671948 + 60
		[`${interval}_bucket{le="+Inf"}`]: '1.672009e+06', // 1671949 + 60
		[`${interval}_sum`]: '1.7087478835435373e+06', // 1708686.6835435373 + 61.2
		[`${interval}_count`]: '1.672009e+06', // 1671949 + 60
		kubelet_pleg_discard_events: '2', // 0 + 2
		kubelet_pleg_last_seen_seconds: '1.648119337e+09', // 1648119277 + 60
	});
}

const durationBounds = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];

/**
 * The v1.21.2 kubelet just after a restart: its relist histograms count only the given relist durations and
 * intervals (seconds), the discard counter is back at 0. Buckets are the cumulative counts of those values.
 */
export function v121Restarted(durations: number[], intervals: number[] = []): string {
	const values: Record<string, string> = {};
	for (const [name, observed] of [
		[duration, durations],
		[interval, intervals],
	] as const) {
		for (const le of durationBounds) {
			values[`${name}_bucket{le="${le}"}`] = String(observed.filter((value) => value <= (le === '+Inf' ? Infinity : Number(le))).length);
		}

		values[`${name}_sum`] = String(observed.reduce((sum, value) => sum + value, 0));
		values[`${name}_count`] = String(observed.length);
	}

	values['kubelet_pleg_discard_events'] = '0';
	return setSamples(readDump('1.21.2'), values);
}

/** The `le` bounds of the v1.21.2 dump's runtime-operation histograms (exponential, 0.005 × 2.5^n s), as the kubelet writes them. */
export const criBucketBounds = [
	'0.005',
	'0.0125',
	'0.03125',
	'0.078125',
	'0.1953125',
	'0.48828125',
	'1.220703125',
	'3.0517578125',
	'7.62939453125',
	'19.073486328125',
	'47.6837158203125',
	'119.20928955078125',
	'298.0232238769531',
	'745.0580596923828',
	'+Inf',
];

/** Parses `text`, expects a MetricsParseError and returns it. */
export function parseError(text: string): MetricsParseError {
	try {
		parsePlegSample(text);
	} catch (error) {
		assert.ok(error instanceof MetricsParseError, `expected MetricsParseError, got ${String(error)}`);
		return error;
	}

	return assert.fail('expected a MetricsParseError');
}
