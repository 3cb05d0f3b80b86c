// Hand-built Figures for the view tests: a healthy v1.28.0 node with a 10 s window, and
// overrides for the case under test. The numbers are chosen so the frames can be read by eye.
import {constantsFor} from '../../source/domain/health/kubelet-constants.js';
import type {DeltaFigures, FeedStatus, Figures, Incident, LastSeen, NodeInfo} from '../../source/domain/types.js';

/** 2024-01-15 14:02:22 local time (tests set TZ=UTC before importing this). */
export const testNow = Date.UTC(2024, 0, 15, 14, 2, 22);

export function windowFigures(overrides: Partial<DeltaFigures> = {}): DeltaFigures {
	return {
		spanSeconds: 10,
		// 10 relists of ~4.2 ms in 10 s: 1 s period + relist time.
		count: 10,
		meanSeconds: 0.0042,
		p50: {seconds: 0.0038, atLeast: false},
		p90: {seconds: 0.0072, atLeast: false},
		p99: {seconds: 0.0093, atLeast: false},
		ratePerSecond: 1,
		intervalMeanSeconds: 1.0043,
		discardEvents: 0,
		...overrides,
	};
}

/** Last seen `ageSeconds` ago at testNow (gauge = whole seconds, as the kubelet writes it). */
export function lastSeenAt(ageSeconds: number, overrides: Partial<LastSeen> = {}): LastSeen {
	return {
		gaugeSeconds: testNow / 1000 - ageSeconds,
		ageSeconds,
		skewSeconds: null,
		neverSucceeded: false,
		countUnchangedSeconds: null,
		...overrides,
	};
}

export type FigureOverrides = Partial<Omit<Figures, 'lastSeen'>> & {lastSeen?: LastSeen};

export function makeFigures(overrides: FigureOverrides = {}): Figures {
	return {
		now: testNow,
		node: 'demo-node',
		kubeletVersion: 'v1.28.0',
		constants: constantsFor('v1.28.0', false),
		lastSeen: lastSeenAt(1),
		discardEventsTotal: 0,
		// Kubelet up ~12 h: 42893 relists, 1629.92 s → mean 38.0 ms (the v1.14.10 fixture's totals).
		lifetime: {count: 42_893, sum: 1629.92, meanSeconds: 1629.92 / 42_893},
		window: windowFigures(),
		windowTargetSeconds: 10,
		verdict: {healthy: true, message: 'PLEG is healthy', basis: 'last-seen'},
		stale: null,
		// 180 s / 4.2 ms = 42857.1
		thresholdToMeanRatio: 180 / 0.0042,
		thresholdToPeriodRatio: 180,
		legacy: false,
		unavailable: [],
		baseline: null,
		...overrides,
	};
}

export function okStatus(overrides: Partial<FeedStatus> = {}): FeedStatus {
	return {
		failure: null,
		failingSince: null,
		lastGoodAt: testNow - 680,
		consecutiveFailures: 0,
		lastLatencyMs: 320,
		paused: false,
		...overrides,
	};
}

export function readyNode(overrides: Partial<NodeInfo> = {}): NodeInfo {
	return {
		name: 'demo-node',
		kubeletVersion: 'v1.28.0',
		ready: {
			status: 'True',
			reason: 'KubeletReady',
			message: 'kubelet is posting ready status',
			since: Date.UTC(2024, 0, 15, 2, 0, 0),
		},
		...overrides,
	};
}

/** An incident view with nothing to tell: never unhealthy, no flap, no Ready flip. */
export const quietIncident: Incident = {
	unhealthySince: null,
	unhealthyForSeconds: null,
	sinceExact: false,
	recovered: null,
	transitions: 0,
	flaps: 0,
	readyFlips: 0,
};
