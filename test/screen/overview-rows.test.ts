// The overview's rows as pure functions: why an error row failed, in a few words; the `slow` flag against the
// median p99 of the other nodes (medians worked out by hand); worst-first ranking with slow in it; the same fault
// counted the same way before and after a good read; every sort column both ways; the name filter.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {Failure, NodeInfo} from '../../source/domain/types.js';
import type {PrometheusFigures} from '../../source/domain/fleet/prometheus-feed.js';
import {prometheusFeedKind, type PrometheusFeed} from '../../source/domain/fleet/prometheus-feed.js';
import {proxyFeedKind} from '../../source/domain/fleet/proxy-feed.js';
import type {FeedState} from '../../source/domain/feed.js';
import {parsePlegSample} from '../../source/domain/exposition/parse.js';
import {
	initialOverviewState,
	nodeView,
	overviewReducer,
	type NodeView,
	type OverviewState,
} from '../../source/domain/fleet/overview-state.js';
import {
	failureWord,
	filterRows,
	flagSlow,
	median,
	nextSort,
	notReadyDue,
	overviewRow,
	shownReadSeconds,
	sortColumns,
	sortedRows,
	sortRows,
	staleAfterMs,
	sortWords,
	type OverviewRow,
	type SortColumn,
} from '../../source/screen/overview-rows.js';
import {overviewTableLines} from '../../source/screen/panes/overview-table.js';
import {lineText} from '../../source/screen/layout/line.js';
import {overviewRowOf} from '../helpers/overview-row.js';
import {countdownSecondsLeft} from '../../source/domain/health/health.js';

const at = 1_700_000_000_000;

/** One node's Prometheus answer: its window p99 in ms, the age of its last relist in s. */
function answer(node: string, p99Ms: number | null, ageSeconds = 1): PrometheusFigures {
	return {
		node,
		at,
		windowSeconds: 60,
		kubeletVersion: 'v1.28.4',
		lastSeenAgeSeconds: ageSeconds,
		lastSeenScrapedAt: null,
		meanSeconds: p99Ms === null ? null : p99Ms / 2000,
		p50: null,
		p90: null,
		p99: p99Ms === null ? null : p99Ms / 1000,
		ratePerSecond: 1,
		intervalMeanSeconds: 1,
		discardEvents: 0,
		lifetimeCount: 1000,
		lifetimeSum: 10,
	};
}

const prometheusReduce = overviewReducer(prometheusFeedKind);

/** Node views from Prometheus answers (a number: the p99 in ms, age 1 s; or a whole answer). */
function prometheusViews(nodes: Record<string, number | null | PrometheusFigures>): NodeView[] {
	let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
	state = prometheusReduce(state, {type: 'names', names: Object.keys(nodes), at});
	for (const [name, value] of Object.entries(nodes)) {
		const figures = value === null || typeof value === 'number' ? answer(name, value) : value;
		state = prometheusReduce(state, {type: 'feed', node: name, action: {type: 'figures', figures, latencyMs: 5}});
	}

	return [...state.nodes.values()].map((entry) => nodeView(prometheusFeedKind, entry, at));
}

const byName = (rows: OverviewRow[]) => new Map(rows.map((row) => [row.name, row]));

/** The rows at `now` of nodes each read every `cycleMs` (1 s: no rate bound). */
const rowsOf = (views: NodeView[], now = at, cycleMs = 1000) => sortedRows(views, {now, cycleMs});

const forbidden: Failure = {
	kind: 'forbidden',
	summary: 'context "ci" (user "viewer") is not allowed to get nodes/proxy on node "a"',
	details: ['needed: get on nodes/proxy (ClusterRole rule: apiGroups [""], resources ["nodes/proxy"], verbs ["get"])'],
};

