// The keys of the JSON report, in order, as the README promises them: written once for the --once test and the
// JSON-lines test, so the two cannot drift apart.

/** The keys the --once JSON contract promises. */
export const contractKeys = [
	'node',
	'kubeletVersion',
	'healthy',
	'verdict',
	'band',
	'secondsToThreshold',
	'unhealthyForSeconds',
	'podsEvictedInSeconds',
	'podsOnNode',
	'podsOnNodeError',
	'transitions',
	'events',
	'eventsError',
	'lastSeenSeconds',
	'lastSeenAgeSeconds',
	'clockOffsetSeconds',
	'clockOffsetSource',
	'constants',
	'relist',
	'discardEvents',
	'discardEventsInWindow',
	'thresholdToMeanRatio',
	'historyFrom',
];

/** What pleg-top adds after them. */
export const extraKeys = ['time', 'skewSeconds', 'countUnchangedSeconds', 'unavailable', 'readyCondition', 'cri'];
