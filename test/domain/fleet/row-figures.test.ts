// The overview's rows are built from RowFigures (readView: what a row reads, no whole Figures per node and refresh).
// For a Prometheus node they must be the rows the whole Figures at the same read give, in every band and state:
// one definition per figure, two ways to reach it.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {prometheusFeedKind, type PrometheusFeed, type PrometheusFigures} from '../../../source/domain/fleet/prometheus-feed.js';
import {
	initialOverviewState,
	nodeView,
	overviewReducer,
	readView,
	type OverviewState,
} from '../../../source/domain/fleet/overview-state.js';
import {overviewRow} from '../../../source/screen/overview-rows.js';
import type {NodeInfo} from '../../../source/domain/types.js';

const at = 1_700_000_000_000;

function answer(node: string, changes: Partial<PrometheusFigures>): PrometheusFigures {
	return {
		node,
		at,
		windowSeconds: 60,
		kubeletVersion: 'v1.28.4',
		lastSeenAgeSeconds: 0.8,
		lastSeenScrapedAt: at / 1000 - 4,
		meanSeconds: 0.012,
		p50: 0.01,
		p90: 0.02,
		p99: 0.024,
		ratePerSecond: 0.95,
		intervalMeanSeconds: 1.05,
		discardEvents: 0,
		lifetimeCount: 1000,
		lifetimeSum: 12,
		...changes,
	};
}

const cases: Record<string, Partial<PrometheusFigures>> = {
	healthy: {},
	warn: {lastSeenAgeSeconds: 30},
	critical: {lastSeenAgeSeconds: 150},
	unhealthy: {lastSeenAgeSeconds: 200},
	'never succeeded': {lastSeenAgeSeconds: at / 1000},
	'no gauge': {lastSeenAgeSeconds: null},
	'no window': {ratePerSecond: null, meanSeconds: null, p99: null},
	'p99 in +Inf': {p99: 10},
	'old kubelet': {kubeletVersion: 'v1.21.3'},
	'no version': {kubeletVersion: null},
};

const reduce = overviewReducer(prometheusFeedKind);
const notReady: NodeInfo = {
	name: 'from-node',
	kubeletVersion: 'v1.30.2',
	ready: {status: 'False', reason: 'KubeletNotReady', message: 'x', since: null},
};

function fleet(): OverviewState<PrometheusFeed> {
	let state: OverviewState<PrometheusFeed> = initialOverviewState(60);
	const names = [...Object.keys(cases), 'from-node', 'failing'];
	state = reduce(state, {type: 'names', names, at});
	for (const [name, changes] of Object.entries(cases)) {
		state = reduce(state, {type: 'feed', node: name, action: {type: 'figures', figures: answer(name, changes), latencyMs: 5}});
	}

	state = reduce(state, {
		type: 'feed',
		node: 'from-node',
		action: {type: 'figures', figures: answer('from-node', {lastSeenAgeSeconds: 30}), latencyMs: 5},
	});
	state = reduce(state, {type: 'node', node: notReady, at});
	state = reduce(state, {type: 'feed', node: 'failing', action: {type: 'figures', figures: answer('failing', {}), latencyMs: 5}});
	state = reduce(state, {
		type: 'feed',
		node: 'failing',
		action: {type: 'failure', failure: {kind: 'timeout', summary: 'no answer within 5s', details: []}, at: at + 3000},
	});
	return state;
}

test('rows from RowFigures are the rows of the whole Figures at the same read, now and 40 s later', () => {
	const state = fleet();
	for (const entry of state.nodes.values()) {
		const lean = readView(prometheusFeedKind, entry);
		const whole = nodeView(prometheusFeedKind, entry, prometheusFeedKind.status(entry.feed).lastGoodAt!);
		for (const now of [at, at + 2000, at + 40_000]) {
			assert.deepEqual(
				overviewRow(lean, {now, cycleMs: 1000}),
				overviewRow(whole, {now, cycleMs: 1000}),
				`${entry.name} at +${now - at} ms`,
			);
		}

		// What a row reads is the same value in both.
		const {figures} = lean;
		assert.ok(figures && whole.figures, entry.name);
		assert.deepEqual(
			[figures.now, figures.kubeletVersion, figures.constants, figures.ready, figures.window, figures.lastSeen],
			[
				whole.figures.now,
				whole.figures.kubeletVersion,
				whole.figures.constants,
				whole.figures.ready,
				whole.figures.window,
				whole.figures.lastSeen,
			],
			entry.name,
		);
		// And it is only that: no verdict, no lifetime, no notes derived for every node on every refresh.
		assert.equal('verdict' in figures, false);
	}
});

test('the cases reach the bands they are named for (so the comparison covers them)', () => {
	const state = fleet();
	const words = Object.fromEntries(
		[...state.nodes.values()].map((entry) => [entry.name, overviewRow(readView(prometheusFeedKind, entry), {now: at, cycleMs: 1000}).word]),
	);
	assert.deepEqual(words, {
		healthy: 'ok',
		warn: 'lagging',
		critical: 'critical',
		unhealthy: 'unhealthy',
		'never succeeded': 'unhealthy',
		'no gauge': 'unknown',
		'no window': 'ok',
		'p99 in +Inf': 'ok',
		'old kubelet': 'ok',
		'no version': 'ok',
		'from-node': 'not ready',
		failing: 'error',
	});
});