describe('the error row says why, short', () => {
	const cases: Array<[Failure['kind'], string, string]> = [
		['forbidden', 'context "ci" (user "viewer") is not allowed to get nodes/proxy on node "a"', '403 nodes/proxy'],
		[
			'forbidden',
			'the kubelet at https://10.0.0.5:10250 does not allow the token of --token-file to get nodes/metrics',
			'403 nodes/metrics',
		],
		['kubelet-unreachable', 'the API server cannot reach the kubelet on node "a"', 'kubelet unreachable'],
		['timeout', 'no answer from https://127.0.0.1:6443 within 5s', 'timeout'],
		['not-found', 'node "a" does not exist in cluster "kind"', '404 no such node'],
		['not-found', 'Prometheus has no PLEG series for node "a" now', 'no series'],
		['unauthorized', 'https://127.0.0.1:6443 rejected the credentials of context "ci" (user "viewer")', '401 unauthorized'],
		['network', 'cannot reach https://127.0.0.1:6443: connection refused', 'network error'],
		['network', 'the answer from https://127.0.0.1:6443 was cut off before its end', 'answer cut off'],
		['http', 'https://127.0.0.1:6443 answered 500 Internal Server Error to GET /api/v1/nodes/a/proxy/metrics', 'HTTP 500'],
		['tls', 'the certificate of https://127.0.0.1:6443 is not trusted: self-signed', 'TLS error'],
		['parse', 'metrics could not be parsed (line 1): https://127.0.0.1:6443 answered with an HTML page, not kubelet metrics', 'unparsable'],
	];
	for (const [kind, summary, word] of cases) {
		test(`${kind}: "${word}"`, () => {
			assert.equal(failureWord({kind, summary, details: []}), word);
		});
	}
});

describe('slow: window p99 ≥ 10 × the median p99 of the other nodes', () => {
	test('median: the middle value, or the mean of the two middle ones', () => {
		assert.equal(median([12, 10, 11]), 11);
		assert.equal(median([40, 10, 30, 20]), 25);
		assert.equal(median([]), null);
	});

	test('p99s 10, 12, 11, 150 ms: the 150 ms node is slow (median of the others 11 ms, 10 × = 110 ms); no other is', () => {
		const rows = byName(rowsOf(prometheusViews({a: 10, b: 12, c: 11, d: 150})));
		assert.equal(rows.get('d')!.slow, true);
		assert.equal(rows.get('d')!.state, 'slow');
		assert.equal(rows.get('d')!.word, 'slow');
		// b: the others are 10, 11, 150 ms, median 11 ms; 12 < 110.
		for (const name of ['a', 'b', 'c']) assert.deepEqual([rows.get(name)!.slow, rows.get(name)!.state], [false, 'ok'], name);
		// Slow ranks above ok; the ok ones by name, so they keep their places.
		assert.deepEqual(
			rowsOf(prometheusViews({a: 10, b: 12, c: 11, d: 150})).map((row) => row.name),
			['d', 'a', 'b', 'c'],
		);
	});

	test('at exactly 10 × the median it is slow; just under it is not', () => {
		assert.equal(byName(rowsOf(prometheusViews({a: 10, b: 12, c: 11, d: 110}))).get('d')!.state, 'slow');
		assert.equal(byName(rowsOf(prometheusViews({a: 10, b: 12, c: 11, d: 109}))).get('d')!.state, 'ok');
	});

	test('an even number of others: 10, 20, 30, 40 → median 25 ms, so 250 ms is slow and 40 ms is not', () => {
		const rows = byName(rowsOf(prometheusViews({a: 10, b: 20, c: 30, d: 40, e: 250})));
		assert.equal(rows.get('e')!.state, 'slow');
		// d: the others are 10, 20, 30, 250 ms, median 25 ms.
		assert.equal(rows.get('d')!.state, 'ok');
	});

	test('one other node is no median: 10 and 500 ms, neither is flagged; nodes without a p99 do not count', () => {
		assert.deepEqual(
			rowsOf(prometheusViews({a: 10, b: 500})).map((row) => row.state),
			['ok', 'ok'],
		);
		assert.deepEqual(
			rowsOf(prometheusViews({a: 10, b: 500, c: null})).map((row) => [row.name, row.state]),
			[
				['a', 'ok'],
				['b', 'ok'],
				['c', 'ok'],
			],
		);
		assert.equal(byName(rowsOf(prometheusViews({a: 10, b: 10, c: 100}))).get('c')!.state, 'slow');
	});

	test('a node that is unhealthy or lagging keeps its state (it ranks above slow) and carries the flag', () => {
		const rows = byName(
			rowsOf(prometheusViews({a: 10, b: 12, c: 11, stalled: answer('stalled', 200, 400), lagging: answer('lagging', 200, 30)})),
		);
		assert.deepEqual([rows.get('stalled')!.state, rows.get('stalled')!.slow], ['unhealthy', true]);
		assert.deepEqual([rows.get('lagging')!.state, rows.get('lagging')!.word, rows.get('lagging')!.slow], ['warn', 'lagging', true]);
	});

	test("a failing node's old p99 neither is flagged nor counts in the median", () => {
		const rows = overviewRowsWithFailure();
		// c's last good p99 was 150 ms; it now fails. d at 100 ms: the others read now are 10 and 9 ms → median 9.5.
		assert.deepEqual([rows.get('c')!.state, rows.get('c')!.slow], ['error', false]);
		assert.equal(rows.get('d')!.state, 'slow');
	});

	test('flagSlow leaves gone nodes alone', () => {
		const base = prometheusViews({a: 10, b: 11, c: 12, d: 500}).map((view) => overviewRow(view, {now: at, cycleMs: 1000}));
		const gone = base.map((row) => (row.name === 'd' ? {...row, gone: true} : row));
		assert.equal(flagSlow(gone).find((row) => row.name === 'd')!.slow, false);
	});
});

