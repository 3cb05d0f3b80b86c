// A node that floods Events, for the tests of the paged Events read: more than one page (500) of them.

/**
 * `count` v1 Events named in index order (the order kube-apiserver lists them), Event i last seen at `secondsOf(i)`
 * (seconds since the epoch) with reason `E<i>`, except Event `newestAt`: reason `Newest`, last seen at `newest`.
 */
export function eventFlood(
	count: number,
	newestAt: number,
	secondsOf: (index: number) => number,
	newest: number,
): Array<Record<string, unknown>> {
	return Array.from({length: count}, (_, index) => ({
		metadata: {name: `flood.${String(index).padStart(5, '0')}`},
		type: 'Normal',
		reason: index === newestAt ? 'Newest' : `E${index}`,
		message: 'm',
		count: 1,
		lastTimestamp: new Date((index === newestAt ? newest : secondsOf(index)) * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
	}));
}
