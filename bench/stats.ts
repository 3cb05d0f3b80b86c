// Small statistics for the bench.

export function median(values: number[]): number {
	if (values.length === 0) {
		return Number.NaN;
	}

	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
