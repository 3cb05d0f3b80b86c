// Node names cut to a column's width without losing what tells them apart. Managed clusters name nodes alike
// (gke-prod-default-pool-3f6a0b2c-x7kq, aks-nodepool1-12345678-vmss000001, ip-10-0-1-23.ec2.internal): a cut at the
// end leaves every row the same. The cut goes in the middle, moved into the part every name shares when it can.

/** How many leading and trailing characters every name of the fleet shares (none for fewer than two names). */
export type SharedParts = {prefix: number; suffix: number};

export const noSharedParts: SharedParts = {prefix: 0, suffix: 0};

/**
 * The shared prefix and suffix of `names`, in UTF-16 units (node names are ASCII: DNS names); the two never overlap
 * in the shortest name. One pass: a fleet has thousands of names.
 */
export function sharedParts(names: readonly string[]): SharedParts {
	if (names.length < 2) return noSharedParts;
	const first = names[0]!; // non-empty
	let prefix = first;
	let suffix = first;
	let shortest = first.length;
	for (const name of names) {
		shortest = Math.min(shortest, name.length);
		// Most names share all of what is shared so far: one native comparison each, the loop only where one does not.
		if (!name.startsWith(prefix)) {
			let index = 0;
			while (index < prefix.length && name.charCodeAt(index) === prefix.charCodeAt(index)) index++;
			prefix = prefix.slice(0, index);
		}

		if (!name.endsWith(suffix)) {
			let index = 0;
			while (index < suffix.length && name.charCodeAt(name.length - 1 - index) === suffix.charCodeAt(suffix.length - 1 - index)) index++;
			suffix = suffix.slice(suffix.length - index);
		}
	}

	return {prefix: prefix.length, suffix: Math.max(0, Math.min(suffix.length, shortest - prefix.length))};
}

/** A shared part shorter than this is not worth a "…" of its own. */
const minSharedDropped = 4;

/**
 * `name` in at most `width` characters: whole when it fits, else with "…" in place of a run of characters. The run
 * is the middle one (one more character kept at the end, where cloud names differ) when that lies within the
 * fleet's shared prefix or suffix; else the run nearest the middle that does; else, when the cut is longer than what
 * the names share, the shared part whole and the middle of the rest (two "…"); else the middle one, both ends kept.
 */
export function shortName(name: string, width: number, shared: SharedParts = noSharedParts): string {
	const chars = [...name];
	if (chars.length <= width) return name;
	if (width <= 1) return '…'.slice(0, Math.max(0, width));
	const kept = width - 1;
	const cut = chars.length - kept;
	const middle = Math.floor(kept / 2);
	// The shared parts are counted in UTF-16 units: a name that is not all single units is cut in the middle.
	const units = chars.length === name.length;
	const prefix = units ? Math.min(shared.prefix, chars.length) : 0;
	const suffix = units ? Math.min(shared.suffix, chars.length - prefix) : 0;
	// Where the cut may start so that it stays inside the shared prefix, or inside the shared suffix.
	const ranges = [
		{from: 0, to: prefix - cut},
		{from: chars.length - suffix, to: chars.length - cut},
	].filter((range) => range.to >= range.from);
	// A cut longer than what every name shares: that part goes whole and what tells the name apart is cut in its middle,
	// rather than one middle cut that leaves every row alike at the front ("gke-prod-…"); when most of that part then
	// shows (a 253-character name keeps its ends instead).
	const distinct = prefix >= suffix ? chars.slice(prefix) : chars.slice(0, chars.length - suffix);
	if (
		ranges.length === 0 &&
		width > minSharedDropped &&
		chars.length - distinct.length >= minSharedDropped &&
		distinct.length <= 2 * (width - 1)
	) {
		const rest = shortName(distinct.join(''), width - 1);
		return prefix >= suffix ? `…${rest}` : `${rest}…`;
	}

	const starts = ranges.map((range) => Math.min(range.to, Math.max(range.from, middle)));
	const start =
		starts.length === 0 ? middle : starts.reduce((best, each) => (Math.abs(each - middle) < Math.abs(best - middle) ? each : best));
	return `${chars.slice(0, start).join('')}…${chars.slice(start + cut).join('')}`;
}