function overviewRowsWithFailure(): Map<string, OverviewRow> {
	let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
	state = prometheusReduce(state, {type: 'names', names: ['a', 'b', 'c', 'd'], at});
	for (const [name, p99] of [
		['a', 10],
		['b', 9],
		['c', 150],
		['d', 100],
	] as const) {
		state = prometheusReduce(state, {type: 'feed', node: name, action: {type: 'figures', figures: answer(name, p99), latencyMs: 5}});
	}

	state = prometheusReduce(state, {type: 'feed', node: 'c', action: {type: 'failure', failure: forbidden, at: at + 1000}});
	return byName(
		rowsOf(
			[...state.nodes.values()].map((entry) => nodeView(prometheusFeedKind, entry, at + 1000)),
			at + 1000,
		),
	);
}

describe('worst first', () => {
	test('unhealthy, critical by the time left, errors and unknowns, warn, slow, ok by name; gone nodes last', () => {
		let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
		const names = ['ok-1', 'ok-2', 'lagging', 'slow', 'error', 'waiting', 'unhealthy', 'ok-3', 'gone', 'critical-150', 'critical-170'];
		state = prometheusReduce(state, {type: 'names', names, at});
		const answers: Record<string, PrometheusFigures> = {
			'ok-1': answer('ok-1', 10),
			'ok-2': answer('ok-2', 12),
			'ok-3': answer('ok-3', 11),
			lagging: answer('lagging', 11, 30),
			slow: answer('slow', 150),
			unhealthy: answer('unhealthy', 12, 400),
			gone: answer('gone', 10),
			'critical-150': answer('critical-150', 11, 150),
			'critical-170': answer('critical-170', 11, 170),
		};
		for (const [name, figures] of Object.entries(answers))
			state = prometheusReduce(state, {type: 'feed', node: name, action: {type: 'figures', figures, latencyMs: 5}});
		state = prometheusReduce(state, {type: 'feed', node: 'error', action: {type: 'failure', failure: forbidden, at}});
		state = prometheusReduce(state, {type: 'names', names: names.filter((name) => name !== 'gone'), at: at + 1000});
		const rows = rowsOf(
			[...state.nodes.values()].map((entry) => nodeView(prometheusFeedKind, entry, at + 1000)),
			at + 1000,
		);
		assert.deepEqual(
			rows.map((row) => [row.name, row.reason ?? row.word]),
			[
				['unhealthy', 'unhealthy'],
				// 180 - 170 - 1 s since the read = 9 s left, before 180 - 150 - 1 = 29 s.
				['critical-170', 'critical'],
				['critical-150', 'critical'],
				['error', '403 nodes/proxy'],
				['waiting', 'waiting'],
				['lagging', 'lagging'],
				['slow', 'slow'],
				['ok-1', 'ok'],
				['ok-2', 'ok'],
				['ok-3', 'ok'],
				['gone', 'gone'],
			],
		);
		assert.deepEqual(
			rows.map((row) => row.notReadyInSeconds),
			[null, 9, 29, null, null, 149, null, null, null, null, null],
		);
	});
});

