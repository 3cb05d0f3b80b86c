// A table row of the overview with every field set to an ordinary ok node's, for tests that sort, draw or count
// rows (not a test file).
import type {OverviewRow} from '../../source/screen/overview-rows.js';

export function overviewRowOf(name: string, fields: Partial<OverviewRow> = {}): OverviewRow {
	return {
		name,
		ready: 'True',
		kubeletVersion: 'v1.28.4',
		lastSeenAgeSeconds: 1,
		readAgeSeconds: 0,
		notReadyInSeconds: null,
		// threshold − the whole seconds of (threshold − left) is the left rounded up, for a whole threshold.
		notReadyLeftSeconds:
			fields.notReadyInSeconds === undefined || fields.notReadyInSeconds === null ? null : Math.ceil(fields.notReadyInSeconds),
		meanSeconds: 0.01,
		p99: {seconds: 0.02, atLeast: false},
		ratePerSecond: 1,
		discardEvents: 0,
		state: 'ok',
		word: 'ok',
		reason: null,
		slow: false,
		stale: false,
		gone: false,
		failure: null,
		band: 'ok',
		...fields,
	};
}
