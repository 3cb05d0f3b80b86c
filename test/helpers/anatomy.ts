// Hand-built relist anatomies for the report and view tests: a churning node whose relist is per-pod status
// inspection, numbers chosen so the frames read by eye (60 relists in 60 s, mean relist 250 ms).
import type {CriOperationFigures, RelistAnatomy} from '../../source/domain/types.js';

export function operation(overrides: Partial<CriOperationFigures> = {}): CriOperationFigures {
	return {calls: 60, ratePerSecond: 1, windowMeanSeconds: 0.02, windowP99: {seconds: 0.07, atLeast: false}, errors: 0, ...overrides};
}

export function churnAnatomy(overrides: Partial<RelistAnatomy> = {}): RelistAnatomy {
	return {
		spanSeconds: 60,
		operations: {
			listPodSandbox: operation({windowMeanSeconds: 0.024}),
			listContainers: operation({calls: 300, ratePerSecond: 5, windowMeanSeconds: 0.016}),
			// 240 + 360 = 600 status calls / 60 relists = 10 per relist.
			podSandboxStatus: operation({calls: 240, ratePerSecond: 4, windowMeanSeconds: 0.015}),
			containerStatus: operation({
				calls: 360,
				ratePerSecond: 6,
				windowMeanSeconds: 0.0155,
				windowP99: {seconds: 745.0580596923828, atLeast: true},
				errors: 3,
			}),
		},
		relists: 60,
		statusCallsPerRelist: 10,
		// (240 × 15 ms + 360 × 15.5 ms) / 60 = 153 ms per relist, 61% of 250 ms.
		statusSecondsPerRelist: 0.153,
		// (24 ms + 16 ms) / 250 ms.
		listShareOfRelist: 0.16,
		statusShareOfRelist: 0.612,
		relistSecondsPerContainer: 0.25 / 31,
		runningPods: 26,
		runningContainers: {created: 1, exited: 3, running: 31, unknown: 0},
		docker: null,
		unavailable: [],
		reading: {
			kind: 'status',
			text: 'relist ≈ per-pod status inspection: 10 status calls per relist taking 61% of the 250ms mean relist (at most: other loops call too); list calls 16%',
		},
		...overrides,
	};
}