describe("the age judged is the one the kubelet reported at the read, not pleg-top's polling gap", () => {
	/** One node polled through the API server: a read at `at` whose gauge says the last relist was `ageSeconds` before. */
	function readAt(ageSeconds: number): NodeView[] {
		const text = `# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds ${at / 1000 - ageSeconds}\n`;
		const reduce = overviewReducer(proxyFeedKind, 60_000);
		let state: OverviewState<FeedState> = initialOverviewState(10);
		state = reduce(state, {type: 'names', names: ['n'], at});
		state = reduce(state, {type: 'feed', node: 'n', action: {type: 'scrape', scrape: {at, sample: parsePlegSample(text), latencyMs: 5}}});
		return [...state.nodes.values()].map((entry) => nodeView(proxyFeedKind, entry, at + 16_000));
	}

	const only = (views: NodeView[], cycleMs: number) => rowsOf(views, at + 16_000, cycleMs)[0]!;

	test('300 nodes at --max-rps 20 (a 15 s cycle), read 16 s ago with an age of 1 s: ok, last seen 1s, read 16s ago', () => {
		const row = only(readAt(1), 15_000);
		assert.deepEqual(
			[row.state, row.word, row.band, row.lastSeenAgeSeconds, row.readAgeSeconds, row.notReadyInSeconds],
			['ok', 'ok', 'ok', 1, 16, null],
		);
	});

	test('the same read on a 1 s cycle is older than 2 cycles + 5 s: stale (unknown), never lagging', () => {
		const row = only(readAt(1), 1000);
		assert.deepEqual([row.state, row.word, row.band], ['unknown', 'stale', 'unknown']);
		assert.equal(staleAfterMs(1000), 7000);
	});

	test('an age of 100 s at the read is critical; NotReady in 180 - 100 - 16 = 64 s', () => {
		const row = only(readAt(100), 15_000);
		assert.deepEqual([row.state, row.word, row.band, row.notReadyInSeconds], ['critical', 'critical', 'critical', 64]);
	});

	test("an age past the threshold at the read is unhealthy, even once the read is stale: it is the kubelet's own figure", () => {
		const row = only(readAt(200), 1000);
		assert.deepEqual([row.state, row.band, row.lastSeenAgeSeconds], ['unhealthy', 'unhealthy', 200]);
	});

	test('170 s at the read, 16 s since: 180 − 186 = −6 s, due now (0 whole seconds left or less), critical', () => {
		const row = only(readAt(170), 15_000);
		assert.deepEqual(
			[row.state, row.word, row.band, row.notReadyInSeconds, row.notReadyLeftSeconds],
			['critical', 'critical', 'critical', -6, -6],
		);
	});

	test('a lagging read (80 s) whose countdown ran out on a long cycle (100 s since, 60 s cycle) is critical, due now', () => {
		const text = `# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds ${at / 1000 - 80}\n`;
		const reduce = overviewReducer(proxyFeedKind, 60_000);
		let state: OverviewState<FeedState> = initialOverviewState(10);
		state = reduce(state, {type: 'names', names: ['n'], at});
		state = reduce(state, {type: 'feed', node: 'n', action: {type: 'scrape', scrape: {at, sample: parsePlegSample(text), latencyMs: 5}}});
		const views = [...state.nodes.values()].map((entry) => nodeView(proxyFeedKind, entry, at + 100_000));
		const row = rowsOf(views, at + 100_000, 60_000)[0]!;
		// 180 − (80 + 100) = 0: no whole second left. The band stays the one at the read (warn: 5 s < 80 s < 90 s).
		assert.deepEqual([row.state, row.band, row.notReadyInSeconds, row.notReadyLeftSeconds], ['critical', 'warn', 0, 0]);
	});

	test('the seconds shown: 170.6 s at the read, 5.6 s since → last seen 2m50s, read 6s (176 − 170), NotReady in 4s (180 − 176)', () => {
		assert.equal(shownReadSeconds(170.6, 5.6), 6);
		assert.equal(Math.floor(170.6) + shownReadSeconds(170.6, 5.6)! + countdownSecondsLeft(170.6 + 5.6, 180), 180);
		// 170.2 + 5.6 = 175.8: read 5s, 5s left.
		assert.equal(shownReadSeconds(170.2, 5.6), 5);
		assert.equal(countdownSecondsLeft(175.8, 180), 5);
		// No last seen: the read's own whole seconds; no read: none.
		assert.equal(shownReadSeconds(null, 5.6), 5);
		assert.equal(shownReadSeconds(3, null), null);
	});
});

