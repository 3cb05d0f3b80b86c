import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {feedReducer, figuresAt, initialFeedState, type FeedAction, type FeedState} from '../../../source/domain/feed.js';
import {
	followReady,
	followVerdict,
	incidentAt,
	noIncident,
	type IncidentTrack,
	type Judgement,
} from '../../../source/domain/incident/incident.js';
import type {Failure, NodeInfo} from '../../../source/domain/types.js';
import {readDump, scrapeOf, setSamples} from '../dump.js';

const s = 1000;

/** A verdict judged on the gauge at `at` seconds with the age the rule saw. */
function judged(atSeconds: number, ageSeconds: number): Judgement {
	return {healthy: Math.floor(ageSeconds) <= 180, at: atSeconds * s, ageSeconds, thresholdSeconds: 180, fromGauge: true};
}

function follow(...judgements: Judgement[]): IncidentTrack {
	return judgements.reduce(followVerdict, noIncident);
}

describe('unhealthy spans, by hand', () => {
	// The last relist succeeded at t = 20 s: the rule trips at 20 + 180 = 200 s.
	const unhealthyAt300 = follow(judged(100, 80), judged(201, 181), judged(300, 280));

	test('unhealthy from the gauge + threshold (t = 200 s), not from the scrape that saw it (201 s)', () => {
		const incident = incidentAt(unhealthyAt300, 300 * s, false);
		assert.equal(incident.unhealthySince, 200 * s);
		assert.equal(incident.unhealthyForSeconds, 100); // 300 − 200
		assert.equal(incident.sinceExact, true);
		assert.equal(incident.recovered, null);
		assert.equal(incident.transitions, 1);
		assert.equal(incident.flaps, 1);
	});

	test('recovered at the scrape at t = 443 s: after 4m3s (443 − 200 = 243 s), 40 s ago at 483 s', () => {
		const recovered = followVerdict(unhealthyAt300, judged(443, 1));
		const incident = incidentAt(recovered, 483 * s, false);
		assert.equal(incident.unhealthySince, null);
		assert.equal(incident.unhealthyForSeconds, null);
		assert.deepEqual(incident.recovered, {at: 443 * s, agoSeconds: 40, afterSeconds: 243, exact: true});
		assert.equal(incident.transitions, 2);
		assert.equal(incident.flaps, 1);
	});

	test('three flaps: six transitions, the last span is the one shown', () => {
		const track = follow(
			judged(0, 1),
			judged(190, 185), // from 185 s
			judged(200, 1),
			judged(400, 190), // from 390 s
			judged(410, 1),
			judged(700, 200), // from 680 s
			judged(705, 2),
		);
		const incident = incidentAt(track, 715 * s, false);
		assert.equal(incident.flaps, 3);
		assert.equal(incident.transitions, 6);
		assert.deepEqual(incident.recovered, {at: 705 * s, agoSeconds: 10, afterSeconds: 25, exact: true});
	});

	test('unhealthy at the first judged scrape: a span, but no transition seen', () => {
		const incident = incidentAt(follow(judged(50, 400)), 50 * s, false);
		// Began before the session: 50 − 400 + 180 = −170 s.
		assert.equal(incident.unhealthySince, -170 * s);
		assert.equal(incident.unhealthyForSeconds, 220);
		assert.equal(incident.transitions, 0);
		assert.equal(incident.flaps, 0);
	});

	test('no age (no successful relist yet): from the scrape that saw it, a lower bound', () => {
		const track = follow({healthy: false, at: 10 * s, ageSeconds: null, thresholdSeconds: 180, fromGauge: false});
		const incident = incidentAt(track, 25 * s, false);
		assert.equal(incident.unhealthySince, 10 * s);
		assert.equal(incident.unhealthyForSeconds, 15);
		assert.equal(incident.sinceExact, false);
	});

	test('a verdict that cannot be judged changes nothing; while stale the span is not known to go on', () => {
		const track = followVerdict(unhealthyAt300, {healthy: null, at: 320 * s, ageSeconds: null, thresholdSeconds: 180, fromGauge: false});
		assert.equal(track, unhealthyAt300);
		const incident = incidentAt(track, 320 * s, true);
		assert.equal(incident.unhealthyForSeconds, null);
		assert.equal(incident.transitions, 1);
	});
});