describe('a countdown run out ranks with the unhealthy', () => {
	test('due now (0 or −3 s left) sorts among the unhealthy by name, before every critical still counting', () => {
		const rows = sortRows([
			overviewRowOf('c-critical-9', {state: 'critical', notReadyInSeconds: 8.5, notReadyLeftSeconds: 9}),
			overviewRowOf('b-unhealthy', {state: 'unhealthy', word: 'unhealthy', band: 'unhealthy'}),
			overviewRowOf('d-due-0', {state: 'critical', notReadyInSeconds: -0.4, notReadyLeftSeconds: 0}),
			overviewRowOf('a-due-minus-3', {state: 'critical', notReadyInSeconds: -3.2, notReadyLeftSeconds: -3}),
			overviewRowOf('e-ok'),
		]);
		assert.deepEqual(
			rows.map((row) => row.name),
			['a-due-minus-3', 'b-unhealthy', 'd-due-0', 'c-critical-9', 'e-ok'],
		);
		assert.deepEqual(
			rows.map((row) => notReadyDue(row)),
			[true, false, true, false, false],
		);
	});
});

describe('the same fault is counted the same way whether or not a good scrape came first', () => {
	const sample = parsePlegSample('# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1699999999\n');
	const info = (name: string): NodeInfo => ({
		name,
		kubeletVersion: 'v1.28.4',
		ready: {status: 'True', reason: 'KubeletReady', message: null, since: null},
	});
	const reduce = overviewReducer(proxyFeedKind, 60_000);
	let state: OverviewState<FeedState> = initialOverviewState(10);
	state = reduce(state, {type: 'nodes', nodes: [info('never-read'), info('read-once')], at});
	// read-once: one good scrape first; then both get the same 403 at the same moment.
	state = reduce(state, {type: 'feed', node: 'read-once', action: {type: 'scrape', scrape: {at, sample, latencyMs: 5}}});
	for (const node of ['never-read', 'read-once'])
		state = reduce(state, {type: 'feed', node, action: {type: 'failure', failure: forbidden, at: at + 1000}});
	const rowsAt = (now: number) =>
		byName(
			rowsOf(
				[...state.nodes.values()].map((entry) => nodeView(proxyFeedKind, entry, now)),
				now,
			),
		);

	test('both rows: state error, "403 nodes/proxy"; the one with old figures shows them dimmed (stale)', () => {
		const rows = rowsAt(at + 2000);
		for (const name of ['never-read', 'read-once'])
			assert.deepEqual([rows.get(name)!.state, rows.get(name)!.word, rows.get(name)!.reason], ['error', 'error', '403 nodes/proxy'], name);
		assert.equal(rows.get('never-read')!.stale, false);
		assert.equal(rows.get('read-once')!.stale, true);
		// The feeds count the failure alike too.
		for (const name of ['never-read', 'read-once']) {
			const {status} = state.nodes.get(name)!.feed;
			assert.deepEqual([status.consecutiveFailures, status.failingSince], [1, at + 1000], name);
		}
	});

	test('the counts line: 2 errors (plural), no warning, no unhealthy', () => {
		const rows = [...rowsAt(at + 2000).values()];
		const lines = overviewTableLines({
			rows,
			selected: null,
			sourceLabel: 'all nodes via test',
			cadence: 'each node every 1s',
			listFailure: null,
			now: at + 2000,
			width: 80,
			height: 12,
		}).map(lineText);
		assert.equal(lines[2], '✗ 0 unhealthy · ? 2 errors · ! 0 warn · ✓ 0 ok');
	});

	test('still an error, not "unhealthy", when the age from the old figures passes the threshold', () => {
		// The last relist the good scrape saw was at `at` - 1 s; 400 s later that age is past 3 minutes, but nobody
		// knows the kubelet's age now.
		const rows = rowsAt(at + 400_000);
		assert.deepEqual([rows.get('read-once')!.state, rows.get('read-once')!.reason], ['error', '403 nodes/proxy']);
	});
});

/** A row with only the fields a sort reads set. */
const row = overviewRowOf;

describe('sorting by any column', () => {
	const rows = [
		row('bravo', {
			p99: {seconds: 0.5, atLeast: false},
			kubeletVersion: 'v1.29.1',
			ready: 'False',
			state: 'warn',
			word: 'not ready',
			lastSeenAgeSeconds: 3,
		}),
		row('alpha', {
			p99: null,
			meanSeconds: null,
			ratePerSecond: null,
			discardEvents: null,
			lastSeenAgeSeconds: null,
			kubeletVersion: null,
			ready: null,
			state: 'unknown',
			word: 'waiting',
		}),
		row('delta', {
			p99: {seconds: 0.01, atLeast: false},
			kubeletVersion: 'v1.9.0',
			meanSeconds: 0.005,
			ratePerSecond: 0.9,
			discardEvents: 3,
			lastSeenAgeSeconds: 200,
			state: 'unhealthy',
			word: 'unhealthy',
		}),
		row('charlie', {
			p99: {seconds: 10, atLeast: true},
			kubeletVersion: 'v1.28.4',
			meanSeconds: 2,
			ratePerSecond: 0.3,
			discardEvents: 1,
			ready: 'Unknown',
			state: 'slow',
			word: 'slow',
		}),
		row('echo', {gone: true, p99: {seconds: 20, atLeast: false}, state: 'unknown', word: 'gone'}),
	];
	const names = (column: SortColumn, reversed = false) => sortRows(rows, {column, reversed}).map((each) => each.name);

	test('s steps through every column in table order and back to status', () => {
		let order = {column: 'status' as SortColumn, reversed: true};
		const seen: string[] = [];
		for (let i = 0; i < sortColumns.length; i++) {
			order = nextSort(order);
			seen.push(order.column);
			assert.equal(order.reversed, false);
		}

		assert.deepEqual(seen, ['node', 'ready', 'kubelet', 'last-seen', 'read', 'notready-in', 'mean', 'p99', 'rate', 'discards', 'status']);
	});

	test('each column in its usual order and reversed: absent values and gone nodes stay last', () => {
		assert.deepEqual(names('status'), ['delta', 'alpha', 'bravo', 'charlie', 'echo']);
		assert.deepEqual(names('status', true), ['charlie', 'bravo', 'alpha', 'delta', 'echo']);
		assert.deepEqual(names('node'), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
		assert.deepEqual(names('node', true), ['delta', 'charlie', 'bravo', 'alpha', 'echo']);
		assert.deepEqual(names('ready'), ['bravo', 'charlie', 'delta', 'alpha', 'echo']);
		assert.deepEqual(names('ready', true), ['delta', 'charlie', 'bravo', 'alpha', 'echo']);
		// Versions by number: v1.9.0 before v1.28.4 before v1.29.1.
		assert.deepEqual(names('kubelet'), ['delta', 'charlie', 'bravo', 'alpha', 'echo']);
		assert.deepEqual(names('kubelet', true), ['bravo', 'charlie', 'delta', 'alpha', 'echo']);
		assert.deepEqual(names('last-seen'), ['delta', 'bravo', 'charlie', 'alpha', 'echo']);
		assert.deepEqual(names('mean', true), ['delta', 'bravo', 'charlie', 'alpha', 'echo']);
		assert.deepEqual(names('p99'), ['charlie', 'bravo', 'delta', 'alpha', 'echo']);
		assert.deepEqual(names('p99', true), ['delta', 'bravo', 'charlie', 'alpha', 'echo']);
		assert.deepEqual(names('rate'), ['bravo', 'delta', 'charlie', 'alpha', 'echo']);
		assert.deepEqual(names('discards'), ['delta', 'charlie', 'bravo', 'alpha', 'echo']);
	});

	test('the order in words', () => {
		assert.equal(sortWords({column: 'status', reversed: false}), 'status, worst first');
		assert.equal(sortWords({column: 'p99', reversed: false}), 'p99, largest first');
		assert.equal(sortWords({column: 'node', reversed: true}), 'node, Z → A');
	});
});

describe('the name filter', () => {
	test('a case-insensitive part of the name', () => {
		const rows = ['worker-1', 'Worker-2', 'control-plane'].map((name) => row(name));
		assert.deepEqual(
			filterRows(rows, 'WORK').map((each) => each.name),
			['worker-1', 'Worker-2'],
		);
		assert.deepEqual(
			filterRows(rows, 'plane').map((each) => each.name),
			['control-plane'],
		);
		assert.deepEqual(filterRows(rows, '').length, 3);
		assert.deepEqual(filterRows(rows, 'x'), []);
	});
});

describe('from Prometheus, the read is when Prometheus scraped the gauge, and stale is judged on its scrape interval', () => {
	/** Answers at `at` + each offset (ms) of a node whose gauge Prometheus scraped at `scrapedAt` (ms), 1 s after a relist. */
	function scrapedViews(scrapes: ReadonlyArray<{queryAt: number; scrapedAt: number}>, now: number): NodeView {
		let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
		state = prometheusReduce(state, {type: 'names', names: ['n'], at});
		for (const {queryAt, scrapedAt} of scrapes) {
			const figures: PrometheusFigures = {
				...answer('n', 10),
				at: queryAt,
				lastSeenAgeSeconds: (queryAt - scrapedAt) / 1000 + 1,
				lastSeenScrapedAt: scrapedAt / 1000,
			};
			state = prometheusReduce(state, {type: 'feed', node: 'n', action: {type: 'figures', figures, latencyMs: 5}});
		}

		return nodeView(prometheusFeedKind, state.nodes.get('n')!, now);
	}

	const rowOf = (view: NodeView, now: number) => rowsOf([view], now, 1000)[0]!;

	test('scraped 20 s before the query, shown 2 s after it: last seen 1s at the scrape, read 22s ago, ok', () => {
		const view = scrapedViews([{queryAt: at, scrapedAt: at - 20_000}], at + 2000);
		assert.equal(view.readAt, at - 20_000);
		const row = rowOf(view, at + 2000);
		assert.deepEqual([row.state, row.lastSeenAgeSeconds, row.readAgeSeconds], ['ok', 1, 22]);
	});

	test('a target Prometheus stopped scraping 200 s ago shows that age and is stale (2 × 1m assumed + 5 s = 125 s)', () => {
		const row = rowOf(scrapedViews([{queryAt: at, scrapedAt: at - 200_000}], at), at);
		assert.deepEqual([row.state, row.word, row.band, row.readAgeSeconds], ['unknown', 'stale', 'unknown', 200]);
		assert.equal(rowOf(scrapedViews([{queryAt: at, scrapedAt: at - 124_000}], at), at).state, 'ok');
	});

	test('once two scrapes 15 s apart were seen, a read older than 2 × 15 s + 5 s = 35 s is stale', () => {
		const scrapes = [
			{queryAt: at, scrapedAt: at - 10_000},
			{queryAt: at + 1000, scrapedAt: at - 10_000},
			{queryAt: at + 6000, scrapedAt: at + 5000},
		];
		const view = (now: number) => scrapedViews(scrapes, now);
		assert.equal(view(at + 6000).readEveryMs, 15_000);
		assert.equal(rowOf(view(at + 39_000), at + 39_000).state, 'ok');
		const late = rowOf(view(at + 41_000), at + 41_000);
		assert.deepEqual([late.word, late.readAgeSeconds], ['stale', 36]);
	});

	test("without a timestamp answer the read is the query's, as before", () => {
		const view = prometheusViews({n: 10})[0]!;
		assert.equal(view.readAt, at);
		assert.equal(rowOf(view, at + 3000).readAgeSeconds, 3);
	});
});