describe('Ready flips', () => {
	const node = (status: 'True' | 'False' | 'Unknown' | null): NodeInfo => ({
		name: 'n',
		kubeletVersion: 'v1.28.0',
		ready: status === null ? null : {status, reason: null, message: null, since: null},
	});

	test('each change of the Ready status between reads is one flip; the first read and a missing condition are none', () => {
		const track = [node('True'), node('True'), node('False'), node(null), node('False'), node('True'), node('Unknown')].reduce(
			followReady,
			noIncident,
		);
		// True → False → True → Unknown
		assert.equal(track.readyFlips, 3);
		assert.equal(track.ready, 'Unknown');
	});
});

describe('the feed follows each scrape', () => {
	const gauge = 1_648_119_277; // kubelet_pleg_last_seen_seconds of the v1.21.2 dump
	const g = gauge * 1000;
	const body = readDump('1.21.2');
	const at = (seconds: number, lastSeen = gauge): FeedAction => ({
		type: 'scrape',
		scrape: scrapeOf(setSamples(body, {kubelet_pleg_last_seen_seconds: String(lastSeen)}), g + seconds * s),
	});
	const run = (actions: FeedAction[]): FeedState => actions.reduce(feedReducer, initialFeedState({node: 'n', windowSeconds: 60}));
	const failure: Failure = {kind: 'network', summary: 'connect ECONNREFUSED 10.0.0.1:6443', details: []};

	test('healthy at 20 s, unhealthy at 181.4 s: since gauge + 180 s; recovered at 423 s after 4m3s', () => {
		const stalled = run([at(20), at(181.4)]);
		assert.equal(stalled.incident.flaps, 1);
		const figures = figuresAt(stalled, g + 252_000)!;
		assert.equal(figures.incident?.unhealthySince, g + 180_000);
		assert.equal(figures.incident?.unhealthyForSeconds, 72); // 252 − 180: "unhealthy for 1m12s"
		// The relist that ended it started at 422 s; the scrape at 423 s saw it.
		const recovered = run([at(20), at(181.4), at(300), at(423, gauge + 422)]);
		const after = figuresAt(recovered, g + 463_000)!.incident!;
		assert.deepEqual(after.recovered, {at: g + 423_000, agoSeconds: 40, afterSeconds: 243, exact: true});
		assert.equal(after.transitions, 2);
		assert.equal(after.flaps, 1);
	});

	test('between scrapes the age passes the threshold before the next scrape sees it: counted at once', () => {
		const state = run([at(20), at(179)]);
		assert.equal(state.incident.transitions, 0);
		const figures = figuresAt(state, g + 181_500)!;
		assert.equal(figures.verdict.healthy, false);
		assert.equal(figures.incident?.unhealthyForSeconds, 1.5); // 181.5 − 180
		assert.equal(figures.incident?.transitions, 1);
	});

	test('stale: unhealthy for is not known (null), the counts stay', () => {
		const state = run([at(20), at(200), {type: 'failure', failure, at: g + 201_000}]);
		const incident = figuresAt(state, g + 210_000)!.incident!;
		assert.equal(incident.unhealthyForSeconds, null);
		assert.equal(incident.flaps, 1);
	});

	test('Ready flips through the Node object reads', () => {
		const ready = (status: 'True' | 'False'): FeedAction => ({
			type: 'node',
			node: {name: 'n', kubeletVersion: 'v1.21.2', ready: {status, reason: null, message: null, since: null}},
		});
		const state = run([ready('True'), at(20), ready('False'), ready('True')]);
		assert.equal(figuresAt(state, g + 21_000)!.incident?.readyFlips, 2);
	});
});
